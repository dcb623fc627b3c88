// Package results is perfmut's data model: what a campaign, a comparison,
// a calibration and a plan produce, and the files that hold it.
//
//   - report.json: a campaign's Report (Settings, Inputs, one Mutant per
//     mutant with a LevelResult per optimization level, the scores).
//   - journal.jsonl: the append-only Journal of finished results that a
//     resumed campaign reads back (JournalReader, ReadJournal).
//   - compare.json: a Comparison of two versions of a module.
//   - history.jsonl: the HistoryEntry store that compare -history checks
//     NEW against for drift.
//   - a Plan: what a campaign is expected to cost (perfmut run -plan).
//
// Settings is one value built from the flags and the configuration: it
// carries the score.Rule the verdicts were decided with (Report.Rule
// returns it), and its fields' setting tags say how -resume and merge
// compare it (Diff) and what -since hashes (Verdict).
//
// Reading and writing live here too (ReadFile, WriteJSON, WriteAtomic,
// OpenJournal, ReadHistory, AppendHistory). perfmut's campaign, compare
// and calibrate produce these values; its report package renders them.
// This package renders nothing and imports neither. The mutants of a
// report read back name their operators; Report.SetOperators gives them
// the operator values (mutate.Mutant.Op) from a list such as operators.All.
package results
