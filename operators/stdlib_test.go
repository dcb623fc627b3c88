package operators

import (
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// stdlibPackages is real, varied code to run the operators over.
var stdlibPackages = []string{
	"strings", "bytes", "strconv", "sort", "bufio", "container/list", "text/tabwriter",
	"unicode/utf8", "path", "regexp/syntax", "encoding/csv", "go/scanner", "html",
	"expvar", "text/template", "fmt", "database/sql", // locks, pools, atomics, channels
}

// TestStdlibMutantsTypeCheck runs every operator over some standard-library
// packages and type-checks each mutant with its helper file: the operators'
// checks (unused variables and imports, shadowing, nameable types,
// assignability) must hold on real code, not only on the golden inputs. Q3
// sizes are cut to one each; the Q2 entries name functions these packages
// call.
func TestStdlibMutantsTypeCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks thousands of mutants; skipped with -short")
	}
	m := &testModule{dir: t.TempDir(), cfg: yamlConfig(t, `
spin-loop:
  iterations: [1000]
call-replace:
  - {func: unicode/utf8.RuneLen, value: "1"}
  - {func: "(*strings.Builder).Len", value: "0"}
  - {func: unicode.IsSpace, value: "false"}
  - {func: bytes.IndexByte, value: "-1"}
var-replace:
  - {var: n, value: "0"}
  - {var: ok, value: "false"}
  - {var: i, value: "0"}
`)}
	pkgs := stdlibPackages
	if env := os.Getenv("PERFMUT_OPERATORS_STD"); env != "" {
		pkgs = strings.Split(env, ",") // e.g. encoding/json,math/big
	}
	m.load(t, pkgs, func(p *packages.Package) bool { return slices.Contains(pkgs, p.PkgPath) })
	counts := map[string]int{}
	for _, op := range All {
		rs := m.run(t, op)
		counts[op.Name] = len(rs)
		if op.Quadrant == mutate.Q3 && len(rs) > 25 {
			rs = rs[:25] // the same insertion everywhere; a sample will do
		}
		for _, r := range rs {
			if err := m.check(r, op); err != nil {
				t.Errorf("%s: %s:%d:%d %s: %v", op.Name, r.pkg.PkgPath+"/"+baseName(r.file), r.pos.Line, r.pos.Column, r.site.Description, err)
			}
		}
	}
	t.Logf("mutants per operator: %v", counts)
	for _, op := range All {
		if op.Quadrant != mutate.Q2 && counts[op.Name] == 0 {
			t.Errorf("%s: no mutant in %d standard-library packages", op.Name, len(pkgs))
		}
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// TestExternalModule runs every operator over the module in
// $PERFMUT_OPERATORS_MODULE (skipped when unset) and type-checks each mutant
// (Q3 sampled), e.g. a copy of github.com/google/btree
// ($PERFMUT_OPERATORS_PATTERNS selects packages; default ./...):
//
//	PERFMUT_OPERATORS_MODULE=/tmp/btree go test ./operators -run ExternalModule -v
func TestExternalModule(t *testing.T) {
	dir := os.Getenv("PERFMUT_OPERATORS_MODULE")
	if dir == "" {
		t.Skip("set PERFMUT_OPERATORS_MODULE to a module directory")
	}
	patterns := strings.Fields(os.Getenv("PERFMUT_OPERATORS_PATTERNS"))
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	m := &testModule{dir: dir, cfg: config.Default()}
	m.load(t, patterns, func(p *packages.Package) bool { return p.Module != nil && p.Module.Main })
	counts := map[string]int{}
	for _, op := range All {
		rs := m.run(t, op)
		counts[op.Name] = len(rs)
		if op.Quadrant == mutate.Q3 && len(rs) > 25 {
			rs = rs[:25]
		}
		for _, r := range rs {
			if os.Getenv("PERFMUT_OPERATORS_LIST") != "" {
				t.Logf("%s: %s:%d:%d %s", op.Name, r.rel, r.pos.Line, r.pos.Column, r.site.Description)
			}
			if err := m.check(r, op); err != nil {
				t.Errorf("%s: %s:%d:%d %s: %v", op.Name, r.rel, r.pos.Line, r.pos.Column, r.site.Description, err)
			}
		}
	}
	t.Logf("mutants per operator: %v", counts)
}
