package score

import (
	"encoding/json"
	"testing"
)

// TestRegistry: every registered test parses by its name, has a label and
// an efficiency, gives its reachable p-value on a full separation, and
// encodes in JSON as its name (report.json's "test" unchanged: "ks",
// "mwu"); an unknown name is an error for the flag and the rule, and a
// panic for a caller that skipped both (never a silent KS).
func TestRegistry(t *testing.T) {
	low, high := []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}
	var names []string
	for i, d := range Tests() {
		names = append(names, string(d.Name))
		if i == 0 && d.Name != KS {
			t.Errorf("default test %q first, want ks", d.Name)
		}
		if got, err := ParseTest(string(d.Name)); err != nil || got != d.Name {
			t.Errorf("ParseTest(%q) = %q, %v", d.Name, got, err)
		}
		if d.Label == "" || d.Name.Label() != d.Label || !(d.Efficiency > 0 && d.Efficiency <= 1) || d.PValue == nil {
			t.Errorf("%q: label %q, efficiency %v; want a label, a p-value and an efficiency in (0, 1]", d.Name, d.Label, d.Efficiency)
		}
		if _, p := d.Name.PValue(low, high); !close(p, 1.0/252) || !close(d.Name.ReachableP(low, high), 1.0/252) {
			t.Errorf("%q: full separation p = %v, want 1/252", d.Name, p)
		}
		b, _ := json.Marshal(Rule{Test: d.Name}.WithDefaults().Test)
		if string(b) != `"`+string(d.Name)+`"` {
			t.Errorf("%q encodes as %s", d.Name, b)
		}
	}
	if KS.Label() != "KS" || MWU.Label() != "MWU" {
		t.Errorf("labels %q, %q; want KS, MWU", KS.Label(), MWU.Label())
	}
	want := `unknown test "t" (want ` + orList(names) + `)`
	if _, err := ParseTest("t"); err == nil || err.Error() != want || orList([]string{"ks", "mwu"}) != "ks or mwu" {
		t.Errorf("ParseTest(t): %v, want %s", err, want)
	}
	if err := (Rule{Test: "t"}).Validate(); err == nil || err.Error() != "-test: "+want {
		t.Errorf("Validate with test t: %v", err)
	}
	if _, p := Test("").PValue(low, high); !close(p, 1.0/252) {
		t.Errorf("the empty test (KS): p = %v", p)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Test(t).PValue did not panic")
		}
	}()
	Test("t").PValue(low, high)
}
