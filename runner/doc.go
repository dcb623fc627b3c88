// Package runner turns mutants into verdicts: it builds the module's test
// binaries with each mutant through go build overlays (or in a private copy
// of the module), filters mutants with the module's own tests, selects the
// benchmarks that execute each mutated site from per-benchmark coverage of
// the baseline, measures baseline and mutant benchmarks in alternating,
// randomized rounds until the statistics decide, and records every finished
// mutant in an append-only journal so that a campaign can be resumed,
// sampled, sharded and merged.
//
// The perfmut commands are thin wrappers of its entry points: a Campaign
// (its flags are cmd/perfmut's), whose Run is perfmut run (and, with
// trial mutants, package calibrate's A/A trials); a Workspace is one version of a module,
// built and measured without mutants, as package compare measures it;
// Merge combines shards and ReadResults opens a results directory
// (perfmut report).
//
// Inside, a campaign's run is made of values, one per phase, each with
// its own methods that take what they read as arguments: env (the
// settings, temp dir, progress log and warnings every phase uses), the
// baseline's binaries, coverage, equivalence by compiled code, flaky
// tests, deduplication, iteration counts, instruction counting and the
// machine's noise. A Workspace is the same values without the campaign's.
//
// Around it:
//
//   - results: the data model it produces (report.json, the journal,
//     compare.json, the history store, the plan) with its reading and
//     writing; runner imports no renderer.
//   - report: the renderers of those results (text, Markdown, HTML,
//     SARIF, mutation-testing-elements).
//   - compare and calibrate: perfmut compare and calibrate, clients of
//     the measurement (Workspace, Campaign and its Measurement).
//   - internal/proc (processes in their own group, with deadlines),
//     internal/progress (the progress line), internal/srcgraph (the quick
//     plan's reading of the source).
//   - cmd/perfmut: the flags (CampaignFlags) and the module loader.
package runner
