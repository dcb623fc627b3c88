// Package cache is a small least-recently-used cache.
package cache

import "sync"

// An LRU is a fixed-size least-recently-used cache from string keys to
// values. It is safe for concurrent use.
type LRU[V any] struct {
	mu    sync.Mutex
	cap   int
	items map[string]*entry[V]
	head  *entry[V] // most recently used
	tail  *entry[V] // least recently used
}

type entry[V any] struct {
	key        string
	val        V
	prev, next *entry[V]
}

// New returns an empty cache holding at most capacity items.
func New[V any](capacity int) *LRU[V] {
	if capacity < 1 {
		capacity = 1
	}
	return &LRU[V]{cap: capacity, items: make(map[string]*entry[V], capacity)}
}

// Get returns the value for key and marks it as recently used.
func (c *LRU[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.moveToFront(e)
	return e.val, true
}

// Put stores value under key, evicting the least recently used item when
// the cache is full.
func (c *LRU[V]) Put(key string, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.val = value
		c.moveToFront(e)
		return
	}
	e := &entry[V]{key: key, val: value}
	c.items[key] = e
	c.pushFront(e)
	for len(c.items) > c.cap {
		c.removeOldest()
	}
}

// Len returns the number of items in the cache.
func (c *LRU[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Keys returns the keys from most to least recently used.
func (c *LRU[V]) Keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.items))
	for e := c.head; e != nil; e = e.next {
		keys = append(keys, e.key)
	}
	return keys
}

// Contains reports whether key is cached, without marking it as used.
func (c *LRU[V]) Contains(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	found := false
	for e := c.head; e != nil; e = e.next {
		if e.key == key {
			found = true
			break
		}
	}
	return found
}

func (c *LRU[V]) moveToFront(e *entry[V]) {
	if c.head == e {
		return
	}
	c.unlink(e)
	c.pushFront(e)
}

func (c *LRU[V]) pushFront(e *entry[V]) {
	e.prev, e.next = nil, c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}

func (c *LRU[V]) unlink(e *entry[V]) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (c *LRU[V]) removeOldest() {
	e := c.tail
	if e == nil {
		return
	}
	c.unlink(e)
	delete(c.items, e.key)
}
