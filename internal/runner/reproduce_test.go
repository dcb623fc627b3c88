package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// reproMutant is a hand-made mutant of testdata/repro's package sum.
func reproMutant(t *testing.T, mod mutate.Module, id, anchor, old, new string) mutate.Mutant {
	m := mkMutant(t, mod, id, "example.com/repro/sum", "sum/sum.go", anchor, old, new)
	m.Helper = "package sum\n\nvar perfmut_sink int\n"
	return m
}

const reproSpin = "\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}"

// reproValues reads a reproduction file: the iteration count and sec/op of
// every sample of BenchmarkChecksum.
func reproValues(t *testing.T, file string) (iters []int, secs []float64) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(bytes.NewReader(data), file)
	for rd.Scan() {
		r, ok := rd.Result().(*benchfmt.Result)
		if !ok || !strings.HasPrefix(r.Name.String(), "Checksum") {
			continue
		}
		iters = append(iters, r.Iters)
		v, ok := r.Value("sec/op")
		if !ok {
			t.Fatalf("%s: a sample without sec/op", file)
		}
		secs = append(secs, v)
	}
	return iters, secs
}

// TestReproductionRuns reproduces a mutant that makes BenchmarkChecksum
// about a hundred times slower and one that costs it next to nothing:
// each file holds Count samples at the fixed count, the slow mutant's
// fastest sample is far above the baseline's and the other's is not (the
// fastest: a loaded machine only adds time to a sample); the module is
// unchanged and no temporary file or process is left.
func TestReproductionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "repro")
	before := treeHash(t, mod.Dir)
	ov := overlayFunc(mod)
	cases := []struct {
		m          mutate.Mutant
		minR, maxR float64 // bounds of the ratio of the fastest samples
	}{
		{reproMutant(t, mod, "checksum-spin", "func Checksum(", "for _, b := range data {", "for _, b := range data {"+reproSpin), 5, 1e9},
		{reproMutant(t, mod, "seed-spin", "func Seed(", "for _, e := range extra {", "for _, e := range extra {"+reproSpin), 0.5, 2},
	}
	for _, c := range cases {
		files, err := ov(c.m)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		p := &Reproduction{Module: mod.Dir, Packages: pkgs, Overlay: files, Level: results.Opt, Count: 5, Out: out,
			Benchmarks: []ReproBenchmark{{Package: "example.com/repro/sum", Name: "BenchmarkChecksum", N: 20}}, Timeout: time.Minute}
		if err := p.Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", c.m.ID, err)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 2 {
			t.Errorf("%s: %d files in -out, want %s and %s alone", c.m.ID, len(ents), ReproBaseFile, ReproMutFile)
		}
		if fi, err := os.Stat(filepath.Join(out, ReproBaseFile)); err != nil || fi.Mode().Perm()&0o044 != 0o044 {
			t.Errorf("%s: %s: %v, want it readable by all", c.m.ID, ReproBaseFile, err)
		}
		var fastest [2]float64
		for i, name := range []string{ReproBaseFile, ReproMutFile} {
			iters, secs := reproValues(t, filepath.Join(out, name))
			if !slices.Equal(iters, []int{20, 20, 20, 20, 20}) {
				t.Errorf("%s: %s: iteration counts %v, want five samples at 20", c.m.ID, name, iters)
			}
			fastest[i] = slices.Min(secs)
		}
		if r := fastest[1] / fastest[0]; r < c.minR || r > c.maxR {
			t.Errorf("%s: fastest samples' ratio %.3g (%g / %g), want within [%g, %g]", c.m.ID, r, fastest[1], fastest[0], c.minR, c.maxR)
		}
	}
	if treeHash(t, mod.Dir) != before {
		t.Error("the module changed")
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("temporary files left: %v", ents)
	}
	if l := leftovers(tmp); len(l) != 0 {
		t.Errorf("processes left: %v", l)
	}
}

// TestReproductionErrors: a mutant that does not compile names the file
// and line in the module, and a reproduction that cannot run says why; one
// that fails after it started sampling leaves the files of the one before
// as they were.
func TestReproductionErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	privateTmp(t)
	mod, pkgs := testModule(t, "repro")
	bench := ReproBenchmark{Package: "example.com/repro/sum", Name: "BenchmarkChecksum", N: 10}
	broken, err := overlayFunc(mod)(reproMutant(t, mod, "broken", "func Seed(", "h ^= e", "h ^= perfmut_undefined"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    Reproduction
		want string
	}{
		{"compile", Reproduction{Overlay: broken, Count: 2, Benchmarks: []ReproBenchmark{bench}},
			"building the mutant test binary of example.com/repro/sum: sum/sum.go:18:9: declared and not used: e; sum/sum.go:19:8: undefined: perfmut_undefined"},
		{"no benchmark", Reproduction{Count: 2}, "reproduce: no benchmark to run"},
		{"count", Reproduction{Count: 0, Benchmarks: []ReproBenchmark{bench}}, "reproduce: count 0: want at least 1"},
		{"iterations", Reproduction{Count: 2, Benchmarks: []ReproBenchmark{{Package: bench.Package, Name: bench.Name}}},
			"reproduce: BenchmarkChecksum: iteration count 0: want at least 1"},
		{"package", Reproduction{Count: 2, Benchmarks: []ReproBenchmark{{Package: "example.com/other", Name: "BenchmarkX", N: 1}}},
			"reproduce: BenchmarkX: package example.com/other is not in the module"},
		{"no such benchmark", Reproduction{Count: 2, Benchmarks: []ReproBenchmark{{Package: bench.Package, Name: "BenchmarkNone", N: 1}}},
			"BenchmarkNone did not run on the baseline: no such benchmark in example.com/repro/sum"},
	} {
		p := c.p
		p.Module, p.Packages, p.Level, p.Out = mod.Dir, pkgs, results.Opt, t.TempDir()
		for _, f := range []string{ReproBaseFile, ReproMutFile} {
			os.WriteFile(filepath.Join(p.Out, f), []byte("earlier\n"), 0o644)
		}
		err := p.Run(context.Background())
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		// The earlier reproduction's files are kept as they were.
		ents, _ := os.ReadDir(p.Out)
		for _, e := range ents {
			data, _ := os.ReadFile(filepath.Join(p.Out, e.Name()))
			if len(ents) != 2 || string(data) != "earlier\n" {
				t.Errorf("%s: %s holds %q (of %d files), want the earlier %s and %s alone", c.name, e.Name(), data, len(ents), ReproBaseFile, ReproMutFile)
			}
		}
	}
}
