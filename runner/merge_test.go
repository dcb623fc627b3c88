package runner

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
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
	runShard := func(out, shard string, ms []mutate.Mutant) *report.Report {
		c := newTestCampaign(t, mod, pkgs, ms, filepath.Join(base, out))
		c.Levels = []string{report.Opt}
		c.Settings.Opt = "on"
		c.Settings.Shard = shard
		rep, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	const n = 3
	var dirs []string
	total := 0
	for k := 1; k <= n; k++ {
		spec := []string{"", "1/3", "2/3", "3/3"}[k]
		rep := runShard("s"+spec[:1], spec, Shard(ms, k, n))
		total += len(rep.Mutants)
		dirs = append(dirs, filepath.Join(base, "s"+spec[:1]))
	}
	whole := runShard("whole", "", ms)
	summarize := func(s report.Settings, o []score.Outcome) *score.Summary {
		sum := score.Summarize(o, s.Alpha, score.Correction(s.Correction))
		return &sum
	}
	merged, err := Merge(filepath.Join(base, "merged"), dirs, summarize)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(ms) {
		t.Fatalf("shards hold %d mutants, want %d", total, len(ms))
	}
	ids := func(r *report.Report) []string {
		var out []string
		for _, m := range r.Mutants {
			out = append(out, m.ID+"="+string(m.Results[report.Opt].Status))
		}
		return out
	}
	if got, want := ids(merged), ids(whole); !reflect.DeepEqual(got, want) {
		t.Errorf("merged mutants %v, unsharded %v", got, want)
	}
	if !reflect.DeepEqual(merged.Score, whole.Score) {
		t.Errorf("merged score %+v, unsharded %+v", merged.Score, whole.Score)
	}
	if merged.Settings.Shard != "" {
		t.Errorf("merged settings keep shard %q", merged.Settings.Shard)
	}
	if entries, _, err := ReadJournal(filepath.Join(base, "merged", JournalFile)); err != nil || len(entries) != len(ms) {
		t.Errorf("merged journal: %d entries, %v", len(entries), err)
	}

	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{dirs[:2], "shard 3/3 missing"},
		{[]string{dirs[0], dirs[0]}, "are both shard 1/3"},
		{[]string{t.TempDir()}, "has no report.json"},
	} {
		_, err := Merge(filepath.Join(t.TempDir(), "m"), tc.dirs, summarize)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%v): %v, want %q", tc.dirs, err, tc.want)
		}
	}
}
