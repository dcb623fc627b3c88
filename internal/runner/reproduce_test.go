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
	m.Helper = "package sum\n\nvar perfmut_sink int\n\nvar perfmut_bytes []byte\n"
	return m
}

const reproSpin = "\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}"

// reproSample is one sample of BenchmarkChecksum in a reproduction file.
type reproSample struct {
	iters              int
	sec, bytes, allocs float64
}

// reproValues reads a reproduction file: every sample of
// BenchmarkChecksum.
func reproValues(t *testing.T, file string) []reproSample {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []reproSample
	rd := benchfmt.NewReader(bytes.NewReader(data), file)
	for rd.Scan() {
		r, ok := rd.Result().(*benchfmt.Result)
		if !ok || !strings.HasPrefix(r.Name.String(), "Checksum") {
			continue
		}
		s := reproSample{iters: r.Iters}
		var okS, okB, okA bool
		s.sec, okS = r.Value("sec/op")
		s.bytes, okB = r.Value("B/op")
		s.allocs, okA = r.Value("allocs/op")
		if !okS || !okB || !okA || s.sec <= 0 {
			t.Fatalf("%s: a sample without a positive sec/op, B/op and allocs/op: %s", file, r.Name)
		}
		out = append(out, s)
	}
	return out
}

// TestReproductionRuns reproduces a mutant that allocates 64 KiB in every
// call of Checksum and one that adds a spin to Seed's loop: each file holds
// Count samples at the fixed count with sec/op, B/op and allocs/op, and the
// mutant's file holds the mutant binary's samples, the baseline's the
// baseline's. That is asserted on the allocation metrics, which the load
// cannot move (a ratio of times could: at a load average of 25 the five
// baseline samples of 20 iterations were all stretched, and a mutant that
// costs nothing measured 0.2 times its baseline): the allocating mutant's
// B/op is above 64 KiB and its allocs/op at least 1, where the baseline
// allocates nothing per iteration (its 64 KiB of data are on the stack;
// the runtime's own allocations during a sample showed as up to a few
// hundred B/op); the spinning mutant allocates as little as its baseline. The
// module is unchanged and no temporary file or process is left.
func TestReproductionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "repro")
	before := treeHash(t, mod.Dir)
	ov := overlayFunc(mod)
	const kib64 = 64 << 10
	for _, c := range []struct {
		m     mutate.Mutant
		check func(base, mut reproSample) bool
		want  string
	}{
		{reproMutant(t, mod, "checksum-alloc", "func Checksum(", "var h uint32", "var h uint32\n\tperfmut_bytes = make([]byte, 64<<10)"),
			func(base, mut reproSample) bool {
				return mut.bytes >= kib64 && mut.allocs >= 1 && base.bytes < kib64/2
			}, "the mutant at >= 65536 B/op and >= 1 allocs/op, the baseline below 32768 B/op"},
		{reproMutant(t, mod, "seed-spin", "func Seed(", "for _, e := range extra {", "for _, e := range extra {"+reproSpin),
			func(base, mut reproSample) bool { return mut.bytes < kib64/2 && base.bytes < kib64/2 },
			"both below 32768 B/op"},
	} {
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
		var sides [2][]reproSample
		for i, name := range []string{ReproBaseFile, ReproMutFile} {
			sides[i] = reproValues(t, filepath.Join(out, name))
			var iters []int
			for _, s := range sides[i] {
				iters = append(iters, s.iters)
			}
			if !slices.Equal(iters, []int{20, 20, 20, 20, 20}) {
				t.Errorf("%s: %s: iteration counts %v, want five samples at 20", c.m.ID, name, iters)
			}
		}
		for i := range min(len(sides[0]), len(sides[1])) {
			if base, mut := sides[0][i], sides[1][i]; !c.check(base, mut) {
				t.Errorf("%s: sample %d: baseline %g B/op %g allocs/op, mutant %g B/op %g allocs/op; want %s",
					c.m.ID, i, base.bytes, base.allocs, mut.bytes, mut.allocs, c.want)
			}
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
