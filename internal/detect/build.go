package detect

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
)

// binaries are one package's test binaries: Plain for the profiled run
// (with the profiling-rate file when it could be added), Cover with
// atomic-mode coverage of every package in scope (exact counts, also
// under b.RunParallel, where count mode loses increments).
type binaries struct{ Plain, Cover string }

// buildAll builds the test binaries of the packages in scope, one go
// command per kind for all of them (it loads and links them together);
// packages whose binaries would have the same name get a go command each.
// Packages without test files get none.
func (o *mapper) buildAll(ctx context.Context) (map[string]binaries, error) {
	defer since(&o.cost.Build, time.Now())
	groups := byExecName(o.Pkgs)
	out := map[string]binaries{}
	coverpkg := "-coverpkg=" + strings.Join(importPaths(o.Pkgs), ",")
	for g, pkgs := range groups {
		dir := filepath.Join(o.work, "bin", strconv.Itoa(g))
		plain, cover := filepath.Join(dir, "plain")+"/", filepath.Join(dir, "cover")+"/"
		overlay, err := hzOverlay(pkgs, filepath.Join(dir, "overlay"))
		if err != nil {
			return nil, err
		}
		var extra []string
		if overlay != "" {
			extra = []string{"-overlay", overlay}
		}
		// The two kinds build at once: each go command links one
		// binary at a time.
		var plainErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			plainErr = o.build(ctx, pkgs, plain, extra...)
		}()
		coverErr := o.build(ctx, pkgs, cover, "-cover", "-covermode=atomic", coverpkg)
		<-done
		if err := errors.Join(plainErr, coverErr); err != nil {
			return nil, err
		}
		for _, p := range pkgs {
			name := execName(p.ImportPath) + ".test"
			b := binaries{filepath.Join(plain, name), filepath.Join(cover, name)}
			if _, err := os.Stat(b.Plain); err == nil {
				out[p.ImportPath] = b
			}
		}
	}
	return out, nil
}

// build compiles the test binaries of pkgs into the directory out (ending
// in a slash) with extra go test flags, as the engine builds (one
// proc.GoCommand): the go command's own temporary directories (go-build*)
// go under the map's temporary directory, so a cancelled or killed map
// leaves none behind.
func (o *mapper) build(ctx context.Context, pkgs []*mutate.Package, out string, extra ...string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var cmdline string // for the error
	g := proc.GoCommand{Tmp: o.work, Tags: o.Tags, Log: func(_ string, args ...string) { cmdline = "go " + strings.Join(args, " ") }}
	res, err := g.TestC(ctx, pkgs[0].Dir, out, extra, importPaths(pkgs)...)
	_, err = resultErr(ctx, cmdline, 0, res, err)
	return err
}

// majorRE matches a module path's major version suffix.
var majorRE = regexp.MustCompile(`^v[0-9]+$`)

// execName is the name go test -c gives the test binary of the package at
// importPath (without ".test"): its last element, or the one before a
// major version suffix (example.com/m/v2 -> m).
func execName(importPath string) string {
	elem := path.Base(importPath)
	if dir := path.Dir(importPath); majorRE.MatchString(elem) && dir != "." {
		return path.Base(dir)
	}
	return elem
}

// byExecName splits pkgs into groups whose test binaries have distinct
// names, in order: the first group holds every package whose name is not
// taken yet, the next the first repeats, and so on.
func byExecName(pkgs []*mutate.Package) [][]*mutate.Package {
	var groups [][]*mutate.Package
	var names []map[string]bool
	for _, p := range pkgs {
		n := execName(p.ImportPath)
		i := 0
		for i < len(groups) && names[i][n] {
			i++
		}
		if i == len(groups) {
			groups, names = append(groups, nil), append(names, map[string]bool{})
		}
		groups[i], names[i][n] = append(groups[i], p), true
	}
	return groups
}

// hzOverlay writes, in dir, the files and the go build -overlay file that
// add hzSource to the test build of each of pkgs, and returns the overlay
// file; "" when none gets it (a package whose directory already has a
// file of that name, or whose name is unknown, samples at 100 Hz).
func hzOverlay(pkgs []*mutate.Package, dir string) (string, error) {
	replace := map[string]string{}
	for i, p := range pkgs {
		target := filepath.Join(p.Dir, hzFile)
		if _, err := os.Stat(target); err == nil || p.Name == "" {
			continue
		}
		src := filepath.Join(dir, strconv.Itoa(i)+"_"+hzFile)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(src, []byte(hzSource(p.Name)), 0o644); err != nil {
			return "", err
		}
		replace[target] = src
	}
	if len(replace) == 0 {
		return "", nil
	}
	data, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, os.WriteFile(overlay, data, 0o644)
}
