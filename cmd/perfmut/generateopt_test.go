package main

import (
	"flag"
	"io"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestGenerateOpt: generate verifies at the levels of the campaign it
// reads unless -opt is given; without a campaign, the flag's value.
func TestGenerateOpt(t *testing.T) {
	onlyOpt := &results.Report{Settings: results.Settings{Opt: "on"}}
	for _, tc := range []struct {
		name   string
		args   []string
		before *results.Report
		want   string
	}{
		{"campaign of opt alone", nil, onlyOpt, "on"},
		{"-opt given", []string{"-opt", "both"}, onlyOpt, "both"},
		{"no campaign", nil, nil, "both"},
		{"campaign without the setting", nil, &results.Report{}, "both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("generate", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var f generateFlags
			f.register(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if got := generateOpt(flagSet(fs, "opt"), f.opt, tc.before); got != tc.want {
				t.Errorf("generateOpt = %q, want %q", got, tc.want)
			}
		})
	}
}
