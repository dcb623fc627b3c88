package loop

import (
	"sync"
	"sync/atomic"
)

// The state the sites below share.
var (
	siteMu    sync.Mutex
	siteRW    sync.RWMutex
	siteTotal int
	siteCount atomic.Int64
	siteBufs  = sync.Pool{New: func() any { return new([64]byte) }}
)

// Locked adds x to a total under a mutex: one critical section.
func Locked(x int) int {
	siteMu.Lock()
	siteTotal += x
	siteMu.Unlock()
	return x
}

// Read reads the total under a read lock.
func Read(x int) int {
	siteRW.RLock()
	defer siteRW.RUnlock()
	return siteTotal + x
}

// Count adds x to an atomic counter.
func Count(x int) int {
	return int(siteCount.Add(int64(x)))
}

// Buffer takes a buffer from a pool, writes x to it and puts it back.
func Buffer(x int) int {
	b := siteBufs.Get().(*[64]byte)
	b[0] = byte(x)
	n := int(b[0])
	siteBufs.Put(b)
	return n
}

// Handoff passes x from a new goroutine through a channel of capacity 1.
func Handoff(x int) int {
	c := make(chan int, 1)
	go func() { c <- x }()
	return <-c
}
