package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

type tsw struct{ t0 time.Time }

func (w tsw) Write(p []byte) (int, error) {
	fmt.Fprintf(os.Stderr, "%6.2f %s", time.Since(w.t0).Seconds(), p)
	return len(p), nil
}

func TestDebugRun(t *testing.T) {
	mod, pkgs := testModule(t, "hot")
	c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod), filepath.Join(t.TempDir(), "o"))
	c.Log = tsw{time.Now()}
	c.Verbose = os.Getenv("V") != ""
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}
