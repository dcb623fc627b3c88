// Command agree compares a sensitivity map's predictions with a
// campaign's measured spin-loop and sleep verdicts (bench/sensitivity-agree.sh):
//
//	go run ./bench/agree -map map.json -report report.json [-level opt] [-call-ns 0]
//
// Each measured mutant (not inferred, not a duplicate) of an operator
// with a loop cost becomes a detect.Injection: its cost per execution of
// the loop body is the operator's LoopCost (a spin-loop's at -iter-ns per
// iteration when given) plus -call-ns; detect.Agree
// predicts it from the map.
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"text/tabwriter"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
)

func main() {
	mapFile := flag.String("map", "", "perfmut sensitivity -json output")
	reportFile := flag.String("report", "", "a campaign's report.json")
	level := flag.String("level", "opt", "the level whose verdicts to compare")
	callNs := flag.Float64("call-ns", 0, "cost of one call of the injected helper, added to the operator's loop cost")
	iterNs := flag.Float64("iter-ns", 0, "cost of one spin iteration measured now (0 = spin-loop's LoopCost)")
	flag.Parse()
	var m detect.Map
	data, err := os.ReadFile(*mapFile)
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	rep, rerr := results.ReadFile(*reportFile)
	if err = cmp.Or(err, rerr); err != nil {
		fmt.Fprintln(os.Stderr, "agree:", err)
		os.Exit(2)
	}
	rep.SetOperators(operators.All)
	var obs []detect.Observation
	size := map[string]string{}
	for _, mu := range rep.Mutants {
		r := mu.Results[*level]
		op := mu.Op
		if r == nil || op == nil || op.LoopCost == nil || r.InferredFrom != "" || r.DuplicateOf != "" || r.MeasureSeconds == 0 {
			continue
		}
		ns, ok := op.LoopCost(mu.Params, *level == "opt")
		if !ok {
			continue
		}
		if n, isSpin := mu.Params["iterations"].(float64); isSpin && *iterNs > 0 {
			ns = n * *iterNs
		}
		in := detect.Injection{ID: mu.ID, Function: mu.Package + "." + mu.Function, File: path.Join(mu.Package, path.Base(mu.File)),
			Line: mu.Line, Column: mu.Column, Nanos: ns + *callNs, Verdict: string(r.Status)}
		obs = append(obs, m.Observe(in))
		size[mu.ID] = fmt.Sprintf("%s %v %s:%d", mu.Operator, mu.Params, mu.File, mu.Line)
	}
	a := detect.Agree(&m, obs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MUTANT\tINJECTION\tFUNCTION\tVERDICT\tPREDICTED\tBENCHMARK\tRATIO\tD\tAGREES")
	for _, o := range a.Outcomes {
		fmt.Fprintf(tw, "%.8s\t%s\t%s\t%s\t%v\t%s\t%.4g\t%.4g\t%v\n", o.ID, size[o.ID], path.Base(o.Function), o.Verdict, o.Predicted, path.Base(o.By), o.Ratio, o.Detectable, o.Agrees())
	}
	tw.Flush()
	fmt.Printf("agreement %d of %d decided (%.1f%%), %d other verdicts left out\n", a.Agreeing, a.Decided, 100*a.Rate(), a.Other)
	undecided, predicted := 0, 0
	for _, o := range a.Outcomes {
		if o.Verdict == "undecided" {
			undecided++
			if o.Predicted {
				predicted++
			}
		}
	}
	fmt.Printf("undecided: %d, of which %d predicted caught\n", undecided, predicted)
}
