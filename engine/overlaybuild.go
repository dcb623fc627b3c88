package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
	return nil
}
