package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// coverAndProfile runs the coverage runs and the profiled run of each
// benchmark names[i] of p, filling in results[i], and returns each one's
// error. The profiled runs run one at a time (side by side, benchmarks
// share the machine's caches and memory bandwidth, and their noise, so d,
// grows); the coverage runs, whose counts no load changes, run beside
// them, Jobs-1 at a time and in the same order, so that a benchmark's
// coverage is usually done when its first profiled process ends. With
// Jobs at most 1 the coverage runs come first, one at a time.
//
// The cost counts the profiled runs' wall time as Profile, and as
// Coverage only the time spent waiting for coverage runs.
func (o *mapper) coverAndProfile(ctx context.Context, p Pkg, bin binaries, dir string, names []string, results []BenchResult) []error {
	n := len(names)
	covers, coverErrs := make([]BenchResult, n), make([]error, n)
	covered := make([]chan struct{}, n)
	for i := range covered {
		covered[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		inOrder(n, max(1, o.Jobs-1), func(i int) {
			defer close(covered[i])
			covers[i], coverErrs[i] = o.coverBench(ctx, p, bin.Cover, names[i], results[i].CoverIterations, filepath.Join(dir, fmt.Sprintf("cover%d", i)))
		})
	}()
	if o.Jobs <= 1 {
		start := time.Now()
		wg.Wait()
		since(&o.cost.Coverage, start)
	}
	errs := make([]error, n)
	for i := range names {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		var waited time.Duration
		cover := func() (BenchResult, error) {
			start := time.Now()
			<-covered[i]
			waited = time.Since(start)
			return covers[i], coverErrs[i]
		}
		start := time.Now()
		results[i], errs[i] = o.profileRun(ctx, p, bin.Plain, results[i], names[i], filepath.Join(dir, fmt.Sprintf("cpu%d.prof", i)), cover)
		o.cost.Coverage += waited
		o.cost.Profile += time.Since(start) - waited
	}
	start := time.Now()
	wg.Wait()
	since(&o.cost.Coverage, start)
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
