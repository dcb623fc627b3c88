package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// TimedBlocks finds the blocks the benchmarks of patterns (relative to
// dir) run in their timed loops, the way a campaign selects benchmarks
// (see timedRuns) but for all of them at once: coverage of the whole
// module at -benchtime 2x and 3x; blocks that ran more often at 3x are in
// a timed loop, blocks that ran as often are setup (atomic counts: under
// b.RunParallel count mode loses increments, and a block run only there
// could look like set-up). The blocks are keyed
// by coverage file name (import path/base name).
func TimedBlocks(ctx context.Context, dir, modPath string, patterns, tags []string, skip string) (map[string][]CovBlock, error) {
	tmp, err := os.MkdirTemp("", "perfmut-calibrate-cover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var prof [2]map[string][]CovBlock
	for i, bt := range []string{"2x", "3x"} {
		file := filepath.Join(tmp, bt+".out")
		args := []string{"test", "-run", "^$", "-bench", ".", "-benchtime", bt, "-count", "1",
			"-covermode", "atomic", "-coverpkg", modPath + "/...", "-coverprofile", file}
		if len(tags) > 0 {
			args = append(args, "-tags", strings.Join(tags, ","))
		}
		if skip != "" {
			args = append(args, "-skip", skip)
		}
		args = append(args, patterns...)
		res, err := proc.Run(ctx, dir, nil, 10*time.Minute, "go", args...) // 10m: go test's own -timeout
		switch {
		case err != nil:
			return nil, err
		case res.Canceled:
			return nil, ctx.Err()
		case res.TimedOut:
			return nil, fmt.Errorf("go test -bench with coverage did not finish within 10m")
		case !res.OK():
			return nil, fmt.Errorf("go test -bench with coverage: exit status %d: %s", res.ExitCode, LastLines(res.Output, 1))
		}
		if prof[i], err = readProfile(file); err != nil {
			return nil, err
		}
	}
	timed := map[string][]CovBlock{}
	for file, blocks := range timedRuns(prof[0], prof[1]) {
		for _, b := range blocks {
			if b.Growth() > 0 {
				timed[file] = append(timed[file], b)
			}
		}
	}
	return timed, nil
}
