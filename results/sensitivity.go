package results

import (
	"cmp"
	"slices"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// Sensitivity is how much injected time per loop iteration the benchmarks
// notice at one loop site and level, read from the verdicts of the mutants
// there whose operator has a LoopCost (spin-loop and sleep; each size a
// mutant of its own).
type Sensitivity struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Function string `json:"function"`
	Level    string `json:"level"`
	// DetectedNanos is the smallest injected cost per iteration that was
	// killed (0: none was). MissedNanos is the largest cost below it that
	// survived (0: none did), so the threshold lies between the two.
	DetectedNanos float64 `json:"detected_ns,omitempty"`
	MissedNanos   float64 `json:"missed_ns,omitempty"`
	// PredictedNanos is the smallest cost per iteration a benchmark that
	// runs the site would notice, by its baseline noise (the slowdown it
	// detects at the campaign's sample budget, times its time per
	// iteration, over the runs of the site per iteration), PredictedBy
	// that benchmark; 0 and "" when unknown. Where even the smallest
	// injected cost is killed, it says how much smaller a slowdown the
	// benchmarks would still notice.
	PredictedNanos float64 `json:"predicted_ns,omitempty"`
	PredictedBy    string  `json:"predicted_by,omitempty"`
	// Text words the two costs, e.g. "benchmarks notice +7µs per
	// iteration here", as the reports show them; the campaign that writes
	// the report words it (Sensitivities leaves it empty).
	Text string `json:"text"`
}

// injectedNanos is the time a mutant adds to each iteration of its loop at
// level, for an operator with a LoopCost (spin-loop, sleep).
func injectedNanos(m mutate.Mutant, level string) (float64, bool) {
	op := m.Op
	if op == nil || op.LoopCost == nil {
		return 0, false
	}
	return op.LoopCost(m.Params, level != NoOpt)
}

// Sensitivities computes the Sensitivity of every loop site and level that
// has a killed or survived mutant of an operator with a LoopCost (the
// mutants' Op), in source order, without its Text.
func Sensitivities(ms []Mutant) []Sensitivity {
	type key struct {
		file, level string
		line, col   int
	}
	sites := map[key]*Sensitivity{}
	type verdict struct {
		ns     float64
		killed bool
	}
	var keys []key
	vs := map[key][]verdict{}
	for _, m := range ms {
		for level, r := range m.Results {
			if r.Status != score.Killed && r.Status != score.Survived {
				continue
			}
			ns, ok := injectedNanos(m.Mutant, level)
			if !ok {
				continue
			}
			k := key{m.File, level, m.Line, m.Column}
			if sites[k] == nil {
				sites[k] = &Sensitivity{File: m.File, Line: m.Line, Column: m.Column, Function: m.Function, Level: level}
				keys = append(keys, k)
			}
			vs[k] = append(vs[k], verdict{ns, r.Status == score.Killed})
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), cmp.Compare(a.level, b.level))
	})
	out := make([]Sensitivity, 0, len(keys))
	for _, k := range keys {
		s := sites[k]
		for _, v := range vs[k] {
			if v.killed && (s.DetectedNanos == 0 || v.ns < s.DetectedNanos) {
				s.DetectedNanos = v.ns
			}
		}
		for _, v := range vs[k] {
			if !v.killed && v.ns > s.MissedNanos && (s.DetectedNanos == 0 || v.ns < s.DetectedNanos) {
				s.MissedNanos = v.ns
			}
		}
		out = append(out, *s)
	}
	return out
}

// SensitivityAt returns the sensitivity of m's site at level, if known.
func SensitivityAt(rep *Report, m mutate.Mutant, level string) (Sensitivity, bool) {
	for _, s := range rep.Sensitivity {
		if s.File == m.File && s.Line == m.Line && s.Column == m.Column && s.Level == level {
			return s, true
		}
	}
	return Sensitivity{}, false
}
