package mutate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/perfmut/perfmut/config"
)

// Quadrant is the SlowCoach operator family.
type Quadrant string

// The quadrants perfmut implements.
const (
	Q2 Quadrant = "Q2" // context-dependent fast-path disablers, from the config
	Q3 Quadrant = "Q3" // effect simulation: spin, sleep, allocation, locking
	Q4 Quadrant = "Q4" // developer errors without context
)

// An Operator is one kind of performance mutation. Operators are plain
// values, like analysis.Analyzer; operators.All lists them.
type Operator struct {
	Name     string   // kebab-case, unique, e.g. "loop-unbreaker"
	Quadrant Quadrant // Q2, Q3 or Q4
	Doc      Doc

	// Helper holds Go declarations (no package clause, no imports) that
	// mutants of this operator call. They go into one generated file added to
	// the mutated package through the overlay. Every top-level identifier in
	// it must start with HelperPrefix. HelperImports lists the standard
	// library packages it imports.
	Helper        string
	HelperImports []string

	// Size, if not "", names the param that scales the cost the operator
	// injects (spin-loop's "iterations"): its mutants at one site that
	// differ only in it are ordered, a larger one costing at least as much
	// as a smaller one on every path, so a kill of the smaller implies the
	// kill of the larger (subsumption; the runner measures the smallest
	// first). The param's values are numbers or have Nanoseconds().
	Size string

	// Inert reports that the operator's edits cannot change what the
	// program computes, only how long it takes or how much it allocates
	// (Q3's injected work): its mutants need no functional filter, only a
	// build, unless the campaign asks for every test (runner FullFilter).
	Inert bool

	// Contention says how the cost of the operator's change depends on
	// goroutines running its site at once. A survivor of an operator whose
	// cost grows with contention, judged by no concurrent benchmark, gets
	// a hint saying so.
	Contention Contention

	// Cost is what the change costs: work, waiting, or work that becomes
	// waiting under contention. It decides whether an instruction count
	// can see a mutant in a benchmark (Cost.Counted). It must be set.
	Cost Cost

	// Tail reports that the operator's cost lands in rare long pauses (a
	// latency tail) rather than in the mean: a survivor whose benchmarks
	// report only means gets a hint to report a percentile.
	Tail bool

	// LoopCost, if not nil, is the time in nanoseconds that a mutant with
	// params adds to each iteration of the loop it mutates (optimized: built
	// with the compiler's optimizations), for an operator injecting a known
	// cost at the start of loop bodies. The reports turn the verdicts of a
	// loop's mutants into the time per iteration its benchmarks notice.
	LoopCost func(params map[string]any, optimized bool) (nanos float64, ok bool)

	// Options, if not nil, is the operator's section of the configuration
	// (perfmut.yaml), as an analysis.Analyzer's Flags are its options:
	// config decodes the section through it, strictly, and the operator
	// finds the result in Pass.Options. Operators sharing options share one
	// Section (oblivion and global-oblivion read oblivion's blacklist).
	Options *config.Section

	// Run reports the operator's sites in one file through pass.Report.
	// It must not modify the syntax tree.
	Run func(pass *Pass)
}

// Contention is how an operator's cost depends on goroutines running its
// site at once.
type Contention int

// The kinds of Contention.
const (
	ContentionNone  Contention = iota // the same cost in one goroutine (the default)
	ContentionWorse                   // more when goroutines run the site at once: waiters pay it too
	ContentionOnly                    // next to nothing unless goroutines contend (an uncontended lock)
)

// HelperPrefix starts every identifier an operator's Helper declares.
const HelperPrefix = "perfmut_"

// Doc documents an operator: a one-line title, a paragraph, and a small
// Before/After example.
type Doc struct {
	Title  string
	Body   string
	Before string
	After  string
}

// A Pass is what an operator sees of one file. Everything in it is shared
// and read-only.
type Pass struct {
	Fset *token.FileSet
	File *ast.File
	Src  []byte // the file's original content; Edit offsets index it

	// Files is the syntax of every file of the package that Info covers,
	// File among them, for an operator that follows a value beyond the
	// file. Nil means File alone.
	Files  []*ast.File
	Pkg    *types.Package
	Info   *types.Info
	Config *config.Config

	// Options is Config.Section(Operator.Options): the operator's decoded
	// options, of the type its Section.New returns, or nil if it has none.
	Options any

	// Report is called by the operator for every site it finds.
	Report func(Site)
}

// A Site is one mutation an operator proposes, before Load gives it an
// ID and a position.
type Site struct {
	// Node is the mutated syntax. Its start position is the mutant's
	// position; its enclosing function and source text make the stable ID.
	Node        ast.Node
	Params      map[string]any // e.g. {"iterations": 100000}; nil if none
	Description string         // e.g. "remove break in loop at line 12"
	Edits       []Edit         // non-overlapping, in any order
}

// An Edit replaces Src[Start:End] with New. Offsets are byte offsets into the
// original file content.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// Schema returns what a configuration file may name for the operators
// ops: their names and their option sections, in the order of ops.
func Schema(ops []*Operator) config.Schema {
	var s config.Schema
	for _, op := range ops {
		s.Operators = append(s.Operators, op.Name)
		if op.Options != nil {
			s.Sections = append(s.Sections, op.Options)
		}
	}
	return s
}
