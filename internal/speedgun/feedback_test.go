package speedgun

import (
	"math/rand/v2"
	"testing"
)

// TestDraw: focus atoms are drawn focusWeight times as often (or, among
// many others, as often as all of them together), an atom
// with maxStrikes failures never, and when every atom has them they are
// forgiven rather than none drawn.
func TestDraw(t *testing.T) {
	tg := &typeGen{atoms: []atom{{cover: "A"}, {cover: "B", focus: true}, {cover: "C"}}, okAtoms: []int{0, 1, 2}, strikes: map[int]int{2: maxStrikes}}
	g := &gen{rng: rand.New(rand.NewPCG(1, 2))}
	n := map[int]int{}
	for range 5000 {
		n[g.draw(tg)]++
	}
	if n[2] != 0 || n[1] < 3*n[0] || n[1] > 5*n[0] {
		t.Errorf("draws %v: want none of the struck atom 2 and about %d times as many of the focus atom 1 as of 0", n, focusWeight)
	}
	// With many other atoms, the focus atoms together are as likely as
	// all the others.
	many := &typeGen{strikes: map[int]int{}}
	for i := range 41 {
		many.atoms = append(many.atoms, atom{focus: i == 0})
		many.okAtoms = append(many.okAtoms, i)
	}
	focus := 0
	for range 4000 {
		if g.draw(many) == 0 {
			focus++
		}
	}
	if focus < 1800 || focus > 2200 {
		t.Errorf("the one focus atom of 41 drawn %d times in 4000, want about half", focus)
	}
	tg.strikes = map[int]int{0: maxStrikes, 1: maxStrikes, 2: maxStrikes}
	if a := g.draw(tg); a < 0 || a > 2 || len(tg.strikes) != 0 {
		t.Errorf("with every atom struck: drew %d, strikes %v; want an atom and the strikes cleared", a, tg.strikes)
	}
}

// TestErrShare: the share of a candidate's calls that returned an error,
// from the driver's count over its ops (goroutine g's op k runs suffix
// g+k, so len(Suffixes) ops make every suffix's calls once).
func TestErrShare(t *testing.T) {
	c := cand{Suffixes: [][]int{{0, 1}, {2, 3, 4, 5}}, Repeat: 3}
	// 100 ops make 50 x (2+4) x 3 = 900 calls.
	if got := errShare(res{Ops: 100, Errs: 90}, c); got != 0.1 {
		t.Errorf("errShare = %v, want 0.1", got)
	}
	if got := errShare(res{}, c); got != 0 {
		t.Errorf("errShare of no ops = %v, want 0", got)
	}
}
