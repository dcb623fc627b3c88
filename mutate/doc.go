// Package mutate generates perfmut's mutants: it loads a module's packages
// with full type information, runs the operators over every in-scope file and
// turns the sites they report into immutable Mutant values with stable IDs,
// and produces the overlays and diffs that build and show each mutant.
//
// A mutant is a list of byte-offset text edits on the original file, like
// the TextEdits of a go/analysis SuggestedFix, not a rewritten syntax tree:
// every line the mutant does not touch keeps its text and its position, so
// coverage profiles, compile errors and pprof lines of a mutant's build map
// straight back to the user's source. Operators inspect typed syntax
// (go/ast, go/types) and report sites; the text of each edit is theirs.
package mutate
