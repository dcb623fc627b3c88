// Package calibrate is perfmut calibrate: A/A trials that measure the
// false-kill rate of a campaign's measurement and kill rule on this
// machine. Each trial is a mutant that changes nothing the benchmarks
// time (the baseline against itself, or a null mutant: an added function
// no benchmark runs), run through an ordinary runner.Campaign; the
// resulting results.Report is tallied by package report.
package calibrate
