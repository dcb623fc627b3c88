package attrib

import (
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/changes"
)

const lruSrc = `package cache

type LRU[V any] struct{ items map[string]V }

func (c *LRU[V]) Get(key string) (V, bool) {
	v, ok := c.items[key]
	return v, ok
}

func (c LRU[V]) Len() int {
	return len(c.items)
}

func helper() {}
`

// TestChanged: the functions whose declarations hold a changed line, with
// the changed lines inside each; a function named by NEW's lines keeps
// them when OLD's name it too; a file of an external test package names
// its functions in that package.
func TestChanged(t *testing.T) {
	out := map[string]string{}
	lines := []changes.Range{{Start: 3, End: 3}, {Start: 6, End: 7}, {Start: 10, End: 16}}
	if err := Changed(out, "example.com/m/cache", "cache/lru.go", []byte(lruSrc), lines, ""); err != nil {
		t.Fatal(err)
	}
	if err := Changed(out, "example.com/m/cache", "cache/lru.go", []byte(lruSrc), []changes.Range{{Start: 5, End: 5}, {Start: 14, End: 14}}, "OLD "); err != nil {
		t.Fatal(err)
	}
	test := "package cache_test\n\nimport \"testing\"\n\nfunc BenchmarkGet(b *testing.B) {\n}\n"
	if err := Changed(out, "example.com/m/cache", "cache/lru_test.go", []byte(test), []changes.Range{{Start: 6, End: 6}}, ""); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"example.com/m/cache.(*LRU).Get":        "cache/lru.go:6-7",
		"example.com/m/cache.LRU.Len":           "cache/lru.go:10-12",
		"example.com/m/cache.helper":            "cache/lru.go:14",
		"example.com/m/cache_test.BenchmarkGet": "cache/lru_test.go:6",
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("Changed:\n%v\nwant\n%v", out, want)
	}
	if err := Changed(out, "example.com/m/cache", "cache/bad.go", []byte("package"), lines, ""); err == nil {
		t.Error("Changed of a file that does not parse: no error")
	}
}

func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m/cache.(*LRU).Get": "cache.(*LRU).Get",
		"example.com/m.F":                "m.F",
		"runtime.gcBgMarkWorker":         "runtime.gcBgMarkWorker",
		"internal/sync.(*Mutex).Lock":    "sync.(*Mutex).Lock",
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}
