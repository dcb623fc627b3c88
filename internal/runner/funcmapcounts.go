package runner

import (
	"math"
	"strings"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// baselineCounts is what the map reads of an engine that counted
// instructions (-measure instructions): each counted benchmark's cached
// baseline instructions/op samples at a level.
type baselineCounts interface {
	BaselineCounts(level string) map[engine.Benchmark][]float64
}

// mapCounts is m with the detectable ratio of each benchmark family the
// campaign counted (at the optimized level, the map's build, else the
// campaign's first) from its baseline counts (countedDetectable); m when
// it counted none.
func (c *Campaign) mapCounts(m *detect.Map, counts baselineCounts) *detect.Map {
	if counts == nil || c.Counting == nil || len(c.Levels) == 0 {
		return m
	}
	level := c.Levels[0]
	for _, l := range c.Levels {
		if l == results.Opt {
			level = l
		}
	}
	d := countedDetectable(counts.BaselineCounts(level), c.mapOptions(nil), c.Counting.MinEffect)
	if len(d) == 0 {
		return m
	}
	return m.WithCounts(d)
}

// countedDetectable is the detectable ratio of each counted benchmark
// family (importpath.BenchmarkX, as the map names them) at o's budget,
// level and test: score.MinDetectable over the sums of its
// sub-benchmarks' instructions/op round by round (the map's wall-time d
// is from such sums of ns/op), or minEffect, the counts' minimum effect,
// when the counts' spread is below it. A family with fewer than two
// rounds counted in all of its sub-benchmarks keeps wall time's d.
func countedDetectable(counts map[engine.Benchmark][]float64, o detect.Options, minEffect float64) map[string]float64 {
	families := map[string][][]float64{}
	for b, v := range counts {
		top, _, _ := strings.Cut(b.Name, "/")
		name := b.Pkg + "." + top
		families[name] = append(families[name], v)
	}
	out := map[string]float64{}
	for name, subs := range families {
		sums := roundSums(subs)
		if len(sums) < 2 {
			continue
		}
		if d := score.MinDetectable(sums, o.Budget, o.Alpha, o.Test); !math.IsNaN(d) {
			out[name] = max(d, minEffect)
		}
	}
	return out
}

// roundSums is the sum of subs' k-th values for each round k all of them
// have.
func roundSums(subs [][]float64) []float64 {
	n := len(subs[0])
	for _, s := range subs {
		n = min(n, len(s))
	}
	sums := make([]float64, n)
	for _, s := range subs {
		for k := range sums {
			sums[k] += s[k]
		}
	}
	return sums
}
