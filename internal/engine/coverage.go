package engine

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/tools/cover"

	"github.com/perfmut/perfmut/mutate"
)

// A Benchmark is one leaf benchmark of a package's test binary.
type Benchmark struct {
	Pkg  string // import path of the package whose test binary holds it
	Name string // full name without the GOMAXPROCS suffix, e.g. BenchmarkFind/n=10
	CPU  int    // GOMAXPROCS it runs with (go test -cpu); 0 = the default
}

func (b Benchmark) String() string { return b.Name }

// Pattern is the -test.bench regexp that selects exactly b.
func (b Benchmark) Pattern() string {
	parts := strings.Split(b.Name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// A CovBlock is one coverage block of a file with its execution counts at
// -test.benchtime Nx (CountN) and 2Nx (Count2N): blocks of the timed loop run more
// often in the second run, setup blocks do not.
type CovBlock struct {
	StartLine, StartCol, EndLine, EndCol int
	CountN, Count2N                      int64
}

// Growth is how many more times the block ran at 2N than at N: > 0 for a
// block of the timed loop. Coverage counters are 32 bits and wrap, so a hot
// block's count at 2N may read lower than at N; the difference is taken
// modulo 2^32, which is exact as long as the timed loop runs the block
// fewer than 2^32 times in N iterations. A count that reads lower at 2N is
// a wrap only when the true count (2^32 more) is at most 4 times the count
// at N (a timed block runs about twice as often at 2N, up to 4 times when
// the cost per iteration grows with N, as in a deque that holds b.N
// elements); otherwise it is a decrease, which only a set-up that differs
// between the two processes makes, and the block is not called timed
// because its count went down (see mergeRuns for such benchmarks).
func (b CovBlock) Growth() int64 {
	if b.Count2N < b.CountN && b.Count2N+1<<32 > 4*b.CountN {
		return 0
	}
	return int64(uint32(b.Count2N) - uint32(b.CountN))
}

// Contains reports whether line:col lies in the block ([start, end)).
func (b CovBlock) Contains(line, col int) bool {
	if line < b.StartLine || line > b.EndLine {
		return false
	}
	if line == b.StartLine && col < b.StartCol {
		return false
	}
	if line == b.EndLine && col >= b.EndCol {
		return false
	}
	return true
}

// BenchCoverage is what one benchmark executes: coverage file name
// (import path/base name) -> blocks run at least once.
type BenchCoverage struct {
	Bench  Benchmark
	Blocks map[string][]CovBlock
	// varies holds, by file, the start (line, column) of the blocks whose
	// counts differ between processes at the same iteration count
	// (mergeRuns): timed, at a rate that is not known.
	varies map[string]map[[2]int]bool
	Iters  int // iterations of the first coverage run (c2); 0 if unknown
	// SecPerOp is one iteration's time in the second coverage run (2N
	// iterations, instrumented), or in the listing run (one iteration) if
	// that printed none: it ranks benchmarks by heat per second.
	SecPerOp float64
}

// Suffix is the "-N" the testing package appends to b's name.
func (b Benchmark) Suffix() string {
	switch {
	case b.CPU == 1:
		return ""
	case b.CPU > 1:
		return "-" + strconv.Itoa(b.CPU)
	}
	return procsSuffix()
}

// procsSuffix is the "-N" the testing package appends to benchmark names.
func procsSuffix() string {
	if p := runtime.GOMAXPROCS(0); p > 1 {
		return "-" + strconv.Itoa(p)
	}
	return ""
}

// benchNames parses benchmark output and returns the leaf benchmark names
// without the GOMAXPROCS suffix, in order of appearance, with their
// seconds per operation.
func benchNames(out []byte) (names []string, secPerOp map[string]float64) {
	suffix := procsSuffix()
	seen := map[string]bool{}
	secPerOp = map[string]float64{}
	rd := benchfmt.NewReader(bytes.NewReader(out), "out")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		// benchfmt drops the "Benchmark" prefix.
		n := "Benchmark" + strings.TrimSuffix(res.Name.String(), suffix)
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
		if v, ok := res.Value("sec/op"); ok {
			secPerOp[n] = v
		}
	}
	return names, secPerOp
}

// coverIters is how many iterations the coverage runs of a benchmark
// take: enough for about 50ms (so that code reached only after many
// iterations, like a cache's eviction, is seen), at least 2, at most
// 100000. The second run takes twice as many: blocks of the timed loop
// run more often, setup blocks do not.
func coverIters(secPerOp float64) int {
	const target = 0.05
	if secPerOp <= 0 {
		return 100
	}
	return int(min(max(target/secPerOp, 2), 100000))
}

// maxCoverResizes is how many times the coverage runs of a benchmark may
// grow their iteration count after a run whose time per iteration asks
// for more (resizeCoverIters).
const maxCoverResizes = 6

// resizeCoverIters is the iteration count the coverage runs of a benchmark
// move to after a run of iters iterations took secPerOp each, and whether
// they move: when the run's time per iteration asks for more than twice
// iters. A slow first iteration of F seconds makes a run of n iterations
// time about F/n + c per iteration: the count then grows by about
// 50ms / F a step, which is more than 2 while F < 25ms, and reaches the
// count of about 50ms of steady iterations after a few steps (F = 5 ms on
// a loaded machine: 10, 100, 1,000, 10,000). One step alone stopped at a
// few hundred iterations when F was a few milliseconds.
func resizeCoverIters(iters int, secPerOp float64) (int, bool) {
	if !(secPerOp > 0) {
		return iters, false
	}
	next := coverIters(secPerOp)
	return next, next > 2*iters
}

// coverDeadline is the deadline of a coverage run of n iterations of a
// benchmark that took secPerOp per iteration once: 20 times the expected
// time, at least 10 s, at most -bench-timeout.
func coverDeadline(secPerOp float64, n int, limit time.Duration) time.Duration {
	d := max(10*time.Second, time.Duration(20*secPerOp*float64(n)*float64(time.Second)))
	if limit > 0 {
		d = min(d, limit)
	}
	return d
}

// readProfile reads a coverage profile (golang.org/x/tools/cover): file ->
// blocks in file order, the count in c2. Blocks listed twice (several
// test binaries) are summed.
func readProfile(name string) (map[string][]CovBlock, error) {
	profs, err := cover.ParseProfiles(name)
	if err != nil {
		return nil, fmt.Errorf("reading coverage profile: %w", err)
	}
	out := map[string][]CovBlock{}
	for _, p := range profs {
		bs := make([]CovBlock, 0, len(p.Blocks))
		for _, b := range p.Blocks {
			bs = append(bs, CovBlock{StartLine: b.StartLine, StartCol: b.StartCol, EndLine: b.EndLine, EndCol: b.EndCol, CountN: int64(b.Count)})
		}
		out[p.FileName] = bs
	}
	return out, nil
}

// timedRuns pairs the profiles of a run at N (p2) and 2N (p3) iterations
// (readProfile): the blocks that ran in either, with p3's count in c3;
// covBlock.growth tells the timed loop's blocks from setup's.
func timedRuns(p2, p3 map[string][]CovBlock) map[string][]CovBlock {
	blocks, _ := mergeRuns([]map[string][]CovBlock{p2}, []map[string][]CovBlock{p3})
	return blocks
}

// A Selection is the benchmarks that run a mutant's site in their timed
// loop, or why there are none.
type Selection struct {
	Benches []Benchmark
	Heat    []BenchHeat // parallel to benches: how often each runs the site
	Reason  string      // for no-coverage
	Note    string      // benchmarks left out by -max-benchmarks, for the result's reason
}

// BenchHeat is how often a benchmark runs a mutant's site: per iteration
// of its timed loop ((c3-c2)/iters, 0 if the iteration count is unknown),
// per second of it under coverage (perIter over the coverage run's time
// per iteration, 0 if unknown) and in total (c3, summed over the site's
// blocks).
type BenchHeat struct {
	PerIter float64
	PerSec  float64
	Count   int64
}

// SelectBenchmarks picks the benchmarks (of the packages in scope) whose
// timed loop executes one of the mutant's positions.
func SelectBenchmarks(covs []*BenchCoverage, scope map[string]bool, file string, pos [][2]int) Selection {
	var timed []Benchmark
	var heat []BenchHeat
	var setup []string
	for _, bc := range covs {
		if !scope[bc.Bench.Pkg] {
			continue
		}
		reached, inLoop := false, false
		var h BenchHeat
		for _, b := range bc.Blocks[file] {
			hit := false
			for _, p := range pos {
				if b.Contains(p[0], p[1]) {
					hit = true
				}
			}
			if !hit {
				continue
			}
			reached = true
			if bc.varies[file][[2]int{b.StartLine, b.StartCol}] {
				// Timed, at a rate that differs between processes: no
				// heat, so that ranking by heat does not follow chance.
				inLoop = true
				continue
			}
			h.Count += max(b.CountN, b.Count2N)
			if d := b.Growth(); d > 0 {
				inLoop = true
				if bc.Iters > 0 {
					h.PerIter += float64(d) / float64(bc.Iters)
				}
			}
		}
		if bc.SecPerOp > 0 {
			h.PerSec = h.PerIter / bc.SecPerOp
		}
		switch {
		case inLoop:
			timed = append(timed, bc.Bench)
			heat = append(heat, h)
		case reached:
			setup = append(setup, bc.Bench.Name)
		}
	}
	if len(timed) > 0 {
		return Selection{Benches: timed, Heat: heat}
	}
	if len(setup) > 0 {
		return Selection{Reason: "reached only in benchmark setup, outside the timed loop (" + strings.Join(setup, ", ") + ")"}
	}
	return Selection{Reason: "no benchmark executes the mutated code"}
}

// MutantPositions returns the line:col of each of m's edits in its file
// (the site itself if it has none), from the file's original content.
func MutantPositions(src []byte, m mutate.Mutant) [][2]int {
	var pos [][2]int
	for _, e := range m.Edits {
		if e.Start < 0 || e.Start > len(src) {
			continue
		}
		line, col := mutate.LineCol(src, e.Start)
		pos = append(pos, [2]int{line, col})
	}
	if len(pos) == 0 {
		pos = append(pos, [2]int{m.Line, m.Column})
	}
	return pos
}

// CoverFile is the name coverage profiles give m's file.
func CoverFile(m mutate.Mutant) string {
	return m.Package + "/" + path.Base(m.File)
}

// LastLines returns the last n non-empty lines of out, joined by "; ".
func LastLines(out []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
