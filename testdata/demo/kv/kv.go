// Package kv is a read-mostly store of byte values for concurrent use: a
// sync.RWMutex guards a map, and readers share the read lock.
package kv

import (
	"hash/fnv"
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
// of no bytes if there is none). It hashes the value under the read lock,
// which readers share.
func (s *Store) Checksum(key string) uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h := fnv.New64a()
	h.Write(s.m[key])
	return h.Sum64()
}
