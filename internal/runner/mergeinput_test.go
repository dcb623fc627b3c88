package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
)

// TestMergeInput: merge refuses an -out that holds anything (it would lose
// those results), names a missing directory as such, rejects a report with
// an unknown correction instead of panicking, and leaves no -out behind
// when it fails.
func TestMergeInput(t *testing.T) {
	base := t.TempDir()
	runEmpty := func(name, module string) string {
		mod, pkgs := testModule(t, module)
		out := filepath.Join(base, name)
		if _, err := newTestCampaign(t, mod, pkgs, nil, out).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out
	}
	hot, other := runEmpty("hot", "hot"), runEmpty("other", "nobench")
	existing := runEmpty("existing", "hot")
	before, _ := os.ReadFile(filepath.Join(existing, ReportFile))

	badCorr := filepath.Join(base, "badcorr")
	os.MkdirAll(badCorr, 0o755)
	var rep map[string]any
	data, _ := os.ReadFile(filepath.Join(hot, ReportFile))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	rep["settings"].(map[string]any)["correction"] = "sidak"
	data, _ = json.Marshal(rep)
	os.WriteFile(filepath.Join(badCorr, ReportFile), data, 0o644)

	for _, tc := range []struct {
		name string
		out  string
		dirs []string
		want string
	}{
		{"existing out", existing, []string{hot}, "already exists and is not empty"},
		{"missing dir", filepath.Join(base, "m1"), []string{filepath.Join(base, "nope")}, "no such directory"},
		{"bad correction", filepath.Join(base, "m2"), []string{badCorr}, `settings.correction: unknown correction "sidak"`},
		{"other module", filepath.Join(base, "m3"), []string{hot, other}, "is a run of module example.com/nobench"},
		{"not results", filepath.Join(base, "m4"), []string{t.TempDir()}, "is not the results directory of a perfmut run (no report.json, no journal.jsonl)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.out, tc.dirs)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Merge: %v, want an input error containing %q", err, tc.want)
			}
			if tc.out != existing {
				if _, err := os.Stat(tc.out); err == nil {
					t.Errorf("a failed merge left %s behind", tc.out)
				}
			}
		})
	}
	if after, _ := os.ReadFile(filepath.Join(existing, ReportFile)); string(after) != string(before) {
		t.Errorf("merge changed the existing results directory")
	}
	leftover, _ := filepath.Glob(filepath.Join(base, ".perfmut-merge-*"))
	if len(leftover) > 0 {
		t.Errorf("temporary merge directories left: %v", leftover)
	}
}
