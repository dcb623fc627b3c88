package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/perfmut/perfmut/score"
)

// sample takes rounds look by look until the rule decides, and returns its
// verdict and the benchmarks left behind by a kill ahead of them.
func (ms *measurement) sample(ctx context.Context) (score.Verdict, []Benchmark, error) {
	rule := ms.rule
	var v score.Verdict
	for _, n := range rule.Looks() {
		for i, b := range ms.order {
			for ms.series[b].rounds < n {
				if err := ms.round(ctx, b); err != nil || ms.lr.Status != "" {
					return v, nil, err
				}
			}
			if rest := ms.order[i+1:]; len(rest) > 0 {
				if va := rule.DecideAhead(ms.forRule(ms.order[:i+1]), ms.pending(rest)); va.Decision == score.Kill {
					return va, rest, nil
				}
			}
		}
		if v = rule.Decide(ms.forRule(ms.order)); v.Decision != score.Continue {
			break
		}
	}
	return v, nil, nil
}

// round takes one sample of each side of benchmark b, in random order.
// A failing mutant sample sets ms.lr's status.
func (ms *measurement) round(ctx context.Context, b Benchmark) error {
	if ms.counted[b] {
		return ms.countRound(ctx, b)
	}
	var vals [2]map[string]float64
	cens := false
	for _, side := range ms.rng.Perm(2) {
		out, c, err := ms.sampleOnce(ctx, b, side)
		if err != nil || out == nil {
			return err
		}
		vals[side], cens = out, cens || c
	}
	ms.e.itc.learnUnits(ms.j.Level, b, sortedUnits(vals[0]))
	ms.record(b, vals, cens)
	return nil
}

// record adds a round of benchmark b to its series: the values of each
// side by unit, and whether the mutant's sample was censored. A metric
// without a value on both sides in this round (a censored sample has only
// sec/op) records the round as missing (score.Sample.Missing).
func (ms *measurement) record(b Benchmark, vals [2]map[string]float64, cens bool) {
	s := ms.series[b]
	round := s.rounds
	s.rounds++
	units := RoundUnits(vals, ms.metric)
	for _, u := range MissedUnits(s.units, units) {
		s.samples[u].Missing = append(s.samples[u].Missing, round)
	}
	for _, unit := range units {
		sm := s.samples[unit]
		if sm == nil {
			sm = &score.Sample{Benchmark: ms.names[b], Metric: unit, Missing: MissingBefore(round)}
			s.samples[unit] = sm
			s.units = append(s.units, unit)
		}
		if cens {
			s.censored[unit] = append(s.censored[unit], len(sm.Mutant))
		}
		sm.Baseline = append(sm.Baseline, vals[0][unit])
		sm.Mutant = append(sm.Mutant, vals[1][unit])
	}
}

// RoundUnits returns the units a round's two sides (vals) both have and
// metric keeps, in report order (sortedUnits).
func RoundUnits(vals [2]map[string]float64, metric func(string) bool) []string {
	var out []string
	for _, u := range sortedUnits(vals[0]) {
		if _, ok := vals[1][u]; ok && metric(u) {
			out = append(out, u)
		}
	}
	return out
}

// MissedUnits returns the units of earlier rounds that are not among
// present (this round's): their metrics miss this round.
func MissedUnits(units, present []string) []string {
	var out []string
	for _, u := range units {
		if !slices.Contains(present, u) {
			out = append(out, u)
		}
	}
	return out
}

// MissingBefore returns the rounds 0 to n-1: the rounds a metric first
// seen in round n missed.
func MissingBefore(n int) []int {
	var out []int
	for i := range n {
		out = append(out, i)
	}
	return out
}

// sampleOnce runs one sample of b on one side (0 baseline, 1 mutant) and
// returns its values by unit, and whether it was censored: with N
// iterations on both sides, a mutant sample running past the censoring cap
// is stopped and ordered above every baseline sample; only the time metric
// gets a value. Without a cap (time-based samples, -censor 0) the mutant's
// timeout is generous: a slowdown is to be measured, not a timeout. A
// failing mutant sample sets ms.lr's status and returns nil values.
func (ms *measurement) sampleOnce(ctx context.Context, b Benchmark, side int) (map[string]float64, bool, error) {
	e, j, it, s := ms.e, ms.j, ms.its[b], ms.series[b]
	bin := [2]string{e.bins[j.Level][b.Pkg], j.MutBins[b.Pkg]}[side]
	timeout, limit := time.Duration(0), e.cfg.CensorCap(it, s.slowest)
	if side == 1 {
		timeout = limit
		if limit == 0 {
			timeout = max(100*it.Wall, time.Minute, e.cfg.Timeout)
		}
	}
	out, res, err := e.BenchOnce(ctx, bin, e.pkgs[b.Pkg].Dir, b, e.cfg.benchtimeArg(it), timeout)
	switch {
	case err != nil:
		return nil, false, err
	case side == 1 && limit > 0 && res.TimedOut:
		perOp := res.Elapsed.Seconds() / float64(it.N)
		if _, err := fmt.Fprintf(ms.outs[1], "# censored: %s stopped after %s (cap %s = %g x slowest baseline sample + %s) at %dx: slower than every baseline sample; sec/op >= %g\n",
			b.Name, res.Elapsed.Round(time.Millisecond), limit.Round(time.Millisecond), e.cfg.CensorFactor, it.SlackOrDefault(), it.N, perOp); err != nil {
			return nil, false, fmt.Errorf("writing the samples of %s: %w", j.Mutant.ID, err)
		}
		return map[string]float64{"sec/op": perOp}, true, nil
	case !res.OK() || out == nil:
		if side == 0 {
			return nil, false, fmt.Errorf("baseline benchmark %s of %s failed while measuring %s: %s", b.Name, b.Pkg, j.Mutant.ID, LastLines(res.Output, 3))
		}
		st := BenchFailure(res)
		ms.lr.Status, ms.lr.Reason = st.Status, fmt.Sprintf("benchmark %s: %s", b.Name, st.Reason)
		ms.lr.Benchmarks = []score.TestResult{}
		return nil, false, nil
	}
	if _, err := ms.outs[side].Write(res.Output); err != nil {
		return nil, false, fmt.Errorf("writing the samples of %s: %w", j.Mutant.ID, err)
	}
	if side == 0 {
		s.slowest = max(s.slowest, res.Elapsed)
		e.noise.add(j.Level, b, score.SecPerOp, out[score.SecPerOp])
	}
	return out, false, nil
}

// forRule returns the samples of the benchmarks bs, censored values
// raised above the baseline's (see censoredSample); a metric that missed
// rounds lists them (score.Sample.Missing) and is tested on the others.
func (ms *measurement) forRule(bs []Benchmark) []score.Sample {
	var out []score.Sample
	for _, b := range bs {
		s := ms.series[b]
		for _, u := range s.units {
			out = append(out, CensoredSample(*s.samples[u], s.censored[u]))
		}
	}
	return out
}

// pending returns the tests of benchmarks bs, not yet at the current look,
// for DecideAhead: their samples so far, and one empty sample per metric
// the benchmark may report that has no value yet (before their first
// round, or censored in every one): every one counts in the family. The
// metrics it may report are mayReport's.
func (ms *measurement) pending(bs []Benchmark) []score.Sample {
	var out []score.Sample
	for _, b := range bs {
		out = append(out, ms.forRule([]Benchmark{b})...)
		for _, u := range ms.mayReport(b) {
			if ms.metric(u) && ms.series[b].samples[u] == nil {
				out = append(out, score.Sample{Benchmark: ms.names[b], Metric: u})
			}
		}
	}
	return out
}

// mayReport returns the units benchmark b may report: those of its
// iteration-count run and of every baseline sample of it since
// (learnUnits), and, when its source calls b.ReportMetric (itself or
// through its test files' functions), every tested custom unit
// (Measurement.CustomUnits): a custom metric first reported after the
// iteration-count run counts in the family from the start.
func (ms *measurement) mayReport(b Benchmark) []string {
	if ms.counted[b] {
		return []string{score.InstructionsPerOp, score.BytesPerOp, score.AllocsPerOp}
	}
	units := ms.its[b].Units
	if it, ok := ms.e.itc[itersKey(ms.j.Level, b)]; ok {
		units = unionUnits(units, it.Units)
	}
	if len(ms.e.cfg.CustomUnits) == 0 {
		return units
	}
	p := ms.e.pkgs[b.Pkg]
	if p == nil {
		return unionUnits(units, ms.e.cfg.CustomUnits) // its source unknown: it may
	}
	if ms.reports == nil {
		ms.reports = map[string]map[string]bool{}
	}
	if _, ok := ms.reports[b.Pkg]; !ok {
		ms.reports[b.Pkg] = benchmarksThat(p.Dir, reportsMetric)
	}
	if ms.reports[b.Pkg][topName(b.Name)] {
		units = unionUnits(units, ms.e.cfg.CustomUnits)
	}
	return units
}

// CensoredSample returns s with its censored mutant values (at the indices
// given) raised above every baseline value if needed: a censored sample is
// only known to be slower than every baseline sample, and the rank tests
// need no more than that.
func CensoredSample(s score.Sample, idx []int) score.Sample {
	if len(idx) == 0 {
		return s
	}
	top := math.Inf(-1)
	for _, v := range s.Baseline {
		top = max(top, v)
	}
	s.Mutant = slices.Clone(s.Mutant)
	for _, i := range idx {
		if s.Mutant[i] <= top {
			s.Mutant[i] = math.Nextafter(top, math.Inf(1))
		}
	}
	return s
}
