package detect

import (
	"slices"
	"sync"
	"testing"
)

// TestInOrder: every index runs once, started in order, never more than
// jobs at a time.
func TestInOrder(t *testing.T) {
	for _, tt := range []struct{ n, jobs int }{{0, 1}, {1, 1}, {5, 1}, {7, 2}, {3, 8}} {
		var mu sync.Mutex
		var started []int
		running, most := 0, 0
		release := make(chan struct{})
		go func() {
			for range tt.n {
				release <- struct{}{}
			}
		}()
		inOrder(tt.n, tt.jobs, func(i int) {
			mu.Lock()
			started = append(started, i)
			running++
			most = max(most, running)
			mu.Unlock()
			<-release
			mu.Lock()
			running--
			mu.Unlock()
		})
		want := make([]int, tt.n)
		for i := range want {
			want[i] = i
		}
		if !slices.Equal(started, want) && tt.jobs == 1 {
			t.Errorf("inOrder(%d, 1) started %v, want %v", tt.n, started, want)
		}
		slices.Sort(started)
		if !slices.Equal(started, want) {
			t.Errorf("inOrder(%d, %d) ran %v, want each of %v once", tt.n, tt.jobs, started, want)
		}
		if most > tt.jobs {
			t.Errorf("inOrder(%d, %d): %d at once", tt.n, tt.jobs, most)
		}
	}
}
