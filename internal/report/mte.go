package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// mteSchemaVersion is the mutation-testing-elements schema version written.
const mteSchemaVersion = "2"

// mutation-testing-elements report, the subset perfmut writes.
type mteReport struct {
	Schema        string                 `json:"$schema,omitempty"`
	SchemaVersion string                 `json:"schemaVersion"`
	Thresholds    mteThresholds          `json:"thresholds"`
	ProjectRoot   string                 `json:"projectRoot,omitempty"`
	Files         map[string]*mteFile    `json:"files"`
	TestFiles     map[string]*mteTestSet `json:"testFiles,omitempty"`
	Framework     mteFramework           `json:"framework"`
	Config        map[string]any         `json:"config,omitempty"`
}

type mteThresholds struct {
	High int `json:"high"`
	Low  int `json:"low"`
}

type mteFramework struct {
	Name     string      `json:"name"`
	Branding mteBranding `json:"branding"`
}

type mteBranding struct {
	HomepageURL string `json:"homepageUrl"`
}

type mteFile struct {
	Language string      `json:"language"`
	Source   string      `json:"source"`
	Mutants  []mteMutant `json:"mutants"`
}

type mteMutant struct {
	ID           string      `json:"id"`
	MutatorName  string      `json:"mutatorName"`
	Description  string      `json:"description,omitempty"`
	Replacement  string      `json:"replacement,omitempty"`
	Location     mteLocation `json:"location"`
	Status       string      `json:"status"`
	StatusReason string      `json:"statusReason,omitempty"`
	CoveredBy    []string    `json:"coveredBy,omitempty"`
	KilledBy     []string    `json:"killedBy,omitempty"`
	Duration     float64     `json:"duration,omitempty"`
}

type mteLocation struct {
	Start mtePos `json:"start"`
	End   mtePos `json:"end"`
}

type mtePos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type mteTestSet struct {
	Tests []mteTest `json:"tests"`
}

type mteTest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// mteStatus maps a perfmut status to a mutation-testing-elements one.
func mteStatus(s score.Status) string {
	switch s {
	case score.Killed:
		return "Killed"
	case score.Survived:
		return "Survived"
	case score.NoCoverage:
		return "NoCoverage"
	case score.Timeout:
		return "Timeout"
	case score.CompileError:
		return "CompileError"
	case score.FNE, score.Crash:
		return "RuntimeError"
	case score.Equivalent, score.Undecided:
		// Outside the score, as perfmut counts them; statusReason says which.
		return "Ignored"
	}
	return "Pending"
}

// writeMTE writes mutation.json in the
// mutation-testing-elements schema (read by the Stryker dashboard and the
// mutation-testing-elements HTML viewer). Each mutant appears once per
// optimization level (id "ID@level", description prefixed "[level]"), with
// the benchmarks as tests: coveredBy lists those tried, killedBy those that
// rejected. Sources are read from opts.SourceDir, else the report's Dir;
// a file that cannot be read gets an empty source.
func writeMTE(w io.Writer, rep *results.Report, opts Options) error {
	lv := levels(rep, opts)
	root := opts.SourceDir
	if root == "" {
		root = rep.Dir
	}
	out := mteReport{
		Schema:        "https://git.io/mutation-testing-schema",
		SchemaVersion: mteSchemaVersion,
		Thresholds:    mteThresholds{High: 80, Low: 60},
		ProjectRoot:   root,
		Files:         map[string]*mteFile{},
		TestFiles:     map[string]*mteTestSet{},
		Framework:     mteFramework{Name: "perfmut", Branding: mteBranding{HomepageURL: "https://github.com/perfmut/perfmut"}},
		Config: map[string]any{
			"module":   rep.Module,
			"go":       rep.Go,
			"settings": rep.Settings,
			"score":    rep.Score, // per level, with the undecided count beside it
		},
	}
	sources := map[string][]string{} // file -> lines
	tests := map[string]map[string]bool{}
	ms := make([]*results.Mutant, len(rep.Mutants))
	for i := range rep.Mutants {
		ms[i] = &rep.Mutants[i]
	}
	slices.SortStableFunc(ms, comparePos)
	for _, m := range ms {
		f := out.Files[m.File]
		if f == nil {
			f = &mteFile{Language: "go", Mutants: []mteMutant{}}
			if root != "" {
				if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File))); err == nil {
					f.Source = string(data)
					sources[m.File] = strings.Split(f.Source, "\n")
				}
			}
			out.Files[m.File] = f
		}
		start := mtePos{Line: max(m.Line, 1), Column: max(m.Column, 1)}
		end := mtePos{Line: start.Line, Column: start.Column + 1}
		if lines := sources[m.File]; start.Line <= len(lines) {
			end.Column = max(len(lines[start.Line-1])+1, end.Column)
		}
		for _, l := range lv {
			r := m.Results[l]
			if r == nil {
				continue
			}
			f.Mutants = append(f.Mutants, mteMutantAt(m, l, r, mteLocation{Start: start, End: end}, tests))
		}
	}
	for pkg, names := range tests {
		set := &mteTestSet{}
		for _, n := range slices.Sorted(maps.Keys(names)) {
			set.Tests = append(set.Tests, mteTest{ID: pkg + "." + n, Name: n})
		}
		out.TestFiles[pkg] = set
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encoding mutation.json: %w", err)
	}
	return nil
}

// mteMutantAt is m's result r at level l as a mutation-testing-elements
// mutant at loc; it records the benchmarks that judged it in tests
// (package -> benchmark names).
func mteMutantAt(m *results.Mutant, l string, r *results.LevelResult, loc mteLocation, tests map[string]map[string]bool) mteMutant {
	mm := mteMutant{
		ID:          m.ID + "@" + l,
		MutatorName: m.Operator,
		Description: "[" + l + "] " + m.Description,
		Location:    loc,
		Status:      mteStatus(r.Status),
		Duration:    r.Seconds * 1000,
	}
	if rep := replacement(m.Diff); rep != "" {
		mm.Replacement = rep
	}
	switch r.Status {
	case score.Killed, score.Survived:
		mm.StatusReason = testsLine(r.Benchmarks)
	case score.Undecided, score.Equivalent: // Ignored: say which
		mm.StatusReason = string(r.Status) + ": " + strings.TrimPrefix(r.Reason, string(r.Status)+": ")
	default:
		mm.StatusReason = r.Reason
	}
	for _, t := range r.Benchmarks {
		id := m.Package + "." + t.Benchmark
		if tests[m.Package] == nil {
			tests[m.Package] = map[string]bool{}
		}
		tests[m.Package][t.Benchmark] = true
		if !slices.Contains(mm.CoveredBy, id) {
			mm.CoveredBy = append(mm.CoveredBy, id)
		}
		if t.Reject && !slices.Contains(mm.KilledBy, id) {
			mm.KilledBy = append(mm.KilledBy, id)
		}
	}
	return mm
}

// replacement is the added lines of a unified diff, trimmed and joined:
// what the mutant puts in place of the original.
func replacement(diff string) string {
	var added []string
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added = append(added, strings.TrimSpace(l[1:]))
		}
	}
	return strings.Join(added, "\n")
}
