package report

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// ratioString is "×1.234"; a ratio over a zero baseline median
// (score.UnboundedRatio, e.g. 0 -> 64 B/op) says so: "×inf (baseline
// median 0)".
func ratioString(x float64) string {
	switch {
	case x >= score.UnboundedRatio:
		return "×inf " + score.UnboundedNote
	case x <= -score.UnboundedRatio:
		return "×-inf " + score.UnboundedNote
	}
	return "×" + strconv.FormatFloat(x, 'f', 3, 64)
}

// ratioPair is an interval's two ratios (ratioString) between open, sep
// and close, the note of an unbounded ratio (score.UnboundedNote) said
// once, after them: "[×1.200, ×inf] (baseline median 0)".
func ratioPair(lo, hi float64, open, sep, close string) string {
	note := ""
	bare := func(x float64) string {
		s := ratioString(x)
		if t, ok := strings.CutSuffix(s, " "+score.UnboundedNote); ok {
			note = " " + score.UnboundedNote
			return t
		}
		return s
	}
	out := open + bare(lo) + sep + bare(hi) + close
	return out + note
}

// pString formats a p-value with two significant digits.
func pString(p float64) string {
	if p >= 1 {
		return "1"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// position is file:line:column.
func position(m *results.Mutant) string {
	if m.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Column)
	}
	return fmt.Sprintf("%s:%d", m.File, m.Line)
}

// testSummary is one test in a line: "BenchmarkX sec/op ×1.011 p=0.44 (30/30)".
func testSummary(t score.TestResult, withName bool) string {
	var b strings.Builder
	if withName {
		b.WriteString(t.Benchmark)
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "%s %s p=%s", t.Metric, ratioString(t.Ratio), pString(t.P))
	if t.PAdj != 0 && t.PAdj != t.P {
		fmt.Fprintf(&b, " (adj %s)", pString(t.PAdj))
	}
	if t.Reject {
		b.WriteString(" rejects")
	}
	return b.String()
}

// testsLine summarizes a level's tests grouped by benchmark:
// "BenchmarkSplit sec/op ×1.011 p=0.44, B/op ×1.000 p=1 (n=30/30)".
func testsLine(tests []score.TestResult) string {
	if len(tests) == 0 {
		return "no benchmark results"
	}
	return strings.Join(testsByBenchmark(tests), "; ")
}

// testsByBenchmark is testsLine's parts, one per benchmark.
func testsByBenchmark(tests []score.TestResult) []string {
	var parts []string
	for i := 0; i < len(tests); {
		j := i
		var ms []string
		for ; j < len(tests) && tests[j].Benchmark == tests[i].Benchmark; j++ {
			ms = append(ms, testSummary(tests[j], j == i))
		}
		parts = append(parts, strings.Join(ms, ", ")+fmt.Sprintf(" (n=%d/%d)", tests[i].NBaseline, tests[i].NMutant))
		i = j
	}
	return parts
}

// benchstatCommands returns the commands that show r's raw samples with
// benchstat, one per pair of benchfmt files. dir is the output directory
// as the user should type it ("" = relative to it).
func benchstatCommands(r *results.LevelResult, dir string) []string {
	type pair [2]string
	var order []pair
	names := map[pair][]string{}
	for _, s := range r.Samples {
		if s.Files[0] == "" || s.Files[1] == "" {
			continue
		}
		p := pair(s.Files)
		if _, ok := names[p]; !ok {
			order = append(order, p)
		}
		if !slices.Contains(names[p], s.Benchmark) {
			names[p] = append(names[p], s.Benchmark)
		}
	}
	var cmds []string
	for _, p := range order {
		base, mut := p[0], p[1]
		if dir != "" {
			base, mut = path.Join(dir, base), path.Join(dir, mut)
		}
		cmd := "benchstat "
		if f := benchFilter(names[p]); f != "" {
			cmd += "-filter " + shellQuote(f) + " "
		}
		cmd += shellQuote("baseline="+base) + " " + shellQuote("mutant="+mut)
		cmds = append(cmds, cmd)
	}
	return cmds
}

// reproduceCommand is the command that checks m's verdict independently
// of the samples perfmut took: perfmut reproduce builds the baseline and
// mutant test binaries again, runs them alternately and prints benchstat's
// table. -C names the module root when the report knows it, -out the
// results directory dir (as the user should type it) unless it is the
// default.
func reproduceCommand(rep *results.Report, m *results.Mutant, dir string) string {
	cmd := "perfmut reproduce "
	if rep.Dir != "" {
		cmd += "-C " + shellQuote(rep.Dir) + " "
	}
	if dir != "" && dir != "perfmut-out" {
		cmd += "-out " + shellQuote(dir) + " "
	}
	return cmd + m.ID
}

// benchFilter is a benchstat -filter query matching the named benchmarks
// ("" when that cannot be said simply; benchstat then shows every
// benchmark in the files). A sub-benchmark "Copy/size=4k" becomes
// ".name:Copy /size:4k".
func benchFilter(names []string) string {
	top := map[string]bool{} // benchmarks named whole: their sub-benchmarks need no query of their own
	for _, n := range names {
		if n = strings.TrimPrefix(n, "Benchmark"); !strings.Contains(n, "/") {
			top[n] = true
		}
	}
	var qs []string
	for _, n := range names {
		parts := strings.Split(strings.TrimPrefix(n, "Benchmark"), "/")
		if len(parts) > 1 && top[parts[0]] {
			continue
		}
		if parts[0] == "" || !safeFilterValue(parts[0]) {
			return ""
		}
		q := ".name:" + parts[0]
		for _, p := range parts[1:] {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" || !safeFilterValue(k) || !safeFilterValue(v) {
				return ""
			}
			q += " /" + k + ":" + v
		}
		qs = append(qs, q)
	}
	switch len(qs) {
	case 0:
		return ""
	case 1:
		return qs[0]
	}
	return "(" + strings.Join(qs, ") OR (") + ")"
}

func safeFilterValue(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.", r)) {
			return false
		}
	}
	return true
}

func shellQuote(s string) string {
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-=/.,:+@%", r)) {
			safe = false
			break
		}
	}
	if safe && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runSpan describes when the campaign ran: "2026-11-21 22:04:05 UTC, 15m36s".
func runSpan(rep *results.Report) string {
	if rep.Started.IsZero() {
		return ""
	}
	s := rep.Started.UTC().Format("2006-01-02 15:04:05 UTC")
	if !rep.Finished.IsZero() && rep.Finished.After(rep.Started) {
		s += ", " + rep.Finished.Sub(rep.Started).Round(time.Second).String()
	}
	return s
}

// settingsLine is "alpha 0.05 (holm), up to 30 samples, benchtime 100ms".
func settingsLine(rep *results.Report) string {
	s := rep.Settings
	var parts []string
	if s.Alpha > 0 {
		a := "alpha " + strconv.FormatFloat(s.Alpha, 'g', -1, 64)
		if s.Correction != "" {
			a += " (" + string(s.Correction) + ")"
		}
		parts = append(parts, a)
	}
	if s.MaxSamples > 0 {
		parts = append(parts, fmt.Sprintf("up to %d samples", s.MaxSamples))
	}
	switch {
	case s.Benchtime != "":
		parts = append(parts, "benchtime "+s.Benchtime)
	case s.SampleTime != "":
		parts = append(parts, "fixed iterations of about "+s.SampleTime+" a sample")
	}
	if s.Censor > 0 {
		parts = append(parts, fmt.Sprintf("censored past %gx the slowest baseline", s.Censor))
	}
	if s.Test != "" && s.Test != score.KS {
		parts = append(parts, string(s.Test)+" test")
	}
	if s.MinEffect > 1 {
		parts = append(parts, "min effect "+ratioString(s.MinEffect))
	}
	if s.Margin > 0 {
		parts = append(parts, "survivors rule out "+ratioString(s.Margin))
	}
	if s.Sample > 0 {
		parts = append(parts, fmt.Sprintf("sample of %d (seed %d)", s.Sample, s.Seed))
	}
	if s.Shard != "" {
		parts = append(parts, "shard "+s.Shard)
	}
	if s.ChangedSince != "" {
		parts = append(parts, "lines changed since "+s.ChangedSince)
	}
	return strings.Join(parts, ", ")
}

// funcName is "pkg.Function" with the package's last element.
func funcName(m *results.Mutant) string {
	p := pkgName(m.Package)
	if m.Function == "" {
		return p
	}
	return p + "." + m.Function
}

// pkgName guesses a package's name from its import path as go does for
// the default name: the last element, skipping a major-version suffix
// (github.com/Masterminds/semver/v3 -> semver).
func pkgName(importPath string) string {
	dir, last := path.Split(importPath)
	if len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" && last != "v0" && last != "v1" && dir != "" {
		return path.Base(strings.TrimSuffix(dir, "/"))
	}
	return last
}

// A table is a plain-text table; the first column is left-aligned, the
// others right-aligned.
type table struct {
	indent string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(t.indent)
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c + pad)
				continue
			}
			b.WriteString("  " + pad + c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
