package ext_test

import (
	"fmt"
	"os"
	"testing"

	"example.com/extinline/ext"
)

// prefixes: the first one matches, so with its break the loop stops at
// once; without it, it compares all of them.
var prefixes = func() []string {
	ps := make([]string, 2000)
	ps[0] = "GET "
	for i := 1; i < len(ps); i++ {
		ps[i] = fmt.Sprintf("P%04d", i)
	}
	return ps
}()

var sink bool

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func TestHasPrefixAny(t *testing.T) {
	if !ext.HasPrefixAny("GET /", prefixes) || ext.HasPrefixAny("PUT /", prefixes) {
		t.Fatal("HasPrefixAny")
	}
}

func BenchmarkHasPrefixAny(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = ext.HasPrefixAny("GET /index.html", prefixes)
	}
}
