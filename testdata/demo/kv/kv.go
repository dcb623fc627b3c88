// Package kv is a read-mostly store of byte values for concurrent use: a
// sync.RWMutex guards a map, and readers share the read lock.
package kv

import (
	"sort"
	"sync"
)

// A Store maps string keys to byte values. It is safe for concurrent use.
type Store struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// New returns an empty store.
func New() *Store {
	return &Store{m: make(map[string][]byte)}
}

// Set stores a copy of v under key.
func (s *Store) Set(key string, v []byte) {
	c := append([]byte(nil), v...)
	s.mu.Lock()
	s.m[key] = c
	s.mu.Unlock()
}

// Checksum returns the FNV-1a hash of the value stored under key (the hash
// of no bytes if there is none). It reads the value under the read lock.
func (s *Store) Checksum(key string) uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h := uint64(14695981039346656037)
	for _, c := range s.m[key] {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Keys returns the keys of the store in increasing order.
func (s *Store) Keys() []string {
	s.mu.RLock()
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	s.mu.RUnlock()
	sort.Strings(keys)
	return keys
}
