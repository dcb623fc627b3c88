package runner

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// reproUnits are the units a verdict rests on, after benchfmt's tidying.
var reproUnits = []string{"sec/op", "B/op", "allocs/op"}

// A reproRow is benchstat's comparison of one benchmark and unit: the
// medians with their 95 % intervals, and the two-sided Mann-Whitney U
// test at alpha 0.05 (golang.org/x/perf/benchmath's AssumeNothing, what
// the benchstat command uses by default).
type reproRow struct {
	Benchmark string
	Unit      string
	Sides     [2]benchmath.Summary // baseline, mutant
	Cmp       benchmath.Comparison
}

// Delta is the mutant's median over the baseline's, minus 1, in percent
// (+Inf from a zero baseline).
func (r reproRow) Delta() float64 {
	switch {
	case r.Sides[0].Center == r.Sides[1].Center:
		return 0
	case r.Sides[0].Center == 0:
		return math.Inf(1)
	}
	return (r.Sides[1].Center/r.Sides[0].Center - 1) * 100
}

// Slower reports whether benchstat calls the mutant worse: p at most
// alpha and a higher median.
func (r reproRow) Slower() bool {
	return r.Cmp.P <= r.Cmp.Alpha && r.Sides[1].Center > r.Sides[0].Center
}

func (r reproRow) String() string {
	return fmt.Sprintf("%s %s %+.2f%% p=%.3f", r.Benchmark, r.Unit, r.Delta(), r.Cmp.P)
}

// printReproduction prints benchstat's table of the files in dir and
// whether it agrees with the verdict lr at level.
func printReproduction(w io.Writer, dir, id string, lr *results.LevelResult, level string) error {
	var vals [2]map[string]map[string][]float64
	for i, name := range []string{ReproBaseFile, ReproMutFile} {
		v, err := readBenchValues(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		vals[i] = v
	}
	rows := reproRows(vals)
	writeReproTable(w, rows)
	fmt.Fprintln(w)
	fmt.Fprintln(w, closingLine(id, lr, level, rows))
	return nil
}

// closingLine is the agreement line, or, for a verdict that rests on
// instruction counts (-measure instructions), why wall time cannot check
// it: a count's slowdown of 0.5 % is far below what benchstat sees in
// wall time on a shared machine.
func closingLine(id string, lr *results.LevelResult, level string, rows []reproRow) string {
	switch lr.Metric {
	case "instructions/op":
		return fmt.Sprintf("%s at %s on instructions/op counted under valgrind: this reproduction measures wall time, which does not check that verdict (perfmut run -measure instructions -mutants %s counts again)", lr.Status, level, id)
	case "", "sec/op":
		return agreement(lr.Status, level, judgedRows(rows, killMetrics(lr)))
	}
	return agreement(lr.Status, level, judgedRows(rows, killMetrics(lr))) + " (wall time only: part of the verdict rests on instructions/op counted under valgrind)"
}

// readBenchValues reads a benchmark file: benchmark name -> unit ->
// values, in file order.
func readBenchValues(file string) (map[string]map[string][]float64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string][]float64{}
	rd := benchfmt.NewReader(bytes.NewReader(data), file)
	for rd.Scan() {
		r, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := r.Name.String()
		if out[name] == nil {
			out[name] = map[string][]float64{}
		}
		for _, v := range r.Values {
			out[name][v.Unit] = append(out[name][v.Unit], v.Value)
		}
	}
	return out, rd.Err()
}

// reproRows compares the two sides' values of every benchmark and unit
// both have, by benchmark name, then the units of reproUnits in their
// order, then the others (custom metrics, instructions/op) sorted.
func reproRows(vals [2]map[string]map[string][]float64) []reproRow {
	var names []string
	for name := range vals[0] {
		if vals[1][name] != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	thr := benchmath.DefaultThresholds
	var rows []reproRow
	for _, name := range names {
		for _, unit := range rowUnits(vals[0][name], vals[1][name]) {
			base, mut := vals[0][name][unit], vals[1][name][unit]
			if len(base) == 0 || len(mut) == 0 {
				continue
			}
			s0 := benchmath.NewSample(slices.Clone(base), &thr)
			s1 := benchmath.NewSample(slices.Clone(mut), &thr)
			rows = append(rows, reproRow{Benchmark: name, Unit: unit,
				Sides: [2]benchmath.Summary{benchmath.AssumeNothing.Summary(s0, 0.95), benchmath.AssumeNothing.Summary(s1, 0.95)},
				Cmp:   benchmath.AssumeNothing.Compare(s0, s1)})
		}
	}
	return rows
}

// rowUnits are the units both sides have: reproUnits' first, in
// their order, then the rest sorted.
func rowUnits(base, mut map[string][]float64) []string {
	var units, rest []string
	for _, u := range reproUnits {
		if len(base[u]) > 0 && len(mut[u]) > 0 {
			units = append(units, u)
		}
	}
	for u := range base {
		if len(base[u]) > 0 && len(mut[u]) > 0 && !slices.Contains(reproUnits, u) {
			rest = append(rest, u)
		}
	}
	slices.Sort(rest)
	return append(units, rest...)
}

// writeReproTable prints the rows as benchstat does: median ± the 95 %
// interval's half-width in percent, and the change or ~.
func writeReproTable(w io.Writer, rows []reproRow) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\tunit\t%s\t%s\tvs base\n", ReproBaseFile, ReproMutFile)
	for _, r := range rows {
		scale := benchunit.CommonScale([]float64{r.Sides[0].Center, r.Sides[1].Center}, benchunit.ClassOf(r.Unit))
		fmt.Fprintf(tw, "%s\t%s\t%s ± %s\t%s ± %s\t%s (%s)\n", r.Benchmark, r.Unit,
			scale.Format(r.Sides[0].Center), r.Sides[0].PctRangeString(),
			scale.Format(r.Sides[1].Center), r.Sides[1].PctRangeString(),
			r.Cmp.FormatDelta(r.Sides[0].Center, r.Sides[1].Center), r.Cmp)
	}
	tw.Flush()
}

// killMetrics are the metrics other than sec/op on which lr's kill
// rests: the units (as benchfmt tidies them) of its rejecting tests.
func killMetrics(lr *results.LevelResult) map[string]bool {
	out := map[string]bool{}
	for _, t := range lr.Benchmarks {
		if t.Reject && t.Metric != "sec/op" {
			out[t.Metric] = true
		}
	}
	return out
}

// judgedRows are the rows the closing line judges by: every time-like
// metric (sec/op, instructions/op, custom metrics such as a percentile
// latency: the ones a survivor must rule out a slowdown of), and B/op and
// allocs/op only when the kill rests on them (otherwise they are shown,
// not judged: at small counts they carry the runtime's own allocations,
// noise that is not a slowdown).
func judgedRows(rows []reproRow, metrics map[string]bool) []reproRow {
	var out []reproRow
	for _, r := range rows {
		if (r.Unit != "B/op" && r.Unit != "allocs/op") || metrics[r.Unit] {
			out = append(out, r)
		}
	}
	return out
}

// agreement is the closing line: whether benchstat's rows agree with the
// verdict status (killed <=> some row slower at p <= 0.05).
func agreement(status score.Status, level string, rows []reproRow) string {
	key := keyRow(rows)
	slower := key != nil && key.Slower()
	var found string
	switch {
	case key == nil:
		found = "benchstat has no benchmark to compare"
	case slower:
		found = "benchstat finds it slower at p <= 0.05: " + key.String()
	default:
		found = "benchstat finds no slowdown at p <= 0.05 (closest: " + key.String() + ")"
	}
	switch status {
	case score.Killed:
		if slower {
			return fmt.Sprintf("agree: killed at %s, and %s", level, found)
		}
		return fmt.Sprintf("disagree: killed at %s, but %s", level, found)
	case score.Survived:
		if slower {
			return fmt.Sprintf("disagree: survived at %s, but %s", level, found)
		}
		return fmt.Sprintf("agree: survived at %s, and %s", level, found)
	}
	return fmt.Sprintf("%s at %s: no kill or survival to check; %s", status, level, found)
}

// keyRow is the row that decides: the slower row with the smallest p
// (then the largest delta) if one is slower, else the sec/op row with the
// smallest p (any unit's without sec/op); nil without rows.
func keyRow(rows []reproRow) *reproRow {
	var key *reproRow
	better := func(r *reproRow) bool {
		switch {
		case key == nil:
			return true
		case r.Slower() != key.Slower():
			return r.Slower()
		case !r.Slower() && (r.Unit == "sec/op") != (key.Unit == "sec/op"):
			return r.Unit == "sec/op"
		case r.Cmp.P != key.Cmp.P:
			return r.Cmp.P < key.Cmp.P
		}
		return r.Delta() > key.Delta()
	}
	for i := range rows {
		if better(&rows[i]) {
			key = &rows[i]
		}
	}
	return key
}
