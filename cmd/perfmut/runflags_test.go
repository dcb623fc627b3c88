package main

import (
	"flag"
	"io"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/score"
)

// TestMarginFlag: -margin goes into the rule (0 the default, the larger of
// 1.05 and -min-effect; -1 off) and into the settings that -resume and
// merge compare.
func TestMarginFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want float64
	}{
		{nil, score.DefaultMargin},
		{[]string{"-min-effect", "1.08"}, 1.08},
		{[]string{"-margin", "1.2"}, 1.2},
		{[]string{"-margin", "-1"}, score.NoMargin},
	} {
		var f CampaignFlags
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.Register(fs, "out")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		levels, rule, err := f.Check()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		c := f.Campaign(levels, rule, &config.Config{}, []string{"./..."}, nil)
		if rule.Margin != tc.want || c.Settings.Margin != tc.want {
			t.Errorf("%v: rule margin %g, settings margin %g, want %g", tc.args, rule.Margin, c.Settings.Margin, tc.want)
		}
	}
}
