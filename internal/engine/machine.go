package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// Machine names what a benchmark's timings depend on beyond the code: the
// system, the architecture, the CPU model and GOMAXPROCS.
func Machine(ctx context.Context) string {
	return fmt.Sprintf("%s/%s, %s, GOMAXPROCS %d", runtime.GOOS, runtime.GOARCH, cpuModel(ctx), runtime.GOMAXPROCS(0))
}

// GoVersion is the version of the go command that builds the test
// binaries (go env GOVERSION), "" if it cannot be run.
func GoVersion(ctx context.Context) string {
	res, err := proc.Run(ctx, "", nil, 30*time.Second, "go", "env", "GOVERSION")
	if err != nil || !res.OK() {
		return ""
	}
	return strings.TrimRight(string(res.Output), "\r\n")
}
