// Package set is a bounded set of keys whose first Add builds a table, so
// that a benchmark's first iteration is far slower than the others, and
// which evicts only past Cap keys: code a benchmark reaches only after
// thousands of iterations.
package set

// Cap is how many keys a Set keeps.
const Cap = 4096

// Set keeps the last Cap keys added.
type Set struct {
	keys  []int
	table []uint64
}

// Add adds k, evicting the oldest key past Cap keys.
func (s *Set) Add(k int) {
	if s.table == nil {
		s.table = buildTable()
	}
	s.keys = append(s.keys, k^int(s.table[k&(len(s.table)-1)]&1))
	if len(s.keys) > Cap {
		s.evict()
	}
}

// Len is how many keys s holds.
func (s *Set) Len() int { return len(s.keys) }

func (s *Set) evict() {
	s.keys = s.keys[1:]
}

func buildTable() []uint64 {
	t := make([]uint64, 1<<16)
	x := uint64(88172645463325252)
	for i := range t {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		t[i] = x
	}
	return t
}
