package instr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// defaultTimeout is the deadline of one valgrind process when
// Sampler.Timeout is 0.
const defaultTimeout = 10 * time.Minute

// A Sampler counts the instructions of benchmarks under valgrind.
type Sampler struct {
	// Valgrind is the valgrind executable (Info.Path); "" finds "valgrind"
	// in PATH.
	Valgrind string
	// Timeout is the deadline of one process; 0 is DefaultTimeout.
	Timeout time.Duration
	// Env is the environment the benchmark starts from (nil: perfmut's
	// own); benchEnv overrides GOMAXPROCS, GOGC, GOMEMLIMIT and adds to
	// GODEBUG.
	Env []string
	// GOARCH is the test binary's architecture ("": runtime.GOARCH).
	GOARCH string
	// TempDir is where each run's output directory is made ("": the
	// system's), e.g. a campaign's own temporary directory, which it
	// removes, so that a killed campaign leaves nothing behind it does not
	// clean.
	TempDir string
	// Sequential runs the two processes of a sample (at MinIters and N + MinIters) one
	// after the other. Otherwise they run at the same time when the
	// machine has 2 CPUs or more, which halves a sample's wall time on an
	// idle machine and does not change its count.
	Sequential bool
}

// A Bench is one benchmark of a compiled test binary.
type Bench struct {
	Bin     string // the test binary (go test -c)
	Dir     string // its package directory, where go test would run it
	Pattern string // a -test.bench regexp that selects exactly this benchmark, e.g. ^BenchmarkX$
}

// A Sample is one instruction count per operation of a benchmark: the
// difference of the whole-process counts at N + MinIters and at MinIters
// iterations, over N.
type Sample struct {
	PerOp float64 // instructions per operation: (Long - Short) / N, or (Long - SetUp) / (N + MinIters)
	N     int     // the iterations the two runs differ by
	Short uint64  // instructions of the whole process at MinIters iterations (0: a one-process sample)
	Long  uint64  // ... at N + MinIters iterations
	// SetUp is, for a one-process sample (sampleOne), the set-up count it
	// subtracted; 0 for a sample of two processes.
	SetUp   float64
	Elapsed time.Duration // wall time of the processes (both together when they ran at once)
	// Output is what the longer run printed: its result line has B/op and
	// allocs/op (-test.benchmem), which are counts too; its sec/op is
	// valgrind's, not the benchmark's.
	Output []byte
}

// MinIters is the smallest N of a sample, and the iterations of its
// shorter run. At -test.benchtime=1x the testing package calls the
// benchmark function once; at Nx with N >= 2 it calls it twice (1
// iteration, then N), so only from 2 on do the two runs of a sample share
// their set-up.
const MinIters = 2

// Sample counts b at MinIters and at n + MinIters iterations (at the same
// time unless Sequential or the machine has one CPU) and returns the
// instructions per operation, (I(n + MinIters) - I(MinIters)) / n: the
// shorter run is the process's start, set-up and first iterations alone,
// so the loops execute n + 2 MinIters iterations in all. It is an error
// for n to be below MinIters, or for the longer run not to count more
// instructions than the shorter one (n too small for the benchmark's
// run-to-run variation: use Iters).
func (s *Sampler) Sample(ctx context.Context, b Bench, n int) (Sample, error) {
	if n < MinIters {
		return Sample{}, fmt.Errorf("instruction sample of %s: iteration count %d, want at least %d", b.Pattern, n, MinIters)
	}
	start := time.Now()
	short, long, out, err := s.countPair(ctx, b, MinIters, n+MinIters)
	if err != nil {
		return Sample{}, err
	}
	smp := Sample{N: n, Short: short, Long: long, Elapsed: time.Since(start), Output: out}
	if long <= short {
		return smp, fmt.Errorf("benchmark %s counted %d instructions at %d iterations and %d at %d: too few iterations to see its work; raise the count",
			b.Pattern, short, MinIters, long, n+MinIters)
	}
	smp.PerOp = float64(long-short) / float64(n)
	return smp, nil
}

// Count runs b once at n iterations under cachegrind and returns the
// instructions the whole process executed. The output file is written to
// a temporary directory, removed before Count returns. The run must print
// exactly one benchmark result, of n iterations.
func (s *Sampler) Count(ctx context.Context, b Bench, n int) (uint64, error) {
	c, _, err := s.count(ctx, b, n)
	return c, err
}

// count is Count, with the run's output.
func (s *Sampler) count(ctx context.Context, b Bench, n int) (uint64, []byte, error) {
	dir, err := os.MkdirTemp(s.TempDir, "perfmut-instr-")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "cachegrind.out")
	args := []string{"--tool=cachegrind", "--cache-sim=no", "--vgdb=no", "--cachegrind-out-file=" + file,
		b.Bin, "-test.run=^$", "-test.bench=" + b.Pattern, "-test.benchtime=" + strconv.Itoa(n) + "x",
		"-test.count=1", "-test.timeout=0", "-test.benchmem", "-test.paniconexit0"}
	out, err := runProc(ctx, b.Dir, s.env(), s.timeout(), s.valgrind(), args...)
	if err != nil {
		if line := valgrindProblem(out); line != "" {
			return 0, out, fmt.Errorf("counting instructions of %s: valgrind stopped it: %s (%w)", b.Pattern, line, err)
		}
		return 0, out, fmt.Errorf("counting instructions of %s: %w", b.Pattern, err)
	}
	if err := checkResult(out, n); err != nil {
		return 0, out, fmt.Errorf("counting instructions of %s in %s: %w", b.Pattern, b.Bin, err)
	}
	fh, err := os.Open(file)
	if err != nil {
		return 0, out, fmt.Errorf("counting instructions of %s: valgrind wrote no output file: %s", b.Pattern, lastLines(out, 3))
	}
	defer fh.Close()
	c, err := parseOutput(fh)
	return c, out, err
}

// checkResult checks that a benchmark run's output has exactly one result
// line, and that it ran n iterations: otherwise the count is not of one
// benchmark at n.
func checkResult(out []byte, n int) error {
	var results []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasPrefix(f[0], "Benchmark") && isCount(f[1]) {
			results = append(results, line)
		}
	}
	switch {
	case len(results) == 0:
		return fmt.Errorf("no benchmark result (the pattern selects no benchmark, or it failed): %s", lastLines(out, 3))
	case len(results) > 1:
		return fmt.Errorf("%d benchmark results, want the pattern to select exactly one", len(results))
	}
	if got := strings.Fields(results[0])[1]; got != strconv.Itoa(n) {
		return fmt.Errorf("the benchmark ran %s iterations, want %d", got, n)
	}
	return nil
}

// isCount reports whether s is a decimal iteration count.
func isCount(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

func (s *Sampler) env() []string {
	base, goarch := s.Env, s.GOARCH
	if base == nil {
		base = os.Environ()
	}
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	return benchEnv(base, goarch)
}

func (s *Sampler) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return defaultTimeout
}

func (s *Sampler) valgrind() string {
	if s.Valgrind != "" {
		return s.Valgrind
	}
	return "valgrind"
}

// valgrindProblems are what valgrind prints when it, not the benchmark,
// stops a run: an instruction it cannot decode (RDTSCP without
// GODEBUG=cpu.rdtscp=off), a failed assertion of its own, or the signal
// that ended the program.
var valgrindProblems = []string{"unhandled instruction", "Assertion", "the 'impossible' happened", "Process terminating with default action of signal"}

// valgrindProblem returns the first line of out that says valgrind
// stopped the run (see valgrindProblems), without its "==pid==" prefix;
// "" if none does.
func valgrindProblem(out []byte) string {
	for _, line := range strings.Split(string(out), "\n") {
		for _, p := range valgrindProblems {
			if strings.Contains(line, p) {
				if i := strings.Index(line, "== "); strings.HasPrefix(line, "==") && i > 0 {
					line = line[i+3:]
				}
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}
