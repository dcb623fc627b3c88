package engine

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/score"
)

// benchLineRE matches a benchmark's line in go test output: its name (with
// the -GOMAXPROCS suffix) and the rest of the line, which is its result or,
// when the benchmark died, the runtime's message ("BenchmarkX-2
// \tpanic: ..."); with -test.v a benchmark's name alone on a line says it
// starts.
var benchLineRE = regexp.MustCompile(`^(Benchmark\S*?)(?:-\d+)?(?:\s+(.*))?$`)

// runtimeMsgRE finds the runtime's report of a dying process anywhere on a
// line: after a benchmark's name it is not at the start of the line.
var runtimeMsgRE = regexp.MustCompile(`(?:^|\t)((?:panic|fatal error): .*)$`)

// benchDoneRE matches the line that ends a benchmark without a result
// (-test.v prints it on a line of its own): failed, skipped, or its log.
var benchDoneRE = regexp.MustCompile(`^\s*--- (?:FAIL|SKIP|BENCH): (Benchmark\S*?)(?:-\d+)?$`)

// benchFrameRE matches a function of a goroutine trace that is a benchmark
// function or a closure in one (example.com/m/lib.BenchmarkX.func1(...)),
// also on the line naming the function that created the goroutine: the
// package path and the benchmark's name.
var benchFrameRE = regexp.MustCompile(`^(?:created by )?(\S+?)\.(Benchmark[^.\s(\[]*)`)

// benchDeath reads the output of a failed benchmark process: the
// benchmark that was running ("" if none is found) and the runtime's
// message (panic or fatal error, "" if none).
//
// The running benchmark is the one the trace of the dying goroutine
// names, not the last name printed: the testing package signals that a
// benchmark is done from a deferred call, which runs while a panic
// unwinds, so the next benchmark can start, and -test.v print its name,
// before the runtime prints the panic. The trace names the top-level
// benchmark function; of its sub-benchmarks, the one that was running is
// the first printed without a result and without sub-benchmarks of its
// own. Without a benchmark in the trace (a goroutine the code under test
// started, a process killed at its deadline), it is the last name printed
// without a result.
func benchDeath(out []byte) (bench, msg string) {
	var started []string // printed without a result yet, in order
	var last, traced string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		if m := benchLineRE.FindStringSubmatch(line); m != nil {
			if strings.Contains(m[2], "ns/op") || strings.HasPrefix(strings.TrimSpace(m[2]), "--- ") {
				last, started = "", without(started, m[1])
			} else {
				last, started = m[1], append(without(started, m[1]), m[1])
			}
		} else if m := benchDoneRE.FindStringSubmatch(line); m != nil {
			started = without(started, m[1])
		}
		if msg == "" {
			if m := runtimeMsgRE.FindStringSubmatch(line); m != nil {
				msg = m[1]
			}
		} else if traced == "" {
			traced = tracedBench(line)
		}
	}
	if traced == "" {
		return last, msg
	}
	return runningSub(started, traced), msg
}

// tracedBench is the benchmark function a line of a goroutine trace names,
// or "".
func tracedBench(line string) string {
	m := benchFrameRE.FindStringSubmatch(line)
	if m == nil || m[1] == "testing" {
		return ""
	}
	// As go test finds them: Benchmark, then no lower-case letter.
	if rest := strings.TrimPrefix(m[2], "Benchmark"); rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return ""
		}
	}
	return m[2]
}

// runningSub is the benchmark of top, the benchmark function a trace
// names, that was running: the first of started (printed without a
// result) that is top or one of its sub-benchmarks and is no parent of
// another; top itself if none is.
func runningSub(started []string, top string) string {
	for _, name := range started {
		if t, _, _ := strings.Cut(name, "/"); t != top {
			continue
		}
		if !slices.ContainsFunc(started, func(o string) bool { return strings.HasPrefix(o, name+"/") }) {
			return name
		}
	}
	return top
}

// without is names without name.
func without(names []string, name string) []string {
	return slices.DeleteFunc(names, func(n string) bool { return n == name })
}

// exitZeroReason is why a run failed whose benchmark printed a result
// without a time per operation (timelessResult).
const exitZeroReason = "its result has no ns/op, the process ended with status 0: it likely calls os.Exit(0)"

// timelessResult returns the first benchmark whose result line in out has
// no time per operation (ns/op), or "". Every benchmark that returns
// prints one (unless its timer reads 0 or it reports ns/op 0 itself); one
// that ends the process (os.Exit(0), which panics under
// -test.paniconexit0) can have its result printed without one, and the
// run can even end with PASS and status 0 before the runtime prints the
// panic: the testing package signals the end of a benchmark from a
// deferred call, which runs while the panic unwinds, and the main
// goroutine prints the result (N iterations, a timer that never stopped).
func timelessResult(out []byte) string {
	for _, line := range strings.Split(string(out), "\n") {
		m := benchLineRE.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		if len(f) == 0 || strings.Contains(m[2], "ns/op") {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err == nil { // N: a result
			return m[1]
		}
	}
	return ""
}

// BenchFailure classifies a failed mutant benchmark run: a timeout, a
// crash (a panic, a fatal runtime error or a signal, wherever the runtime
// printed it; a result without a time, see timelessResult), or a
// functional difference (b.Fatal, b.Error, no result).
func BenchFailure(res proc.Result) TestOutcome {
	if res.TimedOut {
		return TestOutcome{Status: score.Timeout, Reason: "still running after " + res.Elapsed.Round(time.Millisecond).String() + " (killed)"}
	}
	if _, msg := benchDeath(res.Output); msg != "" {
		return TestOutcome{Status: score.Crash, Reason: msg}
	}
	if timelessResult(res.Output) != "" {
		return TestOutcome{Status: score.Crash, Reason: exitZeroReason}
	}
	out := classifyTests(res)
	if out.Status == score.Crash && !strings.HasPrefix(out.Reason, "test process exited") {
		return out // a signal
	}
	return TestOutcome{Status: score.FNE, Reason: "failed: " + LastLines(res.Output, 2)}
}
