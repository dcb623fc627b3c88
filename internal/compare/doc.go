// Package compare is perfmut compare: it measures the benchmarks that run
// the code changed between two versions of a module (git revisions, NEW
// possibly the working tree) on both versions, interleaved, and gives a
// verdict per benchmark and metric (results.Comparison, compare.json).
//
// It is a client of the measurement core, package engine: each version is an
// engine.Workspace (its test binaries, coverage and samples), measured
// with the campaign's design and statistics. select.go chooses the
// benchmarks from the change, measure.go samples them (timed, or counted
// under -measure instructions), history.go checks NEW against the recorded
// history for drift, compare.go also adds the mutation score of the
// changed packages from a perfmut run (-score), attrib.go and
// profile.go profile the changed benchmarks on both versions and
// attribute their changes to functions (package internal/attrib).
package compare
