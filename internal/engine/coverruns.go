package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
)

// coverRepeats is how many coverage runs at each iteration count a
// benchmark gets when its counts differ between processes (a set-up that
// is random per process): three at N and three at 2N.
const coverRepeats = 3

// A coverJob is one benchmark to cover: its package, -cover test binary,
// first iteration count and the listing run's time per iteration.
type coverJob struct {
	pkg   *mutate.Package
	bin   string
	bench Benchmark
	iters int
	spo   float64
}

// coverBenchmark runs job j's coverage: a run at N iterations, one at 2N
// and another at N. When the two runs at N count every block alike and no
// block ran fewer times at 2N, the benchmark's counts do not depend on the
// process and the pair decides (covBlock.growth). Otherwise its set-up
// differs between processes (random data, a map's order) and one pair
// would decide by chance: it gets coverRepeats runs at each count, merged
// by mergeRuns. It returns nil when a run of the pair fails (with a
// warning); a repeat that fails ends the repeats, and the runs that
// succeeded are merged (with a warning).
func (e *Engine) coverBenchmark(ctx context.Context, j coverJob, i int) (*BenchCoverage, error) {
	lo, hi, iters, err := e.coverPair(ctx, &j, i)
	if lo == nil || err != nil {
		return nil, err
	}
	runs := [][]map[string][]CovBlock{{lo}, {hi}}
	for k := 0; len(runs[0]) < coverRepeats || len(runs[1]) < coverRepeats; k = 1 - k {
		if len(runs[k]) >= coverRepeats {
			continue
		}
		prof, res, err := e.coverOnce(ctx, j, i, iters*(k+1))
		if err != nil {
			return nil, err
		}
		if prof == nil {
			// The runs so far (the pair at least) still say what the
			// benchmark runs: a failing repeat loses only the repeats.
			e.Warnf("baseline benchmark %s of %s %s in a repeated coverage run; its coverage is from the %d runs that succeeded",
				j.bench.Name, j.pkg.ImportPath, e.coverFailure(j, iters*(k+1), res), len(runs[0])+len(runs[1]))
			break
		}
		runs[k] = append(runs[k], prof)
		if len(runs[0]) == 2 && len(runs[1]) == 1 && sameCounts(runs[0][0], runs[0][1]) && !decreases(runs[0][0], runs[1][0]) {
			break
		}
	}
	blocks, varies := mergeRuns(runs[0], runs[1])
	return &BenchCoverage{Bench: j.bench, Blocks: blocks, varies: varies, Iters: iters, SecPerOp: j.spo}, nil
}

// coverPair runs j's benchmark at N and 2N iterations and returns their
// profiles and N. N starts at j.iters; it grows after a run at N whose
// time per iteration asks for more (resizeCoverIters), and shrinks
// tenfold after a run past its deadline. j.spo becomes the 2N run's time
// per iteration. lo is nil when a run fails (with a warning).
func (e *Engine) coverPair(ctx context.Context, j *coverJob, i int) (lo, hi map[string][]CovBlock, iters int, err error) {
	iters, resized := j.iters, fixedNRE.MatchString(e.cfg.Benchtime)
	growths := 0
retry:
	for k := range 2 {
		n := iters * (k + 1)
		prof, res, err := e.coverOnce(ctx, *j, i, n)
		if err != nil {
			return nil, nil, 0, err
		}
		if prof == nil {
			if res.TimedOut && iters > 2 {
				// The cost per iteration grows with b.N (or the 1x run
				// misjudged it): try again with a tenth of the iterations.
				iters, resized = max(iters/10, 2), true
				goto retry
			}
			e.warnCover(*j, n, res)
			return nil, nil, 0, nil
		}
		_, spo := benchNames(res.Output)
		if k == 0 && !resized {
			if next, ok := resizeCoverIters(iters, spo[j.bench.Name]); ok {
				// The 1x run timed mostly a slow first iteration (a
				// table built, a cache filled): the runs take as
				// many iterations as this run's time per iteration
				// asks, so that code reached only after many (an
				// eviction) is seen as the samples will run it.
				iters, j.spo, growths = next, spo[j.bench.Name], growths+1
				resized = growths >= maxCoverResizes
				goto retry
			}
		}
		if k == 0 {
			lo = prof
			continue
		}
		hi = prof
		if spo[j.bench.Name] > 0 {
			j.spo = spo[j.bench.Name]
		}
	}
	return lo, hi, iters, nil
}

// coverOnce runs j's benchmark once at n iterations with a coverage
// profile, and returns the profile (nil if the run failed or timed out:
// res says which).
func (e *Engine) coverOnce(ctx context.Context, j coverJob, i, n int) (map[string][]CovBlock, proc.Result, error) {
	f := filepath.Join(e.Tmp, "cover", fmt.Sprintf("%d.%d.cov", i, n))
	args := []string{"-test.run=^$", "-test.bench=" + j.bench.Pattern(),
		fmt.Sprintf("-test.benchtime=%dx", n), "-test.coverprofile=" + f, "-test.paniconexit0"}
	e.LogCmd(j.pkg.Dir, j.bin, args...)
	res, err := proc.Run(ctx, j.pkg.Dir, nil, coverDeadline(j.spo, n, e.cfg.BenchTimeout), j.bin, args...)
	if err != nil {
		return nil, res, err
	}
	if res.Canceled {
		return nil, res, ctx.Err()
	}
	if !res.OK() {
		return nil, res, nil
	}
	prof, err := readProfile(f)
	os.Remove(f)
	return prof, res, err
}

// warnCover warns that j's benchmark failed its coverage run of n
// iterations (res) and is left out of judging.
func (e *Engine) warnCover(j coverJob, n int, res proc.Result) {
	e.Warnf("baseline benchmark %s of %s %s under coverage; it is left out of judging", j.bench.Name, j.pkg.ImportPath, e.coverFailure(j, n, res))
}

// coverFailure says how j's coverage run of n iterations (res) failed.
func (e *Engine) coverFailure(j coverJob, n int, res proc.Result) string {
	if res.TimedOut {
		return fmt.Sprintf("did not finish %d iterations within %s", n, coverDeadline(j.spo, n, e.cfg.BenchTimeout))
	}
	if _, msg := benchDeath(res.Output); msg != "" {
		return "fails: " + msg
	}
	return "fails"
}

// sameCounts reports whether two profiles count every block alike.
func sameCounts(a, b map[string][]CovBlock) bool {
	if len(a) != len(b) {
		return false
	}
	for file, ba := range a {
		bb, ok := b[file]
		if !ok || !slices.Equal(ba, bb) {
			return false
		}
	}
	return true
}

// decreases reports whether a block ran fewer times in the run at 2N (hi)
// than in the run at N (lo), beyond what a wrapped counter reads
// (covBlock.growth): a set-up that differs between the processes.
func decreases(lo, hi map[string][]CovBlock) bool {
	for _, blocks := range timedRuns(lo, hi) {
		for _, b := range blocks {
			if b.Count2N < b.CountN && b.Growth() == 0 {
				return true
			}
		}
	}
	return false
}

// mergeRuns merges profiles of runs at N (lo) and 2N (hi) iterations of one
// benchmark, made by one binary (the same blocks in the same order): the
// blocks that ran in any of them, each with the median count of the runs
// at N in c2 and of those at 2N in c3, and, by file, the start of each
// block on whose count the runs at the same N disagree. Such a block is
// timed (its c3 is at least c2 + 1, so that covBlock.growth says so): a
// setup block whose count differs between processes cannot be told from a
// timed block whose rate does, and measuring it is the choice a rerun
// makes again, where a pair of runs chose by chance. With one run of each
// it is the pair.
func mergeRuns(lo, hi []map[string][]CovBlock) (map[string][]CovBlock, map[string]map[[2]int]bool) {
	out := map[string][]CovBlock{}
	varies := map[string]map[[2]int]bool{}
	for file, ref := range lo[0] {
		for bi, b := range ref {
			c2, v2 := medianCount(lo, file, bi, b)
			c3, v3 := medianCount(hi, file, bi, b)
			m := CovBlock{StartLine: b.StartLine, StartCol: b.StartCol, EndLine: b.EndLine, EndCol: b.EndCol, CountN: c2, Count2N: c3}
			if v2 || v3 {
				if varies[file] == nil {
					varies[file] = map[[2]int]bool{}
				}
				varies[file][[2]int{b.StartLine, b.StartCol}] = true
				if m.Growth() == 0 {
					m.Count2N = m.CountN + 1
				}
			}
			if m.CountN > 0 || m.Count2N > 0 {
				out[file] = append(out[file], m)
			}
		}
	}
	return out, varies
}

// medianCount is the median count (the upper of two middle ones) of block
// bi of file in runs, a block missing from a run counting 0, and whether
// the runs disagree on it.
func medianCount(runs []map[string][]CovBlock, file string, bi int, at CovBlock) (int64, bool) {
	counts := make([]int64, len(runs))
	for i, p := range runs {
		if bs := p[file]; bi < len(bs) && bs[bi].StartLine == at.StartLine && bs[bi].StartCol == at.StartCol {
			counts[i] = bs[bi].CountN
		}
	}
	varies := slices.Min(counts) != slices.Max(counts)
	slices.Sort(counts)
	return counts[len(counts)/2], varies
}

// coverJobs builds p's coverage test binary and lists its benchmarks: a
// coverage run for each (none when p's tests do not build here).
func (e *Engine) coverJobs(ctx context.Context, p *mutate.Package, coverpkg []string) ([]coverJob, error) {
	bin := filepath.Join(e.Tmp, "cover", SafeName(p.ImportPath)+".test")
	ok, err := e.GoTestC(ctx, e.cfg.Module.Dir, p.ImportPath, bin, "", "",
		"-cover", "-covermode=atomic", "-coverpkg="+strings.Join(coverpkg, ","))
	if err != nil {
		return nil, fmt.Errorf("baseline coverage build: %w", err)
	}
	if !ok {
		return nil, nil
	}
	names, spo, err := e.ListBenchmarks(ctx, p, bin)
	if err != nil {
		return nil, err
	}
	var jobs []coverJob
	for _, n := range names {
		iters := coverIters(spo[n])
		if fixed, ok := fixedIters(e.cfg.Benchtime); ok {
			// Samples of N iterations reach only what N and 2N do.
			iters = fixed
		}
		jobs = append(jobs, coverJob{p, bin, Benchmark{Pkg: p.ImportPath, Name: n}, iters, spo[n]})
	}
	return jobs, nil
}

// CoverBenchmarks builds a -cover test binary of each package in pkgs
// that has benchmarks, instruments the mutated packages (coverpkg), and
// records per leaf benchmark which blocks run and which of them grow with
// b.N. Coverage must come from the baseline: -cover ignores -overlay.
//
// Every process has a deadline. A benchmark that panics, fails or runs past
// its deadline on the baseline is left out of judging, with a warning that
// names it and why, instead of ending the campaign. hasTests says which
// packages have a test binary.
func (e *Engine) CoverBenchmarks(ctx context.Context, hasTests map[string]bool, pkgs []*mutate.Package, coverpkg []string) ([]*BenchCoverage, error) {
	var mu sync.Mutex
	var all []*BenchCoverage
	var withTests []*mutate.Package
	for _, p := range pkgs {
		if hasTests[p.ImportPath] {
			withTests = append(withTests, p)
		}
	}
	// Each package's coverage build and listing, on every worker at once;
	// the jobs stay in package order.
	byPkg := make([][]coverJob, len(withTests))
	err := e.Parallel(ctx, len(withTests), func(i int) error {
		var err error
		byPkg[i], err = e.coverJobs(ctx, withTests[i], coverpkg)
		return err
	})
	if err != nil {
		return nil, err
	}
	var jobs []coverJob
	for _, js := range byPkg {
		jobs = append(jobs, js...)
	}
	if len(jobs) > 0 {
		e.Prog.Logf("perfmut: benchmark coverage of %s", english.Plural(len(jobs), "benchmark"))
	}
	start := time.Now()
	done, stop := e.StepProgress("benchmark coverage", len(jobs))
	defer stop()
	err = e.Parallel(ctx, len(jobs), func(i int) error {
		defer done.Add(1)
		bc, err := e.coverBenchmark(ctx, jobs[i], i)
		if bc == nil || err != nil {
			return err
		}
		mu.Lock()
		all = append(all, bc)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(jobs) > 0 {
		e.Prog.Logf("perfmut: benchmark coverage done in %s", time.Since(start).Round(time.Second))
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Bench.Pkg != all[j].Bench.Pkg {
			return all[i].Bench.Pkg < all[j].Bench.Pkg
		}
		return all[i].Bench.Name < all[j].Bench.Name
	})
	return all, nil
}

// passed reports whether a test binary's output holds its PASS line (a
// -cover binary prints its coverage after it).
func passed(out []byte) bool {
	for _, line := range bytes.Split(out, []byte("\n")) {
		if string(bytes.TrimRight(line, " \r")) == "PASS" {
			return true
		}
	}
	return false
}

// ListBenchmarks lists the benchmarks of p with one run of each (1x) in
// its -cover binary, with their seconds per operation. A benchmark that
// panics, fails or runs past -bench-timeout is left out with a warning,
// and the listing runs again without it (-test.skip).
func (e *Engine) ListBenchmarks(ctx context.Context, p *mutate.Package, bin string) ([]string, map[string]float64, error) {
	skip := e.cfg.SkipBench
	for {
		// -test.v prints each benchmark's name as it starts, so a
		// benchmark that dies is named.
		args := []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-test.v", "-test.paniconexit0"}
		if skip != "" {
			args = append(args, "-test.skip="+skip)
		}
		e.LogCmd(p.Dir, bin, args...)
		res, err := proc.Run(ctx, p.Dir, nil, e.cfg.BenchTimeout, bin, args...)
		if err != nil {
			return nil, nil, err
		}
		if res.Canceled {
			return nil, nil, ctx.Err()
		}
		// A benchmark that ends the process with status 0 (os.Exit(0)
		// panics under -test.paniconexit0, syscall.Exit does not) hides
		// the benchmarks after it: without the PASS line, the run failed.
		// So does one whose result has no time (timelessResult).
		if res.OK() && passed(res.Output) && timelessResult(res.Output) == "" {
			names, spo := benchNames(res.Output)
			return names, spo, nil
		}
		bench, msg := benchDeath(res.Output)
		if t := timelessResult(res.Output); msg == "" && t != "" {
			bench, msg = t, exitZeroReason
		}
		if bench == "" {
			return nil, nil, fmt.Errorf("baseline benchmarks of %s fail: %s", p.ImportPath, LastLines(res.Output, 3))
		}
		why := "fails"
		switch {
		case res.TimedOut:
			why = fmt.Sprintf("did not finish one iteration within -bench-timeout %s", e.cfg.BenchTimeout)
		case msg != "":
			why = "fails: " + msg
		}
		e.Warnf("baseline benchmark %s of %s %s; it is left out of judging", bench, p.ImportPath, why)
		// A dying sub-benchmark takes its top-level benchmark with it:
		// -test.skip cannot combine patterns of different depths.
		top, _, _ := strings.Cut(bench, "/")
		if top != bench {
			e.Warnf("(its parent %s is left out with it)", top)
		}
		pat := "^" + regexp.QuoteMeta(top) + "$"
		if skip == "" {
			skip = pat
		} else {
			skip += "|" + pat
		}
	}
}
