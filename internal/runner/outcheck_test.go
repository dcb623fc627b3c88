package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/results"
)

// TestCheckOut: a results directory Run would refuse is refused by
// CheckOut and by Run alike, with one line, as bad input, and neither
// creates or changes anything: -resume with nothing to resume, a
// directory of the user's files (with or without -resume), -resume with
// other settings, another perfmut writing there.
func TestCheckOut(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	mod, pkgs := testModule(t, "hot")
	const entry = `{"id":"sum-spin","level":"opt","result":{"status":"killed"},"time":"2026-11-25T17:00:00Z"}` + "\n"
	for _, tc := range []struct {
		name   string
		resume bool
		files  map[string]string // in the results directory; nil: none
		locked bool
		want   string // $OUT is the results directory
	}{
		{"resume missing dir", true, nil, false,
			"-resume: nothing to resume: -out $OUT does not exist; leave out -resume to start a campaign there"},
		{"resume empty dir", true, map[string]string{}, false,
			"-resume: nothing to resume: -out $OUT holds no earlier run (no journal.jsonl); leave out -resume to start a campaign there"},
		{"the user's files", false, map[string]string{"report.md": "notes", settingsFile: "{}"}, false,
			"-out $OUT is not a perfmut results directory (it holds report.md, settings.json, and no .perfmut-results): perfmut would overwrite files there; choose a new or empty directory with -out"},
		{"resume without settings", true, map[string]string{results.JournalFile: entry, "report.md": "notes"}, false,
			"-resume: -out $OUT holds a journal but no settings.json: the settings its results were measured with are unknown, so they cannot be continued; leave out -resume to start a campaign there"},
		{"resume other settings", true, map[string]string{outdir.MarkerFile: "", results.JournalFile: entry, settingsFile: `{"module":"example.com/other"}`}, false,
			"-resume: $OUT differs from the interrupted run in the module (example.com/other vs example.com/hot); use the same flags, or another -out"},
		{"locked", false, map[string]string{}, true,
			fmt.Sprintf("-out $OUT is in use by perfmut (pid %d, since $SINCE); wait for it to finish, or choose another -out", os.Getpid())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if tc.files != nil {
				os.Mkdir(out, 0o755)
			}
			for name, data := range tc.files {
				os.WriteFile(filepath.Join(out, name), []byte(data), 0o644)
			}
			vars := map[string]string{"OUT": out}
			if tc.locked {
				l, err := outdir.Lock(out)
				if err != nil {
					t.Fatal(err)
				}
				defer l.Unlock()
				var info struct{ Since time.Time }
				data, _ := os.ReadFile(filepath.Join(out, outdir.LockFile))
				if err := json.Unmarshal(data, &info); err != nil {
					t.Fatal(err)
				}
				vars["SINCE"] = info.Since.Format("2006-01-02 15:04:05 UTC")
			}
			before := treeFiles(t, filepath.Dir(out))
			want := os.Expand(tc.want, func(k string) string { return vars[k] })
			c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod)[:1], out)
			c.Resume = tc.resume
			c.Settings.Module = "example.com/hot"
			for _, step := range []struct {
				name string
				f    func() error
			}{
				{"CheckOut", func() error { return c.CheckOut(context.Background()) }},
				{"Run", func() error { _, err := c.Run(context.Background()); return err }},
			} {
				err := step.f()
				if err == nil || err.Error() != want {
					t.Errorf("%s: %v\nwant %s", step.name, err, want)
				}
				if !errors.As(err, new(*inputerr.Error)) {
					t.Errorf("%s: %#v is not an *inputerr.Error (bad input, exit 2)", step.name, err)
				}
				if got := treeFiles(t, filepath.Dir(out)); !maps.Equal(got, before) {
					t.Errorf("%s changed the results directory: %v, was %v", step.name, got, before)
				}
			}
		})
	}
}

// TestCheckOutFree: CheckOut accepts a new directory, and -resume of an
// interrupted run with the same settings.
func TestCheckOutFree(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	mod, pkgs := testModule(t, "hot")
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod)[:1], out)
	if err := c.CheckOut(context.Background()); err != nil {
		t.Fatalf("new directory: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("CheckOut created %s", out)
	}
	cc := *c
	cc.check()
	cc.RecordSettings(context.Background())
	os.Mkdir(out, 0o755)
	if err := results.WriteJSON(filepath.Join(out, settingsFile), cc.Settings); err != nil {
		t.Fatal(err)
	}
	c.Resume = true
	if err := c.CheckOut(context.Background()); err != nil {
		t.Errorf("-resume with the same settings: %v", err)
	}
}

// treeFiles maps each file and directory under dir to its content (the
// writability probe of CheckOutDir changes a directory's time, nothing
// else).
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			files[path] = "dir"
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
