package generate

import (
	"context"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
)

// roundTrip is one case of TestCaptureRoundTrip: a parameter type and a
// value of it as the test writes it.
type roundTrip struct {
	typ, value string
}

var roundTrips = []roundTrip{
	{"int", "-42"},
	{"uint64", "18446744073709551615"},
	{"int8", "-128"},
	{"float64", "1.5e300"},
	{"float64", "math.NaN()"},
	{"float64", "math.Inf(1)"},
	{"float64", "math.Inf(-1)"},
	{"float64", "math.Copysign(0, -1)"},
	{"float32", "float32(math.NaN())"},
	{"float32", "0.1"},
	{"complex128", "complex(1.5, math.Inf(-1))"},
	{"bool", "true"},
	{"string", `"say \"hi\"\n\ttab\\"`},
	{"string", `"\xff\xfe not utf-8 \x00"`},
	{"string", `"héllo, 世界"`},
	{"[]int", "nil"},
	{"[]int", "[]int{}"},
	{"[]int", "[]int{1, 2, 3}"},
	{"[][]string", `[][]string{nil, {}, {"a"}}`},
	{"[3]byte", "[3]byte{1, 0, 0}"},
	{"[]byte", `[]byte("GET /\r\n\x00\xff")`},
	{"[]byte", "[]byte{}"},
	{"map[string]int", "nil"},
	{"map[string]int", "map[string]int{}"},
	{"map[string][]float64", `map[string][]float64{"a": {1, math.NaN()}, "b": nil}`},
	{"Outer", `Outer{Name: "o", in: Inner{N: 3, s: "unexported"}, P: &Inner{N: 4}, Tags: map[int]string{1: "x"}}`},
	{"*Inner", "&Inner{N: 7, s: \"p\"}"},
	{"*Inner", "nil"},
	{"*int", "func() *int { v := 9; return &v }()"},
	{"**Inner", "func() **Inner { p := &Inner{N: 1}; return &p }()"},
	{"any", "int64(5)"},
	{"any", `[]string{"x"}`},
	{"any", "nil"},
	{"any", "Inner{N: 2}"},
	{"Celsius", "Celsius(math.NaN())"},
	{"Celsius", "36.6"},
	{"struct{ A, b int }", "struct{ A, b int }{A: 1, b: 2}"},
	{"any", `Pair[string, []int]{K: "a", V: []int{1}}`},
	{"any", `&Pair[int, Pair[string, *bool]]{K: 1, V: Pair[string, *bool]{K: "x"}}`},
	{"any", `map[string]Pair[int, float64]{"p": {K: 2, V: 0.5}}`},
	{"any", `Pair[string, map[string][]*Inner]{V: map[string][]*Inner{"i": {{N: 3}}}}`},
}

// notWritable are parameter values no literal can write, with the reason
// said.
var notWritable = []roundTrip{
	{"func()", "func() {}"},
	{"chan int", "make(chan int)"},
	{"error", `errors.New("x")`},
	{"*Node", "cyclic()"},
}

// TestCaptureRoundTrip records the arguments of real calls through the
// instrumented tests, writes them as Go literals, compiles them into the
// package's test and checks they equal the originals (NaN equal to NaN
// and -0 apart from 0: bit for bit; nil apart from empty).
func TestCaptureRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module's tests twice")
	}
	dir := t.TempDir()
	var src, calls strings.Builder
	src.WriteString("package rt\n\ntype Inner struct {\n\tN int\n\ts string\n}\n\ntype Outer struct {\n\tName string\n\tin   Inner\n\tP    *Inner\n\tTags map[int]string\n}\n\ntype Celsius float64\n\ntype Node struct{ next *Node }\n\ntype Pair[K comparable, V any] struct {\n\tK K\n\tV V\n}\n\n")
	cases := append(append([]roundTrip(nil), roundTrips...), notWritable...)
	for i, c := range cases {
		fmt.Fprintf(&src, "func Take%d(v %s) {}\n", i, c.typ)
		fmt.Fprintf(&calls, "\tTake%d(%s)\n", i, c.value)
	}
	write(t, dir, "go.mod", "module example.com/rt\n\ngo 1.24\n")
	write(t, dir, "rt.go", src.String())
	write(t, dir, "rt_test.go", "package rt\n\nimport (\n\t\"errors\"\n\t\"math\"\n\t\"testing\"\n)\n\nvar _ = errors.New\n\nfunc cyclic() *Node { n := &Node{}; n.next = n; return n }\n\nfunc TestCalls(t *testing.T) {\n"+calls.String()+"}\n")

	var names []string
	for i := range cases {
		names = append(names, fmt.Sprintf("Take%d", i))
	}
	p, probes := loadProbes(t, dir, names)
	got := captureProbes(t, dir, p, probes)
	w := newWriter(p.Types())
	var check strings.Builder
	for i, c := range cases {
		recs := got[fmt.Sprintf("Take%d", i)]
		if len(recs) != 1 {
			t.Fatalf("case %d (%s): %d calls recorded, want 1", i, c.value, len(recs))
		}
		typ := p.Types().Scope().Lookup(fmt.Sprintf("Take%d", i)).Type().(*types.Signature).Params().At(0).Type()
		lit, err := w.expr(typ, recs[0].Args[0], false)
		if i >= len(roundTrips) {
			if err == nil {
				t.Errorf("case %d (%s %s) written as %s, want a reason it cannot be", i, c.typ, c.value, lit)
			} else if want := reasons[c.typ]; !strings.Contains(err.Error(), want) {
				t.Errorf("case %d (%s): reason %q, want %q", i, c.typ, err, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d (%s %s): %v", i, c.typ, c.value, err)
		}
		fmt.Fprintf(&check, "\tif !same(%s(%s), %s(%s)) {\n\t\tt.Errorf(\"case %d: %%#v, want %%#v\", %s(%s), %s(%s))\n\t}\n",
			conv(c.typ), lit, conv(c.typ), c.value, i, conv(c.typ), lit, conv(c.typ), c.value)
		t.Logf("case %d: %s -> %s", i, c.value, lit)
	}
	imports := "\t\"math\"\n\t\"reflect\"\n\t\"testing\"\n"
	for path := range w.imports {
		if path != "math" {
			imports += fmt.Sprintf("\t%q\n", path)
		}
	}
	write(t, dir, "check_test.go", "package rt\n\nimport (\n"+imports+")\n\nfunc TestRoundTrip(t *testing.T) {\n"+check.String()+"}\n\nfunc perfmutPtr[T any](v T) *T { return &v }\n\n"+sameSrc)
	cmd := exec.Command("go", "test", "-run", "TestRoundTrip", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the written literals differ from the originals: %v\n%s", err, out)
	}
}

// reasons are the reasons the values of notWritable are said to be
// unwritable for, by type.
var reasons = map[string]string{
	"func()":   "a func value",
	"chan int": "a channel",
	"error":    "the unexported type errors.errorString",
	"*Node":    "a cycle of pointers",
}

// conv is the conversion that gives a literal its parameter's type.
func conv(typ string) string { return "(" + typ + ")" }

// sameSrc compares two values bit for bit (floats by their bits, nil
// apart from empty), following pointers.
const sameSrc = `func same(a, b any) bool { return sameValue(reflect.ValueOf(a), reflect.ValueOf(b)) }

func sameValue(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		return math.Float64bits(real(a.Complex())) == math.Float64bits(real(b.Complex())) && math.Float64bits(imag(a.Complex())) == math.Float64bits(imag(b.Complex()))
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Map {
			for _, k := range a.MapKeys() {
				if !sameValue(a.MapIndex(k), b.MapIndex(k)) {
					return false
				}
			}
			return true
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	}
	return a.Uint() == b.Uint()
}
`

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadProbes loads the module at dir and returns its package and a probe
// of each named function, keyed by its name.
func loadProbes(t *testing.T, dir string, names []string) (*mutate.Package, []probe) {
	t.Helper()
	prog, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	p := prog.Packages[0]
	decls := funcDecls(p)
	var probes []probe
	for _, n := range names {
		probes = append(probes, probe{pkg: p, decl: decls[n], key: n})
	}
	return p, probes
}

// captureProbes runs the tests of the module at dir through the overlay
// that instruments probes and returns the calls recorded.
func captureProbes(t *testing.T, dir string, p *mutate.Package, probes []probe) map[string][]*recordedCall {
	t.Helper()
	e := engine.New(engine.Config{Module: mutate.Module{Dir: dir}}, t.TempDir(), nil)
	calls, note, err := capture(context.Background(), e, dir, []string{"./..."}, probes, 2*time.Minute)
	if err != nil || note != "" {
		t.Fatalf("capture: %v %s", err, note)
	}
	return calls
}
