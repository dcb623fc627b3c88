// Package operators holds perfmut's catalogue of performance mutation
// operators (after SlowCoach, ISSRE 2022). Each operator is a plain
// *mutate.Operator value in its own file; All lists them explicitly and
// Validate checks the list (the command checks it on every load, as
// analysis.Validate checks analyzers).
//
// Operators only find sites and describe them as textual edits on the
// original file content; package mutate gives each site its ID,
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
// An operator is one file and its golden test; everything else is a row in
// a table that a test keeps in step. Take nop-yield, a Q3 operator with
// options and a helper (the kind that touches the most files):
//
//  1. operators/nopyield.go: the value, its options and its Run (below).
//  2. operators/testdata/nop-yield.txtar: its golden file (below);
//     go test ./operators -run TestGolden -update writes its want section.
//  3. operators/all.go: the operator in All, among those of its quadrant
//     (Q4, then Q3, then Q2; TestAllOrder checks it). Its place there is its
//     line in perfmut list -h.
//  4. operators/cost_test.go: its row in TestCost, with the reason for its
//     Cost.
//  5. docs/mutants.md: the same Cost in the table "What an instruction
//     count sees" (TestCost checks that the three agree).
//  6. With Options: its section, at the defaults, in the example of
//     docs/config.md (TestREADMEExample checks that every section is there).
//  7. With a Helper: its helperNames, and their row in TestHelperNames
//     (operators/golden_test.go), which checks them against the Helper.
//  8. A Q3 operator (or a Q4 one that bench/q3overhead measures, its
//     siteOps): go test ./bench/q3overhead -run TestGenerated -update
//     regenerates bench/q3overhead/variants_gen.go, the mutated benchmark
//     loops.
//  9. An operator on by default (one needing no configuration entries):
//     its mutants join the listings of the command's script tests; go test
//     ./cmd/perfmut -run TestListScripts -update rewrites them (for
//     nop-yield, cmd/perfmut/testdata/script/list_check_go116.txtar).
//
// Then run go test ./operators ./bench/q3overhead and go test ./cmd/perfmut
// -run 'TestListScripts|TestAllMutantsCompile|TestInertDocumented'.
// TestAllMutantsCompile builds every mutant of some real modules, and
// list_check_go116 type-checks mutants of a go 1.16 module: helper code must
// compile at the module's Go version (no range over an int, no generics
// unless guarded by goAtLeast as oblivion's are).
//
// The operator's file declares the value, its options and its Run:
//
//	// NopYield yields the processor at the start of every loop body.
//	var NopYield = &mutate.Operator{
//		Name:     "nop-yield",
//		Quadrant: mutate.Q3,
//		Inert:    true,            // the edit cannot change what the program computes
//		Cost:     mutate.CostWork, // Gosched executes instructions; an instruction count sees it
//		Size:     "times",         // mutants differing only in times are ordered by cost
//		Options: &config.Section{Key: "nop-yield", New: func() any {
//			return &NopYieldOptions{Times: []int{1}}
//		}},
//		Doc: mutate.Doc{
//			Title:  "yield the processor at the start of every loop iteration",
//			Body:   "Inserts runtime.Gosched() calls at the start of every for and range body.",
//			Before: "for _, x := range xs {\n\tsum += x\n}",
//			After:  "for _, x := range xs { perfmut_yield(1);\n\tsum += x\n}",
//		},
//		Helper:        "func perfmut_yield(n int) {\n\tfor i := 0; i < n; i++ {\n\t\truntime.Gosched()\n\t}\n}\n",
//		HelperImports: []string{"runtime"},
//		Run:           runNopYield,
//	}
//
//	// NopYieldOptions are nop-yield's options, the nop-yield: section.
//	type NopYieldOptions struct {
//		Times []int `yaml:"times"` // default 1
//	}
//
//	// Validate checks the counts.
//	func (o *NopYieldOptions) Validate() error {
//		return inRange("times", o.Times, 1, 1000, "nop-yield times must be between 1 and 1000")
//	}
//
//	// yieldNames are the helper's identifiers and import names.
//	var yieldNames = helperNames{calls: []string{"perfmut_yield"}, pkgLevel: []string{"runtime"}}
//
//	func runNopYield(pass *mutate.Pass) {
//		var sizes []q3Size
//		for _, n := range uniqueSorted(pass.Options.(*NopYieldOptions).Times, func(n int) bool { return n > 0 }) {
//			sizes = append(sizes, q3Size{
//				stmt:   fmt.Sprintf("perfmut_yield(%d)", n),
//				params: map[string]any{"times": n},
//				desc:   fmt.Sprintf("yield %d times per loop iteration", n),
//			})
//		}
//		insertAtLoops(pass, sizes, yieldNames)
//	}
//
// The fields say what the rest of perfmut needs to know: Inert skips the
// functional tests (the -full-filter help lists the inert operators), Size
// enables subsumption (-infer), Contention and Tail choose the hints for
// survivors, Cost (required) says whether an instruction count can see its
// mutants (docs/instructions.md), LoopCost feeds the reports' sensitivity
// per loop site, Options the configuration section (perfmut list -h shows
// it with its defaults).
//
// Run finds the sites. insertAtLoops (q3.go) inserts a statement at the
// start of every loop body and criticalSections (locks.go) finds the lock
// and unlock calls that Q3's lock operators use; for anything else,
// newFile(pass) wraps the pass with what every operator asks of a file:
// source text and edits (text, short, replace, del, delStmt in file.go),
// names and types (lookup, sameResolution, typeExpr, helperUsable in
// naming.go), variables (pure, removable, isWrite in uses.go) and calls
// (callee, reEvaluable in calls.go). A site whose mutant would not compile
// is skipped: a variable or import left unused (removable), a name
// shadowed where the edit uses it (sameResolution, helperUsable), a type
// that cannot be written there (typeExpr).
//
// The golden file is a small module (go.mod, Go files, an optional
// config.yaml), the context of the doc example (a doc-example.go section
// holding a package with the line //<example> where Doc.Before goes, and an
// optional doc-config.yaml), and the want section, which -update writes:
// every mutant's position, params, description and diff. As in
// analysistest, each line of the module where a mutant is expected ends in
// a comment // want "regexp" (one pattern per mutant, matching its
// description); TestGolden checks them both ways, and TestDocExamples that
// the mutant of Doc.Before is Doc.After. testdata/sleep.txtar is a short
// one to copy.
package operators
