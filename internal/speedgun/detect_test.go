package speedgun

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// check type-checks one file of package p.
func check(t *testing.T, src string) (*types.Package, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, []*ast.File{f}
}

const detectSrc = `package p

import (
	"sync"
	"sync/atomic"
)

type Embedded struct{ sync.Mutex; n int }
func (e *Embedded) Inc() { e.Lock(); e.n++; e.Unlock() }

type guard struct{ mu *sync.RWMutex }
type Nested struct{ g struct{ inner guard } }
func (n *Nested) Get(k string) int { return len(k) }
func NewNested() *Nested { return &Nested{} }

type Atomic struct{ hits atomic.Int64 }
func (a *Atomic) Hit(n uint8) { a.hits.Add(int64(n)) }

// Documented is safe for concurrent use by multiple goroutines.
type Documented struct{ ch chan int }
func (d Documented) Send(v int) {}
func MakeDocumented(size int) (Documented, error) { return Documented{}, nil }

// NotSafe is not safe for concurrent use.
type NotSafe struct{ n int }
func (p *NotSafe) Inc() {}

type Cache[V any] struct{ mu sync.Mutex; m map[string]V }
func (c *Cache[V]) Put(k string, v V) {}
func New[V any](n int) *Cache[V] { return &Cache[V]{} }

type Floats[F interface{ ~float32 }] struct{ mu sync.Mutex; f F }
func (f *Floats[F]) Set(v F) {}

type NoMethods struct{ mu sync.Mutex }
func (n *NoMethods) Watch(ch chan int) {}
`

// TestFindTargets: a lock or atomic field (embedded, through a pointer,
// a named struct, an anonymous struct) or a doc comment makes a type
// thread-safe; "not safe" does not; a generic type is instantiated with
// int, its generic constructor too; a type parameter neither int nor
// string satisfies skips the type; so does one without callable methods.
func TestFindTargets(t *testing.T) {
	pkg, files := check(t, detectSrc)
	targets, skipped := findTargets(pkg, files, nil, nil)
	type row struct{ display, why, creators, methods string }
	var got []row
	for _, tg := range targets {
		var cs, ms []string
		for _, c := range tg.creators {
			cs = append(cs, c.call)
		}
		for _, m := range tg.methods {
			ms = append(ms, m.cover)
		}
		got = append(got, row{tg.display, tg.why, strings.Join(cs, ","), strings.Join(ms, ",")})
	}
	want := []row{
		{"*Atomic", "field hits atomic.Int64", "", "(*Atomic).Hit"},
		{"*Cache[int]", "field mu sync.Mutex", "New[int],", "(*Cache).Put"},
		{"*Documented", "documented as safe for concurrent use", "MakeDocumented,", "Documented.Send"},
		{"*Embedded", "field Mutex sync.Mutex", "", "(*Embedded).Inc"},
		{"*Nested", "field g: field inner: field mu sync.RWMutex", "NewNested,", "(*Nested).Get"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("targets:\n%q\nwant\n%q", got, want)
	}
	wantSkipped := []Skipped{
		{"Floats", "type parameter F interface{~float32}: neither int nor string satisfies its constraint"},
		{"(*NoMethods).Watch", "no value pool for a parameter of type chan int"},
		{"*NoMethods", "no exported method whose arguments a value pool can write"},
	}
	if !slices.Equal(skipped, wantSkipped) {
		t.Errorf("skipped:\n%q\nwant\n%q", skipped, wantSkipped)
	}
	// Methods and Constructors restrict what is called.
	targets, _ = findTargets(pkg, files, map[string][]string{"Nested": {}}, []string{})
	if len(targets) != 0 {
		t.Errorf("with no allowed method of Nested: %d targets, want 0", len(targets))
	}
	targets, _ = findTargets(pkg, files, map[string][]string{"Cache": {"Put"}}, []string{})
	if len(targets) != 1 || len(targets[0].creators) != 1 || targets[0].creators[0].cover != "" {
		t.Errorf("with no allowed constructor: %+v, want Cache made from its zero value only", targets)
	}
}

func TestDocumentedSafe(t *testing.T) {
	for doc, want := range map[string]bool{
		"A Store is safe for concurrent use.":                                 true,
		"It is safe for\nconcurrent use by multiple goroutines.":              true,
		"A Buffer is not safe for concurrent use.":                            false,
		"Methods aren't safe for concurrent use.":                             false,
		"A Pool is goroutine-safe.":                                           true,
		"Use it from one goroutine; it is not thread-safe.":                   false,
		"Not safe for concurrent use, but Clone is safe to use concurrently.": true,
		"A plain counter.":                                                    false,
	} {
		if got := documentedSafe(doc); got != want {
			t.Errorf("documentedSafe(%q) = %v, want %v", doc, got, want)
		}
	}
}
