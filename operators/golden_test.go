package operators

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// A golden file testdata/<operator>.txtar holds a small module (go.mod and
// Go files), an optional config.yaml (a perfmut.yaml), the context of the
// operator's doc example (doc-example.go and optionally doc-config.yaml,
// which TestDocExamples reads) and a "want" section: one block per mutant
// with its position, params and description and the unified diff of the
// mutated file. The module's lines also say which mutants they expect, in
// // want comments (see want_test.go).

const wantSection = "want"

// helperFile is the base name the tests give the generated helper file.
const helperFile = "zz_perfmut_helper.go"

// A result is one site an operator reported, applied.
type result struct {
	pkg     *packages.Package
	file    string // absolute path of the mutated file
	rel     string // module-relative, slash-separated
	site    mutate.Site
	pos     token.Position
	src     []byte // original content
	mutated []byte
}

// testModule is a txtar module written to a temporary directory and loaded.
type testModule struct {
	dir     string
	cfg     *config.Config
	archive *txtar.Archive
	pkgs    []*packages.Package       // the module's packages, sorted by path
	std     map[string]*types.Package // helper imports loaded as roots
	imports map[string]map[string]*types.Package
}

func loadModule(t testing.TB, path string) *testModule {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := &testModule{dir: t.TempDir(), cfg: config.Default(), archive: ar}
	for _, f := range ar.Files {
		switch f.Name {
		case wantSection, docExampleSection, docConfigSection:
			continue
		case "config.yaml":
			cfg, err := config.Parse(f.Data, path+": config.yaml", mutate.Schema(All))
			if err != nil {
				t.Fatal(err)
			}
			m.cfg = cfg
			continue
		}
		p := filepath.Join(m.dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m.load(t, []string{"./..."}, func(p *packages.Package) bool { return p.Module != nil && p.Module.Main })
	return m
}

// helperImports are the packages some operator's helper imports.
func helperImports() []string {
	seen := map[string]bool{}
	var out []string
	for _, op := range All {
		for _, imp := range op.HelperImports {
			if !seen[imp] {
				seen[imp] = true
				out = append(out, imp)
			}
		}
	}
	sort.Strings(out)
	return out
}

func goEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
}

// load loads patterns (plus the helpers' imports); mutable selects the
// packages to mutate.
func (m *testModule) load(t testing.TB, patterns []string, mutable func(*packages.Package) bool) {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
		Dir: m.dir,
		Env: goEnv(),
	}
	pkgs, err := packages.Load(cfg, append(patterns, helperImports()...)...)
	if err != nil {
		t.Fatal(err)
	}
	m.std = map[string]*types.Package{}
	m.imports = map[string]map[string]*types.Package{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("loading %s: %v", p.PkgPath, e)
		}
		if !mutable(p) {
			m.std[p.PkgPath] = p.Types
			continue
		}
		m.pkgs = append(m.pkgs, p)
		deps := map[string]*types.Package{}
		var walk func(*types.Package)
		walk = func(tp *types.Package) {
			for _, d := range tp.Imports() {
				if deps[d.Path()] == nil {
					deps[d.Path()] = d
					walk(d)
				}
			}
		}
		walk(p.Types)
		m.imports[p.PkgPath] = deps
	}
	sort.Slice(m.pkgs, func(i, j int) bool { return m.pkgs[i].PkgPath < m.pkgs[j].PkgPath })
}

// run runs op over every non-test file of the module and applies each site.
func (m *testModule) run(t testing.TB, op *mutate.Operator) []result {
	t.Helper()
	var out []result
	for _, p := range m.pkgs {
		for i, file := range p.CompiledGoFiles {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(m.dir, file)
			var sites []mutate.Site
			pass := &mutate.Pass{
				Fset: p.Fset, File: p.Syntax[i], Files: p.Syntax, Src: src, Pkg: p.Types, Info: p.TypesInfo, Config: m.cfg, Options: m.cfg.Section(op.Options),
				Report: func(s mutate.Site) { sites = append(sites, s) },
			}
			op.Run(pass)
			for _, s := range sites {
				mutated, err := mutate.ApplyEdits(src, s.Edits)
				if err != nil {
					t.Fatalf("%s: %s: %v", op.Name, s.Description, err)
				}
				out = append(out, result{
					pkg: p, file: file, rel: filepath.ToSlash(rel), site: s,
					pos: p.Fset.Position(s.Node.Pos()), src: src, mutated: mutated,
				})
			}
		}
	}
	return out
}

// helperSource is the helper file as the engine assembles it.
func helperSource(pkgName string, op *mutate.Operator) string {
	if op.Helper == "" {
		return ""
	}
	return helperFileContent(pkgName, op)
}

// siteHelper is the helper file a site needs: none unless one of its edits
// refers to a helper identifier.
func siteHelper(pkgName string, op *mutate.Operator, s mutate.Site) string {
	for _, e := range s.Edits {
		if strings.Contains(e.New, mutate.HelperPrefix) {
			return helperSource(pkgName, op)
		}
	}
	return ""
}

func helperFileContent(pkgName string, op *mutate.Operator) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by perfmut. DO NOT EDIT.\n\npackage %s\n", pkgName)
	if len(op.HelperImports) > 0 {
		b.WriteString("\nimport (\n")
		for _, imp := range op.HelperImports {
			fmt.Fprintf(&b, "\t%q\n", imp)
		}
		b.WriteString(")\n")
	}
	b.WriteString("\n" + op.Helper)
	return b.String()
}

// check parses the mutated file and type-checks the mutated package with
// the helper file, as the compiler would see it.
func (m *testModule) check(r result, op *mutate.Operator) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, file := range r.pkg.CompiledGoFiles {
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if file == r.file {
			src = r.mutated
		}
		f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("mutated file does not parse: %w", err)
		}
		files = append(files, f)
	}
	if h := siteHelper(r.pkg.Name, op, r.site); h != "" {
		f, err := parser.ParseFile(fset, filepath.Join(filepath.Dir(r.file), helperFile), h, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("helper does not parse: %w", err)
		}
		files = append(files, f)
	}
	deps := m.imports[r.pkg.PkgPath]
	var errs []string
	conf := types.Config{
		GoVersion: goVersion(r.pkg),
		Sizes:     types.SizesFor("gc", runtime.GOARCH),
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if p := deps[path]; p != nil {
				return p, nil
			}
			if p := deps["vendor/"+path]; p != nil { // the standard library's vendored packages
				return p, nil
			}
			if p := m.std[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("package %s not loaded", path)
		}),
		Error: func(err error) { errs = append(errs, err.Error()) },
	}
	conf.Check(r.pkg.PkgPath, fset, files, nil)
	if len(errs) > 0 {
		return fmt.Errorf("mutant does not type-check:\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

func goVersion(p *packages.Package) string {
	if p.Module != nil && p.Module.GoVersion != "" {
		return "go" + p.Module.GoVersion
	}
	return ""
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// format renders the results as the golden "want" section.
func format(rs []result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d mutants\n", len(rs))
	for _, r := range rs {
		params := "{}"
		if len(r.site.Params) > 0 {
			j, _ := json.Marshal(r.site.Params)
			params = string(j)
		}
		fmt.Fprintf(&b, "\n=== %s:%d:%d %s %s\n", r.rel, r.pos.Line, r.pos.Column, params, r.site.Description)
		b.WriteString(unifiedDiff(string(r.src), string(r.mutated), 1))
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	if err := Validate(All); err != nil {
		t.Fatal(err)
	}
	for _, op := range All {
		variants, _ := filepath.Glob(filepath.Join("testdata", op.Name+".*.txtar"))
		for _, path := range append([]string{filepath.Join("testdata", op.Name+".txtar")}, variants...) {
			t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) { testGolden(t, op, path) })
		}
	}
}

// testGolden checks the golden file path of op: a golden file
// testdata/<operator>.txtar per operator, plus optional variants
// testdata/<operator>.<variant>.txtar (another module, e.g. an older go
// directive).
func testGolden(t *testing.T, op *mutate.Operator, path string) {
	m := loadModule(t, path)
	rs := m.run(t, op)
	for _, r := range rs {
		checkSite(t, op, r)
		if err := m.check(r, op); err != nil {
			t.Errorf("%s:%d:%d %s: %v\n%s", r.rel, r.pos.Line, r.pos.Column, r.site.Description, err, r.mutated)
		}
	}
	checkExpectations(t, m.archive, rs)
	got := format(rs)
	if *update {
		writeWant(t, path, m.archive, got)
		return
	}
	var want string
	for _, f := range m.archive.Files {
		if f.Name == wantSection {
			want = string(f.Data)
		}
	}
	if got != want {
		t.Errorf("%s: mutants differ from the golden file (run go test ./operators -run TestGolden -update):\n%s",
			path, unifiedDiff(want, got, 2))
	}
}

// checkSite checks the contract of a reported site.
func checkSite(t *testing.T, op *mutate.Operator, r result) {
	t.Helper()
	s := r.site
	where := fmt.Sprintf("%s:%d:%d", r.rel, r.pos.Line, r.pos.Column)
	if s.Node == nil || s.Description == "" || len(s.Edits) == 0 {
		t.Errorf("%s: site without node, description or edits: %+v", where, s)
	}
	if bytes.Equal(r.src, r.mutated) {
		t.Errorf("%s: %s: mutant equals the original", where, s.Description)
	}
	if _, ok := s.Params[op.Size]; op.Size != "" && !ok {
		t.Errorf("%s: site of a sized operator without its %s param", where, op.Size)
	}
}

func writeWant(t *testing.T, path string, ar *txtar.Archive, want string) {
	t.Helper()
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == wantSection {
			ar.Files[i].Data = []byte(want)
			found = true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: wantSection, Data: []byte(want)})
	}
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	good := func() *mutate.Operator {
		return &mutate.Operator{
			Name: "x-op", Quadrant: mutate.Q3, Cost: mutate.CostWork,
			Doc:    mutate.Doc{Title: "t", Body: "b", Before: "x", After: "y"},
			Helper: "func perfmut_x() { time.Sleep(1) }\n", HelperImports: []string{"time"},
			Run: func(*mutate.Pass) {},
		}
	}
	tests := []struct {
		name string
		edit func(op *mutate.Operator) []*mutate.Operator
		want string // substring of the error; "" = valid
	}{
		{"ok", func(op *mutate.Operator) []*mutate.Operator { return []*mutate.Operator{op} }, ""},
		{"camel", func(op *mutate.Operator) []*mutate.Operator { op.Name = "xOp"; return []*mutate.Operator{op} }, "not kebab-case"},
		{"dup", func(op *mutate.Operator) []*mutate.Operator {
			op.Helper = ""
			op.HelperImports = nil
			return []*mutate.Operator{op, op}
		}, "duplicate name"},
		{"quadrant", func(op *mutate.Operator) []*mutate.Operator { op.Quadrant = "Q1"; return []*mutate.Operator{op} }, "unknown quadrant"},
		{"inert Q4", func(op *mutate.Operator) []*mutate.Operator {
			op.Quadrant, op.Inert = mutate.Q4, true
			return []*mutate.Operator{op}
		}, "Inert is for Q3 operators"},
		{"cost unset", func(op *mutate.Operator) []*mutate.Operator { op.Cost = 0; return []*mutate.Operator{op} }, "Cost is unset; set it"},
		{"cost unknown", func(op *mutate.Operator) []*mutate.Operator { op.Cost = 7; return []*mutate.Operator{op} }, "Cost is Cost(7)"},
		{"contention without cost", func(op *mutate.Operator) []*mutate.Operator {
			op.Contention = mutate.ContentionWorse
			return []*mutate.Operator{op}
		}, "Cost work with Contention 1"},
		{"cost without contention", func(op *mutate.Operator) []*mutate.Operator {
			op.Cost = mutate.CostContention
			return []*mutate.Operator{op}
		}, "Cost contention with Contention 0"},
		{"contention", func(op *mutate.Operator) []*mutate.Operator {
			op.Cost, op.Contention = mutate.CostContention, mutate.ContentionOnly
			return []*mutate.Operator{op}
		}, ""},
		{"doc", func(op *mutate.Operator) []*mutate.Operator { op.Doc.After = " "; return []*mutate.Operator{op} }, "Doc.After is empty"},
		{"run", func(op *mutate.Operator) []*mutate.Operator { op.Run = nil; return []*mutate.Operator{op} }, "Run is nil"},
		{"prefix", func(op *mutate.Operator) []*mutate.Operator {
			op.Helper += "var sink int\n"
			return []*mutate.Operator{op}
		}, "declares sink"},
		{"import", func(op *mutate.Operator) []*mutate.Operator {
			op.HelperImports = []string{"example.com/x"}
			return []*mutate.Operator{op}
		}, "not a standard-library package"},
		{"own import", func(op *mutate.Operator) []*mutate.Operator {
			op.Helper = "import \"os\"\n" + op.Helper
			return []*mutate.Operator{op}
		}, "own import"},
		{"parse", func(op *mutate.Operator) []*mutate.Operator {
			op.Helper = "func perfmut_x( {"
			return []*mutate.Operator{op}
		}, "does not parse"},
		{"shared helper", func(op *mutate.Operator) []*mutate.Operator {
			other := good()
			other.Name = "y-op"
			return []*mutate.Operator{op, other}
		}, "as does operator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.edit(good()))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate: got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestByName(t *testing.T) {
	for _, op := range All {
		if ByName(op.Name) != op {
			t.Errorf("ByName(%q) is not the operator", op.Name)
		}
	}
	if ByName("no-such") != nil {
		t.Error("ByName(no-such) is not nil")
	}
}

// TestHelperNames checks that the names the Q3 operators guard against
// collisions are exactly their helpers' identifiers and import names.
func TestHelperNames(t *testing.T) {
	for _, tt := range []struct {
		op    *mutate.Operator
		names helperNames
	}{{SpinLoop, spinNames}, {Sleep, sleepNames}, {AllocChurn, allocNames}, {LockContention, lockNames},
		{CriticalSpin, critSpinNames}, {AtomicToMutex, atomicNames}, {TailSpike, tailNames}} {
		ids, err := helperIdents(tt.op)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range tt.op.HelperImports {
			ids = append(ids, imp[strings.LastIndex(imp, "/")+1:])
		}
		got := append(append([]string(nil), tt.names.calls...), tt.names.pkgLevel...)
		sort.Strings(ids)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(ids, " ") {
			t.Errorf("%s: helperNames list %v, helper declares and imports %v", tt.op.Name, got, ids)
		}
	}
}
