package speedgun

import (
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHarvest: the most frequent key-like strings of the test files (not
// their import paths or messages), small integers, the largest sizes;
// defaults complete each pool to four values.
func TestHarvest(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "strings"

func TestX(t *testing.T) {
	s := New(512)
	s.Set("beta", 1)
	s.Set("alpha", 2)
	s.Set("beta", 70000)
	if s.Get("beta") != 1 {
		t.Errorf("Get(beta) = %d, want %d", s.Get("beta"), 1)
	}
	_ = 2.5
}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := harvest(dir)
	if want := []string{"beta", "alpha", "k0", "k1"}; !slices.Equal(p.strs, want) {
		t.Errorf("strings %q, want %q", p.strs, want)
	}
	if want := []int64{1, 512, 2, 70000}; !slices.Equal(p.ints, want) {
		t.Errorf("ints %v, want %v", p.ints, want)
	}
	if want := []int64{512, 2}; !slices.Equal(p.sizes, want) {
		t.Errorf("sizes %v, want %v (70000 is above 64 KiB)", p.sizes, want)
	}
	if want := []float64{2.5, 0.5, 1, 2}; !slices.Equal(p.floats, want) {
		t.Errorf("floats %v, want %v", p.floats, want)
	}
	// The tests' literal calls of a constructor give its arguments, if
	// their kinds suit its parameters.
	intParam := []types.Type{types.Typ[types.Int]}
	if args, ok := p.harvestedArgs("New", intParam, false); !ok || args != "512" {
		t.Errorf("New's harvested arguments %q, %v; want 512", args, ok)
	}
	if _, ok := p.harvestedArgs("New", []types.Type{types.Typ[types.String]}, false); ok {
		t.Errorf("512 suits a string parameter")
	}
	if _, ok := p.harvestedArgs("Other", intParam, false); ok {
		t.Errorf("arguments of a function the tests do not call")
	}
}

// TestPoolValues: the expressions of a parameter type's pool.
func TestPoolValues(t *testing.T) {
	pkg, _ := check(t, `package p

import (
	"context"
	"time"
)

type Level int8
type name string
var _ context.Context
var _ time.Duration
`)
	p := pools{strs: []string{"a", "b\"q"}, ints: []int64{-1, 200, 300}, floats: []float64{0.5}, sizes: []int64{64}}
	lookup := func(n string) types.Type { return pkg.Scope().Lookup(n).Type() }
	ctx := pkg.Imports()[0].Scope().Lookup("Context").Type()
	dur := pkg.Imports()[1].Scope().Lookup("Duration").Type()
	for _, c := range []struct {
		t    types.Type
		want []string
	}{
		{types.Typ[types.String], []string{`"a"`, `"b\"q"`}},
		{types.Typ[types.Uint8], []string{"200"}},
		{types.Typ[types.Int], []string{"-1", "200", "300"}},
		{lookup("Level"), []string{"Level(-1)"}},
		{lookup("name"), []string{`name("a")`, `name("b\"q")`}},
		{types.NewSlice(types.Universe.Lookup("byte").Type()), []string{`[]byte("a")`, `[]byte("b\"q")`, "make([]byte, 64)"}},
		{types.NewSlice(types.Typ[types.String]), []string{`[]string{"a", "b\"q"}`, `[]string{"a"}`}},
		{types.NewInterfaceType(nil, nil), []string{`"a"`, `"b\"q"`}},
		{ctx, []string{"context.Background()"}},
		{dur, []string{"time.Minute", "time.Second", "0"}},
		{types.NewChan(types.SendRecv, types.Typ[types.Int]), nil},
		{types.NewPointer(types.Typ[types.Int]), nil},
	} {
		got := p.values(c.t, types.RelativeTo(pkg))
		if !slices.Equal(got, c.want) {
			t.Errorf("values(%s) = %q, want %q", c.t, got, c.want)
		}
	}
}

// TestParseDriver: the driver's result lines by candidate, the candidate
// a crash ended with its fatal error, and none when all finished.
func TestParseDriver(t *testing.T) {
	out := `=== RUN   TestPerfmutSpeedGunDriver
perfmut-speedgun: start 1
perfmut-speedgun: {"ID":1,"OK":true,"Atom":-1,"NsPerOp":250.5,"Ops":8}
perfmut-speedgun: start 2
perfmut-speedgun: {"ID":2,"OK":false,"Panic":"boom","Atom":3,"NsPerOp":0,"Ops":0}
perfmut-speedgun: start 3
fatal error: concurrent map writes

goroutine 7 [running]:
panic: later
`
	started, rs, crash := parseDriver([]byte(out))
	if started != 3 || crash != "fatal error: concurrent map writes" {
		t.Errorf("started %d, crash %q; want 3 and the fatal error", started, crash)
	}
	if len(rs) != 2 || !rs[1].OK || rs[1].NsPerOp != 250.5 || rs[2].OK || rs[2].Panic != "boom" || rs[2].Atom != 3 {
		t.Errorf("results %+v", rs)
	}
	if got := rs[2].why(); got != "panicked: boom" {
		t.Errorf("why %q", got)
	}
	started, _, _ = parseDriver([]byte("perfmut-speedgun: start 4\nperfmut-speedgun: {\"ID\":4,\"Timeout\":true,\"Atom\":-1}\n"))
	if started != -1 {
		t.Errorf("started %d after a timed-out candidate's result, want -1", started)
	}
}
