package results

import "time"

// Plan is what a campaign is expected to cost before any mutant is built
// (perfmut run -plan): counts and times per level from the baseline's
// build, test, coverage and benchmark times.
type Plan struct {
	Module   string               `json:"module"`
	Mutants  int                  `json:"mutants"`
	Levels   []string             `json:"levels"`
	Jobs     int                  `json:"jobs"`
	Baseline BaselineTimes        `json:"baseline"` // measured
	ByLevel  map[string]PlanLevel `json:"by_level"`
	// WallSeconds is the expected wall time: the baseline, the builds and
	// tests divided among Jobs workers, and the measurement (alone).
	WallSeconds float64 `json:"wall_seconds"`
	// Within and Shards: the -shard count whose shards each fit Within
	// (every shard repeats the baseline).
	Within string `json:"within,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// Quick, if set, says the plan is a quick one: estimated from the
	// source and a few timed builds, without the baseline steps; Baseline
	// and ByLevel are then estimates too (the likely case).
	Quick *QuickPlan `json:"quick,omitempty"`
	// FunctionMap bounds the campaign's detectability map (nil when it
	// makes none: -function-map=false).
	FunctionMap *PlanMap `json:"function_map,omitempty"`
}

// QuickPlan is what a quick plan adds: the bounds of its estimate and
// what it was made from.
type QuickPlan struct {
	// Low and High bound ByLevel: High assumes every mutant of a package
	// that a benchmark's package imports is reached by all of them and
	// by all the tests, Low that each is judged by one benchmark and one
	// build and runs no test.
	Low  map[string]PlanLevel `json:"low"`
	High map[string]PlanLevel `json:"high"`
	// WallLow and WallHigh bound WallSeconds; ShardsHigh is the -shard
	// count for Within in the high case.
	WallLow    float64 `json:"wall_low_seconds"`
	WallHigh   float64 `json:"wall_high_seconds"`
	ShardsHigh int     `json:"shards_high,omitempty"`
	// NoFit says the baseline steps alone are estimated to take longer
	// than Within: no shard fits, and Shards is the count whose shards'
	// mutants each take about Within.
	NoFit      bool `json:"no_fit,omitempty"`
	Benchmarks int  `json:"benchmarks"` // found in the source
	Tests      int  `json:"tests"`      // found in the source (tests, examples, fuzz targets)
	// Timed are the packages whose test binaries were built (and tests
	// run) to time them.
	Timed   []TimedPackage `json:"timed"`
	Seconds float64        `json:"seconds"` // what making the plan took
}

// TimedPackage is one package a quick plan timed.
type TimedPackage struct {
	Package string `json:"package"`
	// FirstBuildSeconds is the first build of its test binary (with the
	// dependencies not yet in the build cache); MutantBuildSeconds a
	// mutant's build after it; TestSeconds a run of its tests (0: not
	// run), StartSeconds a run of its test binary with no test.
	FirstBuildSeconds  float64 `json:"first_build_seconds"`
	MutantBuildSeconds float64 `json:"mutant_build_seconds"`
	TestSeconds        float64 `json:"test_seconds"`
	TestsTimedOut      bool    `json:"tests_timed_out,omitempty"`
	// BuildStopped: the timing budget ran out during a build, whose time
	// so far is a lower bound (and the mutant build's, if it was the
	// first build).
	BuildStopped bool    `json:"build_stopped,omitempty"`
	StartSeconds float64 `json:"start_seconds"`
}

// PlanLevel is one level's part of a Plan.
type PlanLevel struct {
	NotBuilt int `json:"not_built"` // no benchmark reaches them and no test is to run (none reaches them, or the operator is inert)
	Built    int `json:"built"`
	Tested   int `json:"tested"`   // built and running tests
	Measured int `json:"measured"` // built and measured (inferred kills left out)
	Inferred int `json:"inferred"` // expected to be killed by inference
	// Expected times summed over the mutants (seconds).
	BuildSeconds   float64 `json:"build_seconds"`
	TestSeconds    float64 `json:"test_seconds"`
	MeasureSeconds float64 `json:"measure_seconds"`
	MeasureRounds  float64 `json:"measure_rounds"` // expected rounds per measured mutant, on average
}

// PlanMap is the bound of a campaign's detectability map (the function
// sensitivity pass): what it runs, whatever the module.
type PlanMap struct {
	Benchmarks int `json:"benchmarks"` // top-level benchmarks of the packages in scope
	Packages   int `json:"packages"`   // packages with test files
	// Rounds of SampleSeconds in each benchmark's profiled run (two
	// processes of half the rounds each).
	Rounds        int     `json:"rounds"`
	SampleSeconds float64 `json:"sample_seconds"`
	// BenchSeconds bounds the benchmarks' iterations: per benchmark a
	// calibration of a quarter sample in each binary (plain and coverage,
	// at once), two coverage runs of about 50 and 100ms of the coverage
	// binary, Rounds samples of profiled rounds, and up to 4 restarts of
	// the first process (each shorter than Rounds quarter samples) when
	// its rounds come out under a quarter sample. Builds are two go
	// commands for all the packages (plain and with coverage, at once),
	// as the baseline's.
	BenchSeconds float64 `json:"bench_seconds"`
}

// mapCoverSeconds is the map's two coverage runs of a benchmark: about 50
// and 100ms of iterations.
const mapCoverSeconds = 0.15

// MapBound is the PlanMap of benchmarks benchmarks in packages packages,
// each profiled for rounds rounds of sample.
func MapBound(benchmarks, packages, rounds int, sample time.Duration) *PlanMap {
	s := sample.Seconds()
	per := 2*s/4 + mapCoverSeconds + float64(rounds)*s + 4*float64(rounds)*s/4
	return &PlanMap{Benchmarks: benchmarks, Packages: packages, Rounds: rounds, SampleSeconds: s, BenchSeconds: float64(benchmarks) * per}
}
