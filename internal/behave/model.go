package behave

import (
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

// Judge says whether the behaviour new changed from OLD's: it differs
// from oldRounds, OLD's rounds interleaved with its own (the only
// comparison whose rounds share the machine's state: that test alone
// keeps the false-alarm rate at alpha), and it matches none of the
// clusters holding the commit old (OLD's recorded behaviours: a
// behaviour OLD has shown before is not a change). The differences are
// those from oldRounds.
func Judge(cs []Cluster, old string, oldRounds, new []map[string]float64, alpha float64) (diffs []results.BehaviourDiff, changed bool) {
	diffs = Compare(oldRounds, new, alpha)
	if len(diffs) == 0 {
		return nil, false
	}
	for _, c := range cs {
		if slices.Contains(c.Commits, old) && len(Compare(c.Rounds, new, alpha)) == 0 {
			return nil, false
		}
	}
	return diffs, true
}
