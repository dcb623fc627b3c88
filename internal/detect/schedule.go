package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// coverAndProfile runs the coverage runs of each benchmark names[i] of p,
// Jobs at a time, then its profiled run, one at a time (side by side, or
// beside a coverage run, benchmarks share the machine's caches, memory
// bandwidth and CPU time: their noise, so d, grows, and a loaded machine
// gives the profiled run half the profile samples per round), filling in
// results[i], and returns each one's error.
func (o *mapper) coverAndProfile(ctx context.Context, p *mutate.Package, bin binaries, dir string, names []string, results []BenchResult) []error {
	n := len(names)
	covers, coverErrs := make([]BenchResult, n), make([]error, n)
	start := time.Now()
	inOrder(n, max(1, o.Jobs), func(i int) {
		covers[i], coverErrs[i] = o.coverBench(ctx, p, bin.Cover, names[i], results[i].CoverIterations, filepath.Join(dir, fmt.Sprintf("cover%d", i)))
	})
	since(&o.cost.Coverage, start)
	start = time.Now()
	defer since(&o.cost.Profile, start)
	errs := make([]error, n)
	for i := range names {
		errs[i] = coverErrs[i]
		if errs[i] == nil && ctx.Err() == nil {
			b := &results[i]
			b.Ran, b.Grows, b.PerOp = covers[i].Ran, covers[i].Grows, covers[i].PerOp
			results[i], errs[i] = o.profileRun(ctx, p, bin.Plain, *b, names[i], filepath.Join(dir, fmt.Sprintf("cpu%d.prof", i)))
		}
	}
	return errs
}

// inOrder calls f(0) to f(n-1), at most jobs at a time, starting them in
// order, and waits.
func inOrder(n, jobs int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}
