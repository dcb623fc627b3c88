package speedgun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/results"
)

// Generate writes a concurrent benchmark for each thread-safe type of
// cfg.Package. It builds the package's test binary once, with a driver
// that runs the candidate tests, and runs that binary a few times per
// type; it removes its temporary files before it returns.
func Generate(ctx context.Context, cfg Config) (Result, error) {
	cfg = cfg.withDefaults()
	var r Result
	pkg := cfg.Package
	if cfg.Engine == nil || pkg == nil {
		return r, errors.New("speedgun: Config.Engine and Config.Package are required")
	}
	tp := pkg.Types()
	if tp == nil {
		return r, fmt.Errorf("speedgun: package %s was not loaded with its types", pkg.ImportPath)
	}
	if cfg.Dir == "" {
		cfg.Dir = cfg.Engine.Config().Module.Dir
	}
	targets, skipped := findTargets(tp, pkg.Syntax(), cfg.Methods, cfg.Constructors)
	r.Skipped = skipped
	if len(targets) == 0 {
		return r, nil
	}
	focus := map[string]bool{}
	for _, f := range cfg.Focus {
		focus[f] = true
	}
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x737065656467756e)) // "speedgun"
	pools := harvest(pkg.Dir)
	imports := map[string]bool{}
	tgs := make([]*typeGen, len(targets))
	for i, t := range targets {
		atoms, makes := t.buildAtoms(pools, tp, focus, rng, imports)
		tgs[i] = &typeGen{idx: i, t: t, atoms: atoms, makes: makes, strikes: map[int]int{}}
	}
	tmp, err := os.MkdirTemp(cfg.Engine.Tmp, "speedgun-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(tmp)
	d, err := buildDriver(ctx, cfg, tgs, imports, tmp)
	r.Builds++
	if err != nil {
		return r, err
	}
	g := &gen{cfg: cfg, d: d, rng: rng, res: &r}
	taken := takenNames(pkg.Dir, tp.Scope().Names())
	for _, tg := range tgs {
		bm, reason, err := g.generateType(ctx, tg, taken)
		if err != nil {
			return r, err
		}
		if reason != "" {
			r.Skipped = append(r.Skipped, Skipped{Type: tg.t.display, Reason: reason})
			continue
		}
		taken[bm.Name] = true
		r.Benchmarks = append(r.Benchmarks, bm)
	}
	return r, nil
}

// buildDriver builds the package's test binary with the driver file added
// through an overlay (and cfg.Overlay's files).
func buildDriver(ctx context.Context, cfg Config, tgs []*typeGen, imports map[string]bool, tmp string) (*driver, error) {
	src, err := driverSource(cfg.Package.Name, tgs, imports)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{filepath.Join(cfg.Package.Dir, driverFile): src}
	for name, content := range cfg.Overlay {
		files[name] = content
	}
	ov, repl, err := engine.WriteOverlay(tmp, cfg.Dir, files)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "speedgun.test")
	cfg.Engine.Prog.Logf("perfmut: building %s's test binary with the concurrent-benchmark driver for %d types", cfg.Package.ImportPath, len(tgs))
	ok, err := cfg.Engine.GoTestC(ctx, cfg.Dir, cfg.Package.ImportPath, bin, ov, results.Opt)
	var be *engine.BuildError
	if errors.As(err, &be) {
		return nil, fmt.Errorf("the concurrent-benchmark driver of %s does not build: %s", cfg.Package.ImportPath, repl.Replace(be.Reason()))
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("go test -c wrote no test binary for %s", cfg.Package.ImportPath)
	}
	wd := filepath.Join(tmp, "wd")
	if err := os.Mkdir(wd, 0o755); err != nil {
		return nil, err
	}
	return &driver{e: cfg.Engine, bin: bin, dir: wd, tmp: tmp}, nil
}

// generateType runs the feedback loop of one type and renders its
// benchmark, or returns why there is none.
func (g *gen) generateType(ctx context.Context, tg *typeGen, taken map[string]bool) (Benchmark, string, error) {
	if err := g.checkSingles(ctx, tg); err != nil {
		return Benchmark{}, "", err
	}
	if len(tg.okMakes) == 0 {
		return Benchmark{}, "every way to make one failed", nil
	}
	if len(tg.okAtoms) == 0 {
		return Benchmark{}, "every method call failed on its own", nil
	}
	s, err := g.length(ctx, tg)
	if err != nil || s == 0 {
		return Benchmark{}, "every candidate sequence failed", err
	}
	k, ok, err := g.final(ctx, tg, s)
	if err != nil || !ok {
		return Benchmark{}, "no candidate survived its confirmation runs", err
	}
	name := uniqueName("BenchmarkConcurrent"+tg.t.name, taken)
	src, covers, imports := tg.source(name, k.c, g.cfg.Seed, g.cfg.Latency)
	src, err = formatDecl(src)
	if err != nil {
		return Benchmark{}, "", err
	}
	bm := Benchmark{Name: name, Type: tg.t.display, Covers: covers, Source: src, Imports: imports, Calls: s * s, NsPerOp: k.ns}
	for _, c := range covers {
		if slices.ContainsFunc(tg.atoms, func(a atom) bool { return a.cover == c && a.focus }) {
			bm.Focus = append(bm.Focus, c)
		}
	}
	return bm, "", nil
}

// final picks the best surviving candidates at length s (see the order
// below) and runs each twice
// over a whole sample time; the first to survive both is the benchmark.
func (g *gen) final(ctx context.Context, tg *typeGen, s int) (kept, bool, error) {
	var pool []kept
	for _, k := range tg.kept {
		if k.s == s {
			pool = append(pool, k)
		}
	}
	// The most distinct focus functions first, then the fewest calls
	// that return an error (tenths: Go's exceptions, which SpeedGun's
	// feedback drops), then the rest of the score.
	slices.SortStableFunc(pool, func(a, b kept) int {
		sa, sb := tg.score(a.c), tg.score(b.c)
		return cmp.Or(cmp.Compare(sb/1000000, sa/1000000), cmp.Compare(int(a.errs*10), int(b.errs*10)), cmp.Compare(sb, sa))
	})
	pool = pool[:min(3, len(pool))]
	var cands []cand
	for _, k := range pool {
		for range 2 {
			c := k.c
			g.nextID++
			c.ID, c.MinWall = g.nextID, int64(max(g.cfg.SampleTime, 10*time.Millisecond))
			cands = append(cands, c)
		}
	}
	rs, err := g.d.run(ctx, cands)
	if err != nil {
		return kept{}, false, err
	}
	for i, k := range pool {
		a, b := rs[cands[2*i].ID], rs[cands[2*i+1].ID]
		if a.OK && b.OK {
			k.ns = (a.NsPerOp + b.NsPerOp) / 2
			return k, true, nil
		}
		if a.OK {
			a = b
		}
		g.drop(tg, fmt.Sprintf("a sequence of %d calls, on its confirmation run,", s), a)
	}
	return kept{}, false, nil
}

// score ranks a candidate: the distinct focus functions it calls, then
// its distinct other functions, then how many of its calls are focus
// calls.
func (tg *typeGen) score(c cand) int {
	seen := map[string]bool{}
	n := 0
	add := func(a int) {
		at := tg.atoms[a]
		if at.focus {
			n++
		}
		if !seen[at.cover] {
			seen[at.cover] = true
			n += 1000
			if at.focus {
				n += 1000000
			}
		}
	}
	for _, a := range c.Prefix {
		add(a)
	}
	for _, seq := range c.Suffixes {
		for _, a := range seq {
			add(a)
		}
	}
	return n
}

// formatDecl gofmt's one function declaration.
func formatDecl(src string) (string, error) {
	const head = "package p\n\n"
	out, err := format.Source([]byte(head + src))
	if err != nil {
		return "", fmt.Errorf("a generated benchmark does not parse: %v", err)
	}
	return strings.TrimPrefix(string(out), head), nil
}

// takenNames are the names declared at the top level of the package,
// its test files included.
func takenNames(dir string, scope []string) map[string]bool {
	taken := map[string]bool{}
	for _, n := range scope {
		taken[n] = true
	}
	for _, f := range parseTests(dir) {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				taken[fd.Name.Name] = true
			}
		}
	}
	return taken
}

// uniqueName returns name, or name2, name3, ... if taken.
func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s%d", name, i); !taken[n] {
			return n
		}
	}
}
