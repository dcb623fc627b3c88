package load

import (
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestFindMutantsIDs: -mutants, show and reproduce take the same IDs:
// 12 hex digits or a unique prefix of at least 4, in either case
// (-mutants took "0e6", show refused it; upper case was refused).
func TestFindMutantsIDs(t *testing.T) {
	ms := []mutate.Mutant{{ID: "0e6a11111111"}, {ID: "ae07561811a1"}, {ID: "ae0800000000"}}
	for _, tc := range []struct{ id, want, err string }{
		{"0e6a", "0e6a11111111", ""},
		{"AE07561811A1", "ae07561811a1", ""},
		{"Ae075", "ae07561811a1", ""},
		{"0e6", "", `"0e6" is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)`},
		{"0e6a111111111", "", `"0e6a111111111" is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)`},
		{"xyz12", "", `"xyz12" is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)`},
		{"ae0", "", `"ae0" is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)`},
	} {
		found, err := FindMutants(ms, []string{tc.id})
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("FindMutants(%q): %v, want %s", tc.id, err, tc.err)
		case tc.err == "" && (err != nil || len(found) != 1 || found[0].ID != tc.want):
			t.Errorf("FindMutants(%q) = %v, %v; want %s", tc.id, found, err, tc.want)
		}
	}
}
