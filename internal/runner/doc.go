// Package runner runs perfmut's campaigns: which mutants run, in what
// order, and what becomes of their results. A Campaign (its flags are
// cmd/perfmut's) builds the baseline's test binaries, covers its tests
// and benchmarks, then takes each mutant through the measurement core of
// package engine: built through an overlay (or in a private copy of the
// module with -isolate copy), called equivalent when its compiled code is
// the baseline's (tce.go), deduplicated by that code (duplicate.go),
// filtered with the tests whose coverage reaches it, and queued for one
// measurer that gives each engine.Job to Engine.Measure, alone. Every
// finished result goes to an append-only journal, so that a campaign can
// be resumed (-resume), sampled and sharded (choose.go), merged
// (merge.go), and reused by a later one (-since: since.go, sincefunc.go);
// the smallest injection at a site runs first and decides the larger
// ones (subsume.go); a plan estimates a campaign before it runs (plan.go,
// planquick.go).
//
// Inside, a campaign's run is made of values, one per phase, each with
// its own methods that take what they read as arguments: the engine (the
// configuration, temp dir, progress log and warnings every phase uses),
// the baseline's binaries, coverage, equivalence by compiled code, flaky
// tests and deduplication.
//
// Around it:
//
//   - engine: the measurement core it is built on; perfmut compare and
//     calibrate share it (an engine.Workspace per compared version; A/A
//     trials run as a Campaign).
//   - results: the data model it produces (report.json, the journal,
//     compare.json, the history store, the plan) with its reading and
//     writing; runner imports no renderer.
//   - report: the renderers of those results (text, Markdown, HTML,
//     SARIF, mutation-testing-elements).
//   - internal/proc (processes in their own group, with deadlines),
//     internal/srcgraph (the quick plan's reading of the source).
//   - cmd/perfmut: the flags (CampaignFlags) and the module loader.
package runner
