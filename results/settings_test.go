package results

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// setOne returns Settings with only field f set to a non-zero value.
func setOne(t *testing.T, f reflect.StructField) Settings {
	var s Settings
	v := reflect.ValueOf(&s).Elem().FieldByIndex(f.Index)
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(3)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		if v.Index(0).Kind() == reflect.String {
			v.Index(0).SetString("x")
		} else {
			v.Index(0).SetInt(3)
		}
	default:
		t.Fatalf("Settings.%s: kind %s not handled by this test", f.Name, v.Kind())
	}
	return s
}

// TestSettingsTags sets each field of Settings in turn: every field has a
// setting tag, Diff reports each (so -resume and merge never mix campaigns
// that differ in one), and Verdict keeps each that is not a selection (so
// -since never reuses a verdict taken with another setting). A new
// setting fails here until its tag says how it is treated.
func TestSettingsTags(t *testing.T) {
	hash := func(s Settings) string {
		data, _ := json.Marshal(s.Verdict())
		return string(data)
	}
	zero := hash(Settings{})
	fields := settingFields()
	if len(fields) < 26 {
		t.Fatalf("%d settings, want the fields of the embedded structs too", len(fields))
	}
	for _, name := range untagged(fields) {
		t.Errorf("Settings.%s has no setting tag: say how -resume, merge and -since treat it", name)
	}
	for _, f := range fields {
		tag := f.Tag.Get("setting")
		if tag == "" {
			continue
		}
		s := setOne(t, f)
		got := s.Diff(Settings{})
		if got == "" || !strings.HasPrefix(got, parseSettingTag(tag).name) {
			t.Errorf("Settings.%s: Diff = %q, want it named %q", f.Name, got, parseSettingTag(tag).name)
		}
		if changed := hash(s) != zero; changed == parseSettingTag(tag).selection {
			t.Errorf("Settings.%s: selection %v, but the -since hash changes: %v", f.Name, parseSettingTag(tag).selection, changed)
		}
	}
}

// TestSettingsDiffWords: the messages keep the flags' spelling and values.
func TestSettingsDiffWords(t *testing.T) {
	for _, tc := range []struct {
		a, b Settings
		want string
	}{
		{Settings{BuildSettings: BuildSettings{Module: "example.com/other"}}, Settings{BuildSettings: BuildSettings{Module: "example.com/hot"}}, "the module (example.com/other vs example.com/hot)"},
		{Settings{BuildSettings: BuildSettings{Tags: []string{"a", "b"}}}, Settings{}, `-tags ("a,b" vs "")`},
		{Settings{Patterns: []string{"./..."}}, Settings{Patterns: []string{"./x"}}, `packages (["./..."] vs ["./x"])`},
		{Settings{RuleSettings: RuleSettings{Rule: score.Rule{Alpha: 0.05}}}, Settings{RuleSettings: RuleSettings{Rule: score.Rule{Alpha: 0.01}}}, "-alpha (0.05 vs 0.01)"},
		{Settings{NoInfer: true}, Settings{}, "-infer (false vs true)"},
		{Settings{ChoiceSettings: ChoiceSettings{Operators: []string{"a"}}}, Settings{}, "-operators"},
		{Settings{ChoiceSettings: ChoiceSettings{ChangedSince: "HEAD~1"}}, Settings{}, `-changed-since ("HEAD~1" vs "")`},
		{Settings{BuildSettings: BuildSettings{Tags: []string{}}}, Settings{}, ""},
	} {
		if got := tc.a.Diff(tc.b); got != tc.want {
			t.Errorf("Diff = %q, want %q", got, tc.want)
		}
	}
}

// untagged names the fields without a setting tag.
func untagged(fields []reflect.StructField) []string {
	var out []string
	for _, f := range fields {
		if f.Tag.Get("setting") == "" {
			out = append(out, f.Name)
		}
	}
	return out
}

// TestSettingsTagsReachTheRule: the settings compared are score.Rule's
// fields too, with the campaign's seed once, and a field added to the
// rule without a setting tag fails TestSettingsTags.
func TestSettingsTagsReachTheRule(t *testing.T) {
	names := map[string]int{}
	for _, f := range settingFields() {
		names[f.Name]++
	}
	for _, n := range []string{"Alpha", "Correction", "Test", "MaxSamples", "MinEffect", "Margin", "MinSamples", "FutilityPower", "CountMinEffect", "Seed"} {
		if names[n] != 1 {
			t.Errorf("setting %s appears %d times, want once", n, names[n])
		}
	}
	if f, _ := reflect.TypeOf(Settings{}).FieldByName("Seed"); f.Tag.Get("setting") != "-seed,selection" {
		t.Errorf("Settings.Seed is %s, want ChoiceSettings.Seed", f.Tag)
	}
	type grownRule struct {
		score.Rule
		NewSetting float64
	}
	type grown struct {
		grownRule
		ChoiceSettings
	}
	if got := untagged(leafFields(reflect.TypeOf(grown{}))); !slices.Equal(got, []string{"NewSetting"}) {
		t.Errorf("untagged fields of a grown rule: %q, want [NewSetting]", got)
	}
}
