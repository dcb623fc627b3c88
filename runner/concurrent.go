package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/score"
)

// survivorHint returns what a survivor of the operator called name, judged
// by the benchmarks bs (whose results are tests), lacks in the benchmarks,
// or "": for an operator whose cost grows with contention
// (mutate.Operator.Contention), a benchmark that runs the site from two
// goroutines at once; for one whose cost lands in the tail
// (mutate.Operator.Tail), a metric other than the mean.
func (r *run) survivorHint(name string, bs []benchmark, tests []score.TestResult) string {
	op := operators.ByName(name)
	switch {
	case op == nil:
		return ""
	case op.Contention != mutate.ContentionNone:
		for _, b := range bs {
			if b.CPU == 1 {
				continue
			}
			if p := r.pkgs[b.Pkg]; p == nil || concurrentBenchmarks(p.Dir)[topName(b.Name)] {
				return ""
			}
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
		return "the benchmarks report only means: a b.ReportMetric of a latency percentile (e.g. p99-ns/op, listed in metrics:) from a benchmark that runs the site at least every times per process would show the spike"
	}
	return ""
}

// topName is the top-level benchmark function of a (sub-)benchmark name.
func topName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}

// concurrentBenchmarks returns the Benchmark functions of the test files in
// dir that run code from several goroutines: they call RunParallel or start
// a goroutine, themselves or through functions of the test files they call.
// Files that do not parse are skipped.
func concurrentBenchmarks(dir string) map[string]bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	direct := map[string]bool{}
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
				switch n := n.(type) {
				case *ast.GoStmt:
					direct[fn] = true
				case *ast.CallExpr:
					switch fun := ast.Unparen(n.Fun).(type) {
					case *ast.SelectorExpr:
						if fun.Sel.Name == "RunParallel" {
							direct[fn] = true
						}
					case *ast.Ident:
						calls[fn] = append(calls[fn], fun.Name)
					}
				}
				return true
			})
		}
	}
	out := map[string]bool{}
	for fn := range calls {
		if strings.HasPrefix(fn, "Benchmark") && callsConcurrent(fn, direct, calls, map[string]bool{}) {
			out[fn] = true
		}
	}
	for fn := range direct {
		if strings.HasPrefix(fn, "Benchmark") {
			out[fn] = true
		}
	}
	return out
}

// callsConcurrent reports whether fn or a function it calls (transitively) is in
// direct.
func callsConcurrent(fn string, direct map[string]bool, calls map[string][]string, seen map[string]bool) bool {
	if direct[fn] {
		return true
	}
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, c := range calls[fn] {
		if callsConcurrent(c, direct, calls, seen) {
			return true
		}
	}
	return false
}
