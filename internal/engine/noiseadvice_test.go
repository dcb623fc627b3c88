package engine

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// machine is a campaign of 100 s on 2 CPUs (20,000 ticks at 100 Hz) in
// which the CPUs were busy for busy ticks and perfmut itself, its
// children included, used own.
func machine(busy uint64, own time.Duration) results.Machine {
	t0 := time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC)
	start := results.Snapshot{Time: t0, CPUs: 2, StealKnown: true, Total: 1e6, Busy: 4e5, OwnKnown: true, Own: time.Second}
	end := start
	end.Time, end.Total, end.Busy, end.Own = t0.Add(100*time.Second), start.Total+20000, start.Busy+busy, start.Own+own
	return results.Machine{Start: start, End: end}
}

// noisyEngine is a noise state with the baseline samples of two
// benchmarks: BenchmarkGet, too noisy for the 5% margin (it detects
// 7.53%), and BenchmarkQuiet (1.77%).
func noisyEngine() (*noiseState, *Config) {
	c := &Config{Measurement: Measurement{Rule: score.Rule{Margin: 1.05}.WithDefaults()}}
	n := &noiseState{}
	for _, v := range wall {
		n.add("opt", Benchmark{Pkg: "p", Name: "BenchmarkGet"}, score.SecPerOp, v)
	}
	for _, v := range quiet {
		n.add("opt", Benchmark{Pkg: "p", Name: "BenchmarkQuiet"}, score.SecPerOp, v)
	}
	return n, c
}

// TestNoiseAdviceOnlyWhenItMatters: the advice speaks only of the
// benchmarks that measured undecided mutants, and says whether the noise
// is the load of other processes (not perfmut's own CPU time) or, on a
// quiet machine, the benchmarks' own.
func TestNoiseAdviceOnlyWhenItMatters(t *testing.T) {
	n, c := noisyEngine()
	none := func(level, name, unit string) bool { return false }
	get := func(level, name, unit string) bool {
		return level == "opt" && name == "BenchmarkGet" && unit == score.SecPerOp
	}
	both := func(level, name, unit string) bool { return true }
	quietOnly := func(level, name, unit string) bool { return name == "BenchmarkQuiet" }
	// Busy 16,000 of the 20,000 ticks; perfmut 150 of the 200 CPU seconds:
	// the others used 80% - 75% = 5%.
	quietMachine := machine(16000, 150*time.Second)
	// Busy 19,000 ticks, perfmut 90 s: the others used 95% - 45% = 50%.
	busyMachine := machine(19000, 90*time.Second)
	const head = "noise: 1 of 1 benchmarks measuring undecided mutants cannot detect a slowdown of the margin 5% in 30 samples (BenchmarkGet detects 7.53%)"
	for _, tc := range []struct {
		name    string
		matters func(level, name, unit string) bool
		m       results.Machine
		want    []string
	}{
		{"all decided", none, busyMachine, nil},
		{"undecided on a benchmark quiet enough", quietOnly, busyMachine, nil},
		{"quiet machine", get, quietMachine, []string{head + ": the machine was quiet (other processes used 5% of its CPU time), so the noise is the benchmarks' own; longer samples (-sample-time) or more of them (-max-samples) would decide those mutants"}},
		{"busy machine", get, busyMachine, []string{head + ": the machine is too noisy for wall time (other processes used 50% of its CPU time); -measure instructions counts instructions, which the load does not change"}},
		{"load unknown", get, results.Machine{}, []string{head + ": the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"}},
		{"two undecided benchmarks", both, busyMachine, []string{"noise: 1 of 2 benchmarks measuring undecided mutants cannot detect a slowdown of the margin 5% in 30 samples (BenchmarkGet detects 7.53%): the machine is too noisy for wall time (other processes used 50% of its CPU time); -measure instructions counts instructions, which the load does not change"}},
	} {
		benches, advice := n.check(c, tc.matters, tc.m)
		if !reflect.DeepEqual(advice, tc.want) {
			t.Errorf("%s: advice\n%q, want\n%q", tc.name, advice, tc.want)
		}
		// Every benchmark keeps its noise record, whatever the advice.
		if len(benches) != 2 || !benches[0].TooNoisy || benches[1].TooNoisy {
			t.Errorf("%s: benchmarks %+v, want BenchmarkGet too noisy and BenchmarkQuiet not", tc.name, benches)
		}
	}
}

// TestNoiseLogStartOnce: the start of the measurement logs what is
// measured and the load, once, and no noise advice (it waits for the end,
// where it is said once).
func TestNoiseLogStartOnce(t *testing.T) {
	n, c := noisyEngine()
	var buf bytes.Buffer
	prog := NewProgress(&buf, false, 0)
	n.logStart(c, prog)
	n.logStart(c, prog)
	prog.End()
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 1 || !bytes.HasPrefix(lines[0], []byte("perfmut: measuring time; ")) {
		t.Errorf("logStart twice logged %q, want one line \"perfmut: measuring time; load ...\"", buf.String())
	}
}
