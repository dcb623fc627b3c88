package generate

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// maxVetRounds is how many times a package's candidates are vetted at
// most: each round drops the candidates the errors point at.
const maxVetRounds = 3

// pkgFile is one package's generated file in the module copy.
type pkgFile struct {
	pkg   *mutate.Package
	dir   string // the package's directory in the copy
	out   string // the generated file in the results directory, once written
	spec  fileSpec
	cands []*candidate
	taken map[string]bool // benchmark names in use
}

// check keeps the candidates of f that compile, pass go vet and run at
// the baseline without failing (each at about 50ms of iterations), in
// the module copy at root; the others are dropped with the reason. It
// writes the file of the kept ones into the copy and counts the go
// builds it paid in *builds. ns has each kept candidate's ns/op.
func (f *pkgFile) check(ctx context.Context, e *engine.Engine, root string, builds *int, ns map[string]float64) ([]Skipped, error) {
	var dropped []Skipped
	drop := func(c *candidate, why string) {
		dropped = append(dropped, Skipped{Package: f.pkg.ImportPath, Function: c.Target.Function, Reason: why})
	}
	for round := 0; ; round++ {
		if len(f.cands) == 0 {
			return dropped, nil
		}
		src, err := f.write()
		if err != nil {
			return nil, err
		}
		*builds++
		res, err := e.GoCmd(ctx, root, "vet", "./"+f.rel(root))
		if err != nil {
			return nil, err
		}
		if res.Canceled {
			return nil, ctx.Err()
		}
		if res.OK() {
			break
		}
		bad := f.culprits(src, res.Output)
		if len(bad) == 0 || round+1 == maxVetRounds {
			return nil, fmt.Errorf("go vet fails on the generated file of %s: %s", f.pkg.ImportPath, engine.LastLines(res.Output, 5))
		}
		f.cands = filter(f.cands, func(c *candidate) bool {
			if why, ok := bad[c.Name]; ok {
				drop(c, "it does not pass go vet: "+why)
				return false
			}
			return true
		})
	}
	bin := filepath.Join(e.Tmp, engine.SafeName(f.pkg.ImportPath)+".gen.test")
	*builds++
	if _, err := e.GoTestC(ctx, root, "./"+f.rel(root), bin, "", results.Opt); err != nil {
		return nil, fmt.Errorf("building the generated benchmarks of %s: %w", f.pkg.ImportPath, err)
	}
	var runErr error
	f.cands = filter(f.cands, func(c *candidate) bool {
		v, why, err := runOnce(ctx, e, bin, f.dir, c.Name)
		if err != nil || why != "" {
			runErr = cmp.Or(runErr, err)
			drop(c, why)
			return false
		}
		ns[c.Name] = v
		return true
	})
	if runErr != nil {
		return nil, runErr
	}
	if len(f.cands) > 0 {
		_, err := f.write()
		return dropped, err
	} // else: no file
	return dropped, os.Remove(filepath.Join(f.dir, FileName))
}

// rel is the package's directory relative to the copy's root.
func (f *pkgFile) rel(root string) string {
	r, _ := filepath.Rel(root, f.dir)
	return filepath.ToSlash(r)
}

// write renders the file of the candidates left and writes it into the
// copy.
func (f *pkgFile) write() ([]byte, error) {
	f.spec.benches = f.cands
	src, err := renderFile(f.spec)
	if err != nil {
		return nil, err
	}
	return src, os.WriteFile(filepath.Join(f.dir, FileName), src, 0o644)
}

var errLine = regexp.MustCompile(regexp.QuoteMeta(FileName) + `:(\d+)(?::\d+)?: (.*)`)

// culprits maps the candidates whose lines of src the go vet output out
// complains about to the complaint.
func (f *pkgFile) culprits(src, out []byte) map[string]string {
	starts := map[int]string{} // line -> benchmark declared there
	for i, l := range strings.Split(string(src), "\n") {
		for _, c := range f.cands {
			if strings.HasPrefix(l, "func "+c.Name+"(") {
				starts[i+1] = c.Name
			}
		}
	}
	bad := map[string]string{}
	for _, m := range errLine.FindAllStringSubmatch(string(out), -1) {
		line, _ := strconv.Atoi(m[1])
		name, at := "", 0
		for l, n := range starts {
			if l <= line && l > at {
				name, at = n, l
			}
		}
		if name != "" && bad[name] == "" {
			bad[name] = m[2]
		}
	}
	return bad
}

// runOnce runs benchmark name of the test binary bin for about 50ms
// (the engine's BenchOnce) and returns its ns/op, or why it failed (a
// panic, a failure, a timeout).
func runOnce(ctx context.Context, e *engine.Engine, bin, dir, name string) (float64, string, error) {
	vals, res, err := e.BenchOnce(ctx, bin, dir, engine.Benchmark{Name: name}, "50ms", time.Minute)
	switch {
	case err != nil:
		return 0, "", err
	case res.TimedOut:
		return 0, "it runs past a minute at the baseline", nil
	case !res.OK():
		if m := panicLine.Find(res.Output); m != nil {
			return 0, "it panics at the baseline: " + string(m), nil
		}
		return 0, "it fails at the baseline: " + engine.LastLines(res.Output, 3), nil
	case vals == nil:
		return 0, "it did not run at the baseline: " + engine.LastLines(res.Output, 3), nil
	}
	return vals["sec/op"] * 1e9, "", nil
}

var panicLine = regexp.MustCompile(`(?m)^panic: .*`)

// filter keeps the candidates keep says to keep.
func filter(cs []*candidate, keep func(*candidate) bool) []*candidate {
	var out []*candidate
	for _, c := range cs {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}
