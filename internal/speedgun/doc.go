// Package speedgun generates concurrent benchmarks for the thread-safe
// types of a Go package, after SpeedGun (Pradel, Huggler and Gross,
// "Performance Regression Testing of Concurrent Classes", ISSTA 2014).
//
// A thread-safe type is an exported type with a sync.Mutex, sync.RWMutex,
// sync.Map or sync/atomic field (embedded or in a named struct field), or
// documented as safe for concurrent use, that can be made: an exported
// constructor returns it (or a pointer to it), or its zero value is used.
// For each, Generate writes a benchmark that creates one shared instance
// and runs a prefix of calls on it outside the timed loop, then calls its
// exported methods from b.RunParallel: each goroutine runs a suffix, a
// sequence of s calls repeated s times (SpeedGun's suffix of length s²),
// with arguments from small typed value pools (a few keys, so that the
// goroutines contend; literals harvested from the package's tests where
// there are some).
//
// The sequences are generated from a seed and kept by feedback: every
// candidate runs, in batches, in a driver built once into the package's
// test binary through go test -overlay; one that panics, crashes the
// process, deadlocks or outlasts its deadline is dropped. The suffix
// length s² is found by SpeedGun's binary search: an op (one suffix
// execution) lasts at least MinOpTime, and at least MinReps ops fit in the
// campaign's sample time. Focus methods (changed since a revision) are
// drawn more often.
package speedgun
