package runner

import (
	"os"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/testutil"
)

// TestMain links the campaigns' test binaries without DWARF (see
// testutil.LinkWithoutDWARF).
func TestMain(m *testing.M) {
	testutil.LinkWithoutDWARF()
	os.Exit(m.Run())
}

// testRun is a run of c whose engine keeps its files in tmp and logs
// nowhere.
func testRun(c *Campaign, tmp string) *run {
	return &run{c: c, Engine: engine.New(c.config(), tmp, nil)}
}
