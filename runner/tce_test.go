package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	r := &run{c: &Campaign{}}
	code := func(bin string) funcCode {
		fc, err := r.objdump(context.Background(), bin, "main")
		if err != nil {
			t.Fatal(err)
		}
		if len(fc["main.f"]) == 0 {
			t.Fatalf("no code for main.f in %s", bin)
		}
		return fc
	}
	o1 := build("o1", orig, "")
	if _, err := r.baseCode(context.Background(), o1, "main"); err != nil {
		t.Fatal(err)
	}
	os.Remove(o1) // the baseline's code is disassembled once per run
	if fc, err := r.baseCode(context.Background(), o1, "main"); err != nil || len(fc["main.f"]) == 0 {
		t.Errorf("baseCode after the binary is gone: %v, %d instructions of main.f (want cached)", err, len(fc["main.f"]))
	}
	if d := diffCode(code(build("o1", orig, "")), code(build("o2", dead, ""))); d != "" {
		t.Errorf("at opt, dead computation changed %s", d)
	}
	if d := diffCode(code(build("n1", orig, "-N -l")), code(build("n2", dead, "-N -l"))); d != "main.f" {
		t.Errorf("at noopt, diffCode = %q, want main.f", d)
	}
}
