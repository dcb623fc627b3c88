package results

import "testing"

// TestSettingsDiffShown: -mutants is a setting (shards and a resumed run
// must have kept the same mutants), and a setting's empty value is shown
// by what it means: -mutants "all", -measure "time" (which an empty
// -measure was, before the flag, so the two are the same setting).
func TestSettingsDiffShown(t *testing.T) {
	for _, tc := range []struct {
		a, b Settings
		want string
	}{
		{Settings{ChoiceSettings: ChoiceSettings{Mutants: []string{"60c647465dfe"}}}, Settings{}, "-mutants (60c647465dfe vs all)"},
		{Settings{ChoiceSettings: ChoiceSettings{Mutants: []string{"60c647465dfe", "ae07561811a1"}}}, Settings{ChoiceSettings: ChoiceSettings{Mutants: []string{"60c647465dfe"}}},
			"-mutants (60c647465dfe,ae07561811a1 vs 60c647465dfe)"},
		{Settings{Measure: "instructions"}, Settings{}, "-measure (instructions vs time)"},
		{Settings{Measure: "time"}, Settings{}, ""},
	} {
		if got := tc.a.Diff(tc.b); got != tc.want {
			t.Errorf("Diff = %q, want %q", got, tc.want)
		}
	}
	if v := (Settings{ChoiceSettings: ChoiceSettings{Mutants: []string{"a"}}}).Verdict(); v.Mutants != nil {
		t.Errorf("Verdict keeps -mutants %q: it selects mutants, it does not change a verdict", v.Mutants)
	}
}
