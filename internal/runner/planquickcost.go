package runner

import (
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// quickCosts are the unit costs of a quick plan (seconds), from the timed
// packages and the campaign's settings.
type quickCosts struct {
	c                *Campaign
	g                *srcGraph
	build            float64 // one mutant build: the timed ones' median
	firstBuild       float64 // most timed first build (dependencies compiled)
	start            float64 // a test binary's start: median
	perTest          float64 // one test: over the timed packages' test runs
	sample, censored float64 // one benchmark sample; an inert mutant's, at the censoring cap
	share            float64 // builds and tests at once share the CPUs
}

func newQuickCosts(c *Campaign, g *srcGraph, timed []results.TimedPackage) *quickCosts {
	q := &quickCosts{c: c, g: g, share: float64(min(c.Jobs, runtime.NumCPU()))}
	var builds, starts []float64
	var testSecs float64
	tests := 0
	for _, t := range timed {
		builds = append(builds, t.MutantBuildSeconds)
		starts = append(starts, t.StartSeconds)
		q.firstBuild = max(q.firstBuild, t.FirstBuildSeconds)
		if n := len(g.Tests[t.Package]); t.TestSeconds > 0 && n > 0 {
			testSecs += max(0, t.TestSeconds-t.StartSeconds)
			tests += n
		}
	}
	if len(builds) > 0 {
		q.build = median(builds)
		q.start = median(starts)
	}
	if tests > 0 {
		q.perTest = testSecs / float64(tests)
	}
	st := c.SampleTime
	if st == 0 {
		st = engine.DefaultSampleTime
	}
	if d, err := time.ParseDuration(c.Benchtime); err == nil && !strings.HasSuffix(c.Benchtime, "x") {
		st = d
	}
	q.sample = st.Seconds() + q.start
	q.censored = q.sample
	if c.CensorFactor > 0 {
		q.censored = c.CensorFactor*q.sample + engine.CensorSlack.Seconds()
	}
	return q
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// baseline estimates the baseline steps of a campaign that judges with
// pkgs at levels levels: every package's test binary built and tested at
// each level (the dependencies compiled once) and built with -cover, every
// benchmark's coverage run and every test's.
func (q *quickCosts) baseline(pkgs []*mutate.Package, levels int) results.BaselineTimes {
	var npkg, tests, benches int
	for _, p := range pkgs {
		if q.g.TestFiles[p.ImportPath] {
			npkg++
			tests += len(q.g.Tests[p.ImportPath])
			benches += len(q.g.Benches[p.ImportPath])
		}
	}
	if npkg == 0 {
		return results.BaselineTimes{}
	}
	jobs := float64(q.c.Jobs)
	builds := q.firstBuild + float64(npkg*(levels+1)-1)*q.build
	runs := float64(levels) * (float64(npkg)*q.start + float64(tests)*q.perTest)
	return results.BaselineTimes{
		BuildTestSeconds:     (builds + runs) * q.share / jobs,
		BenchCoverageSeconds: float64(benches) * (q.start + q.sample) * q.share / jobs,
		TestCoverageSeconds:  float64(tests) * (q.start + q.perTest) * q.share / jobs,
	}
}

// level is one level's counts and times in case cs ("low", "likely" or
// "high"; see results.QuickPlan), and the builds and tests (summed) and the
// measurement, in seconds.
func (q *quickCosts) level(qs []quickMutant, cs string) (pl results.PlanLevel, work, measure float64) {
	rule := q.c.Rule
	tuned := 0
	for _, m := range qs {
		benches, builds, tests, pkgs := m.benches, m.builds, m.tests, m.testPkgs
		switch cs {
		case "low":
			benches, builds, tests, pkgs = min(benches, 1), min(builds, 1), 0, 0
		case "high":
			benches, builds, tests, pkgs = m.benchesHi, m.buildsHi, m.testsHi, m.pkgsHi
			if m.inert {
				tests, pkgs = 0, 0
			}
		}
		if builds == 0 || benches == 0 && tests == 0 {
			pl.NotBuilt++
			continue
		}
		pl.Built++
		pl.BuildSeconds += float64(builds) * q.build
		if tests > 0 {
			pl.Tested++
			pl.TestSeconds += float64(pkgs)*q.start + float64(tests)*q.perTest
		}
		if benches == 0 {
			continue
		}
		if m.inferred {
			pl.Inferred++
			continue
		}
		if n := q.c.MaxBenchmarks; n > 0 {
			benches = min(benches, n)
		}
		rounds, mut := float64(2*rule.MinSamples), q.sample
		if m.inert {
			rounds, mut = float64(rule.MinSamples), q.censored
		}
		pl.Measured++
		pl.MeasureRounds += rounds
		pl.MeasureSeconds += rounds * float64(benches) * (q.sample + mut)
		tuned = max(tuned, benches)
	}
	if pl.Measured > 0 {
		pl.MeasureRounds /= float64(pl.Measured)
		if cs != "low" {
			tuned = countRoots(q.g.Benches)
		}
		// Each benchmark's N is found once per level (Plan: two samples).
		pl.MeasureSeconds += 2 * float64(tuned) * q.sample
	}
	pl.BuildSeconds *= q.share
	pl.TestSeconds *= q.share
	return pl, pl.BuildSeconds + pl.TestSeconds, pl.MeasureSeconds
}
