package results

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestRuleOfFlatReports: reports written when the rule was flattened
// into the settings read to the score.Rule they were decided with, and
// their settings write back byte for byte (the keys in the same order).
func TestRuleOfFlatReports(t *testing.T) {
	for _, tc := range []struct {
		file string
		want score.Rule
	}{
		{"report-flat-rule.json", score.Rule{Alpha: 0.05, Correction: score.Holm, Test: score.KS, MaxSamples: 30,
			MinEffect: 1.01, Margin: 1.05, MinSamples: 5, FutilityPower: 0.1, Seed: 1}},
		// no min_effect: written before it had a default, when 0 was off.
		{"report-flat-rule-cpu.json", score.Rule{Alpha: 0.01, Correction: score.Bonferroni, Test: score.KS, MaxSamples: 20,
			MinEffect: 1, Margin: 1.1, MinSamples: 6, FutilityPower: score.NoFutility, Seed: 7}},
	} {
		data, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Rule(); got != tc.want {
			t.Errorf("%s: Rule() = %+v, want %+v", tc.file, got, tc.want)
		}
		var file struct{ Settings json.RawMessage }
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		json.Compact(&want, file.Settings)
		got, err := json.Marshal(rep.Settings)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: settings written back as\n%s\nwant\n%s", tc.file, got, want.Bytes())
		}
	}
}

// TestSettingsRoundTrip: every setting, the rule's included, survives
// report.json; the rule's seed is the campaign's.
func TestSettingsRoundTrip(t *testing.T) {
	var s Settings
	v := reflect.ValueOf(&s).Elem()
	for _, f := range settingFields() {
		v.FieldByIndex(f.Index).Set(reflect.ValueOf(setOne(t, f)).FieldByIndex(f.Index))
	}
	s.Alpha, s.Correction, s.Test, s.Rule.Seed = 0.05, score.Holm, score.MWU, s.Seed
	rep := &Report{Schema: Schema, Settings: s}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Settings.Rule.Seed != 0 {
		t.Errorf("the rule's seed was written twice")
	}
	back.Settings.Rule.Seed = back.Settings.Seed
	if !reflect.DeepEqual(back.Settings, s) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back.Settings, s)
	}
	if got := back.Rule().Seed; got != 3 {
		t.Errorf("Rule().Seed = %d, want the campaign's seed 3", got)
	}
}
