package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/behave"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
)

// behaviourKey is a benchmark's key in the behaviours of attributeAll.
func behaviourKey(pkg, name string) string { return pkg + "\x00" + name }

// features reduces each side's profiled rounds to behaviour features.
func features(p *profiled, key attrib.Keyer) ([2][]map[string]float64, error) {
	var out [2][]map[string]float64
	for side := range out {
		for i := range p.cpu[side] {
			cpu, err := attrib.Charge(p.cpu[side][i], "cpu", key)
			if err != nil {
				return out, err
			}
			alloc, err := attrib.Charge(p.mem[side][i], "alloc_space", key)
			if err != nil {
				return out, err
			}
			out[side] = append(out[side], behave.Features(cpu, alloc))
		}
	}
	return out, nil
}

// versionID tells versions apart in the behaviour model: the commit, and
// for the working tree its uncommitted edits too (never OLD's).
func versionID(s results.CompareSide) string {
	if s.Rev == "WORKTREE" {
		return s.Commit + " WORKTREE"
	}
	return s.Commit
}

// behaviourEntries are the history entries of both sides' behaviours.
func behaviourEntries(rep *results.Comparison, behaviours map[string][2][]map[string]float64, base results.HistoryEntry) []results.HistoryEntry {
	var out []results.HistoryEntry
	for _, b := range rep.Benchmarks {
		rounds, ok := behaviours[behaviourKey(b.Package, b.Name)]
		if !ok {
			continue
		}
		for side, s := range []results.CompareSide{rep.Old, rep.New} {
			e := base
			e.Commit, e.Rev, e.Package, e.Benchmark, e.Metric = s.Commit, s.Rev, b.Package, b.Name, results.BehaviourMetric
			e.Iterations, e.Rounds = 0, rounds[side]
			out = append(out, e)
		}
	}
	return out
}

// judgeBehaviours learns each profiled benchmark's model from past (the
// store's entries) and this comparison's OLD, and says whether NEW
// matches none of OLD's clusters (CompareBenchmark.Behaviour, and a
// warning when it does not), at alpha shared over the benchmarks judged.
// machine identifies this machine as the store does.
func judgeBehaviours(rep *results.Comparison, past []results.HistoryEntry, behaviours map[string][2][]map[string]float64, machine string, alpha float64) {
	alpha /= float64(max(len(behaviours), 1))
	old := versionID(rep.Old)
	for i := range rep.Benchmarks {
		b := &rep.Benchmarks[i]
		rounds, ok := behaviours[behaviourKey(b.Package, b.Name)]
		if !ok {
			continue
		}
		var learn []behave.Entry
		for _, e := range past {
			if e.Metric == results.BehaviourMetric && e.Module == rep.Module && e.Machine == machine && e.Package == b.Package && e.Benchmark == b.Name {
				learn = append(learn, behave.Entry{Commit: versionID(results.CompareSide{Rev: e.Rev, Commit: e.Commit}), Rounds: e.Rounds})
			}
		}
		learn = append(learn, behave.Entry{Commit: old, Rounds: rounds[0]})
		learn = learn[max(0, len(learn)-historyWindow):]
		cs := behave.Learn(learn, alpha)
		bh := &results.Behaviour{Entries: len(learn), Clusters: len(cs)}
		bh.Diffs, bh.Changed = behave.Judge(cs, old, rounds[0], rounds[1], alpha)
		for _, c := range cs {
			if slices.Contains(c.Commits, old) {
				bh.OldClusters++
			}
		}
		if bh.Changed {
			bh.Summary = behaviourSummary(b.Name, bh)
			rep.Warnings = append(rep.Warnings, bh.Summary)
		}
		b.Behaviour = bh
	}
}

// behaviourSummary is a changed behaviour's line.
func behaviourSummary(bench string, bh *results.Behaviour) string {
	diffs := slices.DeleteFunc(slices.Clone(bh.Diffs), func(d results.BehaviourDiff) bool { return strings.HasPrefix(d.Feature, behave.CPUStack) })
	if len(diffs) == 0 { // only stacks moved: a function's time moved from one caller to another
		diffs = bh.Diffs
	}
	var parts []string
	for _, d := range diffs[:min(len(diffs), 4)] {
		parts = append(parts, fmt.Sprintf("%s %.0f%% -> %.0f%%", featureName(d.Feature), 100*d.Old, 100*d.New))
	}
	if len(diffs) > 4 {
		parts = append(parts, "…")
	}
	return fmt.Sprintf("behaviour changed: %s: %s; NEW matches none of OLD's %s learned from %s on this machine",
		bench, strings.Join(parts, ", "), english.Plural(bh.OldClusters, "cluster"), english.Plural(bh.Entries, "recorded behaviour"))
}

// featureName says what a behaviour feature is.
func featureName(f string) string {
	short := func(s string) string {
		var out []string
		for _, k := range strings.Split(s, " > ") {
			out = append(out, attrib.Short(k))
		}
		return strings.Join(out, " > ")
	}
	switch {
	case f == behave.GC:
		return "the garbage collector's share of the CPU time"
	case strings.HasPrefix(f, behave.CPUFunc):
		return short(strings.TrimPrefix(f, behave.CPUFunc)) + "'s share of the CPU time"
	case strings.HasPrefix(f, behave.CPUStack):
		return "the stack " + short(strings.TrimPrefix(f, behave.CPUStack)) + "'s share of the CPU time"
	case strings.HasPrefix(f, behave.AllocFunc):
		return short(strings.TrimPrefix(f, behave.AllocFunc)) + "'s share of the allocated bytes"
	}
	return f
}
