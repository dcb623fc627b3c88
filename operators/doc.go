// Package operators holds perfmut's catalogue of performance mutation
// operators (after SlowCoach, ISSRE 2022). Each operator is a plain
// *mutate.Operator value in its own file; All lists them explicitly and
// Validate checks the list (the command checks it on every load, as
// analysis.Validate checks analyzers).
//
// Operators only find sites and describe them as textual edits on the
// original file content; the engine (package mutate) gives each site its ID,
// position and function name, honours //perfmut:ignore and adds the
// operators' helper declarations to the mutated package as one generated
// file. Operators use the type information of the package so that every
// mutant they propose compiles: a site whose mutation could break the build
// (an unused variable or import, a shadowed helper or package name, an
// unnameable type, a value of the wrong type) is skipped rather than reported.
//
// The quadrants: Q4, developer errors without context (a loop that no
// longer breaks early, a memoized result computed again, a dropped capacity
// hint, a write lock where a read lock suffices, ...); Q3, effect simulation
// (work injected at the start of every loop body or inside critical
// sections, once per configured size); Q2, fast-path disablers from the
// configuration, which report nothing without configuration entries.
// Catalogue lists the operators of All with their quadrant, title and
// options; perfmut list -h prints it.
//
// # Options
//
// An operator with options owns a section of perfmut.yaml, as an
// analysis.Analyzer owns its Flags: its Options field is a *config.Section
// whose New returns the options at their defaults, a pointer to a struct
// with yaml tags (or to a slice of such structs for a list of entries). The
// config package decodes the section strictly through it (unknown keys and
// bad types are path:line: errors), checks the values with the options'
// Validate method if they have one (returning config.Invalid errors, which
// locate the bad value) and their names against the loaded program with
// CheckNames if they have one. The operator reads its options in Run as
// pass.Options.(*TheirType).
//
// # Adding an operator
//
// Adding an operator touches four places and nothing else. First, its
// own file, say operators/nopyield.go, declaring the value, its options and
// its Run:
//
//	// NopYield yields the processor at the start of every loop body.
//	var NopYield = &mutate.Operator{
//		Name:     "nop-yield",
//		Quadrant: mutate.Q3,
//		Inert:    true,    // the edit cannot change what the program computes
//		Cost:     mutate.CostWork, // Gosched executes instructions; an instruction count sees it
//		Size:     "times", // mutants differing only in times are ordered by cost
//		Options: &config.Section{Key: "nop-yield", New: func() any {
//			return &NopYieldOptions{Times: []int{1}}
//		}},
//		Doc:           mutate.Doc{Title: "...", Body: "...", Before: "...", After: "..."},
//		Helper:        "func perfmut_yield(n int) { for range n { runtime.Gosched() } }\n",
//		HelperImports: []string{"runtime"},
//		Run:           runNopYield,
//	}
//
//	// NopYieldOptions are nop-yield's options, the nop-yield: section.
//	type NopYieldOptions struct {
//		Times []int `yaml:"times"` // default 1
//	}
//
//	func (o *NopYieldOptions) Validate() error {
//		return inRange("times", o.Times, 1, 1000, "nop-yield times must be between 1 and 1000")
//	}
//
//	func runNopYield(pass *mutate.Pass) {
//		for _, n := range pass.Options.(*NopYieldOptions).Times {
//			// ... find the sites, pass.Report(site) for each
//		}
//	}
//
// The fields say what the rest of perfmut needs to know: Inert skips the
// functional tests (the -full-filter help lists the inert operators), Size
// enables subsumption (-infer), Contention and Tail choose the hints for
// survivors, Cost (required) says whether an instruction count can see its
// mutants (perfmut run -measure instructions), LoopCost feeds the reports' sensitivity per loop site, Options
// the configuration section (perfmut list -h shows it with its defaults).
//
// Second, its golden file operators/testdata/nop-yield.txtar: a small
// module (go.mod, Go files, an optional config.yaml), the context of the doc
// example (a doc-example.go section holding a package with the line
// //<example> where Doc.Before goes, and an optional doc-config.yaml), and
// the want section, which go test ./operators -run TestGolden -update
// writes: every mutant's position, params, description and diff. As in
// analysistest, each line of the module where a mutant is expected ends in
// a comment // want "regexp" (one pattern per mutant, matching its
// description); TestGolden checks them both ways.
// TestDocExamples checks that the mutant of Doc.Before is Doc.After.
//
// Third, operators.All, where its place sets the catalogue order. Fourth,
// its row in TestCost (operators/cost_test.go) with the reason for its
// Cost, and the same row in docs/mutants.md.
package operators
