package main

import "testing"

// The show scripts are testdata/script/show_*.txtar; see list_test.go for
// the format.
func TestShowScripts(t *testing.T) { runScripts(t, "show_*.txtar") }

func TestResolveID(t *testing.T) {
	ids := []string{"0a1b2c3d4e5f", "0a1b99999999", "ffff00000000"}
	for _, tc := range []struct{ in, want, err string }{
		{"0a1b2c3d4e5f", "0a1b2c3d4e5f", ""},
		{"0a1b2", "0a1b2c3d4e5f", ""},
		{"ffff", "ffff00000000", ""},
		{"0a1b", "", "mutant ID prefix 0a1b is ambiguous (0a1b2c3d4e5f, 0a1b99999999, ...); give more digits"},
		{"1234", "", "unknown mutant ID 1234; run 'perfmut list' to see the IDs (they change when the mutated code changes)"},
		{"fffff", "", "unknown mutant ID fffff; run 'perfmut list' to see the IDs (they change when the mutated code changes)"},
	} {
		got, err := resolveID(ids, tc.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("resolveID(%s) = %q, %q; want %q, %q", tc.in, got, gotErr, tc.want, tc.err)
		}
	}
}
