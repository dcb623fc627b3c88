package results

import "github.com/perfmut/perfmut/score"

// An Attribution explains one compared benchmark's change by functions:
// both versions profiled (CPU and allocations) in interleaved rounds at
// the measurement's iteration count, and the functions whose share of
// each changed metric moved most.
type Attribution struct {
	// Iterations is how many iterations each round's profiled samples
	// ran, the same on both sides: b.N times the runs (-test.count) that
	// make about 200 ms, more runs when the previous round's profiles had
	// too few CPU samples; Rounds the number of rounds (one profiled
	// sample of each side each).
	Iterations []int `json:"iterations"`
	Rounds     int   `json:"rounds"`
	// Profiles are the pprof files (relative to the output directory),
	// each side's rounds merged: go tool pprof -diff_base OldCPU NewCPU.
	Profiles AttribProfiles `json:"profiles"`
	Metrics  []AttribMetric `json:"metrics"`
	Seconds  float64        `json:"seconds"` // the profiled rounds' wall time
	Warnings []string       `json:"warnings,omitempty"`
}

// AttribProfiles are an attribution's merged pprof files.
type AttribProfiles struct {
	OldCPU string `json:"old_cpu"`
	NewCPU string `json:"new_cpu"`
	OldMem string `json:"old_mem"`
	NewMem string `json:"new_mem"`
}

// An AttribMetric attributes the change of one measured metric (sec/op,
// B/op, allocs/op) to functions, from the profiles' values per op (CPU
// ns/op, allocated B/op, allocations per op).
type AttribMetric struct {
	Metric  string              `json:"metric"`  // the measured metric
	Verdict score.ChangeVerdict `json:"verdict"` // its verdict
	Ratio   float64             `json:"ratio"`   // its measured ratio NEW/OLD
	Unit    string              `json:"unit"`    // the profiles' unit: ns/op (CPU), B/op, allocs/op
	// Old and New are the profiles' totals per op, each side's rounds
	// pooled; Delta is New - Old, DeltaLo and DeltaHi the sign-test 95%
	// interval of the per-round differences (0, 0 below 6 rounds).
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	Delta   float64 `json:"delta"`
	DeltaLo float64 `json:"delta_lo"`
	DeltaHi float64 `json:"delta_hi"`
	// Functions are those whose value moved most in the direction of the
	// change, largest first.
	Functions []AttribFunc `json:"functions"`
	// Summary is the metric's one line: which function holds how much of
	// the change, and whether it changed.
	Summary string `json:"summary"`
}

// An AttribFunc is one function's part in a metric's change. Its value is
// what the profiles charge it: the samples whose innermost frame of the
// module is the function (its own code, inlined code of other modules and
// its callees outside the module: the runtime, the standard library,
// dependencies); a sample with no frame of the module is charged to its
// outermost function (runtime.gcBgMarkWorker for the garbage collector).
type AttribFunc struct {
	Function string  `json:"function"` // importpath.Func (Func as perfmut list names it), or the profile's name outside the module
	Old      float64 `json:"old"`      // per op, pooled over the rounds
	New      float64 `json:"new"`
	Delta    float64 `json:"delta"`
	DeltaLo  float64 `json:"delta_lo"` // sign-test 95% interval of the per-round differences
	DeltaHi  float64 `json:"delta_hi"`
	Share    float64 `json:"share"`     // Delta / the metric's Delta
	CumDelta float64 `json:"cum_delta"` // the difference with every callee's value
	// Changed is where the change touched the function's declaration
	// ("cache/lru.go:46-52"; "OLD cache/lru.go:50" for lines only
	// deleted), "" when it did not.
	Changed string `json:"changed,omitempty"`
	// Calls are the changed functions it calls, directly or not, as the
	// profiles' stacks show them.
	Calls []string `json:"calls_changed,omitempty"`
	// CalledBy are the changed functions that call it, directly or not.
	CalledBy []string `json:"called_by_changed,omitempty"`
	// Outside: not a function of the module (samples without a frame of
	// it: the scheduler, the garbage collector's workers).
	Outside bool `json:"outside_module,omitempty"`
}
