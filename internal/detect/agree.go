package detect

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// An Injection is a mutant of known cost at a loop site, with its verdict:
// it adds Nanos to every execution of the body of the loop statement at
// File:Line.Column (File as coverage names it: "importpath/file.go").
type Injection struct {
	ID           string
	Function     string // importpath.Func (FuncID.Key)
	File         string
	Line, Column int
	Nanos        float64
	Verdict      string // killed, survived, undecided, ...
}

// An Observation is an injection's cost as slowdown factors, with its
// verdict.
type Observation struct {
	ID       string `json:"id"`
	Function string `json:"function"`
	// Bench is the slowdown of each benchmark whose timed loop runs the
	// loop body: 1 + Nanos x executions per op / median ns/op.
	Bench map[string]float64 `json:"bench"`
	// Factor is the slowdown of the function in the benchmark of its row:
	// 1 + Nanos x executions per op / (share x median ns/op); 0 when the
	// row has no share or that benchmark does not run the loop body.
	Factor  float64 `json:"factor"`
	Verdict string  `json:"verdict"`
}

// Observe turns in into an Observation with m's execution counts, ns/op
// and shares.
func (m *Map) Observe(in Injection) Observation {
	ob := Observation{ID: in.ID, Function: in.Function, Verdict: in.Verdict, Bench: map[string]float64{}}
	for _, b := range m.Benchmarks {
		if k := bodyPerOp(b.PerOp, in.File, in.Line, in.Column); k > 0 && len(b.Noise) > 0 {
			ob.Bench[b.Name] = 1 + in.Nanos*k/median(b.Noise)
		}
	}
	r, ok := m.Row(in.Function)
	if !ok || r.Status != Timed || r.Share <= 0 {
		return ob
	}
	if x, ok := ob.Bench[r.Benchmark]; ok {
		ob.Factor = 1 + (x-1)/r.Share
	}
	return ob
}

// Row returns the row of function key (importpath.Func).
func (m *Map) Row(key string) (Row, bool) {
	for _, r := range m.Functions {
		if r.Package+"."+r.Function == key {
			return r, true
		}
	}
	return Row{}, false
}

// bodyPerOp is the executions per op of the body of the loop statement at
// file:line.col: the first block that starts after it on its line.
func bodyPerOp(perOp map[string]float64, file string, line, col int) float64 {
	prefix := file + ":" + strconv.Itoa(line) + "."
	best, n := 0, 0.0
	for k, v := range perOp {
		c, err := strconv.Atoi(strings.TrimPrefix(k, prefix))
		if !strings.HasPrefix(k, prefix) || err != nil || c <= col {
			continue
		}
		if best == 0 || c < best {
			best, n = c, v
		}
	}
	return n
}

// An Outcome is an observation with the map's prediction.
type Outcome struct {
	Observation
	Predicted  bool    `json:"predicted"` // some benchmark's slowdown reaches its detectable ratio
	By         string  `json:"by,omitempty"`
	Ratio      float64 `json:"ratio,omitempty"`      // By's slowdown
	Detectable float64 `json:"detectable,omitempty"` // By's detectable ratio
}

// Agrees reports whether the prediction matches a killed or survived
// verdict.
func (o Outcome) Agrees() bool {
	return o.Predicted == (o.Verdict == "killed") && (o.Verdict == "killed" || o.Verdict == "survived")
}

// An Agreement compares the map's predictions with the verdicts: Decided
// observations (killed or survived), Agreeing ones among them, and the
// others (undecided, ...) left out.
type Agreement struct {
	Decided, Agreeing, Other int
	Outcomes                 []Outcome
}

// Rate is Agreeing / Decided; 0 when none is decided.
func (a Agreement) Rate() float64 {
	if a.Decided == 0 {
		return 0
	}
	return float64(a.Agreeing) / float64(a.Decided)
}

// Disagreements are the decided outcomes whose prediction is wrong.
func (a Agreement) Disagreements() []Outcome {
	var out []Outcome
	for _, o := range a.Outcomes {
		if (o.Verdict == "killed" || o.Verdict == "survived") && !o.Agrees() {
			out = append(out, o)
		}
	}
	return out
}

// Agree predicts each observation from m: caught when its slowdown of
// some benchmark of the map reaches that benchmark's detectable ratio
// (for the function's factor, equivalently, when it reaches the row's
// factor). The outcome names the benchmark whose slowdown is the largest
// multiple of its detectable ratio.
func Agree(m *Map, obs []Observation) Agreement {
	d := map[string]float64{}
	for _, b := range m.Benchmarks {
		d[b.Name] = b.Detectable
	}
	var a Agreement
	for _, ob := range obs {
		o := Outcome{Observation: ob}
		for _, name := range slices.Sorted(maps.Keys(ob.Bench)) {
			x, dd := ob.Bench[name], d[name]
			if dd > 0 && (o.By == "" || x/dd > o.Ratio/o.Detectable) {
				o.By, o.Ratio, o.Detectable = name, x, dd
			}
		}
		o.Predicted = o.By != "" && o.Ratio >= o.Detectable
		switch ob.Verdict {
		case "killed", "survived":
			a.Decided++
			if o.Agrees() {
				a.Agreeing++
			}
		default:
			a.Other++
		}
		a.Outcomes = append(a.Outcomes, o)
	}
	return a
}
