package mutate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// goListTimeout is the deadline of go list ./... (every process perfmut
// starts has one).
const goListTimeout = 5 * time.Minute

// Judges returns every package of the module with the imports among them:
// the loaded packages as they are, and the module's other packages (out
// of the package patterns, or excluded by the config) as entries with an
// import path, a directory and imports but no files to mutate. Scope
// chooses what is mutated; every package that imports a mutated one, in
// scope or not, still judges its mutants with its tests and benchmarks.
func (p *Program) Judges(ctx context.Context) ([]*Package, error) {
	args := []string{"list", "-e", "-json=ImportPath,Name,Dir,Imports,TestImports,XTestImports,Module"}
	if len(p.opts.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(p.opts.Tags, ","))
	}
	args = append(args, "./...")
	ctx, cancel := context.WithTimeout(ctx, goListTimeout)
	defer cancel()
	cmd := proc.Command(ctx, p.Module.Dir, nil, "go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./... in %s: %v: %s", p.Module.Dir, err, strings.TrimSpace(stderr.String()))
	}
	all := append([]*Package(nil), p.Packages...)
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var lp struct {
			ImportPath, Name, Dir              string
			Imports, TestImports, XTestImports []string
			Module                             *struct{ Path string }
		}
		if err := dec.Decode(&lp); err != nil {
			return nil, fmt.Errorf("go list ./...: %v", err)
		}
		if lp.Module == nil || lp.Module.Path != p.Module.Path || p.byPath[lp.ImportPath] != nil {
			continue
		}
		pkg := &Package{ImportPath: lp.ImportPath, Name: lp.Name, Dir: lp.Dir}
		// A package judges a mutated one when it or its tests import it.
		seen := map[string]bool{}
		for _, list := range [][]string{lp.Imports, lp.TestImports, lp.XTestImports} {
			for _, imp := range list {
				if !seen[imp] && (imp == p.Module.Path || strings.HasPrefix(imp, p.Module.Path+"/")) && imp != lp.ImportPath {
					seen[imp] = true
					pkg.Imports = append(pkg.Imports, imp)
				}
			}
		}
		sort.Strings(pkg.Imports)
		all = append(all, pkg)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ImportPath < all[j].ImportPath })
	return all, nil
}
