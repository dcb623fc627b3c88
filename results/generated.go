package results

// A GeneratedKill says that a benchmark perfmut generate wrote, and
// verified by measuring it as a campaign does, kills a mutant that was
// no-coverage, survived or undecided: the fix the reports offer.
type GeneratedKill struct {
	Benchmark string `json:"benchmark"` // e.g. BenchmarkPerfmutIndexWord
	File      string `json:"file"`      // the generated file, in the results directory
	Command   string `json:"command"`   // the command that writes it into the module
}
