package engine

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/results"
)

// Rebuild builds pkg's test binary again with files (absolute path ->
// content) added or replaced through an overlay, and makes it the
// package's binary: compare -generate adds its generated benchmarks so.
// name (OLD, NEW) and rev say which version this is in the errors.
func (w *Workspace) Rebuild(ctx context.Context, pkg string, files map[string][]byte, name, rev string) error {
	if w.pkgs[pkg] == nil {
		return fmt.Errorf("%s (%s): package %s is not in the workspace", name, rev, pkg)
	}
	dir, err := os.MkdirTemp(w.Tmp, "overlay-")
	if err != nil {
		return err
	}
	ov, repl, err := WriteOverlay(dir, w.Dir(), files)
	if err != nil {
		return err
	}
	bin := filepath.Join(dir, SafeName(pkg)+".test")
	w.Prog.Logf("perfmut: building the tests of %s of %s with the generated benchmarks", pkg, name)
	ok, err := w.GoTestC(ctx, w.Dir(), pkg, bin, ov, results.Opt)
	var be *BuildError
	if errors.As(err, &be) {
		return fmt.Errorf("%s (%s) does not build with the generated benchmarks: %s", name, rev, repl.Replace(be.Reason()))
	}
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s (%s): go test -c wrote no test binary for %s", name, rev, pkg)
	}
	w.bins[results.Opt][pkg] = bin
	w.hasTests[pkg] = true
	known := concurrentBenchmarks(w.pkgs[pkg].Dir)
	for name, content := range files {
		maps.Copy(known, concurrentIn(name, content))
	}
	w.count.mu.Lock()
	if w.count.conc == nil {
		w.count.conc = map[string]map[string]bool{}
	}
	w.count.conc[pkg] = known // -measure instructions keeps them on wall time
	w.count.mu.Unlock()
	return nil
}

// concurrentIn returns the Benchmark functions of a test file's content
// that call RunParallel or start a goroutine themselves.
func concurrentIn(name string, content []byte) map[string]bool {
	out := map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), name, content, parser.SkipObjectResolution)
	if err != nil || !strings.HasSuffix(name, "_test.go") {
		return out
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, "Benchmark") {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n != nil && runsConcurrently(n) {
				out[fd.Name.Name] = true
			}
			return true
		})
	}
	return out
}
