package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Function-level reuse (-since). When a package changed only inside
// function bodies, its package hash differs but most verdicts still hold:
// a mutant's verdict depends on the code its benchmarks and tests run.
// Execution is the same up to the first call of a changed function, so a
// benchmark or test whose baseline coverage (then or now) runs no changed
// function ran the same code in both campaigns. A mutant's result is
// reused when its own function is unchanged, the rest of every package it
// depends on (declarations, comments outside bodies, test files, testdata)
// is the same, and no benchmark or test of those packages that runs its
// function, then or now, runs a changed one.

// A funcSpan is one function of a package file and its lines.
type funcSpan struct {
	key    string // "pkg file.go:Func"
	sl, el int
}

// splitFuncs splits a non-test Go file of package pkg into its functions
// (key -> hash of the declaration's source, and their lines) and the rest:
// the file with every function body replaced by {}. A file that does not
// parse is all rest.
func splitFuncs(pkg, base string, src []byte, funcs map[string]string) (rest []byte, spans []funcSpan) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, base, src, parser.SkipObjectResolution)
	if err != nil {
		return src, nil
	}
	var out bytes.Buffer
	last := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		key := pkg + " " + base + ":" + mutate.FuncName(fd)
		for i := 2; funcs[key] != ""; i++ {
			key = fmt.Sprintf("%s %s:%s#%d", pkg, base, mutate.FuncName(fd), i)
		}
		start, end := fset.Position(fd.Pos()).Offset, fset.Position(fd.End()).Offset
		sum := sha256.Sum256(src[start:end])
		funcs[key] = hex.EncodeToString(sum[:])
		spans = append(spans, funcSpan{key: key, sl: fset.Position(fd.Pos()).Line, el: fset.Position(fd.End()).Line})
		lb, rb := fset.Position(fd.Body.Lbrace).Offset, fset.Position(fd.Body.Rbrace).Offset
		out.Write(src[last:lb])
		out.WriteString("{}")
		last = rb + 1
	}
	out.Write(src[last:])
	return out.Bytes(), spans
}

// packageCode hashes the package pkg in dir function by function; spans
// gets its functions' lines by coverage file name (pkg/file.go).
func packageCode(pkg, dir string, spans map[string][]funcSpan) (results.PackageCode, error) {
	pc := results.PackageCode{Funcs: map[string]string{}}
	var err error
	pc.Rest, err = hashDir(dir, func(rel string, data []byte) []byte {
		if strings.Contains(rel, "/") || !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return data
		}
		rest, fs := splitFuncs(pkg, rel, data, pc.Funcs)
		spans[pkg+"/"+rel] = fs
		return rest
	})
	return pc, err
}

// funcAt is the key of the function of file (a coverage file name) whose
// lines hold line, or "".
func funcAt(spans map[string][]funcSpan, file string, line int) string {
	for _, s := range spans[file] {
		if s.sl <= line && line <= s.el {
			return s.key
		}
	}
	return ""
}

// reachOf is the sorted function keys that blocks (coverage file -> blocks
// run) lie in.
func reachOf(spans map[string][]funcSpan, blocks map[string][]engine.CovBlock) []string {
	set := map[string]bool{}
	for file, bs := range blocks {
		for _, b := range bs {
			if k := funcAt(spans, file, b.StartLine); k != "" {
				set[k] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// recordReach fills the campaign's inputs with what each benchmark and
// test ran on this baseline (instrumented: the packages whose code the
// coverage counted), keeping from the earlier campaign (prev, may be nil)
// what this one did not measure again: the benchmarks and tests not run
// now, and the functions of packages not instrumented now.
func (r *run) recordReach(prev *results.Inputs, instrumented map[string]bool) {
	cur := r.since.inputs
	cur.Reach, cur.Timed = map[string][]string{}, map[string][]string{}
	if prev != nil {
		for k, fs := range prev.Reach {
			cur.Reach[k] = slices.DeleteFunc(slices.Clone(fs), func(f string) bool { return instrumented[funcPkg(f)] })
		}
		for k, fs := range prev.Timed {
			cur.Timed[k] = slices.DeleteFunc(slices.Clone(fs), func(f string) bool { return instrumented[funcPkg(f)] })
		}
		for p, pc := range cur.Code {
			if old, ok := prev.Code[p]; ok && old.Covered && old.Rest == pc.Rest && maps.Equal(old.Funcs, pc.Funcs) {
				pc.Covered = true
				cur.Code[p] = pc
			}
		}
	}
	for p := range instrumented {
		if pc, ok := cur.Code[p]; ok {
			pc.Covered = true
			cur.Code[p] = pc
		}
	}
	add := func(m map[string][]string, key string, fs []string) {
		m[key] = slices.Compact(slices.Sorted(slices.Values(append(m[key], fs...))))
	}
	for _, bc := range r.cov.benches {
		key := bc.Bench.Pkg + " " + bc.Bench.Name
		add(cur.Reach, key, reachOf(r.cov.spans, bc.Blocks))
		timed := map[string][]engine.CovBlock{}
		for file, bs := range bc.Blocks {
			timed[file] = slices.DeleteFunc(slices.Clone(bs), func(b engine.CovBlock) bool { return b.Growth() <= 0 })
		}
		add(cur.Timed, key, reachOf(r.cov.spans, timed))
	}
	for pkg, tc := range r.cov.tests {
		for name, blocks := range tc.Tests {
			add(cur.Reach, pkg+" "+name, reachOf(r.cov.spans, blocks))
		}
	}
}

// funcPkg is the package of a function key.
func funcPkg(key string) string {
	pkg, _, _ := strings.Cut(key, " ")
	return pkg
}

// changedFuncs is the functions added, removed or changed between two
// campaigns' packages.
func changedFuncs(prev, cur *results.Inputs) map[string]bool {
	out := map[string]bool{}
	for p, pc := range cur.Code {
		old := prev.Code[p]
		for k, h := range pc.Funcs {
			if old.Funcs[k] != h {
				out[k] = true
			}
		}
		for k := range old.Funcs {
			if _, ok := pc.Funcs[k]; !ok {
				out[k] = true
			}
		}
	}
	return out
}

// funcReuse decides, after the baseline's coverage, which results of the
// earlier campaign still hold although their packages changed.
type funcReuse struct {
	prev, cur *results.Inputs
	changed   map[string]bool
	// hot maps a function to the benchmarks and tests that would judge a
	// mutant there (a benchmark's timed loop, a test's coverage runs it)
	// and that run a changed function (in setup too), then or now.
	hot map[string][]string
	// runsChanged is the benchmarks and tests that run a changed
	// function, then or now.
	runsChanged map[string]bool
}

func newFuncReuse(prev, cur *results.Inputs) *funcReuse {
	fr := &funcReuse{prev: prev, cur: cur, changed: changedFuncs(prev, cur), hot: map[string][]string{}, runsChanged: map[string]bool{}}
	for _, in := range []*results.Inputs{prev, cur} {
		for key, fs := range in.Reach {
			if !slices.ContainsFunc(fs, func(f string) bool { return fr.changed[f] }) {
				continue
			}
			fr.runsChanged[key] = true
			judged := fs
			if t, ok := in.Timed[key]; ok {
				judged = t
			}
			for _, f := range judged {
				fr.hot[f] = append(fr.hot[f], key)
			}
		}
	}
	return fr
}

// isBenchmark reports whether a Reach key names a benchmark.
func isBenchmark(key string) bool {
	_, name, _ := strings.Cut(key, " ")
	return strings.HasPrefix(name, "Benchmark")
}

// holds reports whether the earlier result lr of a mutant in package pkg,
// in function fn ("" if unknown), still holds. unknownTests reports
// whether a package's tests were not covered one by one. measuredBy, if
// not nil, is the benchmarks that measured the mutant then or would now:
// only they judge its measured verdict. killedBy is the benchmarks whose
// tests rejected (a kill): one of them that still exists and runs no
// changed function measures the same code as then, so the kill holds
// whatever the others would now say.
func (fr *funcReuse) holds(pkg, fn string, untested bool, lr *results.LevelResult, unknownTests func(string) bool, measuredBy, killedBy []string) bool {
	if fn == "" || fr.changed[fn] || len(lr.Judges) == 0 {
		return false
	}
	deps := map[string]bool{pkg: true}
	for _, p := range lr.Judges {
		deps[p] = true
	}
	for p := range deps {
		old, ok1 := fr.prev.Code[p]
		now, ok2 := fr.cur.Code[p]
		if !ok1 || !ok2 || old.Rest != now.Rest {
			return false
		}
		if fr.prev.Packages[p] != fr.cur.Packages[p] && (!old.Covered || !now.Covered || !untested && unknownTests(p)) {
			return false
		}
	}
	if measuredBy != nil {
		if !fr.reproduced(killedBy) && slices.ContainsFunc(measuredBy, func(k string) bool { return fr.runsChanged[k] }) {
			return false
		}
		return untested || !fr.hotIn(fn, pkg, false, lr.Judges, true)
	}
	return !fr.hotIn(fn, pkg, untested, lr.Judges, false)
}

// reproduced reports whether one of the benchmarks killedBy still exists
// and runs no changed function, then or now.
func (fr *funcReuse) reproduced(killedBy []string) bool {
	return slices.ContainsFunc(killedBy, func(k string) bool {
		_, exists := fr.cur.Reach[k]
		return exists && !fr.runsChanged[k]
	})
}

// measuredBy is the Reach keys of the benchmarks that measured lr (a
// measured verdict, not inferred or copied) and of those that would
// measure m now, or nil when lr was not measured; and of the benchmarks
// whose tests rejected in a kill.
func (r *run) measuredBy(m mutate.Mutant, lr *results.LevelResult, judges []string) (by, killedBy []string, err error) {
	if len(lr.Benchmarks) == 0 || lr.InferredFrom != "" || lr.DuplicateOf != "" {
		return nil, nil, nil
	}
	sel, _, err := r.selection(m)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range limitSelection(sel, r.c.MaxBenchmarks).Benches {
		by = append(by, b.Pkg+" "+b.Name)
	}
	pkgs := append([]string{m.Package}, judges...)
	for _, t := range lr.Benchmarks {
		keys := benchKeys(t.Benchmark, pkgs)
		by = append(by, keys...)
		if t.Reject && lr.Status == score.Killed {
			killedBy = append(killedBy, keys...)
		}
	}
	return by, killedBy, nil
}

// benchKeys is the Reach keys a benchmark measured as name may have in
// the packages pkgs: the name as measured, and without a -cpu suffix (-N).
func benchKeys(name string, pkgs []string) []string {
	names := []string{name}
	if i := strings.LastIndexByte(name, '-'); i > 0 && i+1 < len(name) && strings.Trim(name[i+1:], "0123456789") == "" {
		names = append(names, name[:i])
	}
	var keys []string
	for _, p := range pkgs {
		for _, n := range names {
			keys = append(keys, p+" "+n)
		}
	}
	return keys
}

// hotIn reports whether a benchmark (unless testsOnly) or test (unless
// untested: the mutant runs no tests) of pkg or judges would judge a
// mutant in fn and runs a changed function, then or now (as far as Reach
// knows), or fn is unknown while functions changed.
func (fr *funcReuse) hotIn(fn, pkg string, untested bool, judges []string, testsOnly bool) bool {
	if len(fr.changed) == 0 {
		return false
	}
	if fn == "" {
		return true
	}
	for _, key := range fr.hot[fn] {
		if untested && !isBenchmark(key) || testsOnly && isBenchmark(key) {
			continue
		}
		if p := funcPkg(key); p == pkg || slices.Contains(judges, p) {
			return true
		}
	}
	return false
}

// mutantFunc is the key of the function holding m's first edit, or "".
func (r *run) mutantFunc(m mutate.Mutant) (string, error) {
	src, err := r.source(m.File)
	if err != nil {
		return "", err
	}
	pos := engine.MutantPositions(src, m)
	return funcAt(r.cov.spans, engine.CoverFile(m), pos[0][0]), nil
}

// reuseFuncs reuses, after the baseline's coverage, the results of the
// earlier campaign (prev) that function-level comparison shows unchanged,
// for the mutants todo. It returns how many it took.
func (r *run) reuseFuncs(prev *results.Report, todo []int) (int, error) {
	if prev == nil || prev.Inputs == nil || prev.Inputs.Code == nil || r.since.why != "" {
		return 0, nil
	}
	c := r.c
	fr := newFuncReuse(prev.Inputs, r.since.inputs)
	byID := map[string]results.Mutant{}
	for _, m := range prev.Mutants {
		byID[m.ID] = m
	}
	unknownTests := func(p string) bool {
		if !r.base.hasTests[p] {
			return false
		}
		tc := r.cov.tests[p]
		return tc == nil || tc.All || len(tc.Always) > 0
	}
	// A result inferred from another mutant's kill, or shared with the
	// mutant whose code it duplicates, holds when that one's does: they
	// are taken after the measured ones (takeDerived).
	var later []derivedResult
	n := 0
	for _, i := range todo {
		m := c.Mutants[i]
		pm, ok := byID[m.ID]
		if !ok {
			continue
		}
		fn, err := r.mutantFunc(m)
		if err != nil {
			return n, err
		}
		for _, level := range c.Levels {
			lr := pm.Results[level]
			if lr == nil || r.results[resultKey{m.ID, level}] != nil {
				continue
			}
			if source(lr) != "" {
				later = append(later, derivedResult{m, fn, level, lr})
				continue
			}
			by, killedBy, err := r.measuredBy(m, lr, lr.Judges)
			if err != nil {
				return n, err
			}
			if !fr.holds(m.Package, fn, r.c.untested(m), lr, unknownTests, by, killedBy) {
				// Only a test that runs a changed function stands in the
				// way: the mutant is built and tested again, and measured
				// only if a test now fails.
				if by != nil && !r.c.untested(m) && fr.holds(m.Package, fn, true, lr, unknownTests, by, killedBy) {
					if r.since.retest == nil {
						r.since.retest = map[resultKey]*results.LevelResult{}
					}
					r.since.retest[resultKey{m.ID, level}] = lr
				}
				continue
			}
			if ok, err := r.take(c.Since, m.ID, level, lr); err != nil {
				return n, err
			} else if ok {
				n++
			}
		}
	}
	k, err := r.takeDerived(fr, later, unknownTests)
	return n + k, err
}

// A derivedResult is an earlier result inferred from another mutant's
// kill or shared with the mutant whose code it duplicates.
type derivedResult struct {
	m     mutate.Mutant
	fn    string
	level string
	lr    *results.LevelResult
}

// takeDerived reuses the derived results whose source was reused and
// whose inputs hold, in rounds (a source may itself be derived); it
// returns how many it reused.
func (r *run) takeDerived(fr *funcReuse, later []derivedResult, unknownTests func(string) bool) (int, error) {
	n := 0
	for progress := true; progress; {
		progress = false
		for i, d := range later {
			if d.lr == nil {
				continue
			}
			src := r.results[resultKey{source(d.lr), d.level}]
			if src == nil || !src.Reused || !fr.holds(d.m.Package, d.fn, r.c.untested(d.m), d.lr, unknownTests, []string{}, nil) {
				continue
			}
			ok, err := r.take(r.c.Since, d.m.ID, d.level, d.lr)
			if err != nil {
				return n, err
			}
			later[i].lr = nil
			if ok {
				n++
				progress = true
			}
		}
	}
	return n, nil
}

// source is the mutant whose result lr derives from: the one its kill was
// inferred from or the one whose code it duplicates; "" if none.
func source(lr *results.LevelResult) string {
	if lr.InferredFrom != "" {
		return lr.InferredFrom
	}
	return lr.DuplicateOf
}

// untilDone is the mutant indexes of todo with a level still to run.
func (r *run) untilDone(todo []int) []int {
	var out []int
	for _, i := range todo {
		for _, l := range r.c.Levels {
			if r.results[resultKey{r.c.Mutants[i].ID, l}] == nil {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// prevInputs is the inputs of the -since campaign, or nil.
func (r *run) prevInputs() *results.Inputs {
	if r.since.prev == nil {
		return nil
	}
	return r.since.prev.Inputs
}

// sinceAfterBaseline records what the baseline's benchmarks and tests ran
// and, with -since, reuses the results function-level comparison shows
// unchanged. It returns the mutants of todo still to run.
func (r *run) sinceAfterBaseline(todo []int) ([]int, error) {
	instrumented := map[string]bool{}
	for _, i := range todo {
		instrumented[r.c.Mutants[i].Package] = true
	}
	r.recordReach(r.prevInputs(), instrumented)
	n, err := r.reuseFuncs(r.since.prev, todo)
	if err != nil || n == 0 {
		return todo, err
	}
	left := r.Prog.Skip(n)
	r.Prog.Logf("perfmut: -since %s: %d more results reused (no benchmark or test that judged them runs a changed function); %d to run", r.c.Since, n, left)
	return r.untilDone(todo), nil
}

// retested is the earlier campaign's result of mutant id at level when
// only its tests had to run again (reuseFuncs) and they passed: its
// samples are copied and it is marked reused and retested. It returns
// nil when the result must be measured.
func (r *run) retested(id, level string) *results.LevelResult {
	r.mu.Lock()
	prev := r.since.retest[resultKey{id, level}]
	r.mu.Unlock()
	if prev == nil || !reusable(prev) || copySamples(r.c.Since, r.c.Out, prev) != nil {
		return nil
	}
	lr := *prev
	lr.Reused, lr.Retested = true, true
	return &lr
}
