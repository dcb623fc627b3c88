package runner

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
)

// TestMergeOtherMutants: shards run with different -mutants are not one
// campaign: merge refuses them in one line naming the setting, instead of
// a score over the mutants of both.
func TestMergeOtherMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	mod, pkgs := testModule(t, "hot")
	base := t.TempDir()
	shard := func(name, k string, ids []string) string {
		out := filepath.Join(base, name)
		c := newTestCampaign(t, mod, pkgs, nil, out)
		c.Settings.Shard, c.Settings.Mutants = k, ids
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out
	}
	s1, s2 := shard("s1", "1/2", nil), shard("s2", "2/2", []string{"60c647465dfe"})
	_, err := Merge(filepath.Join(base, "all"), []string{s1, s2})
	want := s2 + " was run with other settings: -mutants (all vs 60c647465dfe)"
	if err == nil || err.Error() != want || !errors.As(err, new(*inputerr.Error)) {
		t.Errorf("Merge: %v\nwant the input error %s", err, want)
	}
}
