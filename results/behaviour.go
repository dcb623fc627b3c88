package results

// BehaviourMetric is the Metric of a history entry that records a
// version's behaviour (its profiled rounds' features, Rounds) instead of
// a metric's values; such entries are kept in BehaviourFile, beside the
// store of distributions (HistoryFile).
const (
	BehaviourMetric = "behaviour"
	BehaviourFile   = "behaviour.jsonl"
)

// A Behaviour is what the model learned from the history says of a
// benchmark's NEW behaviour (compare -history).
type Behaviour struct {
	// Changed: NEW matches none of OLD's clusters.
	Changed bool `json:"changed"`
	// Entries are the recorded behaviours of the benchmark on this
	// machine the model learned from (this comparison's OLD included),
	// Clusters how many clusters they form, OldClusters how many of them
	// hold OLD.
	Entries     int `json:"entries"`
	Clusters    int `json:"clusters"`
	OldClusters int `json:"old_clusters"`
	// Diffs are the features that differ from OLD's nearest cluster.
	Diffs []BehaviourDiff `json:"diffs,omitempty"`
	// Summary is the one line of a change.
	Summary string `json:"summary,omitempty"`
}

// A BehaviourDiff is a feature whose share differs: the mean shares of
// OLD's cluster and of NEW, and the two-sided test's p before the
// correction.
type BehaviourDiff struct {
	Feature string  `json:"feature"`
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	P       float64 `json:"p"`
}
