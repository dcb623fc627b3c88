package score

// Status is the outcome of one mutant at one optimization level.
type Status string

// The statuses. Killed, Survived and NoCoverage are valid mutants and count
// in the score; the others are excluded and only counted.
const (
	Killed       Status = "killed"
	Survived     Status = "survived"
	NoCoverage   Status = "no-coverage"
	CompileError Status = "compile-error"
	FNE          Status = "fne"
	Timeout      Status = "timeout"
	Crash        Status = "crash"
	// Equivalent: the compiled code of the mutated package is the same as
	// the baseline's at this level (trivial compiler equivalence).
	Equivalent Status = "equivalent"
	// Undecided: measured to the sample budget without a kill, but the
	// data do not rule out the slowdown that matters (the rule's Margin):
	// too noisy to call a survivor. Counted beside the score, outside its
	// denominator, like Equivalent.
	Undecided Status = "undecided"
)

// Statuses lists every status in report order.
var Statuses = []Status{Killed, Survived, Undecided, NoCoverage, CompileError, FNE, Timeout, Crash, Equivalent}

// A TestResult is one test of a mutant (KS or MWU, as the rule's Test):
// one benchmark, one metric.
type TestResult struct {
	Benchmark string  `json:"name"`
	Metric    string  `json:"metric"` // sec/op, B/op, allocs/op or a custom unit
	D         float64 `json:"d"`      // the statistic: KS's d, or MWU's u/(n1 n2)
	P         float64 `json:"p"`      // raw one-sided p-value
	PAdj      float64 `json:"p_adj"`  // after the multiple-comparison correction
	Ratio     float64 `json:"ratio"`  // median mutant / median baseline
	RatioLo   float64 `json:"ratio_lo"`
	RatioHi   float64 `json:"ratio_hi"` // seeded bootstrap 95% interval
	// Upper is the upper bound of the median per-round ratio (UpperRatio
	// at the look's rank, 95% over all the looks together; never below
	// Ratio) of a metric held to the margin (a time, or a count that
	// is not constant without an increase), set when the rule
	// survives the mutant or abstains (or considers it: a look where no
	// test can kill): a survivor's every Upper is below the rule's
	// Margin; an undecided mutant has one at or above it.
	Upper     float64 `json:"ratio_upper,omitempty"`
	NBaseline int     `json:"n_baseline"`
	NMutant   int     `json:"n_mutant"`
	Reject    bool    `json:"reject"` // this test rejects at the run's alpha (after correction and min-effect)
	// Threshold is the level PAdj was compared with: the share of the run's
	// alpha spent at the look that decided (see Rule); 0 between looks.
	// Reject == PAdj <= Threshold && !BelowMinEffect && !Excluded.
	Threshold float64 `json:"threshold,omitempty"`
	// Deterministic is set when the metric is a count (B/op, allocs/op)
	// constant on each side and larger on the mutant's: a real increase
	// unless chance made it so, which is why it rejects only at its level,
	// as any test (in a mutant's decision; perfmut compare's DecideChange
	// still rejects on it whatever the level).
	Deterministic bool `json:"deterministic,omitempty"`
	// BelowMinEffect is set when the median ratio is not above the rule's
	// MinEffect, so the test cannot reject whatever its p-value.
	BelowMinEffect bool `json:"below_min_effect,omitempty"`
	// PMin is the smallest p-value any split of this test's pooled values
	// into samples of these sizes could give (ReachableP): 1 when every
	// value is the same, e.g. a constant allocs/op on both sides.
	PMin float64 `json:"p_min,omitempty"`
	// Excluded is set when PMin cannot reach the level, so the test was
	// left out of the multiple-comparison family (Tarone's reduction; see
	// AdjustFamily): PAdj is 1 and it cannot reject.
	Excluded bool     `json:"excluded,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}
