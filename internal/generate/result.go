package generate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// ResultFile is the summary generate writes to Out/generate.
const ResultFile = "generate.json"

// Result is what perfmut generate did: the benchmarks kept, with the
// mutants each kills and misses, the functions skipped and why, the go
// builds the candidates paid, and per package the score before and after.
type Result struct {
	Module     string              `json:"module"`
	Targets    []*Target           `json:"targets"`
	Benchmarks []Benchmark         `json:"benchmarks"`
	Skipped    []Skipped           `json:"skipped,omitempty"`
	Builds     int                 `json:"builds"` // go vet and go test -c runs of the candidates
	Scores     []PackageScore      `json:"scores,omitempty"`
	Files      []string            `json:"files,omitempty"` // the generated files in the results directory
	Written    []string            `json:"written,omitempty"`
	Warnings   []string            `json:"warnings,omitempty"`
	Seconds    float64             `json:"seconds"`
	Status     map[string]string   `json:"-"` // mutant ID -> its status measured on the generated benchmarks
	killer     map[string]string   // mutant ID -> the first generated benchmark whose test killed it
	killers    map[string][]string // mutant ID -> every generated benchmark whose test rejected
	files      map[string]*pkgFile // package -> its generated file
}

// A Benchmark is a generated benchmark kept: it killed at least one
// mutant that was no-coverage, survived or undecided before.
type Benchmark struct {
	Name     string      `json:"name"`
	Package  string      `json:"package"`
	Function string      `json:"function"`
	File     string      `json:"file"` // the generated file in the results directory
	NsPerOp  float64     `json:"ns_per_op"`
	Kills    []MutantRef `json:"kills"`
	Misses   []MutantRef `json:"misses,omitempty"`
	Replay   int         `json:"replay,omitempty"` // calls replayed to build the receiver
}

// A PackageScore is a package's score at a level before and after the
// generated benchmarks' kills.
type PackageScore struct {
	Package string             `json:"package"` // "" for the whole module
	Level   string             `json:"level"`
	Before  results.LevelScore `json:"before"`
	After   results.LevelScore `json:"after"`
}

// collect reads the verification campaign's verdicts: the generated
// benchmarks whose tests rejected in each killed mutant's verdict (each
// of them kills it); candidates that killed none are dropped.
func (res *Result) collect(files []*pkgFile, rep *results.Report, ns map[string]float64, before map[string]score.Status) {
	res.killer, res.killers = map[string]string{}, map[string][]string{}
	res.Status = map[string]string{}
	if rep == nil {
		return
	}
	byID := map[string]*results.LevelResult{}
	for _, m := range rep.Mutants {
		for _, l := range []string{results.Opt, results.NoOpt} {
			if lr := m.Results[l]; lr != nil {
				byID[m.ID] = lr
				break
			}
		}
	}
	for id, lr := range byID {
		res.Status[id] = string(lr.Status)
		src := lr
		for hops := 0; src != nil && hops < 3 && (src.InferredFrom != "" || src.DuplicateOf != ""); hops++ {
			src = byID[src.InferredFrom+src.DuplicateOf]
		}
		if lr.Status != score.Killed || src == nil {
			continue
		}
		for _, t := range src.Benchmarks {
			if name := benchOf(t.Benchmark); t.Reject && !slices.Contains(res.killers[id], name) {
				res.killers[id] = append(res.killers[id], name)
			}
		}
		if ks := res.killers[id]; len(ks) > 0 {
			res.killer[id] = ks[0]
		}
	}
	for _, f := range files {
		f.cands = filter(f.cands, func(c *candidate) bool {
			b := Benchmark{Name: c.Name, Package: f.pkg.ImportPath, Function: c.Target.Function, NsPerOp: ns[c.Name], Replay: c.Replay}
			for _, m := range c.Target.Mutants {
				if res.killer[m.ID] == "" && res.stillTarget(m.ID) {
					b.Misses = append(b.Misses, m)
				}
			}
			for _, t := range res.Targets {
				for _, m := range t.Mutants {
					if slices.Contains(res.killers[m.ID], c.Name) {
						b.Kills = append(b.Kills, m)
					}
				}
			}
			if len(b.Kills) == 0 {
				res.Skipped = append(res.Skipped, Skipped{Package: b.Package, Function: b.Function,
					Reason: fmt.Sprintf("%s kills none of its %d mutants", c.Name, len(c.Target.Mutants))})
				return false
			}
			res.Benchmarks = append(res.Benchmarks, b)
			f.spec.docs[c.Name] = killLines(b)
			return true
		})
	}
}

// stillTarget reports whether the mutant id is still a target's after
// the verification campaign (not measured there, or no-coverage,
// survived or undecided): one its tests reject or that does not build is
// no miss.
func (res *Result) stillTarget(id string) bool {
	st, ok := res.Status[id]
	return !ok || targetStatus(score.Status(st))
}

// benchOf is the benchmark's function name in a report's benchmark name
// (package prefix, sub-benchmark and -CPU suffix removed).
func benchOf(name string) string {
	if i := strings.LastIndex(name, ".Benchmark"); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Split(name, "/")[0]
	if i := strings.LastIndex(name, "-"); i > 0 {
		name = name[:i]
	}
	return name
}

// killLines are the doc comment lines naming the mutants b kills and
// misses.
func killLines(b Benchmark) []string {
	lines := []string{"It kills these mutants no benchmark killed before:"}
	for _, m := range b.Kills {
		lines = append(lines, fmt.Sprintf("  - %s %s at %s:%d (was %s)", m.ID, m.Operator, m.File, m.Line, m.Before))
	}
	if len(b.Misses) > 0 {
		lines = append(lines, "It still misses:")
		for _, m := range b.Misses {
			lines = append(lines, fmt.Sprintf("  - %s %s at %s:%d", m.ID, m.Operator, m.File, m.Line))
		}
	}
	return lines
}

// writeFiles renders the files of the kept benchmarks into
// Out/generate/<package directory>/.
func (cfg *Config) writeFiles(files []*pkgFile, res *Result) error {
	res.files = map[string]*pkgFile{}
	for _, f := range files {
		if len(f.cands) == 0 {
			continue
		}
		if err := writeModFile(filepath.Join(cfg.Out, Dir)); err != nil {
			return err
		}
		f.spec.benches = f.cands
		src, err := renderFile(f.spec)
		if err != nil {
			return err
		}
		rel := mustRel(cfg.Program.Module.Dir, f.pkg.Dir)
		if rel == "." {
			rel = f.pkg.Name
		}
		out := filepath.Join(cfg.Out, Dir, rel, FileName)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, src, 0o644); err != nil {
			return err
		}
		res.Files = append(res.Files, out)
		f.out = out
		res.files[f.pkg.ImportPath] = f
		for i := range res.Benchmarks {
			if res.Benchmarks[i].Package == f.pkg.ImportPath {
				res.Benchmarks[i].File = out
			}
		}
	}
	return nil
}

// modFile makes the generated files a module of their own: the default
// results directory is inside the user's module, where go build, vet
// and test ./... would otherwise compile each generated file apart from
// its package and fail.
const modFile = `// The benchmarks perfmut generate wrote: not a module to build, but a
// module of its own so that ./... of the module around it leaves them out.
module perfmut-generated
`

// writeModFile writes modFile into dir as go.mod.
func writeModFile(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.mod"), []byte(modFile), 0o644)
}

// scores computes each target package's score, and the module's
// (Package ""), before and after the generated benchmarks' kills, from
// the campaign's report.
func (res *Result) scores(rep *results.Report, levels []string) {
	if rep == nil {
		return
	}
	pkgs := append(targetPackages(res.Targets), "")
	for _, pkg := range pkgs {
		var bef, aft []results.Mutant
		for _, m := range rep.Mutants {
			if pkg == "" || m.Package == pkg {
				bef = append(bef, m)
				aft = append(aft, res.after(m))
			}
		}
		b, a := results.LevelScores(bef, levels), results.LevelScores(aft, levels)
		for _, l := range levels {
			res.Scores = append(res.Scores, PackageScore{Package: pkg, Level: l, Before: b[l], After: a[l]})
		}
	}
}

// after is m with the results a generated benchmark kills made killed.
func (res *Result) after(m results.Mutant) results.Mutant {
	if res.killer[m.ID] == "" {
		return m
	}
	rs := map[string]*results.LevelResult{}
	for l, lr := range m.Results {
		c := *lr
		if targetStatus(c.Status) {
			c.Status = score.Killed
		}
		rs[l] = &c
	}
	m.Results = rs
	return m
}

// finish records the time and writes generate.json.
func (cfg *Config) finish(res *Result, start time.Time) error {
	res.Seconds = time.Since(start).Seconds()
	if err := os.MkdirAll(filepath.Join(cfg.Out, Dir), 0o755); err != nil {
		return err
	}
	return results.WriteJSON(filepath.Join(cfg.Out, Dir, ResultFile), res)
}
