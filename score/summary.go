package score

// TYPE CONTRACT for the score breakdowns that reports render. The statistics
// work implements Summarize (signature below may gain options) and may add
// fields, but keeps these names and JSON tags.

// Counts is how many mutants ended in each status, with the scores.
type Counts struct {
	Killed       int `json:"killed"`
	Survived     int `json:"survived"`
	NoCoverage   int `json:"no_coverage"`
	CompileError int `json:"compile_error"`
	FNE          int `json:"fne"`
	Timeout      int `json:"timeout"`
	Crash        int `json:"crash"`
	// Undecided mutants were measured to the budget without the evidence
	// either way: outside Valid, like the excluded statuses.
	Undecided int `json:"undecided,omitempty"`

	Valid        int     `json:"valid"`         // killed + survived + no-coverage
	Score        float64 `json:"score"`         // killed / valid (paper Eq. 1); 0 when valid == 0
	CoveredScore float64 `json:"covered_score"` // killed / (killed + survived)
}

// A Row is the score of one group of mutants at one alpha.
type Row struct {
	Dimension string  `json:"dimension"` // "level", "operator", "quadrant", "package" or "metric"
	Key       string  `json:"key"`       // e.g. "spin-loop", "Q3", "example.com/m/pkg", "sec/op"
	Level     string  `json:"level"`     // "opt" or "noopt"
	Alpha     float64 `json:"alpha"`
	Counts
}

// Summary is the mutation score broken down, as plain data.
type Summary struct {
	Alpha  float64   `json:"alpha"`  // the run's alpha
	Alphas []float64 `json:"alphas"` // the run's alpha and 0.01, 0.05, 0.1, sorted, unique
	Rows   []Row     `json:"rows"`
}

// An Outcome is what Summarize needs of one mutant at one level.
type Outcome struct {
	ID       string       `json:"id"`
	Operator string       `json:"operator"`
	Quadrant string       `json:"quadrant"`
	Package  string       `json:"package"`
	Level    string       `json:"level"`
	Status   Status       `json:"status"`
	Tests    []TestResult `json:"tests"`
}
