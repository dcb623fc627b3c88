package mutate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/testutil"
	"golang.org/x/tools/txtar"
)

// writeModule extracts testdata/name.txtar into a temporary directory and
// returns it.
func writeModule(t testing.TB, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t testing.TB, dir string, ops []*Operator, patterns ...string) *Program {
	t.Helper()
	p, err := Load(context.Background(), Options{Dir: dir, Patterns: patterns, Operators: ops, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func generate(t testing.TB, p *Program) []Mutant {
	t.Helper()
	ms, err := p.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// summary renders mutants without their IDs, one per line.
func summary(ms []Mutant) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%s:%d:%d %s %s %s %v\n", m.File, m.Line, m.Column, m.Function, m.Operator, m.Quadrant, m.Params)
	}
	return b.String()
}

func TestScope(t *testing.T) {
	dir := writeModule(t, "scope")
	p := load(t, dir, []*Operator{testCapDrop})
	if p.Module.Path != "example.com/scope" || p.Module.GoVersion != "1.22" {
		t.Errorf("Module = %+v", p.Module)
	}
	var pkgs []string
	for _, pkg := range p.Packages {
		var files []string
		for _, f := range pkg.Files {
			rel, _ := filepath.Rel(dir, f)
			files = append(files, filepath.ToSlash(rel))
		}
		pkgs = append(pkgs, fmt.Sprintf("%s %s %v %v", pkg.ImportPath, pkg.Name, pkg.Imports, files))
	}
	want := []string{
		"example.com/scope/a a [] [a/a.go]",
		"example.com/scope/b b [example.com/scope/a] [b/b.go]",
	}
	if strings.Join(pkgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("packages:\n%s\nwant\n%s", strings.Join(pkgs, "\n"), strings.Join(want, "\n"))
	}
	got := summary(generate(t, p))
	wantMs := `a/a.go:7:13 init test-cap-drop Q4 map[]
a/a.go:9:31 init test-cap-drop Q4 map[]
a/a.go:24:9 (*T).Grow test-cap-drop Q4 map[]
a/a.go:25:20 (*T).Grow test-cap-drop Q4 map[]
a/a.go:36:6 (*G).Reset test-cap-drop Q4 map[]
b/b.go:5:44 Use test-cap-drop Q4 map[]
`
	if got != wantMs {
		t.Errorf("mutants:\n%s\nwant\n%s", got, wantMs)
	}
}

// TestPackageDirs: every loaded package knows its directory, also one
// with only test files (and a file its build constraints exclude), whose
// directory go/packages cannot derive from its Go files.
func TestPackageDirs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/dirs\n\ngo 1.22\n",
		"a/a.go":       "package a\n\nfunc A() []int { return make([]int, 0, 4) }\n",
		"b/b_test.go":  "package b\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dirs/a\"\n)\n\nfunc TestA(t *testing.T) { a.A() }\n",
		"b/ignored.go": "//go:build ignore\n\npackage b\n",
	})
	p := load(t, dir, []*Operator{testCapDrop}, "./...")
	got := map[string]string{}
	for _, pkg := range p.Packages {
		got[pkg.ImportPath] = pkg.Dir
	}
	want := map[string]string{"example.com/dirs/a": filepath.Join(dir, "a"), "example.com/dirs/b": filepath.Join(dir, "b")}
	for path, d := range want {
		if got[path] != d {
			t.Errorf("package %s: Dir %q, want %q (all: %v)", path, got[path], d, got)
		}
	}
}

func TestTags(t *testing.T) {
	dir := writeModule(t, "scope")
	p, err := Load(context.Background(), Options{Dir: dir, Patterns: []string{"./a"}, Tags: []string{"special"}, Operators: []*Operator{testCapDrop}})
	if err != nil {
		t.Fatal(err)
	}
	got := summary(generate(t, p))
	if !strings.Contains(got, "a/tagged.go:5:") {
		t.Errorf("with -tags special, tagged.go is not mutated:\n%s", got)
	}
}

func TestParamsAndOrder(t *testing.T) {
	dir := writeModule(t, "scope")
	p := load(t, dir, []*Operator{testSpin, testCapDrop}, "./a")
	ms := generate(t, p)
	got := summary(ms)
	want := `a/a.go:7:13 init test-cap-drop Q4 map[]
a/a.go:9:31 init test-cap-drop Q4 map[]
a/a.go:17:2 Lower test-spin Q3 map[iterations:10]
a/a.go:17:2 Lower test-spin Q3 map[iterations:100]
a/a.go:24:9 (*T).Grow test-cap-drop Q4 map[]
a/a.go:25:20 (*T).Grow test-cap-drop Q4 map[]
a/a.go:36:6 (*G).Reset test-cap-drop Q4 map[]
`
	if got != want {
		t.Errorf("mutants:\n%s\nwant\n%s", got, want)
	}
	for _, m := range ms {
		if m.Params == nil {
			t.Errorf("%s: nil params", m.ID)
		}
		if (m.Operator == "test-spin") != (m.HelperFile != "") {
			t.Errorf("%s: HelperFile = %q", m.ID, m.HelperFile)
		}
	}
}

func TestIDsStable(t *testing.T) {
	dir := writeModule(t, "scope")
	ids := func() map[string]string { // ID -> function:operator:params
		p := load(t, dir, []*Operator{testSpin, testCapDrop}, "./a")
		out := map[string]string{}
		for _, m := range generate(t, p) {
			if len(m.ID) != 12 || strings.Trim(m.ID, "0123456789abcdef") != "" {
				t.Errorf("ID %q is not 12 hex digits", m.ID)
			}
			out[m.ID] = fmt.Sprintf("%s %s %v", m.Function, m.Operator, m.Params)
		}
		return out
	}
	before := ids()
	if again := ids(); fmt.Sprint(again) != fmt.Sprint(before) {
		t.Fatalf("IDs differ between two runs:\n%v\n%v", before, again)
	}
	// An edit elsewhere in the file: new lines at the top, a changed
	// function, a new function.
	path := filepath.Join(dir, "a", "a.go")
	src, _ := os.ReadFile(path)
	edited := strings.Replace(string(src), `import "strings"`, "import \"strings\"\n\n// Added.\nvar added = 1\n\nfunc New() []int { return make([]int, 0, 99) }\n", 1)
	edited = strings.Replace(edited, "return len(x) + len(t.xs)", "return len(x) + len(t.xs) + added", 1)
	if err := os.WriteFile(path, []byte(edited), 0o666); err != nil {
		t.Fatal(err)
	}
	after := ids()
	for id, what := range before {
		if after[id] != what {
			t.Errorf("mutant %s (%s) lost its ID after an unrelated edit", id, what)
		}
	}
	if len(after) != len(before)+1 {
		t.Errorf("after the edit: %d mutants, want %d", len(after), len(before)+1)
	}
}

func TestIdenticalSites(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/same\n\ngo 1.22\n",
		"s.go": `package same

func F() ([]int, []int) {
	a := make([]int, 0, 4)
	b := make([]int, 0, 4)
	return a, b
}

func G() []int { return make([]int, 0, 4) }
`,
	})
	p := load(t, dir, []*Operator{testCapDrop})
	ms := generate(t, p)
	if len(ms) != 3 {
		t.Fatalf("got %d mutants, want 3", len(ms))
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.ID] {
			t.Errorf("duplicate ID %s", m.ID)
		}
		seen[m.ID] = true
	}
	// Removing the first of the two identical sites makes the second one
	// take over the first's ordinal, hence its ID; G's is unaffected.
	writeFiles(t, dir, map[string]string{"s.go": `package same

func F() ([]int, []int) {
	var a []int
	b := make([]int, 0, 4)
	return a, b
}

func G() []int { return make([]int, 0, 4) }
`})
	ms2 := generate(t, load(t, dir, []*Operator{testCapDrop}))
	if len(ms2) != 2 || ms2[0].ID != ms[0].ID || ms2[1].ID != ms[2].ID {
		t.Errorf("IDs after removal = %v, want [%s %s]", ids(ms2), ms[0].ID, ms[2].ID)
	}
}

func ids(ms []Mutant) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOverlayDiffCheck(t *testing.T) {
	dir := writeModule(t, "scope")
	p := load(t, dir, []*Operator{testSpin, testCapDrop, testBreak}, "./a")
	ms := generate(t, p)
	var spin, capd, broken *Mutant
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Operator == "test-spin" && m.Params["iterations"] == 10 && spin == nil:
			spin = m
		case m.Operator == "test-cap-drop" && m.Function == "(*T).Grow" && capd == nil:
			capd = m
		case m.Operator == "test-break" && broken == nil:
			broken = m
		}
	}
	if spin == nil || capd == nil || broken == nil {
		t.Fatalf("missing mutants:\n%s", summary(ms))
	}

	ov, err := p.Overlay(*spin)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "a", "a.go")
	helper := filepath.Join(dir, "a", "perfmut_helper_"+spin.ID+".go")
	if len(ov) != 2 || ov[file] == nil || ov[helper] == nil {
		t.Fatalf("overlay keys = %v, want %s and %s", keys(ov), file, helper)
	}
	if !strings.Contains(string(ov[file]), "for i := 0; i < len(s); i++ { perfmut_testSpin(10);\n") {
		t.Errorf("mutated file:\n%s", ov[file])
	}
	wantHelper := "// Code generated by perfmut. DO NOT EDIT.\n\npackage a\n\nimport (\n\t\"sync\"\n)\n\nvar perfmut_testMu sync.Mutex\n"
	if !strings.HasPrefix(string(ov[helper]), wantHelper) {
		t.Errorf("helper file:\n%s\nwant prefix\n%s", ov[helper], wantHelper)
	}

	diff, err := p.Diff(*spin)
	if err != nil {
		t.Fatal(err)
	}
	wantDiff := `--- a/a/a.go
+++ b/a/a.go
@@ -14,7 +14,7 @@
 
 func Lower(s string) string {
 	var b strings.Builder
-	for i := 0; i < len(s); i++ {
+	for i := 0; i < len(s); i++ { perfmut_testSpin(10);
 		b.WriteByte(s[i])
 	}
 	return b.String()
--- /dev/null
+++ b/a/perfmut_helper_` + spin.ID + `.go
@@ -0,0 +1,19 @@
+// Code generated by perfmut. DO NOT EDIT.
`
	if !strings.HasPrefix(diff, wantDiff) {
		t.Errorf("diff:\n%s\nwant prefix:\n%s", diff, wantDiff)
	}
	diff, err = p.Diff(*capd)
	if err != nil {
		t.Fatal(err)
	}
	wantDiff = `--- a/a/a.go
+++ b/a/a.go
@@ -21,7 +21,7 @@
 }
 
 func (t *T) Grow(n int) {
-	t.xs = make([]int, 0, n)
+	t.xs = make([]int, 0)
 	f := func() { _ = make([]byte, 0, n) }
 	f()
 }
`
	if diff != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", diff, wantDiff)
	}

	for _, m := range ms {
		err := p.Check(m)
		if m.Operator == "test-break" {
			if err == nil || !strings.Contains(err.Error(), "undefined: undefinedName") || !strings.Contains(err.Error(), "a/a.go:") {
				t.Errorf("Check(%s %s:%d) = %v, want an undefined-name error", m.Operator, m.File, m.Line, err)
			}
		} else if err != nil {
			t.Errorf("Check(%s %s:%d): %v", m.Operator, m.File, m.Line, err)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestOverlayBuilds builds one helper-using mutant with go build -overlay.
func TestOverlayBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	dir := writeModule(t, "scope")
	p := load(t, dir, []*Operator{testSpin}, "./a")
	ms := generate(t, p)
	if len(ms) == 0 {
		t.Fatal("no mutants")
	}
	ov, err := p.Overlay(ms[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := goBuildOverlay(t, dir, ov, "./a"); err != nil {
		t.Fatal(err)
	}
}

// goBuildOverlay runs go build -overlay in dir with the overlay's files
// written to a temporary directory.
func goBuildOverlay(t testing.TB, dir string, ov map[string][]byte, pkgs ...string) error {
	t.Helper()
	tmp := t.TempDir()
	replace := map[string]string{}
	i := 0
	for path, content := range ov {
		f := filepath.Join(tmp, fmt.Sprintf("%d_%s", i, filepath.Base(path)))
		i++
		if err := os.WriteFile(f, content, 0o666); err != nil {
			return err
		}
		replace[path] = f
	}
	var js strings.Builder
	js.WriteString(`{"Replace":{`)
	first := true
	for k, v := range replace {
		if !first {
			js.WriteString(",")
		}
		first = false
		fmt.Fprintf(&js, "%q:%q", k, v)
	}
	js.WriteString("}}")
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, []byte(js.String()), 0o666); err != nil {
		return err
	}
	cmd := exec.Command("go", append([]string{"build", "-overlay", ovFile, "-o", os.DevNull}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -overlay: %v\n%s", err, out)
	}
	return nil
}

func TestHelperClash(t *testing.T) {
	dir := writeModule(t, "clash")
	p := load(t, dir, []*Operator{testSpin})
	got := summary(generate(t, p))
	if got != "" {
		t.Errorf("mutants in clashing packages:\n%s", got)
	}
	want := []string{
		`package example.com/clash/p: identifier perfmut_mine uses the reserved prefix "perfmut_"; skipping mutants that need a helper there`,
		`package example.com/clash/q: test file q_test.go uses the reserved prefix "perfmut_"; skipping mutants that need a helper there`,
	}
	if strings.Join(p.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(p.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

// TestHelperOnlyWhenUsed: a mutant gets its operator's helper file only if
// one of its edits calls the helper, and in a package whose names clash
// with the helper prefix only the mutants that need the helper are
// skipped.
func TestHelperOnlyWhenUsed(t *testing.T) {
	dir := writeModule(t, "clash")
	writeFiles(t, dir, map[string]string{"q/r.go": "package q\n\nfunc Count(n int) (c int) {\n\tfor i := 0; i < n; i++ {\n\t\tc++\n\t}\n\treturn c\n}\n"})
	p := load(t, dir, []*Operator{testMaybe}, "./...")
	ms := generate(t, p)
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%s:%d helper=%v", m.File, m.Line, m.HelperFile != ""))
		if (m.HelperFile != "") != (m.Helper != "") {
			t.Errorf("%s: HelperFile %q, Helper %d bytes", m.ID, m.HelperFile, len(m.Helper))
		}
		if err := p.Check(m); err != nil {
			t.Errorf("%s: %v", m.ID, err)
		}
	}
	// p and q clash (an identifier, a test file): their for loop mutants
	// (which call the helper) are skipped, their range loop mutants kept.
	want := []string{
		"p/p.go:7 helper=false",
		"q/q.go:5 helper=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mutants:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	dir = writeModule(t, "scope")
	writeFiles(t, dir, map[string]string{"b/loops.go": "package b\n\nfunc Loops(xs []int) (s int) {\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"})
	p = load(t, dir, []*Operator{testMaybe}, "./b")
	got = nil
	for _, m := range generate(t, p) {
		got = append(got, fmt.Sprintf("%s:%d helper=%v", m.File, m.Line, m.HelperFile != ""))
		if err := p.Check(m); err != nil {
			t.Errorf("%s: %v", m.ID, err)
		}
	}
	want = []string{
		"b/loops.go:4 helper=true",
		"b/loops.go:7 helper=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mutants:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHelperNames(t *testing.T) {
	for _, tc := range []struct {
		helper string
		want   string
	}{
		{"var perfmut_a, perfmut_b int\n\ntype perfmut_T struct{}\n\nfunc (perfmut_T) perfmut_m() {}\n\nfunc perfmut_f() {}", "perfmut_a perfmut_b perfmut_T perfmut_f"},
		{"const (\n\tperfmut_x = 1\n)", "perfmut_x"},
		{"this does not parse", HelperPrefix},
	} {
		got := strings.Join(helperNames(&Operator{Helper: tc.helper}), " ")
		if got != tc.want {
			t.Errorf("helperNames(%q) = %q, want %q", tc.helper, got, tc.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	notMod := t.TempDir()
	typeErr := t.TempDir()
	writeFiles(t, typeErr, map[string]string{
		"go.mod": "module example.com/bad\n\ngo 1.22\n",
		"x.go":   "package bad\n\nfunc F() int { return \"s\" }\n",
	})
	scope := writeModule(t, "scope")
	for _, tc := range []struct {
		dir      string
		patterns []string
		want     string
	}{
		{notMod, nil, notMod + " is not inside a Go module (no go.mod found); run perfmut in a module or pass -C <module dir>"},
		{filepath.Join(notMod, "nope"), nil, "directory " + filepath.Join(notMod, "nope") + " does not exist"},
		{typeErr, nil, "package example.com/bad does not type-check: x.go:3:23: cannot use \"s\" (untyped string constant) as int value in return statement; fix it so that 'go build' succeeds"},
		{scope, []string{"./nothing/..."}, "pattern ./nothing/... matches no packages (lstat ./nothing/: no such file or directory); patterns are relative to the module directory (-C), e.g. ./... or ./pkg/..."},
		{scope, []string{"./missing"}, "pattern ./missing matches no package (stat " + filepath.Join(scope, "missing") + ": directory not found); patterns are relative to the module directory (-C), e.g. ./... or ./pkg/..."},
		{scope, []string{"example.com/scope/missing"}, "pattern example.com/scope/missing matches no package (no required module provides package example.com/scope/missing); patterns are relative to the module directory (-C), e.g. ./... or ./pkg/..."},
		{scope, []string{"fmt"}, "no packages of the module at " + scope + " match fmt"},
	} {
		_, err := Load(context.Background(), Options{Dir: tc.dir, Patterns: tc.patterns})
		if err == nil {
			t.Errorf("Load(%s, %v): no error", tc.dir, tc.patterns)
			continue
		}
		if !errors.As(err, new(*inputerr.Error)) {
			t.Errorf("Load(%s, %v): %v is not an *inputerr.Error", tc.dir, tc.patterns, err)
		}
		if !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Load(%s, %v):\n got %q\nwant %q", tc.dir, tc.patterns, err, tc.want)
		}
	}
}

// TestFilesUntouched hashes the module before and after every engine
// operation.
func TestFilesUntouched(t *testing.T) {
	dir := writeModule(t, "scope")
	before := hashTree(t, dir)
	p := load(t, dir, []*Operator{testSpin, testCapDrop, testBreak})
	for _, m := range generate(t, p) {
		if _, err := p.Overlay(m); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Diff(m); err != nil {
			t.Fatal(err)
		}
		_ = p.Check(m)
	}
	if after := hashTree(t, dir); after != before {
		t.Errorf("the module changed:\nbefore %s\nafter  %s", before, after)
	}
}

// hashTree hashes every file name, mode, modification time and content
// under dir.
func hashTree(t testing.TB, dir string) string {
	t.Helper()
	return testutil.HashTree(t, dir)
}

func TestResolver(t *testing.T) {
	dir := writeModule(t, "scope")
	p := load(t, dir, nil)
	for name, want := range map[string]bool{
		"example.com/scope/a.Lower":      true,
		"example.com/scope/a.lower":      false,
		"(*example.com/scope/a.T).Grow":  true,
		"(example.com/scope/a.T).Len":    true,
		"(example.com/scope/a.T).Grow":   false, // pointer method
		"(*example.com/scope/a.G).Reset": true,
		"strings.Builder":                false,
		"(*strings.Builder).Grow":        true,
		"example.com/scope/missing.F":    false,
		"example.com/scope/a.Sizes":      false, // a variable
	} {
		if got := p.HasFunc(name); got != want {
			t.Errorf("HasFunc(%s) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"Lower": true, "(*T).Grow": true, "T.Len": true, "(*G).Reset": true, "Upper": false, "T.Grow": false} {
		if got := p.HasFunction(name); got != want {
			t.Errorf("HasFunction(%s) = %v, want %v", name, got, want)
		}
	}
	for _, tc := range []struct {
		name    string
		callers []string
		want    bool
	}{
		{"b", []string{"Lower"}, true},
		{"b", nil, true},
		{"b", []string{"(*T).Grow"}, false},
		{"f", []string{"(*T).Grow"}, true},
		{"xs", nil, false}, // a field
		{"s", []string{"Lower"}, true},
	} {
		if got := p.HasLocalVar(tc.name, tc.callers); got != tc.want {
			t.Errorf("HasLocalVar(%s, %v) = %v, want %v", tc.name, tc.callers, got, tc.want)
		}
	}
	var r config.Resolver = p // what the operators' options check names with
	if r.HasFunc("example.com/scope/a.Lowr") {
		t.Error("HasFunc(example.com/scope/a.Lowr) = true for a function that does not exist")
	}
}

func TestIncludeExclude(t *testing.T) {
	dir := writeModule(t, "scope")
	cfg := config.Default()
	cfg.Packages.Exclude = []string{"./b"}
	p, err := Load(context.Background(), Options{Dir: dir, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Packages) != 1 || p.Packages[0].ImportPath != "example.com/scope/a" {
		t.Errorf("packages = %v", p.Packages)
	}
	cfg.Packages = config.Packages{Include: []string{"example.com/scope/b/..."}}
	p, err = Load(context.Background(), Options{Dir: dir, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Packages) != 1 || p.Packages[0].ImportPath != "example.com/scope/b" {
		t.Errorf("packages = %v", p.Packages)
	}
}

// TestInvalidSites: sites with bad edits are skipped with a warning; the
// other mutants are still generated.
func TestInvalidSites(t *testing.T) {
	bad := &Operator{
		Name:     "test-bad-edits",
		Quadrant: Q4,
		Run: func(pass *Pass) {
			for _, d := range pass.File.Decls {
				pass.Report(Site{Node: d, Edits: []Edit{{Start: 5, End: 10}, {Start: 8, End: 12}}})
				pass.Report(Site{Node: d})
				pass.Report(Site{Node: d, Edits: []Edit{{Start: 0, End: len(pass.Src) + 1}}})
				return
			}
		},
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/bad\n\ngo 1.22\n",
		"x.go":   "package bad\n\nfunc F() []int { return make([]int, 0, 1) }\n",
	})
	p := load(t, dir, []*Operator{bad, testCapDrop})
	ms := generate(t, p)
	if len(ms) != 1 || ms[0].Operator != "test-cap-drop" {
		t.Errorf("mutants:\n%s", summary(ms))
	}
	want := []string{
		"operator test-bad-edits at x.go:3: edit [8,12) overlaps another or lies outside the file (57 bytes); skipped",
		"operator test-bad-edits at x.go:3: site has no edits; skipped",
		"operator test-bad-edits at x.go:3: edit [0,58) overlaps another or lies outside the file (57 bytes); skipped",
	}
	if strings.Join(p.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(p.Warnings, "\n"), strings.Join(want, "\n"))
	}
	// Generating again does not repeat the warnings.
	generate(t, p)
	if len(p.Warnings) != 3 {
		t.Errorf("after a second Generate: %d warnings", len(p.Warnings))
	}
}

// TestCgo: cgo files are not mutated, the package's other files are, and
// their mutants type-check together with the cgo-processed files.
func TestCgo(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/cgo\n\ngo 1.22\n",
		"c.go": `package cgo

// int twice(int x) { return 2 * x; }
import "C"

func Twice(xs []int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		out = append(out, int(C.twice(C.int(x))))
	}
	return out
}
`,
		"g.go": `package cgo

func Ones(n int) []int {
	out := make([]int, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, Twice([]int{i})[0]/2)
	}
	return out
}
`,
	})
	p, err := Load(context.Background(), Options{Dir: dir, Operators: []*Operator{testCapDrop, testSpin}})
	if err != nil {
		t.Fatal(err)
	}
	ms := generate(t, p)
	got := summary(ms)
	want := "g.go:4:9 Ones test-cap-drop Q4 map[]\ng.go:5:2 Ones test-spin Q3 map[iterations:10]\ng.go:5:2 Ones test-spin Q3 map[iterations:100]\n"
	if got != want {
		t.Errorf("mutants:\n%s\nwant\n%s", got, want)
	}
	for _, m := range ms {
		if err := p.Check(m); err != nil {
			t.Errorf("Check(%s): %v", m.ID, err)
		}
	}
}
