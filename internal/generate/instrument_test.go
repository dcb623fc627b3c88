package generate

import (
	"os"
	"strings"
	"testing"
)

const instrSrc = `package in

type T struct{ n int }

type G[K comparable, V any] struct{ k K }

func Unnamed(int, string) int { return 1 }

func Blank(_ int, s string) string {
	return s
}

func (T) Value(x int) int { return x }

func (g *G[K, _]) Key(k K) bool { return g.k == k }

func Generic[K comparable, V any](k K, v ...V) int { return len(v) }
`

const instrTest = `package in

import "testing"

func TestCalls(t *testing.T) {
	Unnamed(3, "x")
	Blank(4, "y")
	T{n: 2}.Value(5)
	(&G[string, int]{k: "a"}).Key("b")
	Generic[string, float64]("k", 1.5, 2.5)
}
`

// TestInstrumentKeepsLines instruments functions with unnamed, blank
// and generic parameters and receivers: every line of the file keeps its
// number, only the lines of the bodies' opening braces change, and the
// tests record every call with its arguments and type arguments.
func TestInstrumentKeepsLines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a module's tests")
	}
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/in\n\ngo 1.24\n")
	write(t, dir, "in.go", instrSrc)
	write(t, dir, "in_test.go", instrTest)
	names := []string{"Unnamed", "Blank", "T.Value", "(*G).Key", "Generic"}
	p, probes := loadProbes(t, dir, names)
	ov, err := instrument(probes)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for path, src := range ov {
		if strings.HasSuffix(path, "in.go") {
			got = src
		}
	}
	orig := strings.Split(instrSrc, "\n")
	lines := strings.Split(string(got), "\n")
	if len(lines) != len(orig) {
		t.Fatalf("instrumented file has %d lines, want %d:\n%s", len(lines), len(orig), got)
	}
	for i := range orig {
		if lines[i] != orig[i] && !strings.Contains(lines[i], "perfmutCapture(") {
			t.Errorf("line %d changed without a probe: %q -> %q", i+1, orig[i], lines[i])
		}
	}
	calls := captureProbes(t, dir, p, probes)
	want := map[string]string{
		"Unnamed":  `"t":[],"a":[{"k":"int","v":"\"3\""},{"k":"string","v":"\"x\""}]`,
		"Blank":    `"t":[],"a":[{"k":"int","v":"\"4\""},{"k":"string","v":"\"y\""}]`,
		"T.Value":  `"t":[],"a":[{"k":"struct","e":[{"k":"int","v":"\"2\""}]},{"k":"int","v":"\"5\""}]`,
		"(*G).Key": `"t":[{"p":"\"\"","n":"\"string\""},{"p":"\"\"","n":"\"int\""}],"a":[{"k":"ptr","e":[{"k":"struct","e":[{"k":"string","v":"\"a\""}]}]},{"k":"string","v":"\"b\""}]`,
		"Generic":  `"t":[{"p":"\"\"","n":"\"string\""},{"p":"\"\"","n":"\"float64\""}],"a":[{"k":"string","v":"\"k\""},{"k":"slice","e":[{"k":"float","v":"\"1.5\""},{"k":"float","v":"\"2.5\""}]}]`,
	}
	for _, n := range names {
		cs := calls[n]
		if len(cs) != 1 {
			t.Errorf("%s: %d calls recorded, want 1", n, len(cs))
			continue
		}
		if k := cs[0].key; !strings.HasSuffix(k, want[n]+"}") {
			t.Errorf("%s recorded %s\nwant ...%s}", n, k, want[n])
		}
	}
	if _, err := os.Stat(dir + "/" + recorderFile); err == nil {
		t.Errorf("the recorder was written into the module")
	}
}
