// Package sum is a module for perfmut reproduce: a mutant in Checksum's
// loop makes its benchmark many times slower, one in Seed's loop (which
// the benchmark runs for one element per call) costs it next to nothing.
package sum

// Checksum hashes data byte by byte.
func Checksum(data []byte) uint32 {
	var h uint32
	for _, b := range data {
		h = h*31 + uint32(b)
	}
	return h
}

// Seed is the checksum's start value for a key and extra words.
func Seed(key int, extra []uint32) uint32 {
	h := uint32(key) * 2654435761
	for _, e := range extra {
		h ^= e
	}
	return h
}
