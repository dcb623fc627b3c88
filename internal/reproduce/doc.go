// Package reproduce checks one verdict of a campaign the way a user
// checks a change: it finds the mutant in the results directory and in the
// module's current code, runs the benchmarks that measured it on the
// baseline and the mutant alternately (runner.Reproduction), and compares
// the samples as benchstat does (golang.org/x/perf/benchmath), saying
// whether benchstat agrees with the verdict.
package reproduce
