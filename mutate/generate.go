package mutate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Generate runs the operators over every in-scope file and returns the
// mutants in a stable order (file, offset, operator, params).
func (p *Program) Generate() ([]Mutant, error) {
	type job struct {
		pkg  *Package
		file int
	}
	var jobs []job
	for _, pkg := range p.Packages {
		for i := range pkg.Files {
			jobs = append(jobs, job{pkg, i})
		}
	}
	p.helperOnce.Do(func() { p.helperFiles, p.helperWarnings = p.helpers() })
	helpers := p.helperFiles
	warnings := append([]string(nil), p.helperWarnings...)
	results := make([][]Mutant, len(jobs))
	fileWarnings := make([][]string, len(jobs))
	workers := runtime.GOMAXPROCS(0)
	if workers > len(jobs) {
		workers = len(jobs)
	}
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(jobs) {
					return
				}
				j := jobs[i]
				results[i], fileWarnings[i] = p.generateFile(j.pkg, j.file, helpers)
			}
		}()
	}
	wg.Wait()
	n := 0
	for i := range results {
		n += len(results[i])
		warnings = append(warnings, fileWarnings[i]...)
	}
	out := make([]Mutant, 0, n)
	for _, r := range results {
		out = append(out, r...)
	}
	sortMutants(out)
	for i := 1; i < len(out); i++ {
		if out[i].ID == out[i-1].ID {
			return nil, fmt.Errorf("two mutants share the ID %s (%s:%d and %s:%d)", out[i].ID, out[i-1].File, out[i-1].Line, out[i].File, out[i].Line)
		}
	}
	p.Warnings = warnings
	return out, nil
}

// sortMutants orders mutants by file, position, operator, params and ID.
func sortMutants(ms []Mutant) {
	sort.SliceStable(ms, func(i, j int) bool { return Less(&ms[i], &ms[j]) })
}

// Less reports whether a comes before b in perfmut's mutant order: by file,
// position, operator, params and ID. Generate returns mutants in this order;
// reports use it too.
func Less(a, b *Mutant) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	if a.Operator != b.Operator {
		return a.Operator < b.Operator
	}
	if paramsLess(a.Params, b.Params) {
		return true
	}
	if paramsLess(b.Params, a.Params) {
		return false
	}
	return a.ID < b.ID
}

// paramsKey is the canonical text of params (JSON with sorted keys).
func paramsKey(params map[string]any) string {
	if len(params) == 0 {
		return "{}"
	}
	b, err := json.Marshal(params)
	if err != nil {
		return fmt.Sprint(params)
	}
	return string(b)
}

// paramsLess orders params maps so that numeric values sort numerically
// (1e4 before 1e5) and everything else by canonical text.
func paramsLess(a, b map[string]any) bool {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		va, vb := a[k], b[k]
		fa, oka := ParamNumber(va)
		fb, okb := ParamNumber(vb)
		if oka && okb {
			if fa != fb {
				return fa < fb
			}
			continue
		}
		sa, sb := fmt.Sprint(va), fmt.Sprint(vb)
		if sa != sb {
			return sa < sb
		}
	}
	return paramsKey(a) < paramsKey(b)
}

// ParamNumber reads a numeric mutant param: a number, or a duration
// (anything with Nanoseconds, or a string such as "1ms" from JSON) in
// nanoseconds.
func ParamNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case float64:
		return v, true
	case interface{ Nanoseconds() int64 }: // time.Duration
		return float64(v.Nanoseconds()), true
	case string:
		if d, err := time.ParseDuration(v); err == nil {
			return float64(d), true
		}
	}
	return 0, false
}

// opHelper is an operator's generated helper file for one package, or
// skip if the package's own identifiers could collide with it. names are
// the helper's top-level identifiers: a mutant needs the file only if one
// of its edits mentions one of them.
type opHelper struct {
	content string
	skip    bool
	names   []string
}

// uses reports whether one of edits refers to the helper.
func (h opHelper) uses(edits []Edit) bool {
	for _, e := range edits {
		if !strings.Contains(e.New, HelperPrefix) {
			continue
		}
		for _, n := range h.names {
			if strings.Contains(e.New, n) {
				return true
			}
		}
	}
	return false
}

// helperNames returns the top-level identifiers op.Helper declares (they
// all start with HelperPrefix), or just HelperPrefix if the helper does
// not parse, so that every edit mentioning the prefix counts as a use.
func helperNames(op *Operator) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+op.Helper, parser.SkipObjectResolution)
	if err != nil {
		return []string{HelperPrefix}
	}
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				}
			}
		}
	}
	if len(names) == 0 {
		return []string{HelperPrefix}
	}
	return names
}

// helpers builds, once per package and operator, the helper file content,
// and checks the package for identifiers that use HelperPrefix.
func (p *Program) helpers() (map[*Package]map[string]opHelper, []string) {
	out := make(map[*Package]map[string]opHelper)
	var warnings []string
	needs := false
	for _, op := range p.opts.Operators {
		if op.Helper != "" {
			needs = true
		}
	}
	if !needs {
		return out, nil
	}
	names := make(map[*Operator][]string)
	for _, op := range p.opts.Operators {
		if op.Helper != "" {
			names[op] = helperNames(op)
		}
	}
	for _, pkg := range p.Packages {
		clash := p.helperClash(pkg)
		if clash != "" {
			warnings = append(warnings, fmt.Sprintf("package %s: %s uses the reserved prefix %q; skipping mutants that need a helper there", pkg.ImportPath, clash, HelperPrefix))
		}
		m := make(map[string]opHelper)
		for _, op := range p.opts.Operators {
			if op.Helper == "" {
				continue
			}
			m[op.Name] = opHelper{content: helperFile(pkg.Name, op), skip: clash != "", names: names[op]}
		}
		out[pkg] = m
	}
	return out, warnings
}

// helperClash returns a description of the first identifier of pkg (its
// package scope, its files' import names, or its test files) that starts
// with HelperPrefix, or "".
func (p *Program) helperClash(pkg *Package) string {
	if pkg.pkg.Types != nil {
		for _, name := range pkg.pkg.Types.Scope().Names() {
			if strings.HasPrefix(name, HelperPrefix) {
				return "identifier " + name
			}
		}
	}
	for _, f := range pkg.pkg.Syntax {
		for _, imp := range f.Imports {
			if imp.Name != nil && strings.HasPrefix(imp.Name.Name, HelperPrefix) {
				return "import name " + imp.Name.Name
			}
		}
	}
	if pkg.Dir == "" {
		return ""
	}
	entries, err := os.ReadDir(pkg.Dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(pkg.Dir, e.Name()))
		if err == nil && strings.Contains(string(b), HelperPrefix) {
			return "test file " + e.Name()
		}
	}
	return ""
}

// helperFile is the whole generated helper file of op in package name.
func helperFile(name string, op *Operator) string {
	var b strings.Builder
	b.WriteString("// Code generated by perfmut. DO NOT EDIT.\n\n")
	b.WriteString("package " + name + "\n")
	if len(op.HelperImports) > 0 {
		imps := append([]string(nil), op.HelperImports...)
		sort.Strings(imps)
		b.WriteString("\nimport (\n")
		for _, imp := range imps {
			b.WriteString("\t" + strconv.Quote(imp) + "\n")
		}
		b.WriteString(")\n")
	}
	b.WriteString("\n")
	b.WriteString(strings.TrimSpace(op.Helper))
	b.WriteString("\n")
	return b.String()
}

// A site is a reported Site with what Load derives from it.
type site struct {
	op       *Operator
	s        Site
	offset   int
	function string
	params   string // canonical params
	end      int    // the node's end offset; src[offset:end] is its text
}

// generateFile runs every operator over one file. Sites an operator
// reports with invalid edits are skipped with a warning.
func (p *Program) generateFile(pkg *Package, i int, helpers map[*Package]map[string]opHelper) ([]Mutant, []string) {
	f := pkg.syntax[i]
	name := pkg.Files[i]
	src, _ := p.source(name)
	tf := p.fset.File(f.FileStart)
	rel, _ := filepath.Rel(p.Module.Dir, name)
	rel = filepath.ToSlash(rel)
	sites, warnings := p.sites(pkg, f, tf, src, rel)
	if len(sites) == 0 {
		return nil, warnings
	}
	return siteMutants(pkg.ImportPath, rel, tf, src, sites, helpers[pkg]), warnings
}

// sites runs every operator over the file f of pkg (rel is its path in the
// module, for warnings) and returns the sites they report that are valid
// and not ignored (//perfmut:ignore), in the order reported.
func (p *Program) sites(pkg *Package, f *ast.File, tf *token.File, src []byte, rel string) ([]site, []string) {
	idx := newFileIndex(p.fset, f)
	var sites []site
	var warnings []string
	var cur *Operator
	pass := &Pass{
		Fset:   p.fset,
		File:   f,
		Src:    src,
		Files:  pkg.pkg.Syntax,
		Pkg:    pkg.pkg.Types,
		Info:   pkg.pkg.TypesInfo,
		Config: p.cfg,
	}
	pass.Report = func(s Site) {
		if s.Node == nil {
			warnings = append(warnings, fmt.Sprintf("operator %s reported a site without a syntax node in %s; skipped", cur.Name, rel))
			return
		}
		start, end := s.Node.Pos(), s.Node.End()
		if !start.IsValid() || int(start) < tf.Base() || int(end) > tf.Base()+tf.Size() {
			warnings = append(warnings, fmt.Sprintf("operator %s reported a node outside %s; skipped", cur.Name, rel))
			return
		}
		off := tf.Offset(start)
		if err := checkEdits(s.Edits, len(src)); err != nil {
			warnings = append(warnings, fmt.Sprintf("operator %s at %s:%d: %v; skipped", cur.Name, rel, tf.Line(start), err))
			return
		}
		line := tf.Line(start)
		if idx.ignoredLine(line) {
			return
		}
		fn, ignored := idx.function(start)
		if ignored {
			return
		}
		sites = append(sites, site{
			op:       cur,
			s:        s,
			offset:   off,
			function: fn,
			params:   paramsKey(s.Params),
			end:      tf.Offset(end),
		})
	}
	for _, op := range p.opts.Operators {
		if op.Run == nil {
			continue
		}
		cur = op
		pass.Options = p.cfg.Section(op.Options)
		op.Run(pass)
	}
	return sites, warnings
}

// siteMutants turns the sites of the file rel (tf, src) of package pkgPath
// into mutants with their stable IDs, attaching the helper file of their
// operator (helpers, by operator name) where a mutant calls it.
func siteMutants(pkgPath, rel string, tf *token.File, src []byte, sites []site, helpers map[string]opHelper) []Mutant {
	// Ordinals among identical sites are counted in source order; sites at
	// the same offset keep the (deterministic) order they were reported in.
	slices.SortStableFunc(sites, func(a, b site) int { return a.offset - b.offset })
	// The ID hashes the package, file, function, operator, params and the
	// site's source text, plus its ordinal among identical sites.
	seen := make(map[[sha256.Size]byte]int)
	out := make([]Mutant, 0, len(sites))
	h := sha256.New()
	var key, sum [sha256.Size]byte
	for _, st := range sites {
		h.Reset()
		h.Write([]byte(st.function + "\x00" + st.op.Name + "\x00" + st.params + "\x00"))
		h.Write(src[st.offset:st.end])
		h.Sum(key[:0])
		ord := seen[key]
		seen[key] = ord + 1

		h.Reset()
		h.Write([]byte(pkgPath + "\x00" + rel + "\x00"))
		h.Write(key[:])
		h.Write([]byte("\x00" + strconv.Itoa(ord)))
		id := hex.EncodeToString(h.Sum(sum[:0])[:6])

		pos := tf.PositionFor(st.s.Node.Pos(), false)
		params := st.s.Params
		if params == nil {
			params = map[string]any{}
		}
		m := Mutant{
			ID:          id,
			Operator:    st.op.Name,
			Quadrant:    st.op.Quadrant,
			Params:      params,
			Package:     pkgPath,
			File:        rel,
			Line:        pos.Line,
			Column:      pos.Column,
			Function:    st.function,
			Description: st.s.Description,
			Edits:       st.s.Edits,
			Op:          st.op,
		}
		if hf, ok := helpers[st.op.Name]; ok && hf.uses(st.s.Edits) {
			if hf.skip {
				continue // the helper could collide with the package's names
			}
			m.Helper = hf.content
			m.HelperFile = "perfmut_helper_" + id + ".go"
		}
		out = append(out, m)
	}
	return out
}

func checkEdits(edits []Edit, size int) error {
	if len(edits) == 0 {
		return fmt.Errorf("site has no edits")
	}
	es := append([]Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	last := 0
	for _, e := range es {
		if e.Start < last || e.End < e.Start || e.End > size {
			return fmt.Errorf("edit [%d,%d) overlaps another or lies outside the file (%d bytes)", e.Start, e.End, size)
		}
		last = e.End
	}
	return nil
}

// A fileIndex answers, for positions in one file, the enclosing function's
// name and whether a //perfmut:ignore directive covers them.
type fileIndex struct {
	funcs   []funcSpan // in source order
	ignored map[int]bool
}

type funcSpan struct {
	start, end token.Pos
	name       string
	ignored    bool
}

const ignoreDirective = "//perfmut:ignore"

func hasIgnore(cg *ast.CommentGroup) bool {
	for _, c := range cg.List {
		if isIgnore(c.Text) {
			return true
		}
	}
	return false
}

func isIgnore(text string) bool {
	rest, ok := strings.CutPrefix(text, ignoreDirective)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

func newFileIndex(fset *token.FileSet, f *ast.File) *fileIndex {
	idx := &fileIndex{}
	tf := fset.File(f.FileStart)
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if isIgnore(c.Text) {
				if idx.ignored == nil {
					idx.ignored = make(map[int]bool)
				}
				idx.ignored[tf.Line(c.Pos())] = true
			}
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ign := (fd.Doc != nil && hasIgnore(fd.Doc)) || idx.ignored[tf.Line(fd.Pos())]
		idx.funcs = append(idx.funcs, funcSpan{fd.Pos(), fd.End(), funcName(fd), ign})
	}
	return idx
}

func (idx *fileIndex) ignoredLine(line int) bool { return idx.ignored[line] }

// function returns the name of the function declaration enclosing pos
// ("init" outside any) and whether it is ignored.
func (idx *fileIndex) function(pos token.Pos) (string, bool) {
	i := sort.Search(len(idx.funcs), func(i int) bool { return idx.funcs[i].end > pos })
	if i < len(idx.funcs) && idx.funcs[i].start <= pos {
		return idx.funcs[i].name, idx.funcs[i].ignored
	}
	return "init", false
}

// funcName names a function declaration as Lower, T.M or (*T).M.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if p, ok := t.(*ast.StarExpr); ok {
		star = true
		t = p.X
	}
	for {
		if p, ok := t.(*ast.ParenExpr); ok {
			t = p.X
			continue
		}
		break
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if star {
		return "(*" + recv + ")." + fd.Name.Name
	}
	return recv + "." + fd.Name.Name
}
