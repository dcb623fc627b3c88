// Package engine is perfmut's measurement core: given a module, it builds a
// mutant, filters it with the module's tests, covers the benchmarks, and
// measures baseline against mutant in interleaved samples until a
// score.Rule decides. It knows nothing of campaigns: which mutants run, in
// which order, how results are journaled, resumed, reused or merged is its
// callers' (package runner), and so is what a report looks like (it
// imports no renderer).
//
// An Engine is made from a Config (the module and its loaded packages,
// the Measurement settings: rule, metrics, sample time, censoring,
// -cpu, instruction counting, jobs, tags, log) by New. Its methods are
// the core's operations, each taking what it reads as arguments:
//
//   - builds: GoTestC (a test binary, a mutant's through a go build
//     overlay written by WriteOverlay) and GoBuild (a package without
//     tests), a BuildError when it does not compile (build.go);
//   - tests: RunTests runs a test binary and classifies its outcome
//     (functional.go, testcover.go); FlakyTests and PassingOnRetry tell a
//     flaky test from a failing one (flaky.go);
//   - coverage: CoverBenchmarks runs each benchmark at N and 2N
//     iterations with -cover and keeps the blocks of its timed loop
//     (coverage.go, coverruns.go); CoverTests records what each test
//     runs (testcover.go); SelectBenchmarks picks the benchmarks that run
//     a mutant's site, with their heat; TimedBlocks finds the timed blocks
//     of a whole module (timedblocks.go);
//   - iteration counts: Iters finds, once per benchmark and level, the
//     N each sample runs (iters.go, sampling.go), on the baseline binaries
//     given by SetBaseline;
//   - measurement: Measure takes a Job (one mutant at one level: its
//     binaries, benchmarks and their heat) and returns its
//     results.LevelResult: benchmarks chosen and ordered by cost and
//     sensitivity (benchorder.go, concurrent.go; the mutant's operator,
//     Job.Mutant.Op, says which can show its cost), rounds of one baseline
//     and one mutant sample (BenchOnce) in random order, censoring,
//     instruction counts for the pairs a count sees (count.go), look by
//     look until the rule decides (measure.go); Noise says what the
//     baseline's samples show of the machine (noise.go).
//
// A Workspace is an Engine of one version of a module without mutants:
// what perfmut compare builds, covers and measures on each side.
//
// A Progress is the log of an Engine and of the run that uses it: log
// lines, and on a terminal a status line with the counts per status and
// the time left (progress.go).
package engine
