package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// cheapMutants need no measurement.
func cheapMutants(t testing.TB, mod mutate.Module) []mutate.Mutant {
	var out []mutate.Mutant
	for _, m := range hotMutants(t, mod) {
		switch m.ID {
		case "unused-spin", "prepare-spin", "find-unbreak", "sum-compile", "find-panic":
			out = append(out, m)
		}
	}
	return out
}

func TestShardMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	ms := cheapMutants(t, mod)
	base := t.TempDir()
	runShard := func(out, shard string, ms []mutate.Mutant) *results.Report {
		c := newTestCampaign(t, mod, pkgs, ms, filepath.Join(base, out))
		c.Levels = []string{results.Opt}
		c.Settings.Opt = "on"
		c.Settings.Shard = shard
		rep, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	const n = 2
	var dirs []string
	for k := 1; k <= n; k++ {
		part := Shard(ms, k, n)
		if len(part) == 0 || len(part) == len(ms) {
			t.Fatalf("shard %d/%d has %d of %d mutants; pick mutants that split", k, n, len(part), len(ms))
		}
		dir := fmt.Sprintf("s%d", k)
		runShard(dir, fmt.Sprintf("%d/%d", k, n), part)
		dirs = append(dirs, filepath.Join(base, dir))
	}
	merged, err := Merge(filepath.Join(base, "merged"), dirs)
	if err != nil {
		t.Fatal(err)
	}
	// The merged report lists the mutants as an unsharded run does: all of
	// them, in report order, with their known outcomes.
	want := []string{"sum-compile=compile-error", "find-panic=crash", "find-unbreak=fne", "prepare-spin=no-coverage", "unused-spin=no-coverage"}
	var got []string
	for _, m := range merged.Mutants {
		got = append(got, m.ID+"="+string(m.Results[results.Opt].Status))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged mutants %v, want %v", got, want)
	}
	if s := merged.Score[results.Opt]; s.Valid != 2 || s.Killed != 0 {
		t.Errorf("merged score %+v, want 0 killed of 2 valid", s)
	}
	if merged.Summary == nil {
		t.Errorf("merged report has no summary")
	}
	if merged.Settings.Shard != "" {
		t.Errorf("merged settings keep shard %q", merged.Settings.Shard)
	}
	if entries, _, err := results.ReadJournal(filepath.Join(base, "merged", results.JournalFile)); err != nil || len(entries) != len(ms) {
		t.Errorf("merged journal: %d entries, %v", len(entries), err)
	}

	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{dirs[:1], "shard 2/2 missing"},
		{[]string{dirs[0], dirs[0]}, "are both shard 1/2"},
		{[]string{t.TempDir()}, "is not the results directory of a perfmut run (no report.json, no journal.jsonl)"},
		{[]string{dirs[0], filepath.Join(base, "into")}, "is one of the shard directories"},
	} {
		_, err := Merge(filepath.Join(base, "into"), tc.dirs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%v): %v, want %q", tc.dirs, err, tc.want)
		}
	}
}
