package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// maxPlottedMutants caps how many mutants get box plots in report.html
// (survivors first), so that huge campaigns still give a page a browser
// opens quickly; the rest show their numbers only.
const maxPlottedMutants = 50

// maxDetailedMutants caps how many mutants get their tables, diff and
// benchstat commands in report.html (survivors first); the rest get one
// line per level, so that a campaign of thousands of mutants stays a page
// of a few megabytes.
const maxDetailedMutants = 300

// htmlReadyMarker is set by report.html's script as
// <body data-perfmut-ready="ok"> once the page has run without errors.
const htmlReadyMarker = `data-perfmut-ready="ok"`

//go:embed html.tmpl
var htmlTemplate string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"pct": pct, "ratio": ratioString, "p": pString,
	"interval":   func(lo, hi float64) string { return ratioPair(lo, hi, "", " – ", "") },
	"width":      func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"maxPlotted": func() int { return maxPlottedMutants },
}).Parse(htmlTemplate))

type htmlPage struct {
	Module, Go, Settings, Span string
	Total                      int
	Levels                     []htmlLevel
	Statuses                   []htmlStatusRow
	Operators                  []htmlOpRow
	ScoreNote                  string
	Mutants                    []htmlMutant
	Brief                      []htmlMutant // past maxDetailedMutants: a table row each
	Unplotted                  int
	LevelNames                 []string
	Sensitivity                []results.Sensitivity
	Noise                      []string // the header's noise lines
	NoiseBenches               []htmlNoise
	Funcs                      htmlFuncMap
}

// htmlNoise is one benchmark's baseline spread, formatted.
type htmlNoise struct {
	Name, Level, Metric, Median, CV, MaxMin, Detectable string
	N                                                   int
	TooNoisy                                            bool
}

// htmlFuncMap is the page's sensitivity by function and the notes on the
// changed functions.
type htmlFuncMap struct {
	Rows     []funcRow
	Legend   string
	Skipped  []string
	Plot     template.HTML
	Changed  []results.FunctionNote
	Since    string
	WarnRule string
}

type htmlLevel struct {
	Name string
	results.LevelScore
	CoveredPct string // killed among covered, "" for 0 of 0
	Chart      template.HTML
}

type htmlStatusRow struct {
	Status score.Status
	Counts []int
}

type htmlOpRow struct {
	Operator, Quadrant string
	Cells              []htmlOpCell
}

type htmlOpCell struct {
	Killed, Valid int
	Score         float64
}

type htmlMutant struct {
	*results.Mutant
	Pos      string
	Group    string // survived, undecided, no-coverage, killed, excluded
	Statuses string // space-separated statuses at all levels, for the filter
	Open     bool
	Brief    bool // past maxDetailedMutants: a table row only
	Levels   []htmlMutantLevel
	Diff     []diffLine
}

type htmlMutantLevel struct {
	Name     string
	Result   *results.LevelResult
	Plots    []template.HTML
	Constant []string    // sample sets with one value throughout, said in words instead of a plot
	Commands []string    // benchstat on the samples taken
	Check    string      // perfmut reproduce, for survivors and undecided mutants
	Why      explanation // why a survivor survived (explain), zero otherwise
	Metric   string      // the metric the verdict rests on and why (metricText)
}

type diffLine struct {
	Class, Text string
}

// writeHTML writes report.html: one self-contained page (inline CSS, SVG and
// script, no network) with the scores, score bars per operator and level at
// each alpha (as the SlowCoach paper's Fig. 4), and per mutant its box
// plots of baseline vs mutant samples per benchmark, its tests, its
// benchstat commands and its diff.
func writeHTML(w io.Writer, rep *results.Report, opts Options) error {
	lv := levels(rep, opts)
	page := htmlPage{
		Module: orUnknown(rep.Module), Go: rep.Go, Settings: settingsLine(rep), Span: runSpan(rep),
		Total: len(rep.Mutants), LevelNames: lv, Sensitivity: rep.Sensitivity,
	}
	if err := htmlSummary(&page, rep, lv); err != nil {
		return err
	}
	if err := htmlNoiseAndMap(&page, rep); err != nil {
		return err
	}

	order := htmlOrder(rep, lv)
	// Open the first few survivors; with none, the first killed mutant, so
	// the page shows what a measurement looks like.
	firstKilled := slices.IndexFunc(order, func(m orderedMutant) bool { return m.Group == "killed" })
	anySurvivor := len(order) > 0 && order[0].Group == "survived"
	for i, m := range order {
		open := m.Group == "survived" && i < 3 || !anySurvivor && i == firstKilled
		hm := htmlMutant{Mutant: m.M, Pos: position(m.M), Group: m.Group, Open: open, Brief: i >= maxDetailedMutants}
		var sts []string
		counted := false
		for _, l := range lv {
			r := m.M.Results[l]
			if r == nil {
				if hm.Brief { // keep the table's columns aligned
					hm.Levels = append(hm.Levels, htmlMutantLevel{Name: l, Result: &results.LevelResult{}})
				}
				continue
			}
			sts = append(sts, string(r.Status))
			ml := htmlMutantLevel{Name: l, Result: r}
			if hm.Brief {
				hm.Levels = append(hm.Levels, ml)
				continue
			}
			ml.Commands = benchstatCommands(r, opts.Dir)
			if r.Status == score.Survived || r.Status == score.Undecided {
				ml.Check = reproduceCommand(rep, m.M, opts.Dir)
			}
			ml.Why, ml.Metric = explain(rep, m.M, l), metricText(rep, r)
			if i < maxPlottedMutants {
				for _, s := range r.Samples {
					if v, ok := constantSamples(s); ok {
						ml.Constant = append(ml.Constant, fmt.Sprintf("%s %s: %g in all %d baseline and %d mutant samples", s.Benchmark, s.Metric, v, len(s.Baseline), len(s.Mutant)))
						continue
					}
					svg, err := boxPlot(s)
					if err != nil {
						return fmt.Errorf("mutant %s: %w", m.M.ID, err)
					}
					ml.Plots = append(ml.Plots, template.HTML(svg))
				}
			} else if len(r.Samples) > 0 && !counted {
				page.Unplotted++
				counted = true
			}
			hm.Levels = append(hm.Levels, ml)
		}
		hm.Statuses = strings.Join(sts, " ")
		if hm.Brief {
			page.Brief = append(page.Brief, hm)
			continue
		}
		hm.Diff = diffLines(m.M.Diff)
		page.Mutants = append(page.Mutants, hm)
	}
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, page); err != nil {
		return fmt.Errorf("rendering report.html: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// htmlSummary fills in the page's score per level (with its chart), its
// status counts and its table by operator.
func htmlSummary(page *htmlPage, rep *results.Report, lv []string) error {
	for _, l := range lv {
		hl := htmlLevel{Name: l, LevelScore: levelScore(rep, l)}
		if c := coveredPct(rep, l); c != "-" {
			hl.CoveredPct = c
		}
		ops, valid, alphas, scores, note := operatorScoresByAlpha(rep, l)
		page.ScoreNote = note
		if len(ops) > 0 {
			labels := make([]string, len(ops))
			for i, op := range ops {
				labels[i] = fmt.Sprintf("%s (%d)", op, valid[i])
			}
			svg, err := scoreBars(l, labels, alphas, scores)
			if err != nil {
				return err
			}
			hl.Chart = template.HTML(svg)
		}
		page.Levels = append(page.Levels, hl)
	}
	counts := map[string]map[score.Status]int{}
	for _, l := range lv {
		counts[l] = statusCounts(rep, l)
	}
	for _, s := range score.Statuses {
		row := htmlStatusRow{Status: s}
		for _, l := range lv {
			row.Counts = append(row.Counts, counts[l][s])
		}
		page.Statuses = append(page.Statuses, row)
	}
	ops, rows := operatorScores(rep, lv)
	for _, op := range ops {
		r := htmlOpRow{Operator: op, Quadrant: rows[op][lv[0]].Quadrant}
		for _, l := range lv {
			c := rows[op][l]
			cell := htmlOpCell{Killed: c.Killed, Valid: c.Valid, Score: c.Score}
			r.Cells = append(r.Cells, cell)
		}
		page.Operators = append(page.Operators, r)
	}
	return nil
}

type orderedMutant struct {
	M     *results.Mutant
	Group string
}

// htmlOrder lists every mutant: covered survivors (ranked), undecided
// ones by position, no-coverage
// ones by function, killed ones, then the excluded (compile-error, fne,
// timeout, crash), each group by position.
func htmlOrder(rep *results.Report, lv []string) []orderedMutant {
	covered, uncovered := findings(rep, lv)
	var out []orderedMutant
	seen := map[*results.Mutant]bool{}
	for _, f := range covered {
		out = append(out, orderedMutant{f.M, "survived"})
		seen[f.M] = true
	}
	for _, f := range undecidedFindings(rep, lv) {
		if !seen[f.M] {
			out = append(out, orderedMutant{f.M, "undecided"})
			seen[f.M] = true
		}
	}
	for _, g := range uncovered {
		for _, f := range g {
			if seen[f.M] {
				continue
			}
			out = append(out, orderedMutant{f.M, "no-coverage"})
			seen[f.M] = true
		}
	}
	var killed, excluded []*results.Mutant
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		if seen[m] {
			continue
		}
		if m.AnyStatus(lv, score.Killed) {
			killed = append(killed, m)
		} else {
			excluded = append(excluded, m)
		}
	}
	slices.SortStableFunc(killed, comparePos)
	slices.SortStableFunc(excluded, comparePos)
	for _, m := range killed {
		out = append(out, orderedMutant{m, "killed"})
	}
	for _, m := range excluded {
		out = append(out, orderedMutant{m, "excluded"})
	}
	return out
}

// operatorScoresByAlpha returns the per-operator scores (in %) at level
// for each alpha: from the report's summary when it has operator rows,
// otherwise from the statuses at the run's alpha only (note says so).
// Operators without valid mutants are left out; valid[i] is the number of
// valid mutants of ops[i].
func operatorScoresByAlpha(rep *results.Report, level string) (ops []string, valid []int, alphas []float64, scores map[float64][]float64, note string) {
	scores = map[float64][]float64{}
	if s := rep.Summary; s != nil {
		type key struct {
			op    string
			alpha float64
		}
		val := map[key]score.Row{}
		for _, r := range s.Rows {
			if r.Dimension == "operator" && r.Level == level {
				val[key{r.Key, r.Alpha}] = r
				if !slices.Contains(ops, r.Key) {
					ops = append(ops, r.Key)
				}
				if !slices.Contains(alphas, r.Alpha) {
					alphas = append(alphas, r.Alpha)
				}
			}
		}
		if len(ops) > 0 {
			slices.Sort(ops)
			slices.Sort(alphas)
			ops = slices.DeleteFunc(ops, func(op string) bool {
				for _, a := range alphas {
					if val[key{op, a}].Valid > 0 {
						return false
					}
				}
				return true
			})
			for _, op := range ops {
				n := 0
				for _, a := range alphas {
					n = max(n, val[key{op, a}].Valid)
				}
				valid = append(valid, n)
			}
			for _, a := range alphas {
				for _, op := range ops {
					scores[a] = append(scores[a], 100*val[key{op, a}].Score)
				}
			}
			return ops, valid, alphas, scores, ""
		}
	}
	all, rows := operatorScores(rep, []string{level})
	a := rep.Settings.Alpha
	for _, op := range all {
		r := rows[op][level]
		if r.Valid == 0 {
			continue
		}
		ops = append(ops, op)
		valid = append(valid, r.Valid)
		scores[a] = append(scores[a], 100*r.Score)
	}
	return ops, valid, []float64{a}, scores, "The report has no score summary, so the bars show the run's alpha only."
}

// diffLines classifies a unified diff's lines for colouring.
func diffLines(diff string) []diffLine {
	if diff == "" {
		return nil
	}
	var out []diffLine
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		c := "ctx"
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			c = "file"
		case strings.HasPrefix(l, "@@"):
			c = "hunk"
		case strings.HasPrefix(l, "+"):
			c = "add"
		case strings.HasPrefix(l, "-"):
			c = "del"
		}
		out = append(out, diffLine{c, l})
	}
	return out
}

// constantSamples reports whether every baseline and mutant sample of s
// has the same value (e.g. allocs/op of a mutant that allocates nothing).
func constantSamples(s results.SampleSet) (float64, bool) {
	if len(s.Baseline) == 0 || len(s.Mutant) == 0 {
		return 0, false
	}
	v := s.Baseline[0]
	for _, x := range append(slices.Clone(s.Baseline), s.Mutant...) {
		if x != v {
			return 0, false
		}
	}
	return v, true
}
