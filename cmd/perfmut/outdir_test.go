package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/results"
)

// TestRunOutRefused: perfmut run refuses a results directory that is in
// use by another perfmut, that holds results without -resume, or with
// -resume holds nothing to resume or a run with other settings: bad input
// (exit 2), one line, and the directory is left as it was.
func TestRunOutRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	hot := runnerModule(t, "hot")
	const entry = `{"id":"x","level":"opt","result":{"status":"killed"},"time":"2026-11-25T17:00:00Z"}` + "\n"
	for _, tc := range []struct {
		name   string
		args   []string
		files  map[string]string // in the results directory; nil: none
		locked bool
		want   string // $OUT is the results directory
	}{
		{"in use", nil, map[string]string{}, true,
			"perfmut run: -out $OUT is in use by perfmut (pid $PID, since $SINCE); wait for it to finish, or choose another -out"},
		{"the user's files", nil, map[string]string{"notes.md": "x"}, false,
			"perfmut run: -out $OUT is not a perfmut results directory (it holds notes.md, and no .perfmut-results): perfmut would overwrite files there; choose a new or empty directory with -out"},
		{"resume missing dir", []string{"-resume"}, nil, false,
			"perfmut run: -resume: nothing to resume: -out $OUT does not exist; leave out -resume to start a campaign there"},
		{"resume other settings", []string{"-resume"}, map[string]string{results.JournalFile: entry, "settings.json": `{"module":"example.com/other"}`}, false,
			"perfmut run: -resume: $OUT differs from the interrupted run in the module (example.com/other vs example.com/hot); use the same flags, or another -out"},
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
				var info struct {
					PID   int       `json:"pid"`
					Since time.Time `json:"since"`
				}
				data, _ := os.ReadFile(filepath.Join(out, outdir.LockFile))
				if err := json.Unmarshal(data, &info); err != nil {
					t.Fatal(err)
				}
				vars["PID"], vars["SINCE"] = fmt.Sprint(info.PID), info.Since.Format("2006-01-02 15:04:05 UTC")
			}
			var before []string
			if tc.files != nil {
				before = dirNames(t, out)
			}
			want := os.Expand(tc.want, func(k string) string { return vars[k] })
			var stdout, stderr bytes.Buffer
			args := append([]string{"run", "-C", hot, "-opt", "on", "-out", out}, tc.args...)
			code := run(context.Background(), &stdout, &stderr, args)
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if code != exitUsage || len(lines) != 1 || lines[0] != want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and the last line\n%s", code, stderr.String(), want)
			}
			if tc.files == nil {
				if _, err := os.Stat(out); err == nil {
					t.Errorf("%s was created", out)
				}
			} else if got := dirNames(t, out); strings.Join(got, " ") != strings.Join(before, " ") {
				t.Errorf("the results directory holds %v, was %v", got, before)
			}
		})
	}
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestCalibrateResumeNothing: calibrate -resume into a directory that does
// not exist says so in one line before loading anything, exit 2.
func TestCalibrateResumeNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nothere")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"calibrate", "-resume", "-out", out})
	want := "perfmut calibrate: -resume: nothing to resume: -out " + out + " does not exist; leave out -resume to start a campaign there\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr.String(), want)
	}
}
