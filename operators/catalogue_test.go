package operators

import (
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestCatalogue: every operator of All has its line, with its quadrant and
// title, and every options section is shown once with its defaults.
func TestCatalogue(t *testing.T) {
	got := Catalogue(All)
	for _, op := range All {
		if n := strings.Count(got, string(op.Quadrant)+"  "+op.Name+" "); n != 1 {
			t.Errorf("%s appears %d times in the catalogue:\n%s", op.Name, n, got)
		}
		if !strings.Contains(got, op.Name+" ") || !strings.Contains(got, "  "+op.Doc.Title+"\n") {
			t.Errorf("no line for %s with its title:\n%s", op.Name, got)
		}
	}
	for _, want := range []string{
		"options: spin-loop: {iterations: [10000, 100000, 1000000]}\n",
		"options: tail-spike: {every: [1000], durations: [1ms]}\n",
		"options: oblivion: {blacklist: []}\n",
		"options: oblivion: (as above)\n",
		"options: call-replace: a list of {func, value, callers}\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("catalogue lacks %q:\n%s", want, got)
		}
	}
}

// TestAllOrder: All lists the Q4 operators, then Q3, then Q2, the order
// perfmut list -h prints them in.
func TestAllOrder(t *testing.T) {
	rank := map[mutate.Quadrant]int{mutate.Q4: 0, mutate.Q3: 1, mutate.Q2: 2}
	for i := 1; i < len(All); i++ {
		if a, b := All[i-1], All[i]; rank[b.Quadrant] < rank[a.Quadrant] {
			t.Errorf("All lists %s (%s) after %s (%s): list Q4, then Q3, then Q2", b.Name, b.Quadrant, a.Name, a.Quadrant)
		}
	}
}
