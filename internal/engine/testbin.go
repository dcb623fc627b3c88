package engine

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/score"
)

// BenchOnce runs benchmark b once in bin at benchtime and returns its values by unit
// (tidied by benchfmt: sec/op, B/op, allocs/op, custom units); nil values
// if the run failed or printed no result for b.
func (e *Engine) BenchOnce(ctx context.Context, bin, dir string, b Benchmark, benchtime string, timeout time.Duration) (map[string]float64, proc.Result, error) {
	args := []string{"-test.run=^$", "-test.bench=" + b.Pattern(), "-test.benchtime=" + benchtime,
		"-test.count=1", "-test.benchmem", "-test.timeout=0", "-test.paniconexit0"}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
	e.LogCmd(dir, bin, args...)
	res, err := proc.Run(ctx, dir, nil, timeout, bin, args...)
	if err != nil {
		return nil, res, fmt.Errorf("running %s: %w", bin, err)
	}
	if res.Canceled {
		return nil, res, ctx.Err()
	}
	if !res.OK() {
		return nil, res, nil
	}
	want := strings.TrimPrefix(b.Name, "Benchmark") + b.Suffix() // benchfmt drops the prefix
	rd := benchfmt.NewReader(bytes.NewReader(res.Output), bin)
	for rd.Scan() {
		br, ok := rd.Result().(*benchfmt.Result)
		if !ok || br.Name.String() != want {
			continue
		}
		vals := map[string]float64{}
		for _, v := range br.Values {
			vals[v.Unit] = v.Value
		}
		return vals, res, nil
	}
	return nil, res, nil
}

// RunTests runs a test binary's tests (no benchmarks) in dir, as go test
// does, with structured output (-test.v=test2json), and classifies the
// result.
func (e *Engine) RunTests(ctx context.Context, bin, dir string, timeout time.Duration, extra ...string) (TestOutcome, error) {
	args := append([]string{"-test.v=test2json", "-test.paniconexit0", "-test.timeout=0"}, extra...)
	e.LogCmd(dir, bin, args...)
	res, err := proc.Run(ctx, dir, nil, timeout, bin, args...)
	if err != nil {
		return TestOutcome{}, fmt.Errorf("running %s: %w", bin, err)
	}
	if res.Canceled {
		return TestOutcome{}, ctx.Err()
	}
	out := classifyTests(res)
	out.Elapsed = res.Elapsed
	if out.Status != "" {
		out.Output = tail(bytes.ReplaceAll(res.Output, []byte("\x16"), nil), 40)
	}
	if out.Status == score.Timeout {
		out.Reason = fmt.Sprintf("tests still running after %s (killed)", timeout.Round(time.Millisecond))
	}
	return out, nil
}
