package engine

import (
	"regexp"
	"strings"
	"time"

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

// benchDeath reads the output of a failed benchmark process: the
// benchmark that was running (the last one printed without a result, ""
// if none) and the runtime's message (panic or fatal error, "" if none).
func benchDeath(out []byte) (bench, msg string) {
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		if m := benchLineRE.FindStringSubmatch(line); m != nil {
			if strings.Contains(m[2], "ns/op") || strings.HasPrefix(strings.TrimSpace(m[2]), "--- ") {
				bench = ""
			} else {
				bench = m[1]
			}
		}
		if msg == "" {
			if m := runtimeMsgRE.FindStringSubmatch(line); m != nil {
				msg = m[1]
			}
		}
	}
	return bench, msg
}

// BenchFailure classifies a failed mutant benchmark run: a timeout, a
// crash (a panic, a fatal runtime error or a signal, wherever the runtime
// printed it), or a functional difference (b.Fatal, b.Error, no result).
func BenchFailure(res proc.Result) TestOutcome {
	if res.TimedOut {
		return TestOutcome{Status: score.Timeout, Reason: "still running after " + res.Elapsed.Round(time.Millisecond).String() + " (killed)"}
	}
	if _, msg := benchDeath(res.Output); msg != "" {
		return TestOutcome{Status: score.Crash, Reason: msg}
	}
	out := classifyTests(res)
	if out.Status == score.Crash && !strings.HasPrefix(out.Reason, "test process exited") {
		return out // a signal
	}
	return TestOutcome{Status: score.FNE, Reason: "failed: " + LastLines(res.Output, 2)}
}
