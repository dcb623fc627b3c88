package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The tests' schema: two operator sections of the shapes operators use, a
// mapping of sizes (with a Validate) and a list of entries (with Lines and
// a CheckNames).

type sizes struct {
	Counts []int           `yaml:"counts"`
	Waits  []time.Duration `yaml:"waits"`
	Names  []string        `yaml:"names"`
}

func (s *sizes) Validate() error {
	for i, n := range s.Counts {
		if n <= 0 {
			return Invalid([]any{"counts", i}, "spin counts must be positive, got %d", n)
		}
	}
	return nil
}

type entry struct {
	Func string `yaml:"func"`
	Line int    `yaml:"-"`
}

type entries []entry

func (es *entries) CheckNames(r Resolver) error {
	for _, e := range *es {
		if !r.HasFunc(e.Func) {
			return InvalidAtLine(e.Line, "replace: no function %s", e.Func)
		}
	}
	return nil
}

var (
	sizesSection   = &Section{Key: "spin", New: func() any { return &sizes{Counts: []int{10, 100}} }}
	entriesSection = &Section{Key: "replace", New: func() any { return &entries{} }}
	schema         = Schema{Operators: []string{"spin", "replace", "loop-unbreaker"}, Sections: []*Section{sizesSection, entriesSection, sizesSection}}
)

func TestParse(t *testing.T) {
	src := `# comment
operators: [spin]
packages:
  include: [example.com/m/...]
spin:
  waits: [1ms]
replace:
  - func: a.F
  - func: b.G
metrics: [p99-ns/op]
skip-benchmarks: [BenchmarkNet/.]
`
	c, err := Parse([]byte(src), "perfmut.yaml", schema)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "perfmut.yaml" || !reflect.DeepEqual(c.Operators, []string{"spin"}) || !reflect.DeepEqual(c.Packages.Include, []string{"example.com/m/..."}) ||
		!reflect.DeepEqual(c.Metrics, []string{"p99-sec/op"}) || !reflect.DeepEqual(c.SkipBenchmarks, []string{"BenchmarkNet/."}) {
		t.Errorf("Parse = %+v", c)
	}
	if got, want := c.Section(sizesSection), (&sizes{Counts: []int{10, 100}, Waits: []time.Duration{time.Millisecond}}); !reflect.DeepEqual(got, want) {
		t.Errorf("spin = %+v, want %+v (counts: the default)", got, want)
	}
	if got, want := c.Section(entriesSection), (&entries{{"a.F", 8}, {"b.G", 9}}); !reflect.DeepEqual(got, want) {
		t.Errorf("replace = %+v, want %+v", got, want)
	}
	err = c.CheckNames(fakeResolver{"a.F": true})
	if err == nil || err.Error() != "perfmut.yaml:9: replace: no function b.G" {
		t.Errorf("CheckNames = %v", err)
	}
	if err := c.CheckNames(fakeResolver{"a.F": true, "b.G": true}); err != nil {
		t.Errorf("CheckNames = %v", err)
	}
}

type fakeResolver map[string]bool

func (r fakeResolver) HasFunc(n string) bool             { return r[n] }
func (r fakeResolver) HasFunction(string) bool           { return false }
func (r fakeResolver) HasLocalVar(string, []string) bool { return false }
func (r fakeResolver) PackageLoaded(string) bool         { return false }
func (r fakeResolver) Complete() bool                    { return true }

func TestParseEmptyIsDefault(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "{}\n", "spin:\n", "replace:\n"} {
		c, err := Parse([]byte(src), "perfmut.yaml", schema)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if c.Path != "perfmut.yaml" || c.Operators != nil || !reflect.DeepEqual(c.Packages, Packages{}) || c.Metrics != nil || c.SkipBenchmarks != nil {
			t.Errorf("%q: got %+v, want defaults", src, c)
		}
		if got := c.Section(sizesSection); !reflect.DeepEqual(got, sizesSection.New()) {
			t.Errorf("%q: spin = %+v, want the defaults", src, got)
		}
		if got := c.Section(entriesSection); !reflect.DeepEqual(got, entriesSection.New()) {
			t.Errorf("%q: replace = %+v, want the defaults", src, got)
		}
	}
	if got := Default().Section(sizesSection); !reflect.DeepEqual(got, sizesSection.New()) {
		t.Errorf("Default: spin = %+v, want the defaults", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"operatorz: [spin]\n", `perfmut.yaml:1: unknown key "operatorz" (did you mean "operators"?)`},
		{"sppin:\n  counts: [1]\n", `perfmut.yaml:1: unknown key "sppin" (did you mean "spin"?)`},
		{"spinach:\n", `perfmut.yaml:1: unknown key "spinach" (valid keys: operators, packages, metrics, skip-benchmarks, and an operator's options such as spin:; perfmut list -h lists them)`},
		{"packages:\n  includes: [a]\n", `perfmut.yaml:2: unknown key "includes" (valid keys: include, exclude)`},
		{"spin:\n  count: [1]\n", `perfmut.yaml:2: unknown key "count" (valid keys: counts, waits, names)`},
		{"replace:\n  - fun: a.F\n", `perfmut.yaml:2: unknown key "fun" (valid keys: func)`},
		{"operators: [spin, nap]\n", `perfmut.yaml:1: unknown operator "nap" (perfmut list -h lists the operators)`},
		{"operators: [spin, loop-unbraker]\n", `perfmut.yaml:1: unknown operator "loop-unbraker" (did you mean "loop-unbreaker"? perfmut list -h lists the operators)`},
		{"operators:\n  - spin\n  - nap\n", `perfmut.yaml:3: unknown operator "nap"`},
		{"operators: spin\n", `perfmut.yaml:1: got str "spin", want a list`},
		{"spin:\n  counts: [10, lots]\n", `perfmut.yaml:2: got str "lots", want an integer`},
		{"spin:\n  counts:\n    - 10\n    - -5\n", `perfmut.yaml:4: spin counts must be positive, got -5`},
		{"spin:\n  counts: []\n", `perfmut.yaml:2: spin.counts is empty; remove the key to use the defaults or disable the operator with operators:`},
		{"spin:\n  waits: [1 ms]\n", `perfmut.yaml:2: got str "1 ms", want a duration such as 1ms or 500us`},
		{"spin: [1]\n", `perfmut.yaml:1: got a list, want a mapping`},
		{"replace:\n  func: a.F\n", `perfmut.yaml:2: got a mapping, want a list`},
		{"replace:\n  - func: [a]\n", `perfmut.yaml:2: got a list, want a string`},
		{"- spin\n", `perfmut.yaml:1: got a list, want a mapping`},
		{"skip-benchmarks: [BenchmarkA/(]\n", `perfmut.yaml:1: skip-benchmarks "BenchmarkA/(" is not a regular expression`},
		{"a: [\n", `perfmut.yaml:1: did not find expected node content`},
	} {
		_, err := Parse([]byte(tc.src), "perfmut.yaml", schema)
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
	// spin.names may be empty: its default is.
	if _, err := Parse([]byte("spin:\n  names: []\n"), "perfmut.yaml", schema); err != nil {
		t.Errorf("names: []: %v", err)
	}
}

func TestSchemaValidate(t *testing.T) {
	other := &Section{Key: "spin", New: sizesSection.New}
	for _, tc := range []struct {
		s    Schema
		want string
	}{
		{schema, ""},
		{Schema{Sections: []*Section{sizesSection, other}}, `section "spin": two sections have that key; operators sharing options share one *Section`},
		{Schema{Sections: []*Section{{Key: "metrics", New: sizesSection.New}}}, `section "metrics": the key is one of the file's own keys`},
		{Schema{Sections: []*Section{{Key: "x"}}}, `section "x": New is nil`},
		{Schema{Sections: []*Section{{Key: "x", New: func() any { return sizes{} }}}}, `section "x": New returns config.sizes, want a pointer`},
	} {
		got := ""
		if err := tc.s.Validate(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Validate = %q, want %q", got, tc.want)
		}
	}
	if _, err := Parse(nil, "perfmut.yaml", Schema{Sections: []*Section{{Key: "x"}}}); err == nil {
		t.Error("Parse with an invalid schema: no error")
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("spin:\n  waits: [3ms]\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, "m/perfmut.yaml", schema)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "m/perfmut.yaml" || !reflect.DeepEqual(c.Section(sizesSection).(*sizes).Waits, []time.Duration{3 * time.Millisecond}) {
		t.Errorf("Load = %+v", c)
	}
	_, err = Load(filepath.Join(dir, "missing.yaml"), "missing.yaml", schema)
	if err == nil || err.Error() != "missing.yaml: no such file" {
		t.Errorf("Load(missing) error = %v", err)
	}
}

func TestParseFuncName(t *testing.T) {
	for _, tc := range []struct {
		in             string
		path, recv, fn string
		ptr, ok        bool
	}{
		{"example.com/m/pkg.isASCII", "example.com/m/pkg", "", "isASCII", false, true},
		{"(*example.com/m/pkg.T).M", "example.com/m/pkg", "T", "M", true, true},
		{"(example.com/m.T).M", "example.com/m", "T", "M", false, true},
		{"strings.Contains", "strings", "", "Contains", false, true},
		{"isASCII", "", "", "", false, false},
		{"example.com/m/pkg", "", "", "", false, false},
		{"(*example.com/m/pkg.T)", "", "", "", false, false},
		{"(*example.com/m/pkg.T).M.N", "", "", "", false, false},
	} {
		path, recv, ptr, fn, ok := ParseFuncName(tc.in)
		if path != tc.path || recv != tc.recv || ptr != tc.ptr || fn != tc.fn || ok != tc.ok {
			t.Errorf("ParseFuncName(%q) = %q %q %v %q %v", tc.in, path, recv, ptr, fn, ok)
		}
	}
}
