package mutate

import (
	"bytes"
	"fmt"
	"sort"
)

// A Mutant is one generated P-mutant. It is an immutable value: applying it
// never changes shared state; Apply works on a fresh copy of the source.
type Mutant struct {
	ID          string         `json:"id"`
	Operator    string         `json:"operator"`
	Quadrant    Quadrant       `json:"quadrant"`
	Params      map[string]any `json:"params"`
	Package     string         `json:"package"`  // import path
	File        string         `json:"file"`     // module-relative, slash-separated
	Line        int            `json:"line"`     // 1-based
	Column      int            `json:"column"`   // 1-based, in bytes
	Function    string         `json:"function"` // e.g. Lower, (*T).M, init
	Description string         `json:"description"`

	Edits []Edit `json:"-"` // applied to the original content of File

	// Helper is the content of the generated helper file (a whole Go file
	// with package clause) added to the package directory, or "" if the
	// mutant needs none. HelperFile is its base name.
	Helper     string `json:"-"`
	HelperFile string `json:"-"`

	// Op is the operator that made the mutant, as an analysis.Pass
	// carries its Analyzer: the runner and the engine judge the mutant by
	// its traits (Inert, Size, Cost, Contention, Tail, LoopCost). Load
	// sets it; a mutant read back from a report gets it from the list of
	// operators its reader knows (results.Report.SetOperators). It is nil
	// for an operator that list lacks, which has none of the traits.
	Op *Operator `json:"-"`
}

// Apply returns a fresh copy of src with the mutant's edits applied.
func (m Mutant) Apply(src []byte) ([]byte, error) {
	return ApplyEdits(src, m.Edits)
}

// ApplyEdits returns a fresh copy of src with edits applied. Edits must not
// overlap and must lie within src.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.Slice(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End < es[j].End
	})
	out := make([]byte, 0, len(src)+64)
	last := 0
	for _, e := range es {
		if e.Start < last || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) overlaps or lies outside the file (%d bytes)", e.Start, e.End, len(src))
		}
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	out = append(out, src[last:]...)
	return out, nil
}

// LineCol returns the 1-based line and byte column of offset off in src.
func LineCol(src []byte, off int) (line, col int) {
	return 1 + bytes.Count(src[:off], []byte("\n")), off - bytes.LastIndexByte(src[:off], '\n')
}
