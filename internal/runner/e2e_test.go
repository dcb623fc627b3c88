package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/testutil"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// testModule copies testdata/name to a temp dir and loads its packages.
func testModule(t *testing.T, name string) (mutate.Module, []*mutate.Package) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := copyTree(filepath.Join("testdata", name), dir, ""); err != nil {
		t.Fatal(err)
	}
	mod, pkgs, err := loadModule(dir)
	if err != nil {
		t.Fatal(err)
	}
	return mod, pkgs
}

// loadModule loads a module's packages with go list (the runner's tests
// do not depend on the engine's loader).
func loadModule(dir string) (mutate.Module, []*mutate.Package, error) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return mutate.Module{}, nil, fmt.Errorf("go list: %v", err)
	}
	modCmd := exec.Command("go", "list", "-m")
	modCmd.Dir = dir
	modPath, err := modCmd.Output()
	if err != nil {
		return mutate.Module{}, nil, fmt.Errorf("go list -m: %v", err)
	}
	mod := mutate.Module{Path: strings.TrimSpace(string(modPath)), Dir: dir, GoVersion: "1.26"}
	var pkgs []*mutate.Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var lp struct {
			ImportPath, Name, Dir string
			Imports, GoFiles      []string
		}
		if err := dec.Decode(&lp); err != nil {
			return mutate.Module{}, nil, err
		}
		p := &mutate.Package{ImportPath: lp.ImportPath, Name: lp.Name, Dir: lp.Dir}
		for _, imp := range lp.Imports {
			if strings.HasPrefix(imp, mod.Path+"/") {
				p.Imports = append(p.Imports, imp)
			}
		}
		for _, f := range lp.GoFiles {
			p.Files = append(p.Files, filepath.Join(lp.Dir, f))
		}
		pkgs = append(pkgs, p)
	}
	return mod, pkgs, nil
}

// mkMutant builds a mutant by hand: in file (module-relative), replace the
// first occurrence of old after anchor by new.
func mkMutant(t testing.TB, mod mutate.Module, id, pkg, file, anchor, old, new string) mutate.Mutant {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(mod.Dir, file))
	if err != nil {
		t.Fatal(err)
	}
	a := bytes.Index(src, []byte(anchor))
	if a < 0 {
		t.Fatalf("%s: anchor %q not found", id, anchor)
	}
	i := bytes.Index(src[a:], []byte(old))
	if i < 0 {
		t.Fatalf("%s: %q not found after anchor", id, old)
	}
	start := a + i
	line := 1 + bytes.Count(src[:start], []byte("\n"))
	col := start - bytes.LastIndexByte(src[:start], '\n')
	return mutate.Mutant{
		ID: id, Operator: "test-op", Quadrant: mutate.Q3, Package: pkg, File: file,
		Line: line, Column: col, Function: "f", Description: id,
		Edits:      []mutate.Edit{{Start: start, End: start + len(old), New: new}},
		Helper:     "package calc\n\nvar perfmut_sink int\n",
		HelperFile: "perfmut_helpers.go",
	}
}

// overlayFunc is what the engine's Program.Overlay does: the mutated file
// and the helper file.
func overlayFunc(mod mutate.Module) func(mutate.Mutant) (map[string][]byte, error) {
	return func(m mutate.Mutant) (map[string][]byte, error) {
		path := filepath.Join(mod.Dir, filepath.FromSlash(m.File))
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out, err := m.Apply(src)
		if err != nil {
			return nil, err
		}
		files := map[string][]byte{path: out}
		if m.HelperFile != "" {
			files[filepath.Join(filepath.Dir(path), m.HelperFile)] = []byte(m.Helper)
		}
		return files, nil
	}
}

// treeHash hashes every file under dir (names, modes, modification times
// and contents).
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	return testutil.HashTree(t, dir)
}

// privateTmp points TMPDIR at a fresh directory, so that the processes of
// this test's runs can be told from others' (see leftovers).
func privateTmp(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

// leftovers lists processes whose command line mentions tmp.
func leftovers(tmp string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	self := fmt.Sprint(os.Getpid())
	for _, e := range ents {
		if e.Name() == self {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if bytes.Contains(data, []byte(tmp)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return out
}

// napHelper is the helper file of package name with perfmut_nap, which
// sleeps 50 ms: a mutant that naps once per call of a function its
// benchmarks call 200 times per sample (newTestCampaign's -benchtime)
// makes each sample 10 s where the baseline's take microseconds, so every
// one is censored (and so above every baseline sample) at any load, and
// costs no CPU. A spin of as long kept a core busy up to the censoring cap
// in every sample (3 times the slowest baseline sample, longer the busier
// the machine).
func napHelper(name string) string {
	return "package " + name + "\n\nimport \"time\"\n\nvar perfmut_sink int\n\nfunc perfmut_nap() { time.Sleep(50 * time.Millisecond) }\n"
}

// hotMutants are the mutants of testdata/hot with known outcomes.
// sum-spin naps in each call of Sum (see napHelper): every one of its
// samples is censored.
func hotMutants(t testing.TB, mod mutate.Module) []mutate.Mutant {
	const pkg = "example.com/hot/calc"
	const file = "calc/calc.go"
	spin := mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "for _, x := range xs {", "perfmut_nap()\n\tfor _, x := range xs {")
	spin.Helper = napHelper("calc")
	// sum-hang's tests sleep past the campaign's test timeout: a hang that
	// costs no CPU.
	hang := mkMutant(t, mod, "sum-hang", pkg, file, "func Sum(", "s := 0", "s := 0\n\tperfmut_hang()")
	hang.Helper = "package calc\n\nimport \"time\"\n\nfunc perfmut_hang() { time.Sleep(time.Hour) }\n"
	return []mutate.Mutant{
		spin,
		mkMutant(t, mod, "unused-spin", pkg, file, "func Unused(", "p *= 3", "p *= 3\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}"),
		mkMutant(t, mod, "prepare-spin", pkg, file, "func Prepare(", "xs[i] = i", "xs[i] = i\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}"),
		mkMutant(t, mod, "find-unbreak", pkg, file, "func Find(", "\n\t\t\tbreak", ""),
		hang,
		mkMutant(t, mod, "sum-compile", pkg, file, "func Sum(", "s := 0", "s := perfmut_undefined()"),
		mkMutant(t, mod, "find-panic", pkg, file, "func Find(", "idx := -1", "idx := -1\n\tif len(xs) > 0 {\n\t\tpanic(\"perfmut test panic\")\n\t}"),
	}
}

// newTestCampaign is a campaign of ms on mod that logs into the test's
// log when it fails. Its mutant samples are censored at three times the
// slowest baseline sample, as perfmut run's are: a mutant far slower than
// its baseline is then killed at the first look (every sample censored
// ranks above every baseline sample, p = 1/252) however loaded the
// machine, not only when no scheduling delay hits a baseline sample. The
// mutants' tests have 10 s: tests of a few milliseconds of work took more
// than 3 s at a load average of 50 on 2 cores.
func newTestCampaign(t testing.TB, mod mutate.Module, pkgs []*mutate.Package, ms []mutate.Mutant, out string) *Campaign {
	var log bytes.Buffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", log.String())
		}
	})
	return &Campaign{
		Module: mod, Packages: pkgs, Mutants: ms, Overlay: overlayFunc(mod),
		Levels: []string{results.Opt, results.NoOpt}, Timeout: 10 * time.Second, Out: out,
		Settings: results.Settings{Patterns: []string{"./..."}, Opt: "both", Benchtime: "200x", ChoiceSettings: results.ChoiceSettings{Seed: 1}},
		Measurement: engine.Measurement{
			Rule: score.Rule{MaxSamples: 8, Seed: 1}, Benchtime: "200x", CensorFactor: 3, Jobs: 2, Seed: 1, Log: &log,
		},
	}
}

// resultsAt maps each mutant's ID to its result at level.
func resultsAt(rep *results.Report, level string) map[string]*results.LevelResult {
	res := map[string]*results.LevelResult{}
	for _, m := range rep.Mutants {
		res[m.ID] = m.Results[level]
	}
	return res
}

func statuses(rep *results.Report) map[string]string {
	got := map[string]string{}
	for _, m := range rep.Mutants {
		var parts []string
		for _, l := range []string{results.Opt, results.NoOpt} {
			if r := m.Results[l]; r != nil {
				parts = append(parts, l+"="+string(r.Status))
			}
		}
		got[m.ID] = strings.Join(parts, " ")
	}
	return got
}

func TestKnownOutcomes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "hot")
	before := treeHash(t, mod.Dir)
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod), out)
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"sum-spin":     "opt=killed noopt=killed",
		"unused-spin":  "opt=no-coverage noopt=no-coverage",
		"prepare-spin": "opt=no-coverage noopt=no-coverage",
		"find-unbreak": "opt=fne noopt=fne",
		"sum-hang":     "opt=timeout noopt=timeout",
		"sum-compile":  "opt=compile-error noopt=compile-error",
		"find-panic":   "opt=crash noopt=crash",
	}
	got := statuses(rep)
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: got %q, want %q", id, got[id], w)
		}
	}
	if p := leftovers(tmp); len(p) > 0 {
		t.Errorf("processes left behind:\n%s", strings.Join(p, "\n"))
	}
	if after := treeHash(t, mod.Dir); after != before {
		t.Errorf("the module changed during the run")
	}
	byID := map[string]results.Mutant{}
	for _, m := range rep.Mutants {
		byID[m.ID] = m
	}
	// Reasons.
	for id, sub := range map[string]string{
		"prepare-spin": "only in benchmark setup",
		"unused-spin":  "no benchmark executes",
		"find-unbreak": "failing tests: TestFind",
		"sum-compile":  "undefined: perfmut_undefined",
		"find-panic":   "panic: perfmut test panic",
		"sum-hang":     "killed",
	} {
		if r := byID[id].Results[results.Opt]; r == nil || !strings.Contains(r.Reason, sub) {
			t.Errorf("%s: reason %+v, want it to contain %q", id, r, sub)
		}
	}
	// The killed mutant reaches both benchmarks that run Sum in their timed
	// loop: the first one measured kills it at the first look (every mutant
	// sample censored, p = 1/252, at the level of a family counting the
	// other's tests), and the other is skipped, unmeasured, as the result
	// says; the samples are reproducible with benchstat.
	kr := byID["sum-spin"].Results[results.Opt]
	var names []string
	for _, s := range kr.Samples {
		if s.Metric == "sec/op" {
			names = append(names, s.Benchmark)
		}
		for _, f := range s.Files {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("sample file: %v", err)
			}
		}
	}
	both := append(append([]string(nil), names...), kr.Skipped...)
	sort.Strings(both)
	if len(names) != 1 || len(kr.Skipped) != 1 || strings.Join(both, ",") != "BenchmarkSum,BenchmarkTotalParallel" {
		t.Errorf("sum-spin measured on %v, skipped %v; want one of BenchmarkSum and BenchmarkTotalParallel each", names, kr.Skipped)
	} else {
		rejects := 0
		for _, tr := range kr.Benchmarks {
			if tr.Benchmark != names[0] || tr.NMutant != 5 {
				t.Errorf("sum-spin test %+v, want only tests of %s at 5 samples", tr, names[0])
			}
			if tr.Reject {
				rejects++
			}
		}
		if rejects == 0 {
			t.Errorf("sum-spin tests %+v: none rejects", kr.Benchmarks)
		}
		if want := "killed at look 1 (5 samples) before " + kr.Skipped[0] + " reached it"; !strings.Contains(kr.Reason, want) {
			t.Errorf("sum-spin reason %q, want it to say %q", kr.Reason, want)
		}
	}
	// Journal: one line per mutant and level.
	entries, _, err := results.ReadJournal(filepath.Join(out, results.JournalFile))
	if err != nil || len(entries) != 2*len(want) {
		t.Errorf("journal: %d entries, %v; want %d", len(entries), err, 2*len(want))
	}
	if rep.Score[results.Opt].Killed != 1 || rep.Score[results.Opt].Valid != 3 {
		t.Errorf("opt score %+v, want 1 killed of 3 valid", rep.Score[results.Opt])
	}
}
