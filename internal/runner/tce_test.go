package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

const listingA = `TEXT example.com/m.f(SB) /src/m/m.go
  m.go:5		0x4493e0		493b6610		CMPQ SP, 0x10(R14)		
  m.go:5		0x4493e4		7614			JBE 0x4493fa			
  m.go:6		0x4493ae		488d0523930500		LEAQ 0x59323(IP), AX			
  m.go:7		0x4493f3		e888ab0000		CALL runtime.unlockOSThread(SB)	
  m.go:9		0x4493fa		e821440300		CALL runtime.morestack.abi0(SB)	
`

// listingB is listingA moved by 0x100 with different line numbers and a
// different RIP displacement: the same code.
const listingB = `TEXT example.com/m.f(SB) /tmp/overlay/m.go
  m.go:5		0x4494e0		493b6610		CMPQ SP, 0x10(R14)		
  m.go:5		0x4494e4		7614			JBE 0x4494fa			
  m.go:8		0x4494ae		488d0523940500		LEAQ 0x59423(IP), AX			
  m.go:9		0x4494f3		e888ab0000		CALL runtime.unlockOSThread(SB)	
  m.go:11		0x4494fa		e821440300		CALL runtime.morestack.abi0(SB)	
`

// fakeSyms names the targets of the LEAQ in listingA and listingB.
func fakeSyms(addr uint64) string {
	return map[uint64]string{0x4493b5 + 0x59323: "runtime.x+0", 0x4494b5 + 0x59423: "runtime.x+0", 0x4494b5 + 0x59424: "runtime.x+1"}[addr]
}

func TestParseObjdump(t *testing.T) {
	a := parseObjdump(listingA, fakeSyms)
	want := []string{"CMPQ SP, 0x10(R14)", "JBE .+26", "LEAQ runtime.x+0(IP), AX", "CALL runtime.unlockOSThread(SB)", "CALL runtime.morestack.abi0(SB)"}
	if got := a["example.com/m.f"]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parseObjdump = %q, want %q", got, want)
	}
	if d := diffCode(a, parseObjdump(listingB, fakeSyms)); d != "" {
		t.Errorf("moved code differs in %s", d)
	}
	if d := diffCode(a, parseObjdump(listingB, nil)); d == "" {
		t.Errorf("without symbols, moved RIP-relative operands compare equal")
	}
	for _, tc := range []struct{ name, from, to string }{
		{"branch target", "JBE 0x4494fa", "JBE 0x4494fb"},
		{"callee", "CALL runtime.unlockOSThread(SB)", "CALL runtime.lockOSThread(SB)"},
		{"register", "LEAQ 0x59423(IP), AX", "LEAQ 0x59423(IP), BX"},
		{"loaded data", "LEAQ 0x59423(IP), AX", "LEAQ 0x59424(IP), AX"},
		{"function", "example.com/m.f(SB)", "example.com/m.g(SB)"},
	} {
		b := parseObjdump(strings.Replace(listingB, tc.from, tc.to, 1), fakeSyms)
		if d := diffCode(a, b); d == "" {
			t.Errorf("%s changed: diffCode found no difference", tc.name)
		}
	}
}

// TestEquivalentBuilds builds a function and the same function with a dead
// computation injected: the code is the same with optimizations and differs
// without them.
func TestEquivalentBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	const orig = "package main\n\n//go:noinline\nfunc f(a []int) int {\n\ts := 0\n\tfor _, v := range a {\n\t\ts += v\n\t}\n\treturn s\n}\n\nfunc main() { println(f([]int{1, 2})) }\n"
	dead := strings.Replace(orig, "\t\ts += v\n", "\t\ts += v\n\t\tx := v * 3\n\t\t_ = x\n", 1)
	dir := t.TempDir()
	build := func(name, src string, gcflags string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
		os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644)
		bin := filepath.Join(d, "m.bin")
		cmd := exec.Command("go", "build", "-gcflags=all="+gcflags, "-o", bin, ".")
		cmd.Dir = d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		return bin
	}
	r := testRun(&Campaign{}, "")
	code := func(bin string) funcCode {
		fc, err := r.tce.objdump(context.Background(), r.Engine, bin, symbolsPattern(nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(fc["main.f"]) == 0 {
			t.Fatalf("no code for main.f in %s", bin)
		}
		return fc
	}
	o1 := build("o1", orig, "")
	if _, err := r.tce.baseCode(context.Background(), r.Engine, o1, symbolsPattern(nil)); err != nil {
		t.Fatal(err)
	}
	os.Remove(o1) // the baseline's code is disassembled once per run
	if fc, err := r.tce.baseCode(context.Background(), r.Engine, o1, symbolsPattern(nil)); err != nil || len(fc["main.f"]) == 0 {
		t.Errorf("baseCode after the binary is gone: %v, %d instructions of main.f (want cached)", err, len(fc["main.f"]))
	}
	if d := diffCode(code(build("o1", orig, "")), code(build("o2", dead, ""))); d != "" {
		t.Errorf("at opt, dead computation changed %s", d)
	}
	if d := diffCode(code(build("n1", orig, "-N -l")), code(build("n2", dead, "-N -l"))); d != "main.f" {
		t.Errorf("at noopt, diffCode = %q, want main.f", d)
	}
}

// TestEquivalentExternalTestPackage: a small function with a loop whose
// only benchmark is in the external test package (with a TestMain) is
// inlined there and the linker drops its own copy, so the mutated package
// holds no code in the test binary. The loop-unbreaker mutant that makes
// the benchmark hundreds of times slower is measured and killed, not called
// equivalent.
func TestEquivalentExternalTestPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	mod, _ := testModule(t, "extinline")
	prog, err := mutate.Load(context.Background(), mutate.Options{Dir: mod.Dir, Patterns: []string{"./..."}, Operators: []*mutate.Operator{operators.LoopUnbreaker}})
	if err != nil {
		t.Fatal(err)
	}
	mutants, err := prog.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(mutants) != 1 {
		t.Fatalf("%d loop-unbreaker mutants, want the one in HasPrefixAny", len(mutants))
	}
	c := newTestCampaign(t, prog.Module, prog.Packages, mutants, filepath.Join(t.TempDir(), "out"))
	c.Overlay = prog.Overlay
	c.Levels = []string{results.Opt}
	c.Settings.Opt = "on"
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Mutants[0].Results[results.Opt]
	if r.Status != score.Killed {
		t.Errorf("loop-unbreaker in HasPrefixAny: %s (%s), want killed", r.Status, r.Reason)
	}
}

// TestEquivalentInlinedIntoImporter builds the test binary of app, which
// inlines lib.Index (lib has no tests and, in that binary, no code of its
// own), for the baseline and two mutants of lib: one whose inlined copy
// differs is not equivalent, one whose dead computation the compiler drops
// is.
func TestEquivalentInlinedIntoImporter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	ctx := context.Background()
	mod, pkgs := testModule(t, "inlined")
	const lib, app = "example.com/inlined/lib", "example.com/inlined/app"
	r := testRun(&Campaign{Module: mod, Packages: pkgs}, "")
	r.pkgs = map[string]*mutate.Package{}
	for _, p := range pkgs {
		r.pkgs[p.ImportPath] = p
	}
	if _, err := r.judgingPackages(map[string]bool{lib: true}); err != nil {
		t.Fatal(err)
	}
	build := func(name string, files map[string][]byte) string {
		t.Helper()
		dir := t.TempDir()
		overlay := ""
		if files != nil {
			var err error
			if overlay, _, err = engine.WriteOverlay(dir, mod.Dir, files); err != nil {
				t.Fatal(err)
			}
		}
		bin := filepath.Join(dir, name+".test")
		if ok, err := r.GoTestC(ctx, mod.Dir, app, bin, overlay, results.Opt); !ok || err != nil {
			t.Fatalf("building %s: %v", name, err)
		}
		return bin
	}
	r.base.bins = map[string]map[string]string{results.Opt: {app: build("base", nil)}}
	for _, tc := range []struct {
		name, old, new string
		equivalent     bool
	}{
		{"unbreak", "\n\t\t\tbreak", "", false},
		{"dead", "idx = i", "idx = i\n\t\t\tdead := i * 3\n\t\t\t_ = dead", true},
	} {
		m := mkMutant(t, mod, tc.name, lib, "lib/lib.go", "func Index(", tc.old, tc.new)
		m.Helper, m.HelperFile = "", ""
		files, err := overlayFunc(mod)(m)
		if err != nil {
			t.Fatal(err)
		}
		lr, print := r.tce.equivalent(ctx, r.Engine, r.base.inlineSymbols(lib), r.base.bins[results.Opt], lib, results.Opt, map[string]string{app: build(tc.name, files)})
		if got := lr != nil; got != tc.equivalent {
			t.Errorf("%s: equivalent = %v (%v), want %v", tc.name, got, lr, tc.equivalent)
		}
		if print == "" {
			t.Errorf("%s: no fingerprint", tc.name)
		}
	}
}

func TestSymbolsPattern(t *testing.T) {
	for _, tc := range []struct{ path, prefix string }{
		{"example.com/m", "example.com/m"},
		{"gopkg.in/yaml.v3", "gopkg.in/yaml%2ev3"},
		{"example.com/a b/c%d", "example.com/a%20b/c%25d"},
	} {
		if got := symbolPrefix(tc.path); got != tc.prefix {
			t.Errorf("symbolPrefix(%q) = %q, want %q", tc.path, got, tc.prefix)
		}
	}
	re := regexp.MustCompile(symbolsPattern([]string{"example.com/m", "gopkg.in/yaml.v3"}))
	for sym, want := range map[string]bool{
		"example.com/m.F": true, "example.com/m_test.BenchmarkF": true, "example.com/m.(*T).M": true,
		"example.com/m.Map[go.shape.int]": true, "gopkg.in/yaml%2ev3.Marshal": true, "gopkg.in/yaml%2ev3_test.TestX": true,
		"main.main": true, "example.com/mx.F": false, "example.com/m/sub.F": false, "runtime.main": false,
		"type:.eq.example.com/m.T": false,
	} {
		if got := re.MatchString(sym); got != want {
			t.Errorf("pattern matches %s: %v, want %v", sym, got, want)
		}
	}
}
