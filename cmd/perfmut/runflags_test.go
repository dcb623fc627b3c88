package main

import (
	"context"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/score"
)

// TestMarginFlag: -margin goes into the rule (0 the default, the larger of
// 1.05 and -min-effect; -1 off) and into the settings that -resume and
// merge compare (recorded by the campaign).
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
		f, _ := parseCampaignFlags(t, tc.args)
		levels, rule, err := f.check()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		c := f.campaign(levels, rule, &config.Config{}, []string{"./..."}, nil)
		c.RecordSettings(context.Background())
		if rule.Margin != tc.want || c.Settings.Margin != tc.want {
			t.Errorf("%v: rule margin %g, settings margin %g, want %g", tc.args, rule.Margin, c.Settings.Margin, tc.want)
		}
	}
}
