package runner

import (
	"github.com/perfmut/perfmut/internal/engine"
)

// testRun is a run of c whose engine keeps its files in tmp and logs
// nowhere.
func testRun(c *Campaign, tmp string) *run {
	return &run{c: c, Engine: engine.New(c.config(), tmp, nil)}
}
