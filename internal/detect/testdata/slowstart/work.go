// Package slowstart has a benchmark whose first iteration in a process is
// slow (a table built once): a calibration round of a few milliseconds
// times that iteration alone and sets b.N to a handful.
package slowstart

import (
	"sync"
	"time"
)

var (
	once  sync.Once
	table []uint64
)

// Sum adds up the table, built on the first call: 30ms, longer than the
// calibration round.
func Sum() uint64 {
	once.Do(func() {
		time.Sleep(30 * time.Millisecond)
		for i := range 256 {
			table = append(table, uint64(i)*2654435761)
		}
	})
	var s uint64
	for _, x := range table {
		s += x
	}
	return s
}
