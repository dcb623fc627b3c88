//go:build cachedebug

package cache

import "fmt"

// Dump prints the cache, most recently used first.
func (c *LRU[V]) Dump() {
	for e := c.head; e != nil; e = e.next {
		fmt.Println(e.key, e.val)
	}
}
