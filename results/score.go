package results

// A ScoreSection is the mutation score of the packages a change touches,
// from the results of a perfmut run (compare -score DIR): how far a
// "same" verdict on them can be trusted.
type ScoreSection struct {
	Dir      string   `json:"dir"`
	Packages []string `json:"packages"` // the touched packages that have mutants in the report
	// Levels is the score over those packages' mutants, by level.
	Levels map[string]LevelScore `json:"levels"`
	// Survivors are their covered survivors (a benchmark ran the mutated
	// code and did not notice), those in changed files first, at most
	// MaxScoreSurvivors; Survived counts them all.
	Survivors []ScoreSurvivor `json:"survivors"`
	Survived  int             `json:"survived"`
	Warnings  []string        `json:"warnings,omitempty"`
}

// A ScoreSurvivor is one covered survivor of a ScoreSection.
type ScoreSurvivor struct {
	ID            string   `json:"id"`
	Operator      string   `json:"operator"`
	Position      string   `json:"position"`
	Function      string   `json:"function"`
	Levels        []string `json:"levels"`
	InChangedFile bool     `json:"in_changed_file"`
	Tests         string   `json:"tests"` // the benchmarks tried at the first of Levels, with their ratios and p-values
}

// MaxScoreSurvivors caps ScoreSection.Survivors.
const MaxScoreSurvivors = 10
