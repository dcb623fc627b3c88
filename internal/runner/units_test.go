package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

func TestParseShard(t *testing.T) {
	for _, ok := range []string{"1/1", "1/4", "4/4"} {
		if _, _, err := ParseShard(ok); err != nil {
			t.Errorf("ParseShard(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"3/2", "0/2", "1", "a/b", "1/0", "-1/2", "2/2/2", ""} {
		_, _, err := ParseShard(bad)
		if err == nil {
			t.Errorf("ParseShard(%q) succeeded", bad)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "k/n") {
			t.Errorf("ParseShard(%q) error %q: want one line explaining k/n", bad, msg)
		}
	}
}

func TestShardPartition(t *testing.T) {
	var ms []mutate.Mutant
	for i := range 200 {
		ms = append(ms, mutate.Mutant{ID: fmt.Sprintf("m%03d", i)})
	}
	for n := 1; n <= 5; n++ {
		seen := map[string]int{}
		for k := 1; k <= n; k++ {
			part := Shard(ms, k, n)
			if n > 1 && (len(part) < 200/n/2 || len(part) > 2*200/n) {
				t.Errorf("shard %d/%d has %d of 200 mutants", k, n, len(part))
			}
			for _, m := range part {
				seen[m.ID]++
			}
		}
		for _, m := range ms {
			if seen[m.ID] != 1 {
				t.Fatalf("n=%d: %s is in %d shards", n, m.ID, seen[m.ID])
			}
		}
	}
}

func TestSampleMutants(t *testing.T) {
	var ms []mutate.Mutant
	for i := range 50 {
		ms = append(ms, mutate.Mutant{ID: fmt.Sprint(i)})
	}
	a, b, c := SampleMutants(ms, 10, 7), SampleMutants(ms, 10, 7), SampleMutants(ms, 10, 8)
	ids := func(ms []mutate.Mutant) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.ID)
		}
		return strings.Join(s, ",")
	}
	if len(a) != 10 || ids(a) != ids(b) {
		t.Errorf("same seed, different samples: %s vs %s", ids(a), ids(b))
	}
	if ids(a) == ids(c) {
		t.Errorf("different seeds, same sample %s", ids(a))
	}
	if len(SampleMutants(ms, 0, 1)) != 50 || len(SampleMutants(ms, 80, 1)) != 50 {
		t.Errorf("-sample 0 or above the count must keep every mutant")
	}
}

func TestJournalTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), results.JournalFile)
	j, err := results.OpenJournal(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := j.Append(results.JournalEntry{ID: id, Level: results.Opt, Result: &results.LevelResult{Status: score.Killed}}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A SIGKILL in the middle of a write leaves half a line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"c","level":"opt","res`)
	f.Close()
	entries, good, err := results.ReadJournal(path)
	if err != nil || len(entries) != 2 {
		t.Fatalf("results.ReadJournal: %d entries, %v; want 2", len(entries), err)
	}
	j, err = results.OpenJournal(path, good)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(results.JournalEntry{ID: "c", Level: results.Opt, Result: &results.LevelResult{Status: score.Survived}})
	j.Close()
	entries, _, err = results.ReadJournal(path)
	if err != nil || len(entries) != 3 || entries[2].ID != "c" {
		t.Fatalf("after appending to a repaired journal: %+v, %v", entries, err)
	}
}

func TestCheckModuleDir(t *testing.T) {
	cache := strings.TrimSpace(goEnv(t, "GOMODCACHE"))
	err := CheckModuleDir(context.Background(), filepath.Join(cache, "github.com/google/btree@v1.1.3"))
	if err == nil || !strings.Contains(err.Error(), "copy it out") || strings.Contains(err.Error(), "\n") {
		t.Errorf("module in the cache: %v, want a one-line hint to copy it out", err)
	}
	if err := CheckModuleDir(context.Background(), t.TempDir()); err != nil {
		t.Errorf("module outside the cache: %v", err)
	}
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestSettingsDiffCPU: a campaign measured at other GOMAXPROCS values is
// not the same campaign (-resume, merge and -since refuse to mix them).
func TestSettingsDiffCPU(t *testing.T) {
	if got, want := (results.Settings{CPU: []int{1, 2}}).Diff(results.Settings{}), "-cpu ([1 2] vs [])"; got != want {
		t.Errorf("Settings.Diff = %q, want %q", got, want)
	}
	if got := (results.Settings{CPU: []int{2}}).Diff(results.Settings{CPU: []int{2}}); got != "" {
		t.Errorf("Settings.Diff of equal -cpu = %q, want none", got)
	}
}

// TestCountMinEffectSetting: the minimum effect of counted verdicts is a
// setting, so -resume, merge and -since refuse to mix verdicts decided at
// 1.005 with ones at 1.01 (both campaigns recorded the same settings).
func TestCountMinEffectSetting(t *testing.T) {
	mk := func(countMin float64) *Campaign {
		c := &Campaign{}
		c.Rule = score.Rule{Alpha: 0.05, MinEffect: 1.01}.WithDefaults()
		c.Counting = &engine.Counting{MinEffect: countMin}
		c.RecordSettings(context.Background())
		return c
	}
	a, b := mk(1.005), mk(1.01)
	if got, want := a.Settings.Diff(b.Settings), "-min-effect on instruction counts (1.005 vs 1.01)"; got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if reflect.DeepEqual(a.Settings.Verdict(), b.Settings.Verdict()) {
		t.Error("-since hashes the two alike")
	}
}
