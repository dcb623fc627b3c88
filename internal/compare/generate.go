package compare

import (
	"context"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/speedgun"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// generatedDir is where -generate writes its benchmark files in the
// output directory, one directory per package.
const generatedDir = "generated"

// generatedFile is the generated benchmarks' file name in a package.
const generatedFile = "perfmut_gen_test.go"

// generate is -generate, SpeedGun's regression test: for each thread-safe
// type whose methods changed between OLD and NEW (in a package both
// versions have among the patterns), it generates a concurrent benchmark
// on NEW that calls the methods both versions export alike, focused on
// the changed ones, writes it into c.Out, builds it into both versions'
// test binaries and returns it for measuring, with why it was generated.
func (c *Comparison) generate(ctx context.Context, sides [2]*compareSide, d *changes.Diff, rep *results.Comparison) ([]engine.Benchmark, map[engine.Benchmark]string, error) {
	gs := &results.GeneratedSection{Benchmarks: []results.GeneratedBenchmark{}}
	rep.Generated = gs
	why := map[engine.Benchmark]string{}
	var sel []engine.Benchmark
	for _, pkg := range c.generatePackages(sides, d) {
		bms, err := c.generatePackage(ctx, sides, d, pkg, gs)
		if err != nil {
			return nil, nil, err
		}
		for _, bm := range bms {
			b := engine.Benchmark{Pkg: pkg, Name: bm.Name}
			sel = append(sel, b)
			w := fmt.Sprintf("generated (-generate): concurrent benchmark of %s calling %s", bm.Type, strings.Join(bm.Covers, ", "))
			if len(bm.Focus) > 0 {
				w += "; changed: " + strings.Join(bm.Focus, ", ")
			}
			why[b] = w
		}
	}
	if len(sel) > 0 {
		var names []string
		for _, b := range sel {
			names = append(names, b.Name)
		}
		rep.Selection.Reason += fmt.Sprintf("; generated for the changed thread-safe types (-generate): %d (%s)", len(sel), strings.Join(shortList(names, 5), ", "))
	}
	return sel, why, nil
}

// generatePackages are the packages among both sides' patterns with a
// changed non-test Go file.
func (c *Comparison) generatePackages(sides [2]*compareSide, d *changes.Diff) []string {
	in := func(s *compareSide, p string) bool {
		return slices.ContainsFunc(s.list, func(l listedPackage) bool { return l.ImportPath == p })
	}
	seen := map[string]bool{}
	for i, lines := range []map[string][]changes.Range{d.Old, d.New} {
		for p := range changedPackages(sides[i].modPath, sides[i].built(lines)) {
			if in(sides[0], p) && in(sides[1], p) {
				seen[p] = true
			}
		}
	}
	return sortedKeys(seen)
}

// generatePackage loads pkg on both sides, generates the benchmarks of its
// changed thread-safe types on NEW, writes them into c.Out and builds them
// into both sides' binaries.
func (c *Comparison) generatePackage(ctx context.Context, sides [2]*compareSide, d *changes.Diff, pkg string, gs *results.GeneratedSection) ([]speedgun.Benchmark, error) {
	var loaded [2]*mutate.Package
	var changed [2]map[string]bool
	for i, s := range sides {
		prog, err := mutate.Load(ctx, mutate.Options{Dir: s.w.Dir(), Patterns: []string{pkg}, Tags: c.Tags})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			gs.Skipped = append(gs.Skipped, results.GeneratedSkip{Package: pkg, Reason: fmt.Sprintf("%s does not load: %v", s.name, err)})
			return nil, nil
		}
		loaded[i] = prog.Packages[0]
		changed[i] = changedDecls(loaded[i], s.w.Dir(), [2]map[string][]changes.Range{d.Old, d.New}[i])
	}
	methods, ctors, focus := commonChanged(speedgun.Types(loaded[0]), speedgun.Types(loaded[1]), changed)
	if len(methods) == 0 {
		return nil, nil
	}
	sides[1].w.Logf("perfmut: generating concurrent benchmarks of %s for %s", pkg, strings.Join(sortedKeys(methods), ", "))
	r, err := speedgun.Generate(ctx, speedgun.Config{
		Engine: sides[1].w.Engine, Dir: sides[1].w.Dir(), Package: loaded[1],
		Methods: methods, Constructors: ctors, Focus: focus, Seed: c.Seed, SampleTime: c.SampleTime,
	})
	gs.Builds += r.Builds
	gs.Dropped += r.Dropped
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The generator's failure (its driver does not build here) costs
		// this package's generated benchmarks, not the comparison.
		sides[1].w.Warnf("-generate: %s: %v", pkg, err)
		gs.Skipped = append(gs.Skipped, results.GeneratedSkip{Package: pkg, Reason: err.Error()})
		return nil, nil
	}
	for _, sk := range r.Skipped {
		gs.Skipped = append(gs.Skipped, results.GeneratedSkip{Package: pkg, Type: sk.Type, Reason: sk.Reason})
	}
	if len(r.Benchmarks) == 0 {
		return nil, nil
	}
	src, err := speedgun.File(loaded[1].Name, r.Benchmarks)
	if err != nil {
		return nil, err
	}
	rel := filepath.Join(generatedDir, engine.SafeName(pkg), generatedFile)
	if err := os.MkdirAll(filepath.Join(c.Out, filepath.Dir(rel)), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(c.Out, rel), src, 0o644); err != nil {
		return nil, err
	}
	for _, s := range sides {
		dir := s.w.Package(pkg).Dir
		name := freeName(dir, generatedFile)
		if err := s.w.Rebuild(ctx, pkg, map[string][]byte{filepath.Join(dir, name): src}, s.name, s.rev.Name); err != nil {
			return nil, err
		}
	}
	for _, bm := range r.Benchmarks {
		gs.Benchmarks = append(gs.Benchmarks, results.GeneratedBenchmark{Package: pkg, Name: bm.Name, Type: bm.Type,
			Covers: bm.Covers, Focus: bm.Focus, File: filepath.ToSlash(rel), Calls: bm.Calls})
	}
	return r.Benchmarks, nil
}

// changedDecls names the functions of pkg (as report.json does: New,
// (*T).M) whose declaration has a line in lines (module-relative files of
// the module at root).
func changedDecls(pkg *mutate.Package, root string, lines map[string][]changes.Range) map[string]bool {
	out := map[string]bool{}
	fset := pkg.Fset()
	for i, f := range pkg.Syntax() {
		rel, err := filepath.Rel(root, pkg.Files[i])
		if err != nil {
			continue
		}
		rs := lines[filepath.ToSlash(rel)]
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			from, to := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if slices.ContainsFunc(rs, func(r changes.Range) bool { return r.Start <= to && r.End >= from }) {
				out[mutate.FuncName(fd)] = true
			}
		}
	}
	return out
}

// commonChanged returns, for the thread-safe types both versions have
// with a changed method (any method of the type or of a type its
// exported methods are promoted from, exported or not, on either side: a
// changed unexported method changes the exported ones that call it) or a
// changed constructor, the exported methods both export with the same
// signature, the constructors both export alike, and the changed ones
// among them as focus.
func commonChanged(old, new []speedgun.Type, changed [2]map[string]bool) (map[string][]string, []string, []string) {
	isChanged := func(name string) bool { return changed[0][name] || changed[1][name] }
	methods := map[string][]string{}
	ctors := []string{}
	var focus []string
	for _, nt := range new {
		i := slices.IndexFunc(old, func(t speedgun.Type) bool { return t.Name == nt.Name })
		if i < 0 {
			continue
		}
		ot := old[i]
		typeChanged := changedReceiver(nt, changed)
		var ms []string
		for m, sig := range nt.Methods {
			if ot.Methods[m] == sig {
				ms = append(ms, m)
				if cover := nt.Covers[m]; isChanged(cover) {
					focus = append(focus, cover)
				}
			}
		}
		for f, sig := range nt.Constructors {
			if ot.Constructors[f] == sig {
				ctors = append(ctors, f)
				if isChanged(f) {
					typeChanged = true
					focus = append(focus, f)
				}
			}
		}
		if typeChanged && len(ms) > 0 {
			sort.Strings(ms)
			methods[nt.Name] = ms
		}
	}
	sort.Strings(ctors)
	sort.Strings(focus)
	return methods, slices.Compact(ctors), slices.Compact(focus)
}

// changedReceiver reports whether a changed function is a method of t or
// of a type t's exported methods are declared on (an embedded type).
func changedReceiver(t speedgun.Type, changed [2]map[string]bool) bool {
	recvs := map[string]bool{t.Name: true}
	for _, cover := range t.Covers {
		recvs[receiverOf(cover)] = true
	}
	for _, ch := range changed {
		for f, ok := range ch {
			if ok && recvs[receiverOf(f)] {
				return true
			}
		}
	}
	return false
}

// receiverOf is the receiver type's name of a function named as
// report.json names it ((*T).M or T.M), "" for a function.
func receiverOf(name string) string {
	recv, _, ok := strings.Cut(strings.TrimPrefix(name, "(*"), ".")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(recv, ")")
}

// freeName returns name, or a numbered variant, that no file in dir has.
func freeName(dir, name string) string {
	base := strings.TrimSuffix(name, "_test.go")
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s%d_test.go", base, i)
		}
		if _, err := os.Stat(filepath.Join(dir, n)); os.IsNotExist(err) {
			return n
		}
	}
}
