package runner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/results"
)

// TestPrepareOutKeepsPrevious: a run without -resume into a results
// directory that holds a finished run moves that run's files into
// previous/ (replacing the generation before) and starts afresh; a -since
// naming the directory reads them there. A directory whose run left no
// result keeps its previous/. With -resume nothing moves.
func TestPrepareOutKeepsPrevious(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	mod, pkgs := testModule(t, "hot")
	const entry = `{"id":"sum-spin","level":"opt","result":{"status":"killed"},"time":"2026-11-25T17:00:00Z"}` + "\n"
	names := func(dir string) []string {
		ents, _ := os.ReadDir(dir)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	write := func(dir string, files map[string]string) {
		os.MkdirAll(dir, 0o755)
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	prepare := func(out string, resume bool, since string) *run {
		t.Helper()
		c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod)[:1], out)
		c.Resume, c.Since = resume, since
		if err := c.check(); err != nil {
			t.Fatal(err)
		}
		r := newRun(c)
		_, _, err := r.prepareOut()
		r.out.lock.Unlock()
		if err != nil {
			t.Fatalf("prepareOut: %v", err)
		}
		return r
	}

	out := filepath.Join(t.TempDir(), "out")
	write(out, map[string]string{outdir.MarkerFile: "", results.JournalFile: entry, ReportFile: "{}", settingsFile: "{}", "report.md": "gen1"})
	write(filepath.Join(out, outdir.PreviousDir), map[string]string{"report.md": "gen0"})
	r := prepare(out, false, out)
	prev := filepath.Join(out, outdir.PreviousDir)
	if got, want := names(prev), []string{outdir.MarkerFile, results.JournalFile, ReportFile, "report.md", settingsFile}; !slices.Equal(got, want) {
		t.Errorf("previous/ holds %q, want %q", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(prev, "report.md")); string(data) != "gen1" {
		t.Errorf("previous/report.md = %q, want the earlier run's (gen1)", data)
	}
	if got, want := names(out), []string{outdir.MarkerFile, outdir.PreviousDir, settingsFile}; !slices.Equal(got, want) {
		t.Errorf("the results directory holds %q, want %q (the new run's settings)", got, want)
	}
	if r.out.kept != prev || r.c.Since != prev {
		t.Errorf("kept %q, -since %q; want both %q", r.out.kept, r.c.Since, prev)
	}

	// The run then stopped before its first result: the next one keeps
	// previous/ as it is.
	prepare(out, false, "")
	if data, _ := os.ReadFile(filepath.Join(prev, "report.md")); string(data) != "gen1" {
		t.Errorf("after a run without results, previous/report.md = %q, want gen1", data)
	}

	// -resume moves nothing.
	write(out, map[string]string{results.JournalFile: entry})
	r = prepare(out, true, "")
	if got, want := names(out), []string{outdir.MarkerFile, results.JournalFile, outdir.PreviousDir, settingsFile}; !slices.Equal(got, want) || r.out.kept != "" {
		t.Errorf("-resume: the results directory holds %q (kept %q), want %q", got, r.out.kept, want)
	}
}
