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
// Compute runs the whole pass on the packages in scope and returns a Map:
// Map.Functions are the rows, worst protected first, ready to be written
// as JSON (WriteJSON) or text (WriteText). The pieces are pure and usable
// alone on data a campaign already has: Growth (set-up vs timed from two
// coverage counts), Classify.Count (one profile's shares), Factor and
// Rows (the map from per-benchmark results).
package detect
