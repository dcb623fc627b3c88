package results

import (
	"github.com/perfmut/perfmut/score"
)

// CompareFile is the name of the comparison's JSON report in its output
// directory; CompareMarkdown its Markdown report (a pull-request comment).
const (
	CompareFile         = "compare.json"
	ReportFile          = "report.json" // a campaign's report in its -out directory
	CompareMarkdownFile = "compare.md"
)

// A Comparison is what perfmut compare found (compare.json): two versions
// of a module, the benchmarks that run the code changed between them, and
// per benchmark and metric the verdict.
type Comparison struct {
	Module   string      `json:"module"`
	Old      CompareSide `json:"old"`
	New      CompareSide `json:"new"`
	Settings Settings    `json:"settings"`
	// MaxSlowdown is -max-slowdown as a fraction (0.05 for 5%): a slower
	// metric whose median ratio is above 1+MaxSlowdown fails the gate.
	MaxSlowdown float64            `json:"max_slowdown"`
	Selection   Selection          `json:"selection"`
	Benchmarks  []CompareBenchmark `json:"benchmarks"`
	// Failures are the slower metrics beyond MaxSlowdown, as
	// "Benchmark metric ratio": the gate fails when there is one.
	Failures []string `json:"failures,omitempty"`
	// Drift lists NEW's metrics slower than their recorded history
	// (-history DIR); each is also a warning.
	Drift []Drift `json:"drift,omitempty"`
	// Score is the mutation score of the changed packages (-score DIR).
	Score    *ScoreSection `json:"score,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
	Seconds  float64       `json:"seconds"`

	// Generated is what -generate generated.
	Generated *GeneratedSection `json:"generated,omitempty"`
}

// A CompareSide is one version of the comparison.
type CompareSide struct {
	Rev    string `json:"rev"`    // as given (WORKTREE for the working tree)
	Commit string `json:"commit"` // for the working tree, HEAD's
	// Samples is the benchfmt file of this side's samples, relative to
	// the output directory: benchstat old.txt new.txt shows the same
	// numbers.
	Samples string `json:"samples,omitempty"`
}

// A Selection is which benchmarks a comparison measured and why.
type Selection struct {
	// All is set by -all, or when go.mod or go.sum changed.
	All    bool   `json:"all"`
	Reason string `json:"reason"` // one line for the log and the reports
	// ChangedFiles are the files under the module root that differ.
	ChangedFiles []string `json:"changed_files"`
	// SetupOnly are benchmarks that run changed code only outside their
	// timed loop: not measured.
	SetupOnly []string `json:"setup_only,omitempty"`
}

// Benchmark statuses of a comparison.
const (
	Measured = "measured"
	OnlyOld  = "only-old" // the benchmark is gone in NEW
	OnlyNew  = "only-new" // the benchmark is new in NEW
	Failed   = "failed"   // it failed on a side
)

// A CompareBenchmark is one benchmark of a comparison.
type CompareBenchmark struct {
	Package    string          `json:"package"`
	Name       string          `json:"name"`          // as go test prints it: with -N at -cpu N > 1
	CPU        int             `json:"cpu,omitempty"` // the -cpu GOMAXPROCS; 0 = the default
	Status     string          `json:"status"`
	Why        string          `json:"why,omitempty"` // why it was selected
	Reason     string          `json:"reason,omitempty"`
	Iterations int             `json:"iterations,omitempty"` // per sample, both sides
	Metrics    []CompareMetric `json:"metrics,omitempty"`
	Warnings   []string        `json:"warnings,omitempty"`
	// Attribution explains a changed metric by functions (compare
	// -attribute).
	Attribution *Attribution `json:"attribution,omitempty"`
	// Behaviour is what the model of the benchmark's recorded behaviour
	// says of NEW (compare -history).
	Behaviour *Behaviour `json:"behaviour,omitempty"`
}

// A CompareMetric is the verdict on one metric of a benchmark.
type CompareMetric struct {
	Metric  string              `json:"metric"`
	Verdict score.ChangeVerdict `json:"verdict"`
	Old     float64             `json:"old"` // median
	New     float64             `json:"new"` // median
	// Ratio is the median of the per-round ratios NEW/OLD (the two samples
	// of a round run back to back) with its sign-test 95% interval
	// (score.PairedRatio).
	Ratio   float64 `json:"ratio"`
	RatioLo float64 `json:"ratio_lo"`
	RatioHi float64 `json:"ratio_hi"`
	// P and PAdj are the one-sided test behind the verdict: NEW slower for
	// slower (and for same and undecided with a ratio of 1 or more), OLD
	// slower for faster; Threshold is the level PAdj was compared with.
	P           float64   `json:"p"`
	PAdj        float64   `json:"p_adj"`
	Threshold   float64   `json:"threshold,omitempty"`
	OldValues   []float64 `json:"old_values"`
	NewValues   []float64 `json:"new_values"`
	OldCensored []int     `json:"old_censored,omitempty"`
	NewCensored []int     `json:"new_censored,omitempty"`
	Warnings    []string  `json:"warnings,omitempty"`
}

// Counts returns how many measured metrics have each verdict.
func (c *Comparison) Counts() map[score.ChangeVerdict]int {
	n := map[score.ChangeVerdict]int{}
	for _, b := range c.Benchmarks {
		for _, m := range b.Metrics {
			n[m.Verdict]++
		}
	}
	return n
}

// FailedCount is the number of benchmarks that failed on a side.
func (c *Comparison) FailedCount() int {
	n := 0
	for _, b := range c.Benchmarks {
		if b.Status == Failed {
			n++
		}
	}
	return n
}
