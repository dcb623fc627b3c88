package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
)

// TestMergeUnfinished: a run interrupted in its map step keeps its report
// (every mutant has its result) marked unfinished; merge refuses it,
// saying how to finish it, instead of taking it as finished.
func TestMergeUnfinished(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	mod, pkgs := testModule(t, "hot")
	dir := filepath.Join(t.TempDir(), "s1")
	if _, err := newTestCampaign(t, mod, pkgs, nil, dir).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ReportFile)
	var rep map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	rep["unfinished"] = "the function sensitivity map"
	data, _ = json.Marshal(rep)
	os.WriteFile(path, data, 0o644)
	_, err := Merge(filepath.Join(t.TempDir(), "all"), []string{dir})
	want := dir + ": its run was interrupted before the function sensitivity map; finish it with perfmut run -resume -out " + dir + ", then merge"
	if err == nil || err.Error() != want || !errors.As(err, new(*inputerr.Error)) {
		t.Errorf("Merge: %v\nwant the input error %s", err, want)
	}
}
