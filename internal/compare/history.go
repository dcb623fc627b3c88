package compare

import (
	"context"
	"fmt"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// historyWindow is how many of the latest entries of a benchmark metric
// the drift check looks back over: the oldest of them is the reference.
const historyWindow = 50

// historyKey is what a drift check compares across entries.
type historyKey struct{ module, machine, pkg, bench, metric string }

func keyOf(e results.HistoryEntry) historyKey {
	return historyKey{e.Module, e.Machine, e.Package, e.Benchmark, e.Metric}
}

// readHistory reads the store of c.HistoryDir, before any work: an
// unreadable one is bad input.
func (c *Comparison) readHistory() ([]results.HistoryEntry, error) {
	if c.HistoryDir == "" {
		return nil, nil
	}
	past, err := results.ReadHistory(c.HistoryDir)
	if err != nil {
		return nil, inputerr.Errorf("-history %s: %w", c.HistoryDir, err)
	}
	beh, err := results.ReadBehaviours(c.HistoryDir)
	if err != nil {
		return nil, inputerr.Errorf("-history %s: %w", c.HistoryDir, err)
	}
	return append(past, beh...), nil
}

// history checks NEW's distributions against past, the store in
// c.HistoryDir (warnings in rep.Drift and rep.Warnings), then appends both
// sides' distributions to it.
// With behaviours (by behaviourKey: the profiled rounds' features of
// each side), it also judges each benchmark's NEW behaviour against the
// model learned from the store (judgeBehaviours) and appends both sides'.
func (c *Comparison) history(ctx context.Context, rep *results.Comparison, past []results.HistoryEntry, behaviours map[string][2][]map[string]float64) error {
	now := time.Now().UTC()
	mach := engine.Machine(ctx) + ", " + rep.Settings.GoVersion // as run -since identifies a machine, and the toolchain
	var add []results.HistoryEntry
	for _, b := range rep.Benchmarks {
		for _, m := range b.Metrics {
			for _, side := range []struct {
				s      results.CompareSide
				values []float64
			}{{rep.Old, m.OldValues}, {rep.New, m.NewValues}} {
				add = append(add, results.HistoryEntry{Time: now, Module: rep.Module, Commit: side.s.Commit, Rev: side.s.Rev,
					Machine: mach, Package: b.Package, Benchmark: b.Name, Metric: m.Metric,
					Iterations: b.Iterations, Values: side.values})
			}
		}
	}
	rep.Drift = drifts(past, add, rep.New.Commit, c.Rule.Alpha, c.Rule.MinEffect)
	if len(behaviours) > 0 {
		judgeBehaviours(rep, past, behaviours, mach, c.Rule.Alpha)
		beh := behaviourEntries(rep, behaviours, results.HistoryEntry{Time: now, Module: rep.Module, Machine: mach})
		if err := results.AppendBehaviours(c.HistoryDir, beh); err != nil {
			return fmt.Errorf("-history %s: %w", c.HistoryDir, err)
		}
	}
	for _, d := range rep.Drift {
		rep.Warnings = append(rep.Warnings, driftWarning(d))
	}
	if err := results.AppendHistory(c.HistoryDir, add); err != nil {
		return fmt.Errorf("-history %s: %w", c.HistoryDir, err)
	}
	return nil
}

// drifts compares each of NEW's distributions in cur (the entries of the
// commit newCommit) with the oldest of the last HistoryWindow entries of
// the same benchmark metric and machine in past: a drift is NEW slower by
// the one-sided KS test at alpha shared over the metrics checked
// (Bonferroni) with a median ratio above minEffect (if set).
func drifts(past, cur []results.HistoryEntry, newCommit string, alpha, minEffect float64) []results.Drift {
	byKey := map[historyKey][]results.HistoryEntry{}
	for _, e := range past {
		k := keyOf(e)
		byKey[k] = append(byKey[k], e)
	}
	type check struct {
		ref, cur results.HistoryEntry
		n        int
	}
	var checks []check
	seen := map[historyKey]bool{}
	for _, e := range cur {
		k := keyOf(e)
		if e.Commit != newCommit || seen[k] || len(byKey[k]) == 0 {
			continue
		}
		seen[k] = true
		hist := byKey[k]
		if len(hist) > historyWindow {
			hist = hist[len(hist)-historyWindow:]
		}
		checks = append(checks, check{hist[0], e, len(hist)})
	}
	var out []results.Drift
	for _, ch := range checks {
		_, p := score.OneSidedKS(ch.ref.Values, ch.cur.Values)
		ratio := score.Median(ch.cur.Values) / score.Median(ch.ref.Values)
		if p <= alpha/float64(len(checks)) && (minEffect <= 1 || ratio > minEffect) {
			out = append(out, results.Drift{Benchmark: ch.cur.Benchmark, Metric: ch.cur.Metric, Ratio: ratio, P: p,
				Since: ch.ref.Commit, SinceRev: ch.ref.Rev, SinceTime: ch.ref.Time, Entries: ch.n})
		}
	}
	return out
}
