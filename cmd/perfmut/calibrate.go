package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/runner"
	"github.com/perfmut/perfmut/score"
)

// Calibration trial kinds: the baseline against itself (an identical
// binary) and against a null mutant (a binary that differs, through an
// added function no benchmark runs, but does the same work).
const (
	trialSelf = "a/a-self"
	trialNull = "a/a-null"
)

// nullFile is the base name of the file a null mutant adds to a package.
const nullFile = "perfmut_calibrate_null.go"

func cmdCalibrate(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f campaignFlags
	f.register(fs, "")
	trials := fs.Int("trials", 40, "trials `K` of each kind (baseline vs itself, baseline vs null mutant) per level")
	kinds := fs.String("kinds", "both", "which comparisons: both, self (baseline vs itself) or null (baseline vs null mutants)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: perfmut calibrate [-trials K] [-kinds both|self|null] [-opt both|on|off] [run's statistics flags] [packages]")
		fmt.Fprintln(stderr, "\nMeasure the false-kill rate of perfmut run's measurement and kill rule on this machine with A/A")
		fmt.Fprintln(stderr, "runs: the baseline against itself and against null mutants (an added function that changes the")
		fmt.Fprintln(stderr, "binary's layout but not the work), K trials each at benchmarked sites. Prints the empirical")
		fmt.Fprintln(stderr, "false-kill rate with its exact 95% interval next to alpha, per optimization level, and warns")
		fmt.Fprintln(stderr, "when it exceeds alpha.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usageError(errHelp)
		}
		return usageError(err)
	}
	if *trials < 1 {
		return usageErrorf("bad -trials %d: want at least 1 (default 40)", *trials)
	}
	var kindList []string
	switch *kinds {
	case "both":
		kindList = []string{trialSelf, trialNull}
	case "self":
		kindList = []string{trialSelf}
	case "null":
		kindList = []string{trialNull}
	default:
		return usageErrorf("bad -kinds %q: want both, self or null", *kinds)
	}
	levels, rule, err := f.check()
	if err != nil {
		return err
	}
	if f.resume && f.out == "" {
		return usageErrorf("-resume needs -out DIR: the directory an interrupted calibrate -out DIR kept")
	}
	outDir := f.out
	if outDir == "" {
		tmp, err := os.MkdirTemp("", "perfmut-calibrate-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		outDir = tmp
	} else if err := checkOutDir(outDir); err != nil {
		return usageError(err)
	}

	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	prog, mutants, cfg, err := f.load.load(ctx, patterns)
	if err != nil {
		return err
	}
	if err := runner.CheckModuleDir(prog.Module.Dir); err != nil {
		return usageError(err)
	}
	// Trials only measure at sites a benchmark runs: keep those, when the
	// benchmarks' coverage can be had.
	var keep func(calibrationSite) bool
	dir := f.load.dir // the patterns are relative to -C
	if dir == "" {
		dir = "."
	}
	if cov, err := benchmarkCoverage(ctx, dir, prog.Module.Path, patterns, f.load.tagList()); err != nil {
		fmt.Fprintf(stderr, "perfmut calibrate: warning: no benchmark coverage (%v); trials go to every mutation site, and those no benchmark runs are not measured\n", err)
	} else {
		keep = func(s calibrationSite) bool { return cov.covers(s.File, s.Line, s.Column) }
	}
	// Candidate sites: each mutant's position and its first edit's (for a
	// loop mutant, the loop statement and the start of its body).
	candidates := append(slices.Clone(mutants), atFirstEdit(prog.Module.Dir, mutants)...)
	sites := calibrationSites(candidates, *trials, f.seed, keep)
	if len(sites) == 0 {
		return usageErrorf("no mutation sites in %s to calibrate at; give packages with code their benchmarks run", strings.Join(patterns, " "))
	}
	pkgs := map[string]*mutate.Package{}
	for _, p := range prog.Packages {
		pkgs[p.ImportPath] = p
	}
	var trialMutants []mutate.Mutant
	for _, k := range kindList {
		trialMutants = append(trialMutants, trialsOf(k, sites, pkgs)...)
	}
	c := f.campaign(levels, rule, cfg, patterns)
	c.Module, c.Packages, c.Mutants = prog.Module, prog.Packages, trialMutants
	c.Overlay = func(m mutate.Mutant) (map[string][]byte, error) { return trialOverlay(m, pkgs) }
	c.Out, c.Settings.Operators = outDir, kindList
	c.KeepEquivalent = true // the trials compile to the baseline's code on purpose
	c.Log, c.Progress = stderr, isTerminal(stderr)
	distinct := map[calibrationSite]bool{}
	for _, s := range sites {
		distinct[s] = true
	}
	fmt.Fprintf(stderr, "perfmut calibrate: %d trials (%s) at %d sites in %s\n", len(trialMutants), strings.Join(kindList, ", "), len(distinct), prog.Module.Path)
	rep, err := c.Run(ctx)
	if err != nil {
		if f.out == "" && ctx.Err() != nil {
			return errors.New("interrupted; the trials are discarded (run with -out DIR to keep them, then -resume to continue)")
		}
		return err
	}
	rows := tallyCalibration(rep, levels, kindList)
	writeCalibration(stdout, rep, rows, rule.Alpha)
	if f.out != "" {
		fmt.Fprintf(stdout, "\nTrial results are in %s (report.json, samples/).\n", f.out)
	}
	for _, r := range rows {
		if r.N > 0 {
			return nil
		}
	}
	return errors.New("no trial was measured: no benchmark runs the chosen sites in its timed loop; calibrate packages whose benchmarks exercise their code")
}

// A calibrationSite is a position where trials are placed: the sites of
// real mutants, so that the benchmarks that reach them are measured.
type calibrationSite struct {
	Package, File, Function string
	Line, Column            int
}

// calibrationSites picks k mutant positions, seeded, among those keep
// accepts (all when keep is nil or accepts none); positions of
// effect-simulation (Q3) operators come first, as they are at the start of
// loop bodies, where benchmarks spend their time. With fewer sites than k,
// sites repeat.
func calibrationSites(ms []mutate.Mutant, k int, seed int64, keep func(calibrationSite) bool) []calibrationSite {
	if keep != nil && !slices.ContainsFunc(ms, func(m mutate.Mutant) bool {
		return keep(calibrationSite{m.Package, m.File, m.Function, m.Line, m.Column})
	}) {
		keep = nil
	}
	seen := map[calibrationSite]bool{}
	var q3, rest []calibrationSite
	for _, m := range ms {
		s := calibrationSite{m.Package, m.File, m.Function, m.Line, m.Column}
		if seen[s] || keep != nil && !keep(s) {
			continue
		}
		seen[s] = true
		if m.Quadrant == mutate.Q3 {
			q3 = append(q3, s)
		} else {
			rest = append(rest, s)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	rng.Shuffle(len(q3), func(i, j int) { q3[i], q3[j] = q3[j], q3[i] })
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	all := append(q3, rest...)
	if len(all) == 0 {
		return nil
	}
	out := make([]calibrationSite, k)
	for i := range out {
		out[i] = all[i%len(all)]
	}
	return out
}

// atFirstEdit returns the mutants with their position moved to their first
// edit (read from the source): an effect-simulation mutant's position is
// its loop statement, but its edit is inside the loop body, the code the
// benchmark runs in its timed loop and where a trial should sit.
func atFirstEdit(root string, ms []mutate.Mutant) []mutate.Mutant {
	srcs := map[string][]byte{}
	out := make([]mutate.Mutant, len(ms))
	for i, m := range ms {
		out[i] = m
		if len(m.Edits) == 0 {
			continue
		}
		src, ok := srcs[m.File]
		if !ok {
			src, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
			srcs[m.File] = src
		}
		off := slices.MinFunc(m.Edits, func(a, b mutate.Edit) int { return a.Start - b.Start }).Start
		if off < 0 || off > len(src) {
			continue
		}
		out[i].Line, out[i].Column = mutate.LineCol(src, off)
	}
	return out
}

// trialsOf makes one trial mutant of kind per site.
func trialsOf(kind string, sites []calibrationSite, pkgs map[string]*mutate.Package) []mutate.Mutant {
	var out []mutate.Mutant
	for i, s := range sites {
		m := mutate.Mutant{
			Operator: kind, Package: s.Package, File: s.File, Line: s.Line, Column: s.Column, Function: s.Function,
		}
		switch kind {
		case trialSelf:
			m.ID = fmt.Sprintf("aa-self-%03d", i+1)
			m.Description = "baseline against itself (an identical binary)"
		case trialNull:
			m.ID = fmt.Sprintf("aa-null-%03d", i+1)
			m.Description = fmt.Sprintf("null mutant: an unused function of %d statements added to %s", i%16+1, s.Package)
			if p := pkgs[s.Package]; p != nil {
				m.HelperFile = nullFile
				m.Helper = nullHelper(p.Name, i)
			}
		}
		out = append(out, m)
	}
	return out
}

// nullHelper is the file a null mutant adds: a function of a size that
// varies with i, kept in the binary by an init function (so the linker
// cannot drop it and the layout of the code after it shifts) but never
// called while a benchmark runs.
func nullHelper(pkgName string, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by perfmut calibrate. DO NOT EDIT.\n\npackage %s\n\n", pkgName)
	b.WriteString("var perfmut_nullKeep func(int) int\n\nfunc init() { perfmut_nullKeep = perfmut_null }\n\n")
	b.WriteString("func perfmut_null(n int) int {\n\ts := n\n")
	for j := 0; j <= i%16; j++ {
		fmt.Fprintf(&b, "\ts = s*%d + %d\n", 2*j+3, i+j)
	}
	b.WriteString("\treturn s\n}\n")
	return b.String()
}

// trialOverlay is the overlay of a trial: nothing for the baseline against
// itself, the null file for a null mutant.
func trialOverlay(m mutate.Mutant, pkgs map[string]*mutate.Package) (map[string][]byte, error) {
	if m.Helper == "" {
		return map[string][]byte{}, nil
	}
	p := pkgs[m.Package]
	if p == nil {
		return nil, fmt.Errorf("trial %s: package %s not loaded", m.ID, m.Package)
	}
	path := filepath.Join(p.Dir, m.HelperFile)
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("trial %s: %s already exists in the module", m.ID, path)
	}
	return map[string][]byte{path: []byte(m.Helper)}, nil
}

// trialRatios returns, per level, each measured trial's largest time
// median ratio (the metrics a minimum effect applies to), for
// score.SuggestMinEffect.
func trialRatios(rep *report.Report, levels []string) map[string][]float64 {
	out := map[string][]float64{}
	for _, l := range levels {
		for _, m := range rep.Mutants {
			r := m.Results[l]
			if r == nil || (r.Status != score.Killed && r.Status != score.Survived) {
				continue
			}
			best := 0.0
			for _, t := range r.Benchmarks {
				if !score.IsCount(t.Metric) {
					best = max(best, t.Ratio)
				}
			}
			if best > 0 {
				out[l] = append(out[l], best)
			}
		}
	}
	return out
}

// A calibrationRow is the outcome of one kind of trial at one level.
type calibrationRow struct {
	Level, Kind string
	Killed, N   int            // false kills among measured trials (killed + survived)
	Unmeasured  map[string]int // trials not measured, by status (no-coverage, compile-error, ...)
	Lo, Hi      float64
}

func (r calibrationRow) Rate() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.Killed) / float64(r.N)
}

// tallyCalibration counts the false kills per level and kind.
func tallyCalibration(rep *report.Report, levels, kinds []string) []calibrationRow {
	var rows []calibrationRow
	for _, l := range levels {
		for _, k := range kinds {
			row := calibrationRow{Level: l, Kind: k, Unmeasured: map[string]int{}}
			for _, m := range rep.Mutants {
				r := m.Results[l]
				if m.Operator != k || r == nil {
					continue
				}
				switch r.Status {
				case score.Killed:
					row.Killed++
					row.N++
				case score.Survived:
					row.N++
				default:
					row.Unmeasured[string(r.Status)]++
				}
			}
			row.Lo, row.Hi = clopperPearson(row.Killed, row.N, 0.95)
			rows = append(rows, row)
		}
	}
	return rows
}

// levelsOf returns the rows' levels in order, once each.
func levelsOf(rows []calibrationRow) []string {
	var ls []string
	for _, r := range rows {
		if !slices.Contains(ls, r.Level) {
			ls = append(ls, r.Level)
		}
	}
	return ls
}

// clopperPearson is the exact (Clopper-Pearson) confidence interval of a
// binomial proportion k/n at the given confidence.
func clopperPearson(k, n int, conf float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	a := (1 - conf) / 2
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(a)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - a)
	}
	return lo, hi
}

// writeCalibration prints the table and the warnings: a rate whose whole
// interval lies above alpha says the machine is too noisy for the
// settings; a rate above alpha whose interval still includes it asks for
// more trials.
func writeCalibration(w io.Writer, rep *report.Report, rows []calibrationRow, alpha float64) {
	fmt.Fprintf(w, "A/A calibration of %s: %s\n", rep.Module, report.SettingsLine(rep))
	fmt.Fprintln(w)
	names := map[string]string{trialSelf: "baseline vs itself", trialNull: "baseline vs null mutant"}
	fmt.Fprintf(w, "%-6s  %-23s  %6s  %11s  %6s  %-17s  %5s\n", "level", "comparison", "trials", "false kills", "rate", "95% interval", "alpha")
	var significant, above []string
	nullSignificant := false
	for _, r := range rows {
		verdict := "ok"
		switch {
		case r.N == 0:
			verdict = "no trial measured"
		case r.Lo > alpha:
			verdict = "ABOVE alpha"
		case r.Rate() > alpha:
			verdict = "above alpha, not significantly"
		}
		interval := fmt.Sprintf("[%.1f%%, %.1f%%]", 100*r.Lo, 100*r.Hi)
		fmt.Fprintf(w, "%-6s  %-23s  %6d  %11d  %5.1f%%  %-17s  %4.1f%%  %s", r.Level, names[r.Kind], r.N, r.Killed, 100*r.Rate(), interval, 100*alpha, verdict)
		if len(r.Unmeasured) > 0 {
			var parts []string
			for _, st := range score.Statuses {
				if n := r.Unmeasured[string(st)]; n > 0 {
					parts = append(parts, fmt.Sprintf("%d %s", n, st))
				}
			}
			fmt.Fprintf(w, " (not measured: %s)", strings.Join(parts, ", "))
		}
		fmt.Fprintln(w)
		if r.N == 0 || r.Rate() <= alpha {
			continue
		}
		line := fmt.Sprintf("%s, %s: %d of %d trials killed (%.1f%%, 95%% interval %.1f%%-%.1f%%), alpha %g",
			r.Level, names[r.Kind], r.Killed, r.N, 100*r.Rate(), 100*r.Lo, 100*r.Hi, alpha)
		if r.Lo > alpha {
			significant = append(significant, line)
			nullSignificant = nullSignificant || r.Kind == trialNull
		} else {
			above = append(above, line)
		}
	}
	ratios := trialRatios(rep, levelsOf(rows))
	for _, l := range levelsOf(rows) {
		if m := score.SuggestMinEffect(ratios[l], alpha); !math.IsNaN(m) {
			fmt.Fprintf(w, "\nSuggested minimum effect at %s: -min-effect %.3f, the %g%% quantile of the largest time median ratio of %d measured trials (layout and noise alone); the default is %g.\n",
				l, m, 100*(1-alpha), len(ratios[l]), score.DefaultMinEffect)
		}
	}
	if len(significant) == 0 && len(above) == 0 {
		fmt.Fprintln(w, "\nThe false-kill rate is within alpha: kills on this machine can be trusted at these settings.")
		return
	}
	if len(significant) > 0 {
		fmt.Fprintln(w, "\nwarning: mutants that change nothing are killed more often than alpha allows:")
		for _, s := range significant {
			fmt.Fprintf(w, "  %s\n", s)
		}
		fmt.Fprintln(w, "This machine is too noisy for these settings. Try:")
	}
	if len(above) > 0 {
		fmt.Fprintln(w, "\nwarning: the false-kill rate is above alpha, but its interval still includes alpha:")
		for _, s := range above {
			fmt.Fprintf(w, "  %s\n", s)
		}
		if len(significant) == 0 {
			fmt.Fprintln(w, "Run more -trials (e.g. -trials 100) to tell noise from chance. If it stays above alpha, try:")
		}
	}
	fmt.Fprintln(w, "  - a longer -sample-time (e.g. 100ms), so each sample averages more iterations;")
	if nullSignificant {
		fmt.Fprintln(w, "  - -min-effect 1.02 (or more), so code-layout shifts of a few percent do not kill;")
	} else {
		fmt.Fprintln(w, "  - -min-effect 1.02, so tiny shifts do not kill;")
	}
	fmt.Fprintln(w, "  - fewer background jobs: stop other builds and tests, pin the CPU frequency, avoid shared CI runners;")
	fmt.Fprintln(w, "then run perfmut calibrate again with the same flags.")
}

// coverage holds the blocks of the module that benchmarks run in their
// timed loops, by module-relative file.
type coverage map[string][]coverBlock

type coverBlock struct {
	l0, c0, l1, c1 int
}

// covers reports whether a block contains line:col of file (blocks are
// [start, end), as the runner reads them).
func (c coverage) covers(file string, line, col int) bool {
	for _, b := range c[file] {
		if (line > b.l0 || line == b.l0 && col >= b.c0) && (line < b.l1 || line == b.l1 && col < b.c1) {
			return true
		}
	}
	return false
}

// benchmarkCoverage finds the blocks the benchmarks of patterns (relative
// to dir) run in their timed loops, the way perfmut run selects
// benchmarks: count-mode coverage of the whole module at -benchtime 2x and
// 3x; blocks that ran more often at 3x are in a timed loop, blocks that
// ran as often are setup.
func benchmarkCoverage(ctx context.Context, dir, modPath string, patterns, tags []string) (coverage, error) {
	var counts [2]map[string]map[coverBlock]int
	for i, bt := range []string{"2x", "3x"} {
		c, err := coverProfile(ctx, dir, modPath, patterns, tags, bt)
		if err != nil {
			return nil, err
		}
		counts[i] = c
	}
	cov := coverage{}
	for file, blocks := range counts[1] {
		for b, n := range blocks {
			if n > counts[0][file][b] {
				cov[file] = append(cov[file], b)
			}
		}
	}
	return cov, nil
}

// coverProfile runs the benchmarks once at benchtime with count-mode
// coverage of the module and returns the block counts.
func coverProfile(ctx context.Context, dir, modPath string, patterns, tags []string, benchtime string) (map[string]map[coverBlock]int, error) {
	tmp, err := os.MkdirTemp("", "perfmut-calibrate-cover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	profile := filepath.Join(tmp, "cover.out")
	args := []string{"test", "-run", "^$", "-bench", ".", "-benchtime", benchtime, "-count", "1",
		"-covermode", "count", "-coverpkg", modPath + "/...", "-coverprofile", profile}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, patterns...)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // like go test's own -timeout
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// On cancellation kill the whole process group (go and the test
	// binaries it started), so that nothing is left behind.
	runner.GroupCmd(cmd)
	cmd.WaitDelay = 5 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -bench with coverage: %v: %s", err, lastLine(out))
	}
	data, err := os.ReadFile(profile)
	if err != nil {
		return nil, err
	}
	return parseCoverProfile(data, modPath), nil
}

// parseCoverProfile sums the counts of a cover profile's blocks
// ("pkg/file.go:l0.c0,l1.c1 stmts count" lines) whose files are in the
// module, keyed by module-relative path.
func parseCoverProfile(data []byte, modPath string) map[string]map[coverBlock]int {
	out := map[string]map[coverBlock]int{}
	for _, line := range strings.Split(string(data), "\n") {
		i := strings.LastIndex(line, ":")
		if i < 0 || strings.HasPrefix(line, "mode:") {
			continue
		}
		var b coverBlock
		var stmts, count int
		if _, err := fmt.Sscanf(line[i+1:], "%d.%d,%d.%d %d %d", &b.l0, &b.c0, &b.l1, &b.c1, &stmts, &count); err != nil {
			continue
		}
		rel, ok := strings.CutPrefix(line[:i], modPath+"/")
		if !ok {
			continue
		}
		if out[rel] == nil {
			out[rel] = map[coverBlock]int{}
		}
		out[rel][b] += count
	}
	return out
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
