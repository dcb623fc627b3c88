package results

// Calibration trial kinds, the operator names of perfmut calibrate's
// trials: the baseline against itself (an identical binary) and against a
// null mutant (a binary that differs, through an added function no
// benchmark runs, but does the same work).
const (
	TrialSelf = "a/a-self"
	TrialNull = "a/a-null"
)
