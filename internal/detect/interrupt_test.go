package detect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// TestComputeInterrupted: cancelling the map while the go command builds
// the test binaries (Ctrl-C during perfmut sensitivity or a campaign's map
// step) returns the context's error, not the go command's goroutine dump,
// and leaves nothing in TMPDIR: the go command's go-build* work
// directories are inside the map's own temporary directory.
func TestComputeInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, err := filepath.Abs(filepath.Join("testdata", "slowstart"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Pkgs: []*mutate.Package{{ImportPath: "example.com/slowstart", Name: "slowstart", Dir: dir, Files: []string{filepath.Join(dir, "work.go")}}},
		SampleTime: 20 * time.Millisecond, NoiseSamples: 3, Budget: 30, Alpha: 0.05, Test: score.KS, Timeout: time.Minute}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once a go command has its work directory.
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			a, _ := filepath.Glob(filepath.Join(tmp, "go-build*"))
			b, _ := filepath.Glob(filepath.Join(tmp, "*", "*", "go-build*"))
			if len(a)+len(b) > 0 {
				break
			}
		}
		cancel()
	}()
	_, err = Compute(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Compute: %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left in TMPDIR: %q", names)
	}
}
