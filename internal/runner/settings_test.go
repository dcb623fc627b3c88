package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumeOtherModule: -resume into the results directory of another
// module is refused (the module, tags, isolation and Go version are part
// of the compared settings), and Run leaves its caller's Campaign as it
// was.
func TestResumeOtherModule(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	mod, pkgs := testModule(t, "hot")
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Jobs, c.Isolate = 0, ""
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.Jobs != 0 || c.Isolate != "" || c.Settings.Module != "" {
		t.Errorf("Run changed its caller's Campaign: Jobs %d, Isolate %q, Settings.Module %q", c.Jobs, c.Isolate, c.Settings.Module)
	}
	mod2, pkgs2 := testModule(t, "nobench")
	c2 := newTestCampaign(t, mod2, pkgs2, nil, out)
	c2.Resume = true
	_, err := c2.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "the module (example.com/hot vs example.com/nobench)") {
		t.Errorf("resume into another module's results: %v, want a refusal naming both modules", err)
	}
	c3 := newTestCampaign(t, mod, pkgs, nil, out)
	c3.Resume, c3.Tags = true, []string{"extra"}
	if _, err := c3.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "-tags") {
		t.Errorf("resume with other -tags: %v, want a refusal naming -tags", err)
	}
}
