package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/score"
)

// TestOutcome is the parsed result of one run of a test binary's tests.
type TestOutcome struct {
	Status  score.Status // "" when the tests passed
	Reason  string
	Elapsed time.Duration
	Failed  []string // the failing tests (leaves), for fne
	Output  string   // the end of the output, when the tests did not pass
}

// classifyTests turns a finished test process into a status, from its
// test2json-framed output: the framing lines (^V=== RUN, ^V--- FAIL, ...)
// say which tests ran and failed, and unframed "panic:" and "fatal
// error:" lines are the runtime's own reports.
func classifyTests(res proc.Result) TestOutcome {
	if res.TimedOut {
		return TestOutcome{Status: score.Timeout}
	}
	var (
		failed  []string
		running string
		panicL  string
		fatalL  string
		lastOut string
	)
	sc := bufio.NewScanner(bytes.NewReader(res.Output))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "\x16"); ok {
			switch {
			case strings.HasPrefix(rest, "=== RUN   "):
				running = strings.TrimPrefix(rest, "=== RUN   ")
			case strings.HasPrefix(rest, "--- FAIL: "):
				name, _, _ := strings.Cut(strings.TrimPrefix(rest, "--- FAIL: "), " ")
				failed = append(failed, name)
			}
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case panicL == "" && strings.HasPrefix(line, "panic: "):
			panicL = line
		case fatalL == "" && strings.HasPrefix(line, "fatal error: "):
			fatalL = line
		case t != "" && lastOut == "":
			if !strings.HasPrefix(t, "---") && !strings.HasPrefix(t, "===") {
				lastOut = t
			}
		}
	}
	if res.ExitCode == 0 && res.Signal == 0 {
		return TestOutcome{}
	}
	in := ""
	if running != "" {
		in = " in " + running
	}
	switch {
	case res.Signal != 0:
		return TestOutcome{Status: score.Crash, Reason: fmt.Sprintf("test process killed by signal %v%s", res.Signal, in)}
	case fatalL != "":
		return TestOutcome{Status: score.Crash, Reason: fatalL + in}
	case panicL != "":
		return TestOutcome{Status: score.Crash, Reason: panicL + in}
	case len(failed) > 0:
		leaves := leafTests(failed)
		return TestOutcome{Status: score.FNE, Reason: "failing tests: " + strings.Join(leaves, ", "), Failed: leaves}
	}
	reason := fmt.Sprintf("test process exited with status %d without reporting a failed test", res.ExitCode)
	if lastOut != "" {
		reason += ": " + lastOut
	}
	return TestOutcome{Status: score.Crash, Reason: reason}
}

// leafTests drops parents whose subtests are listed too (a failing
// subtest fails its parent).
func leafTests(names []string) []string {
	var out []string
	for _, n := range names {
		parent := false
		for _, m := range names {
			if strings.HasPrefix(m, n+"/") {
				parent = true
				break
			}
		}
		if !parent {
			out = append(out, n)
		}
	}
	if len(out) > 5 {
		out = append(out[:5], fmt.Sprintf("and %d more", len(out)-5))
	}
	return out
}
