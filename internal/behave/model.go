package behave

import (
	"math"
	"slices"

	"github.com/perfmut/perfmut/results"
)

// An Entry is one recorded behaviour: a version (its commit) and its
// profiled rounds' features.
type Entry struct {
	Commit string
	Rounds []map[string]float64
}

// A Cluster is a set of recorded behaviours that do not differ: their
// commits and their rounds, pooled.
type Cluster struct {
	Commits []string
	Rounds  []map[string]float64
}

// Learn clusters entries online, in order: each joins the first cluster
// whose pooled rounds it does not differ from (Compare at alpha), else
// starts a cluster.
func Learn(entries []Entry, alpha float64) []Cluster {
	var cs []Cluster
	for _, e := range entries {
		i := slices.IndexFunc(cs, func(c Cluster) bool { return len(Compare(c.Rounds, e.Rounds, alpha)) == 0 })
		if i < 0 {
			cs = append(cs, Cluster{})
			i = len(cs) - 1
		}
		cs[i].Commits = append(cs[i].Commits, e.Commit)
		cs[i].Rounds = append(cs[i].Rounds, e.Rounds...)
	}
	return cs
}

// Judge compares the behaviour new with the clusters holding the commit
// old (OLD's clusters): it changed when it matches none of them, and the
// differences are those from the nearest one (the fewest differing
// features, then the smallest largest move). Without a cluster of old
// there is nothing to judge: nil, false.
func Judge(cs []Cluster, old string, new []map[string]float64, alpha float64) (diffs []results.BehaviourDiff, changed bool) {
	var best []results.BehaviourDiff
	seen := false
	for _, c := range cs {
		if !slices.Contains(c.Commits, old) {
			continue
		}
		d := Compare(c.Rounds, new, alpha)
		if len(d) == 0 {
			return nil, false
		}
		if !seen || nearer(d, best) {
			best, seen = d, true
		}
	}
	return best, seen
}

// nearer reports whether the differences a are fewer or smaller than b.
func nearer(a, b []results.BehaviourDiff) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return math.Abs(a[0].New-a[0].Old) < math.Abs(b[0].New-b[0].Old)
}
