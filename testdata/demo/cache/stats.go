package cache

import "fmt"

// Stats counts hits and misses of a cache.
type Stats struct {
	Hits, Misses int
}

// Ratio returns the hit ratio, 0 for no lookups.
func (s Stats) Ratio() float64 {
	total := s.Hits + s.Misses
	if total == 0 {
		return 0
	}
	return float64(s.Hits) / float64(total)
}

// String formats the statistics for humans.
func (s Stats) String() string {
	return fmt.Sprintf("%d hits, %d misses (%.1f%%)", s.Hits, s.Misses, 100*s.Ratio())
}
