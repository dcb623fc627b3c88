package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestReproduceInterrupted: a reproduction removes the temporary sample
// files a killed one left in its directory (nothing else writes there: the
// results directory is locked), keeps the files of the one before, and an
// interrupted one says so in words, not "context canceled".
func TestReproduceInterrupted(t *testing.T) {
	mod := t.TempDir()
	out := filepath.Join(t.TempDir(), "reproduce", "0123456789ab", "opt")
	os.MkdirAll(out, 0o755)
	for _, f := range []string{".base.txt.tmp-123", ".mut.txt.tmp-456", ReproBaseFile, ReproMutFile} {
		os.WriteFile(filepath.Join(out, f), []byte("x"), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &Reproduction{Module: mod, Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: mod}}, Level: "opt",
		Benchmarks: []ReproBenchmark{{Package: "example.com/p", Name: "BenchmarkA", N: 10}}, Count: 1, Out: out}
	err := p.Run(ctx)
	want := "interrupted: no new samples (the files of the reproduction before, if any, are kept)"
	if err == nil || err.Error() != want {
		t.Errorf("Run: %v, want %q", err, want)
	}
	ents, _ := os.ReadDir(out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{ReproBaseFile, ReproMutFile}; !slices.Equal(names, want) {
		t.Errorf("left %q, want %q", names, want)
	}
}
