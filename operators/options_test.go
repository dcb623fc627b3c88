package operators

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// schema is what the tests parse configurations with: some of the
// operators' names, and every operator's options.
func schema() config.Schema {
	s := mutate.Schema(All)
	s.Operators = []string{"loop-unbreaker", "oblivion", "spin-loop", "sleep", "alloc-churn", "call-replace", "var-replace"}
	return s
}

// yamlConfig parses src, a perfmut.yaml as users write it, with every
// operator's options: how the tests configure the operators they run.
func yamlConfig(tb testing.TB, src string) *config.Config {
	tb.Helper()
	c, err := config.Parse([]byte(src), "perfmut.yaml", mutate.Schema(All))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestParseValid(t *testing.T) {
	src := `# comment
operators: [spin-loop, call-replace]
packages:
  include: [example.com/m/...]
  exclude: [example.com/m/internal/gen]
spin-loop:
  iterations: [1000, 20000]
sleep:
  durations: [500us, 2ms]
oblivion:
  blacklist: [time.Now]
tail-spike:
  every: [100]
call-replace:
  - func: example.com/m/pkg.isASCII
    value: "false"
    callers: [Lower]
  - func: (*example.com/m/pkg.T).Fast
    value: "false"
var-replace:
  - var: fast
    value: "false"
    callers: [Lower, (*T).M]
metrics: [misses/op, p99-ns/op]
`
	c, err := config.Parse([]byte(src), "perfmut.yaml", schema())
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "perfmut.yaml" || !reflect.DeepEqual(c.Operators, []string{"spin-loop", "call-replace"}) ||
		!reflect.DeepEqual(c.Packages, config.Packages{Include: []string{"example.com/m/..."}, Exclude: []string{"example.com/m/internal/gen"}}) ||
		!reflect.DeepEqual(c.Metrics, []string{"misses/op", "p99-sec/op"}) { // as the runner reads units
		t.Errorf("Parse = %+v", c)
	}
	for _, tc := range []struct {
		op   *mutate.Operator
		want any
	}{
		{SpinLoop, &SpinLoopOptions{Iterations: []int{1000, 20000}}},
		{Sleep, &SleepOptions{Durations: []time.Duration{500 * time.Microsecond, 2 * time.Millisecond}}},
		{AllocChurn, &AllocChurnOptions{Bytes: []int{1024}}}, // default kept
		{Oblivion, &OblivionOptions{Blacklist: []string{"time.Now"}}},
		{GlobalOblivion, &OblivionOptions{Blacklist: []string{"time.Now"}}},
		{CriticalSpin, &CriticalSpinOptions{Iterations: []int{1000, 10000}}},                            // default kept
		{TailSpike, &TailSpikeOptions{Every: []int{100}, Durations: []time.Duration{time.Millisecond}}}, // durations: default kept
		{CallReplace, &CallReplaceOptions{
			{Func: "example.com/m/pkg.isASCII", Value: "false", Callers: []string{"Lower"}, Line: 15},
			{Func: "(*example.com/m/pkg.T).Fast", Value: "false", Line: 18},
		}},
		{VarReplace, &VarReplaceOptions{{Var: "fast", Value: "false", Callers: []string{"Lower", "(*T).M"}, Line: 21}}},
	} {
		if got := c.Section(tc.op.Options); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s options = %+v, want %+v", tc.op.Name, got, tc.want)
		}
	}
}

// TestDefaultOptions: without a file, every operator sees its defaults.
func TestDefaultOptions(t *testing.T) {
	c := config.Default()
	if got := c.Section(SpinLoop.Options).(*SpinLoopOptions); !reflect.DeepEqual(got.Iterations, []int{1e4, 1e5, 1e6}) {
		t.Errorf("default spin-loop iterations %v", got.Iterations)
	}
	if got := *c.Section(CallReplace.Options).(*CallReplaceOptions); len(got) != 0 {
		t.Errorf("default call-replace %v", got)
	}
	for _, src := range []string{"", "spin-loop:\n", "spin-loop: {}\n"} {
		c, err := config.Parse([]byte(src), "perfmut.yaml", schema())
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Section(SpinLoop.Options).(*SpinLoopOptions); !reflect.DeepEqual(got.Iterations, []int{1e4, 1e5, 1e6}) {
			t.Errorf("%q: spin-loop iterations %v, want the defaults", src, got.Iterations)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"operatorz: [sleep]\n", `perfmut.yaml:1: unknown key "operatorz" (did you mean "operators"?)`},
		{"spin-lop:\n  iterations: [1]\n", `perfmut.yaml:1: unknown key "spin-lop" (did you mean "spin-loop"?)`},
		{"spinning: [1]\n", `perfmut.yaml:1: unknown key "spinning" (valid keys: operators, packages, metrics, skip-benchmarks, and an operator's options such as oblivion:; perfmut list -h lists them)`},
		{"spin-loop:\n  iteration: [1]\n", `perfmut.yaml:2: unknown key "iteration" (valid keys: iterations)`},
		{"operators: [sleep, nap]\n", `perfmut.yaml:1: unknown operator "nap" (perfmut list -h lists the operators)`},
		{"operators:\n  - sleep\n  - nap\n", `perfmut.yaml:3: unknown operator "nap"`},
		{"spin-loop:\n  iterations: [10, lots]\n", `perfmut.yaml:2: got str "lots", want an integer`},
		{"spin-loop:\n  iterations:\n    - 10\n    - -5\n", `perfmut.yaml:4: spin-loop iterations must be between 1 and 1e9, got -5`},
		{"spin-loop:\n  iterations: []\n", `perfmut.yaml:2: spin-loop.iterations is empty`},
		{"sleep:\n  durations: [1 ms]\n", `perfmut.yaml:2: got str "1 ms", want a duration such as 1ms or 500us`},
		{"sleep:\n  durations: [5]\n", `perfmut.yaml:2:`},
		{"sleep:\n  durations: [2h]\n", `perfmut.yaml:2: sleep duration must be positive and at most 1m, got 2h0m0s`},
		{"alloc-churn:\n  bytes: [0]\n", `perfmut.yaml:2: alloc-churn bytes must be between 1 and 1GiB, got 0`},
		{"critical-spin:\n  iterations: [1000, 0]\n", `perfmut.yaml:2: critical-spin iterations must be between 1 and 1e9, got 0`},
		{"critical-spin:\n  iterations: []\n", `perfmut.yaml:2: critical-spin.iterations is empty`},
		{"tail-spike:\n  every:\n    - 0\n", `perfmut.yaml:3: tail-spike every must be between 1 and 1e9 (1 sleeps at every execution), got 0`},
		{"tail-spike:\n  durations: [-1ms]\n", `perfmut.yaml:2: tail-spike duration must be positive and at most 1m, got -1ms`},
		{"tail-spike:\n  every: [10]\n  sleep: [1ms]\n", `perfmut.yaml:3: unknown key "sleep" (valid keys: every, durations)`},
		{"call-replace:\n  - value: \"false\"\n", `perfmut.yaml:2: call-replace entry needs func:`},
		{"call-replace:\n  - func: isASCII\n    value: \"false\"\n", `perfmut.yaml:2: call-replace func "isASCII" must be pkg/path.Func`},
		{"call-replace:\n  - func: example.com/m.F\n", `perfmut.yaml:2: call-replace entry for example.com/m.F needs value:`},
		{"call-replace:\n  - func: example.com/m.F\n    value: x\n    caller: [F]\n", `perfmut.yaml:4: unknown key "caller" (valid keys: func, value, callers)`},
		{"var-replace:\n  - value: x\n", `perfmut.yaml:2: var-replace entry needs var:`},
		{"operators: sleep\n", `perfmut.yaml:1: got str "sleep", want a list`},
		{"spin-loop: [1]\n", `perfmut.yaml:1: got a list, want a mapping`},
		{"a: [\n", `perfmut.yaml:1: did not find expected node content`},
	} {
		_, err := config.Parse([]byte(tc.src), "perfmut.yaml", schema())
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %q\nwant %q...", tc.src, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error has several lines: %q", tc.src, err)
		}
	}
}

type fakeResolver struct {
	funcs, functions, vars, pkgs map[string]bool
	partial                      bool
}

func (r fakeResolver) PackageLoaded(p string) bool { return r.pkgs[p] }
func (r fakeResolver) Complete() bool              { return !r.partial }

func (r fakeResolver) HasFunc(n string) bool     { return r.funcs[n] }
func (r fakeResolver) HasFunction(n string) bool { return r.functions[n] }
func (r fakeResolver) HasLocalVar(n string, callers []string) bool {
	return r.vars[n+"@"+strings.Join(callers, ",")]
}

func TestCheckNames(t *testing.T) {
	r := fakeResolver{
		funcs:     map[string]bool{"example.com/m/pkg.isASCII": true},
		functions: map[string]bool{"Lower": true},
		vars:      map[string]bool{"fast@Lower": true},
	}
	// check parses src and wants CheckNames to fail with want ("": pass).
	check := func(label, src, want string) {
		t.Helper()
		c, err := config.Parse([]byte(src), "perfmut.yaml", schema())
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := c.CheckNames(r); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s%q:\n got %q\nwant %q", label, src, got, want)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"call-replace:\n  - func: example.com/m/pkg.isASCII\n    value: \"false\"\n    callers: [Lower]\nvar-replace:\n  - var: fast\n    value: \"false\"\n    callers: [Lower]\n", ""},
		{"call-replace:\n  - func: example.com/m/pkg.isASCII\n    value: \"false\"\n  - func: example.com/m/pkg.isUTF8\n    value: \"false\"\n", "perfmut.yaml:4: call-replace: function example.com/m/pkg.isUTF8 does not exist in the loaded packages"},
		{"call-replace:\n  - func: example.com/m/pkg.isASCII\n    value: \"false\"\n    callers: [Upper]\n", "perfmut.yaml:2: call-replace: caller Upper is not a function of the loaded packages (write it as Lower, T.M or (*T).M)"},
		{"var-replace:\n  - var: slow\n    value: \"false\"\n    callers: [Lower]\n", "perfmut.yaml:2: var-replace: no local variable slow in Lower"},
		{"var-replace:\n  - var: fast\n    value: \"false\"\n", "perfmut.yaml:2: var-replace: no local variable fast in any function of the loaded packages"},
	} {
		check("", tc.src, tc.want)
	}
	// A partial load skips what it cannot check, except functions of
	// loaded packages.
	r.partial = true
	r.pkgs = map[string]bool{"example.com/m/pkg": true}
	for _, tc := range []struct{ src, want string }{
		{"call-replace:\n  - func: example.com/m/other.F\n    value: \"false\"\n    callers: [Upper]\n", ""},
		{"var-replace:\n  - var: slow\n    value: \"false\"\n", ""},
		{"call-replace:\n  - func: example.com/m/pkg.isUTF8\n    value: \"false\"\n", "perfmut.yaml:2: call-replace: function example.com/m/pkg.isUTF8 does not exist in the loaded packages"},
	} {
		check("partial ", tc.src, tc.want)
	}
}

// TestREADMEExample parses the configuration reference in docs/config.md
// and checks that it shows every operator's options section.
func TestREADMEExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "# Configuration")
	if !ok {
		t.Fatal("docs/config.md has no # Configuration section")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	if !ok {
		t.Fatal("no yaml block in the Configuration section")
	}
	src, _, _ := strings.Cut(rest, "```")
	c, err := config.Parse([]byte(src), "docs/config.md", mutate.Schema(All))
	if err != nil {
		t.Fatal(err)
	}
	if len(*c.Section(CallReplace.Options).(*CallReplaceOptions)) != 1 || len(*c.Section(VarReplace.Options).(*VarReplaceOptions)) != 1 {
		t.Errorf("README example parsed as %+v", c)
	}
	// Every operator's section is in the reference, so that a new option
	// is documented where users look for it.
	for _, op := range All {
		if op.Options != nil && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(op.Options.Key)+`:`).MatchString(src) {
			t.Errorf("docs/config.md's example has no %s: section (operator %s)", op.Options.Key, op.Name)
		}
	}
}
