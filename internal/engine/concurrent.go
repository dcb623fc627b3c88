package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// survivorHint returns what a survivor of the operator called name, judged
// by the benchmarks bs (whose results are tests), lacks in the benchmarks,
// or "": for an operator whose cost grows with contention
// (mutate.Operator.Contention), a benchmark that runs the site from two
// goroutines at once, when the serial benchmarks show that it costs them
// nothing (every time test's ratio interval lies below the slowdown that
// matters, slowdownBound: a cost they do show is a gap in the serial
// benchmarks' power, not in their concurrency); for one whose cost lands in the tail
// (mutate.Operator.Tail), a metric other than the mean in the decision
// (and, if a benchmark reports one that the decision left out, which).
//
// pkgs are the loaded packages by import path; rule is the engine's; op
// and params are the mutant's (mutate.Mutant.Op and Params: a tail spike's
// period).
// Which benchmarks are concurrent and which report metrics of their own is
// read from their source: coverage counts how often a block ran, not on
// which goroutines, so it cannot tell a serial benchmark from a parallel
// one.
func survivorHint(pkgs map[string]*mutate.Package, rule score.Rule, op *mutate.Operator, params map[string]any, bs []Benchmark, tests []score.TestResult) string {
	switch {
	case op == nil:
		return ""
	case op.Contention != mutate.ContentionNone:
		for _, b := range bs {
			if b.CPU == 1 {
				continue
			}
			if p := pkgs[b.Pkg]; p == nil || concurrentBenchmarks(p.Dir)[topName(b.Name)] {
				return ""
			}
		}
		if !noCost(tests, slowdownBound(rule)) {
			return ""
		}
		return "no concurrent benchmark reaches this critical section (a b.RunParallel benchmark of it would contend for it)"
	case op.Tail:
		for _, t := range tests {
			switch t.Metric {
			case score.SecPerOp, score.BytesPerOp, score.AllocsPerOp:
			default:
				return ""
			}
		}
		if own := benchmarksWith(pkgs, bs, reportsMetric); len(own) > 0 {
			what := " reports a metric of its own"
			if len(own) > 1 {
				what = " report metrics of their own"
			}
			return strings.Join(own, ", ") + what + " (b.ReportMetric) that the decision left out: a metric is tested only when listed in metrics: in perfmut.yaml"
		}
		return "the benchmarks report only means: a b.ReportMetric of a latency percentile (e.g. p99-ns/op, listed in metrics:) from a benchmark that runs the site at least " + spikePeriod(params) + " per process would show the spike"
	}
	return ""
}

// spikePeriod says how often a tail spike of params sleeps: "1000 times"
// for a spike every 1000th execution (an int in a fresh mutant, a float64
// in one read back from JSON), else its option's name.
func spikePeriod(params map[string]any) string {
	switch k := params["every"].(type) {
	case int:
		return fmt.Sprintf("%d times", k)
	case float64:
		return fmt.Sprintf("%.0f times", k)
	}
	return "as many times as the spike's period (tail-spike.every)"
}

// noCost reports whether tests show that the mutant costs nothing that
// matters: some time test (a metric that is not a count) has an upper
// bound of its ratio, and every one is below bound (the rule's bound of
// the per-round ratios, score.TestResult.Upper, else the top of the
// bootstrap interval of the median ratio).
func noCost(tests []score.TestResult, bound float64) bool {
	some := false
	for _, t := range tests {
		if score.IsCount(t.Metric) {
			continue
		}
		if hi := upperBound(t); !(hi > 0 && hi < bound) {
			return false
		}
		some = true
	}
	return some
}

// upperBound is the upper bound of t's ratio: the rule's (Upper) where it
// set one, else the top of the bootstrap interval (0 for none).
func upperBound(t score.TestResult) float64 {
	if t.Upper > 0 {
		return t.Upper
	}
	return t.RatioHi
}

// slowdownBound is the slowdown that matters under rule: its margin, or
// without one its minimum effect (1 without either).
func slowdownBound(rule score.Rule) float64 {
	if rule.Margin > 0 {
		return rule.Margin
	}
	return max(rule.MinEffect, 1)
}

// topName is the top-level benchmark function of a (sub-)benchmark name.
func topName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}

// benchmarksWith returns the names of the top-level benchmarks of bs, of
// the packages pkgs, (each
// once, in order) whose source does what direct tells (see benchmarksThat).
func benchmarksWith(pkgs map[string]*mutate.Package, bs []Benchmark, direct func(ast.Node) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, b := range bs {
		name := topName(b.Name)
		if p := pkgs[b.Pkg]; p != nil && !seen[name] && benchmarksThat(p.Dir, direct)[name] {
			out = append(out, name)
		}
		seen[name] = true
	}
	return out
}

// concurrentBenchmarks returns the Benchmark functions of the test files in
// dir that run code from several goroutines: they call RunParallel or start
// a goroutine, themselves or through functions of the test files they call.
func concurrentBenchmarks(dir string) map[string]bool {
	return benchmarksThat(dir, runsConcurrently)
}

// runsConcurrently reports whether n runs code from another goroutine: a
// go statement or a call of a method named RunParallel.
func runsConcurrently(n ast.Node) bool {
	if _, ok := n.(*ast.GoStmt); ok {
		return true
	}
	return callsMethod(n, "RunParallel")
}

// reportsMetric reports whether n is a call of a method named ReportMetric.
func reportsMetric(n ast.Node) bool { return callsMethod(n, "ReportMetric") }

// callsMethod reports whether n is a call x.name(...).
func callsMethod(n ast.Node, name string) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name
}

// benchmarksThat returns the Benchmark functions of the test files in dir
// that contain a node for which direct is true, themselves or in functions
// of the test files they call (by name, transitively). Files that do not
// parse are skipped.
func benchmarksThat(dir string, direct func(ast.Node) bool) map[string]bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	does := map[string]bool{}
	calls := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Body == nil {
				continue
			}
			fn := fd.Name.Name
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if n != nil && direct(n) {
					does[fn] = true
				}
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
						calls[fn] = append(calls[fn], id.Name)
					}
				}
				return true
			})
		}
	}
	out := map[string]bool{}
	for fn := range calls {
		if strings.HasPrefix(fn, "Benchmark") && callsDoing(fn, does, calls, map[string]bool{}) {
			out[fn] = true
		}
	}
	for fn := range does {
		if strings.HasPrefix(fn, "Benchmark") {
			out[fn] = true
		}
	}
	return out
}

// callsDoing reports whether fn or a function it calls (transitively) is in
// direct.
func callsDoing(fn string, direct map[string]bool, calls map[string][]string, seen map[string]bool) bool {
	if direct[fn] {
		return true
	}
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, c := range calls[fn] {
		if callsDoing(c, direct, calls, seen) {
			return true
		}
	}
	return false
}
