package attrib

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/results"
)

// Summary is m's one line for a pull request, e.g.
//
//	BenchmarkGet sec/op +12%: 9 of the 11 extra ns/op in cache.(*LRU).Get, changed (cache/lru.go:46-52)
//
// bench names the benchmark. A top function that did not change but
// calls a changed one says so; profiles whose total moved against the
// measured change (time off the CPU: sleeping, waiting for a lock or
// for I/O) say that instead.
func Summary(bench string, m results.AttribMetric) string {
	head := fmt.Sprintf("%s %s %s", bench, m.Metric, percent(m.Ratio))
	more, dir := "extra", 1.0
	if m.Delta < 0 {
		more, dir = "fewer", -1
	}
	switch {
	case m.Verdict == "faster" && m.Delta >= 0 || m.Verdict == "slower" && m.Delta <= 0:
		return fmt.Sprintf("%s: the profiles do not show it (%s %s %s in NEW's): the change is not on the CPU (sleeping, waiting for a lock, I/O) or within the profiles' noise",
			head, number(math.Abs(m.Delta)), more, m.Unit)
	case len(m.Functions) == 0:
		return fmt.Sprintf("%s: %s %s %s, no function's share moved with it", head, number(math.Abs(m.Delta)), more, m.Unit)
	}
	f := m.Functions[0]
	part := number(dir*f.Delta) + " of the"
	if dir*f.Delta >= dir*m.Delta {
		part = "all of the" // others moved the other way
	}
	line := fmt.Sprintf("%s: %s %s %s %s in %s", head, part, number(dir*m.Delta), more, m.Unit, Short(f.Function))
	switch {
	case f.Changed != "":
		line += ", changed (" + f.Changed + ")"
	case len(f.Calls) > 0:
		line += ", which calls the changed " + shortList(f.Calls)
	case len(f.CalledBy) > 0:
		line += ", not changed, called by the changed " + shortList(f.CalledBy)
	case f.Outside:
		line += ", outside the module's functions"
	default:
		line += ", not changed"
	}
	return line
}

// percent shows a ratio NEW/OLD as a signed percentage: 1.12 -> +12%.
func percent(r float64) string {
	if r <= 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return "(no ratio)"
	}
	p := (r - 1) * 100
	if math.Abs(p) >= 10 {
		return fmt.Sprintf("%+.0f%%", p)
	}
	return fmt.Sprintf("%+.2g%%", p)
}

// number shows a value per op with about 2 significant digits and no
// exponent above 0.0001: 9.04 -> 9, 0.512 -> 0.51, 12345.6 -> 12346.
func number(x float64) string {
	if math.Abs(x) >= 10 {
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

// shortList names up to two functions in their short form.
func shortList(keys []string) string {
	var s []string
	for _, k := range keys[:min(len(keys), 2)] {
		s = append(s, Short(k))
	}
	if len(keys) > 2 {
		s = append(s, "…")
	}
	return strings.Join(s, ", ")
}
