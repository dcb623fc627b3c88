// Package generate is perfmut generate: it writes Go benchmarks for the
// functions whose mutants no benchmark killed (no-coverage, survived or
// undecided),
// and keeps only those that kill.
//
// The steps, each in its file:
//
//   - targets (target.go): the functions holding such mutants, from a
//     campaign's report or the benchmarks' timed blocks;
//   - capture (instrument.go, capture.go, recorder/): the package's tests
//     run once through a go test -overlay whose text edits, inserted at
//     each target's entry on the line of its opening brace (every other
//     position kept), record the receiver, arguments and type arguments
//     of every call (value.go reads them);
//   - literals (literal.go, typedesc.go, calls.go): recorded values
//     written as Go expressions of the package's test file, or the reason
//     they cannot be;
//   - candidates (emit.go, candidate.go, replay.go, concurrent.go): a
//     benchmark per target calling it in b.Loop with the largest and most
//     frequent recorded arguments, its receiver a literal or rebuilt by
//     replaying a constructor and the calls the test made on it; and the
//     concurrent benchmarks of package speedgun for thread-safe types;
//   - verification (verify.go, generate.go): in a private copy of the
//     module, the candidates of a package are vetted and built once,
//     each run at the baseline, then a campaign (package runner) measures
//     the targets' mutants on them as perfmut run would; a candidate that
//     kills none is dropped;
//   - output (file.go, result.go, write.go): the gofmt'ed file per
//     package, generate.json, the summary, -write, and the report.json
//     marks of the mutants a generated benchmark kills.
package generate
