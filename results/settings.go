package results

import (
	"fmt"
	"reflect"
	"strings"
)

// The setting tag of each Settings field says how resume, merge and
// -since treat it: its name in messages ("-alpha", "the module"), then
// options:
//
//   - selection: it chooses the mutants, orders the rounds or selects the
//     levels, and does not change a verdict: -since ignores it (Verdict).
//   - quote: messages show its values quoted; joined: a list shown (and
//     compared) as one comma-separated string; novalues: messages name it
//     without its values; negate: a bool shown negated (NoInfer is -infer);
//     empty=WORD: an empty value is shown, and compared, as WORD (what
//     it means: -mutants "all").
//
// Every field has the tag (TestSettingsTags), so a new setting is compared
// by -resume and merge and hashed by -since unless its tag says otherwise.
type settingTag struct {
	name                                       string
	selection, quote, joined, novalues, negate bool
	empty                                      string
}

func parseSettingTag(tag string) settingTag {
	parts := strings.Split(tag, ",")
	t := settingTag{name: parts[0]}
	for _, o := range parts[1:] {
		switch o {
		case "selection":
			t.selection = true
		case "quote":
			t.quote = true
		case "joined":
			t.joined = true
		case "novalues":
			t.novalues = true
		case "negate":
			t.negate = true
		default:
			if w, ok := strings.CutPrefix(o, "empty="); ok {
				t.empty = w
			}
		}
	}
	return t
}

// show is a setting's value as messages show it.
func (t settingTag) show(v reflect.Value) string {
	var x any = v.Interface()
	switch {
	case t.joined:
		x = strings.Join(v.Interface().([]string), ",")
	case t.negate:
		x = !v.Bool()
	}
	if t.quote {
		return fmt.Sprintf("%q", x)
	}
	if s := fmt.Sprint(x); s != "" || t.empty == "" {
		return s
	}
	return t.empty
}

// Diff names the first setting in which s and o differ, with both values
// ("-alpha (0.05 vs 0.01)"), or returns "" when they are the same: a
// resumed campaign and the shards of a merge must agree on every setting.
func (s Settings) Diff(o Settings) string {
	a, b := reflect.ValueOf(s), reflect.ValueOf(o)
	for _, f := range settingFields() {
		t := parseSettingTag(f.Tag.Get("setting"))
		x, y := t.show(a.FieldByIndex(f.Index)), t.show(b.FieldByIndex(f.Index))
		if x == y {
			continue
		}
		if t.novalues {
			return t.name
		}
		return fmt.Sprintf("%s (%s vs %s)", t.name, x, y)
	}
	return ""
}

// Verdict returns s without its selection settings (see the setting tag):
// what the verdicts of a campaign depend on, which -since hashes.
func (s Settings) Verdict() Settings {
	v := reflect.ValueOf(&s).Elem()
	for _, f := range settingFields() {
		if parseSettingTag(f.Tag.Get("setting")).selection {
			v.FieldByIndex(f.Index).SetZero()
		}
	}
	return s
}

// settingFields are the settings, in the order of the struct: the fields
// of Settings and of the structs it embeds (BuildSettings, RuleSettings
// and its score.Rule, ChoiceSettings), without the Rule's Seed, which
// ChoiceSettings.Seed hides.
func settingFields() []reflect.StructField {
	return leafFields(reflect.TypeOf(Settings{}))
}

// leafFields are the visible fields of struct type t and of the structs it
// embeds, without the embedded structs themselves.
func leafFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if !f.Anonymous {
			out = append(out, f)
		}
	}
	return out
}
