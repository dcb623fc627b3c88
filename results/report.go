package results

import (
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// Schema is the value of Report.Schema for this layout.
const Schema = "perfmut/report/v1"

// Optimization levels, the keys of Report.Score and Mutant.Results.
const (
	Opt   = "opt"   // default compiler flags
	NoOpt = "noopt" // -gcflags=all=-N -l
)

// Report is report.json.
type Report struct {
	Schema   string                `json:"schema"`
	Module   string                `json:"module"`
	Dir      string                `json:"dir,omitempty"` // absolute module root the campaign ran on (for source excerpts)
	Go       string                `json:"go"`            // go version used
	Settings Settings              `json:"settings"`
	Score    map[string]LevelScore `json:"score"` // by level
	Mutants  []Mutant              `json:"mutants"`
	Started  time.Time             `json:"started"`
	Finished time.Time             `json:"finished"`
	Summary  *score.Summary        `json:"summary,omitempty"` // breakdowns by level, operator, quadrant, package, metric and alpha
	// Unfinished, if not "", is the step of the run that was interrupted
	// after every mutant had its result ("the function sensitivity
	// map"): perfmut run -resume finishes it; merge refuses it until then.
	Unfinished string `json:"unfinished,omitempty"`
	// Phases sums the mutants' phase times per level (seconds; builds and
	// tests run -j at a time, so their sums exceed their wall time).
	Phases map[string]PhaseTimes `json:"phases,omitempty"`
	// Warnings are the campaign's caveats, e.g. a baseline benchmark left
	// out because it panicked or did not finish.
	Warnings []string `json:"warnings,omitempty"`
	// Sensitivity is, per loop site and level, the smallest injected time
	// per iteration the benchmarks noticed (see Sensitivities).
	Sensitivity []Sensitivity `json:"sensitivity,omitempty"`
	// Inputs are the hashes that -since compares.
	Inputs *Inputs `json:"inputs,omitempty"`
	// Baseline is the time of the campaign's baseline steps (seconds).
	Baseline *BaselineTimes `json:"baseline,omitempty"`
	// Noise is the machine's noise over the campaign (absent in reports
	// written before it was measured).
	Noise *Noise `json:"noise,omitempty"`
	// FunctionSensitivity is the detectability map, worst protected first
	// (absent when the map was not made: -function-map=false).
	FunctionSensitivity []FunctionSensitivity `json:"function_sensitivity,omitempty"`
	FunctionMap         *FunctionMap          `json:"function_map,omitempty"`
	// ChangedFunctions has one note per function changed since
	// -changed-since that the map has a row for.
	ChangedFunctions []FunctionNote `json:"changed_functions,omitempty"`
}

// BaselineTimes is the wall time of each baseline step of a campaign.
type BaselineTimes struct {
	BuildTestSeconds     float64 `json:"build_test_seconds"`     // building and testing every judging package at each level
	BenchCoverageSeconds float64 `json:"bench_coverage_seconds"` // per-benchmark coverage
	TestCoverageSeconds  float64 `json:"test_coverage_seconds"`  // per-test coverage
}

// PhaseTimes is the time a campaign spent in each phase of its mutants.
type PhaseTimes struct {
	BuildSeconds   float64 `json:"build_seconds"`
	TestSeconds    float64 `json:"test_seconds"`
	MeasureSeconds float64 `json:"measure_seconds"`
	Measured       int     `json:"measured"` // mutants measured
	Inferred       int     `json:"inferred"` // kills inferred without measurement
	// Equivalent mutants compiled to the baseline's code; Duplicates to
	// the code of another mutant, whose result they share. Neither was
	// tested or measured.
	Equivalent int `json:"equivalent"`
	Duplicates int `json:"duplicates"`
	// NotBuilt mutants are reached by no test and no benchmark: no-coverage
	// without a build.
	NotBuilt int `json:"not_built"`
	// Reused results were taken from an earlier campaign (-since).
	Reused int `json:"reused"`
}

// SumPhases sums the phase times of ms per level.
func SumPhases(ms []Mutant) map[string]PhaseTimes {
	out := map[string]PhaseTimes{}
	for _, m := range ms {
		for l, r := range m.Results {
			p := out[l]
			if r.Reused {
				// Its times and counts belong to the earlier campaign,
				// but for a retested one's build and tests.
				p.Reused++
				if r.Retested {
					p.BuildSeconds += r.BuildSeconds
					p.TestSeconds += r.TestSeconds
				}
				out[l] = p
				continue
			}
			p.BuildSeconds += r.BuildSeconds
			p.TestSeconds += r.TestSeconds
			p.MeasureSeconds += r.MeasureSeconds
			if r.MeasureSeconds > 0 {
				p.Measured++
			}
			if r.InferredFrom != "" {
				p.Inferred++
			}
			if r.DuplicateOf != "" {
				p.Duplicates++
			}
			if r.Status == score.Equivalent {
				p.Equivalent++
			}
			if r.Status == score.NoCoverage && r.BuildSeconds == 0 {
				p.NotBuilt++
			}
			out[l] = p
		}
	}
	return out
}

// LevelScore is the score at one optimization level.
type LevelScore struct {
	Killed  int     `json:"killed"`
	Valid   int     `json:"valid"`         // killed + survived + no-coverage
	Score   float64 `json:"score"`         // killed / valid
	Covered float64 `json:"covered_score"` // killed / (killed + survived)
	// Undecided mutants were measured to the sample budget without ruling
	// out the slowdown that matters: counted beside the score, outside
	// Valid (as equivalent ones).
	Undecided int `json:"undecided"`
}

// Settings records the run's settings.
type Settings struct {
	BuildSettings

	Patterns []string `json:"patterns" setting:"packages,quote,selection"`
	Opt      string   `json:"opt" setting:"-opt,selection"` // both, on, off
	RuleSettings
	// MaxBenchmarks is -max-benchmarks: each mutant was measured on at most
	// this many of the benchmarks reaching it (0 = all).
	MaxBenchmarks int `json:"max_benchmarks,omitempty" setting:"-max-benchmarks"`
	// CPU is -cpu: the GOMAXPROCS values every benchmark was measured at
	// (empty: the default only).
	CPU       []int  `json:"cpu,omitempty" setting:"-cpu"`
	Benchtime string `json:"benchtime" setting:"-benchtime"` // "" = fixed iterations from SampleTime
	// SampleTime is -sample-time: each benchmark's fixed iteration count
	// was chosen to take about this long per sample.
	SampleTime string `json:"sample_time,omitempty" setting:"-sample-time"`
	// Censor is -censor: a mutant sample running longer than Censor times
	// the slowest baseline sample plus a slack (50 to 100ms, from the baseline spread) was stopped (0 = never).
	Censor float64 `json:"censor,omitempty" setting:"-censor"`
	// NoInfer is -infer=false: every mutant was measured, none inferred.
	NoInfer bool `json:"no_infer,omitempty" setting:"-infer,negate"`
	// FullFilter is -full-filter: every mutant ran every test of the
	// packages importing it, not only the tests reaching its site.
	FullFilter bool `json:"full_filter,omitempty" setting:"-full-filter"`
	// Measure is -measure: what the samples measure, "time" or
	// "instructions" ("" before the flag: time).
	Measure string `json:"measure,omitempty" setting:"-measure,empty=time"`
	ChoiceSettings
	MapSettings
}

// RuleSettings are how the verdicts were decided: the score.Rule itself
// and the minimum effect on instruction counts. The Rule's Seed is not
// kept here (its json tag is "-"): it is the campaign's -seed,
// ChoiceSettings.Seed, which Settings.Seed names and Report.Rule fills in.
type RuleSettings struct {
	score.Rule
	// CountMinEffect is the minimum effect of the verdicts decided on
	// instruction counts (-measure instructions: 1.005 unless -min-effect
	// is given; 0 when nothing was counted).
	CountMinEffect float64 `json:"count_min_effect,omitempty" setting:"-min-effect on instruction counts"`
}

// BuildSettings are what the campaign built: the module path, -tags,
// -isolate and the go command's version.
type BuildSettings struct {
	Module    string   `json:"module,omitempty" setting:"the module"`
	Tags      []string `json:"tags,omitempty" setting:"-tags,quote,joined"`
	Isolate   string   `json:"isolate,omitempty" setting:"-isolate"`
	GoVersion string   `json:"go_version,omitempty" setting:"the Go version"`
}

// ChoiceSettings are how the mutants were chosen: -seed (which also
// orders the rounds), -sample, -shard, -operators, -changed-since and
// -mutants.
type ChoiceSettings struct {
	Seed      int64    `json:"seed" setting:"-seed,selection"`
	Sample    int      `json:"sample,omitempty" setting:"-sample,selection"`
	Shard     string   `json:"shard,omitempty" setting:"-shard,selection"`
	Operators []string `json:"operators,omitempty" setting:"-operators,novalues,selection"`
	// ChangedSince is the -changed-since revision: only mutants on lines
	// added or changed since it ran ("" = every mutant).
	ChangedSince string `json:"changed_since,omitempty" setting:"-changed-since,quote,selection"`
	// Mutants is -mutants: the IDs of the mutants it kept, sorted (empty:
	// every mutant).
	Mutants []string `json:"mutants,omitempty" setting:"-mutants,joined,selection,empty=all"`
}

// Mutant is one mutant with its results per level.
type Mutant struct {
	mutate.Mutant
	Diff    string                  `json:"diff"`
	Results map[string]*LevelResult `json:"results"` // by level
	// Generated, if set, is the generated benchmark that kills the mutant
	// (perfmut generate, run -generate).
	Generated *GeneratedKill `json:"generated,omitempty"`
}

// LevelResult is a mutant's verdict at one optimization level.
type LevelResult struct {
	Status     score.Status       `json:"status"`
	Reason     string             `json:"reason,omitempty"` // e.g. the compile error, failing test, setup-only coverage
	Benchmarks []score.TestResult `json:"benchmarks"`
	Samples    []SampleSet        `json:"samples,omitempty"`
	// Metric is what the verdict's timings measure: "sec/op" (wall
	// time), "instructions/op" (counted under valgrind) or
	// "instructions/op and sec/op" (counted on sequential benchmarks, wall
	// time on concurrent ones); "" in reports written before the choice
	// existed (wall time). MetricReason is why, from the operator's cost
	// (mutate.Cost's String: "work", "wait", "contention") or
	// "-measure time", e.g. "wait: only wall time sees it".
	Metric       string  `json:"metric,omitempty"`
	MetricReason string  `json:"metric_reason,omitempty"`
	Seconds      float64 `json:"seconds"` // wall time spent on this mutant and level
	// Iterations is the fixed iteration count of each measured benchmark
	// (by the name in Benchmarks): every sample of both sides ran it.
	Iterations map[string]int `json:"iterations,omitempty"`
	// Phase times of this mutant and level, in seconds: building its test
	// binaries, running their tests (the functional filter), and measuring.
	BuildSeconds   float64 `json:"build_seconds,omitempty"`
	TestSeconds    float64 `json:"test_seconds,omitempty"`
	MeasureSeconds float64 `json:"measure_seconds,omitempty"`
	// Output is the end of the test output behind an fne, crash or
	// timeout verdict of the functional filter.
	Output string `json:"output,omitempty"`
	// InferredFrom is set on a kill inferred without measurement: the ID
	// of the smaller injection of the same operator at the same site whose
	// kill implies this one (subsumption; -infer).
	InferredFrom string `json:"inferred_from,omitempty"`
	// DuplicateOf is set on a result copied from another mutant whose
	// mutated package compiled to the same code at this level: its ID.
	// The samples are that mutant's.
	DuplicateOf string `json:"duplicate_of,omitempty"`
	// Skipped names the benchmarks reaching the mutant that were not
	// brought to the look that killed it: the benchmarks measured before
	// them (the most sensitive first) already rejected at a level whose
	// family counts their tests. Their samples, if any, are from earlier
	// looks.
	Skipped []string `json:"skipped,omitempty"`
	// Warnings are measurement caveats, e.g. a benchmark whose samples run
	// fewer than 10 iterations.
	Warnings []string `json:"warnings,omitempty"`
	// Judges are the packages whose content the verdict depends on (see
	// Inputs): for a kill, the mutated package and those whose tests ran
	// or whose benchmarks measured it; otherwise the mutated package and
	// every package importing it (any of them could add a test or
	// benchmark that changes the verdict).
	Judges []string `json:"judges,omitempty"`
	// Reused is set on a result taken from an earlier campaign (-since)
	// because nothing it depends on changed.
	Reused bool `json:"reused,omitempty"`
	// Retested is set with Reused when the mutant was built and its tests
	// ran again on this campaign's code (a test of it runs a changed
	// function, its benchmarks do not) and passed: the measured verdict
	// was reused, not measured again.
	Retested bool `json:"retested,omitempty"`
}

// Inputs is what a campaign's verdicts depend on besides the mutants
// themselves, recorded so that a later campaign (-since) can reuse the
// verdicts whose inputs did not change.
type Inputs struct {
	Go       string `json:"go"`       // go version
	Machine  string `json:"machine"`  // GOOS/GOARCH, CPU model, GOMAXPROCS
	Settings string `json:"settings"` // hash of the settings that affect verdicts, go.mod and go.sum
	// Packages maps each loaded package to a hash of its directory's
	// files (sources, tests, testdata).
	Packages map[string]string `json:"packages"`
	// Code is each package's code function by function, and Reach what
	// each benchmark and test ran on the baseline: with them, a change
	// to function bodies re-runs only the mutants of the changed
	// functions and those judged by a benchmark or test that runs one.
	Code map[string]PackageCode `json:"code,omitempty"`
	// Reach maps each benchmark and test ("pkg BenchmarkX", "pkg TestY")
	// to the functions its baseline coverage ran ("pkg file.go:Func").
	Reach map[string][]string `json:"reach,omitempty"`
	// Timed maps each benchmark to the functions its timed loop ran: it
	// judges only mutants there.
	Timed map[string][]string `json:"timed,omitempty"`
}

// PackageCode is a package's code split into its functions and the rest.
type PackageCode struct {
	Rest  string            `json:"rest"`  // hash of the package's files with the function bodies left out
	Funcs map[string]string `json:"funcs"` // "pkg file.go:Func" -> hash of the function's source
	// Covered is set when Reach knows which benchmarks and tests run the
	// package's functions (its code was instrumented in their coverage).
	Covered bool `json:"covered,omitempty"`
}

// SampleSet holds the raw values of one benchmark and metric, for plots and
// re-analysis; Files names the benchfmt files (relative to the output
// directory) that reproduce it with benchstat.
type SampleSet struct {
	Benchmark string    `json:"name"`
	Metric    string    `json:"metric"`
	Baseline  []float64 `json:"baseline"`
	Mutant    []float64 `json:"mutant"`
	Files     [2]string `json:"files"` // baseline, mutant
	// MutantCensored lists the indices of Mutant values that are censored:
	// the sample was stopped after running longer than the censoring cap
	// (Settings.Censor), so its value is only a lower bound, and it counts
	// as slower than every baseline sample.
	MutantCensored []int `json:"mutant_censored,omitempty"`
}
