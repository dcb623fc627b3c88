// Package mutate is perfmut's mutation engine: it loads a module's packages
// with full type information, runs the operators over every in-scope file and
// turns the sites they report into immutable Mutant values with stable IDs,
// and produces the overlays and diffs that build and show each mutant.
package mutate
