// Package detect computes the detectability map: for every function of the
// packages in scope, the smallest factor by which it must slow down for
// some benchmark to notice, from a CPU-profiled run of each benchmark on
// the baseline and the noise of its timings.
//
// For one benchmark with detectable ratio d (score.MinDetectable at the
// campaign's sample budget) in which a function takes a share s of the
// timed samples (with its callees), slowing the function down by a factor
// f makes the benchmark slower by 1 + (f - 1) s, which it notices when that
// reaches d: f = 1 + (d - 1) / s. The map keeps the minimum over
// benchmarks and the benchmark that achieves it. A function no benchmark
// runs is "never"; one that benchmarks run only before their timed loop
// (the number of times it runs does not grow with b.N, from two coverage
// runs at different iteration counts) is "set-up only".
//
// The pass is bounded: per package, two go commands build the test
// binaries (plain and with coverage) and one calibration round in each
// binary runs every benchmark once; per benchmark, two coverage runs of
// about 50 and 100ms of the coverage binary and one profiled run of
// max(NoiseSamples, ProfileTime / SampleTime) rounds of SampleTime, in two
// processes, whose rounds are its noise samples.
//
// Compute runs the whole pass on the packages in scope and returns a Map:
// Map.Functions are the rows, worst protected first, ready to be written
// as JSON (WriteJSON) or text (WriteText). The pieces are pure and usable
// alone on data a campaign already has: Growth (set-up vs timed from two
// coverage counts), Classify.Count (one profile's shares), Factor and
// Rows (the map from per-benchmark results). Map.Observe and Agree compare
// the map with a campaign's injections of known cost (spin-loop, sleep);
// ChangedFuncs and Notes say what protects a change's functions.
package detect
