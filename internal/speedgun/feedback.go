package speedgun

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// A typeGen is the generation state of one target.
type typeGen struct {
	idx     int
	t       *target
	atoms   []atom
	makes   []make_
	okAtoms []int // atoms that ran alone without failing
	okMakes []int // makes that ran without failing
	strikes map[int]int
	kept    []kept // candidates that ran without failing
}

// kept is a candidate that survived, with its suffix length and time per
// op.
type kept struct {
	c    cand
	s    int
	ns   float64
	errs float64 // the share of its calls that returned an error
}

// A gen generates for the targets of one package through one driver.
type gen struct {
	cfg    Config
	d      *driver
	rng    *rand.Rand
	nextID int
	res    *Result
}

const (
	maxSuffix    = 32 // the longest sequence s (suffixes of s² calls)
	maxPrefix    = 8  // the longest prefix, which fills the instance
	perStep      = 6  // candidates per step of the length search
	maxTries     = 8  // steps of the length search
	focusWeight  = 4  // how much more often a focus atom is drawn
	maxStrikes   = 2  // failures in sequences after which an atom is not drawn
	maxDropNotes = 10 // dropped candidates described per type
)

// drop records a failed candidate of tg.
func (g *gen) drop(tg *typeGen, what string, r res) {
	g.res.Dropped++
	if n := countPrefix(g.res.Drops, tg.t.display); n < maxDropNotes {
		g.res.Drops = append(g.res.Drops, fmt.Sprintf("%s: %s %s", tg.t.display, what, r.why()))
	}
}

func countPrefix(ss []string, p string) int {
	n := 0
	for _, s := range ss {
		if len(s) > len(p) && s[:len(p)] == p {
			n++
		}
	}
	return n
}

// newCand returns a candidate of tg with a fresh ID.
func (g *gen) newCand(tg *typeGen) cand {
	g.nextID++
	return cand{ID: g.nextID, Type: tg.idx, Parallelism: g.cfg.Parallelism, Timeout: int64(g.cfg.CandidateTimeout)}
}

// checkSingles runs each make alone, then each atom alone from all
// goroutines at once on a made instance, and keeps those that do not
// fail: the first round of feedback.
func (g *gen) checkSingles(ctx context.Context, tg *typeGen) error {
	var cands []cand
	for i := range tg.makes {
		c := g.newCand(tg)
		c.New = i
		cands = append(cands, c)
	}
	rs, err := g.d.run(ctx, cands)
	if err != nil {
		return err
	}
	for i, c := range cands {
		if r := rs[c.ID]; r.OK {
			tg.okMakes = append(tg.okMakes, i)
		} else {
			g.drop(tg, "creating it with "+tg.makes[i].expr, r)
		}
	}
	if len(tg.okMakes) == 0 {
		return nil
	}
	cands = cands[:0]
	for i := range tg.atoms {
		c := g.newCand(tg)
		c.New, c.Suffixes, c.Repeat, c.MinWall = tg.okMakes[0], [][]int{{i}}, 1, int64(time.Millisecond)
		cands = append(cands, c)
	}
	if rs, err = g.d.run(ctx, cands); err != nil {
		return err
	}
	for i, c := range cands {
		if r := rs[c.ID]; r.OK {
			tg.okAtoms = append(tg.okAtoms, i)
		} else {
			g.drop(tg, tg.atoms[i].src, r)
		}
	}
	return nil
}

// draw returns a random usable atom, a focus atom focusWeight times as
// likely as another, and the focus atoms together at least as likely as
// all the others (SpeedGun's focus on the changed methods, which a type
// with many methods would dilute).
func (g *gen) draw(tg *typeGen) int {
	focus, other := 0, 0
	for _, a := range tg.okAtoms {
		switch {
		case tg.strikes[a] >= maxStrikes:
		case tg.atoms[a].focus:
			focus++
		default:
			other++
		}
	}
	if focus+other == 0 { // every atom failed in sequences: forgive them
		clear(tg.strikes)
		return g.draw(tg)
	}
	// A focus atom weighs focusWeight, or as much as makes the focus
	// atoms together as likely as all the others, if that is more.
	fw := focusWeight
	if focus > 0 {
		fw = max(fw, (other+focus-1)/focus)
	}
	weight := func(a int) int {
		switch {
		case tg.strikes[a] >= maxStrikes:
			return 0
		case tg.atoms[a].focus:
			return fw
		}
		return 1
	}
	n := g.rng.IntN(focus*fw + other)
	for _, a := range tg.okAtoms {
		if n -= weight(a); n < 0 {
			return a
		}
	}
	return tg.okAtoms[len(tg.okAtoms)-1]
}

// random returns a random candidate of tg with suffixes of s atoms each,
// repeated s times: SpeedGun's suffix of length s².
func (g *gen) random(tg *typeGen, s int) cand {
	c := g.newCand(tg)
	// The constructors that ran, or else the zero value (last).
	makes := slices.DeleteFunc(slices.Clone(tg.okMakes), func(i int) bool { return tg.makes[i].cover == "" })
	if len(makes) == 0 {
		makes = tg.okMakes
	}
	c.New = makes[g.rng.IntN(len(makes))]
	for range g.rng.IntN(maxPrefix + 1) {
		c.Prefix = append(c.Prefix, g.draw(tg))
	}
	for range g.cfg.Parallelism {
		seq := make([]int, s)
		for i := range seq {
			seq[i] = g.draw(tg)
		}
		c.Suffixes = append(c.Suffixes, seq)
	}
	c.Repeat = s
	return c
}

// step runs a batch of random candidates at suffix length s, keeps the
// survivors and returns their median time per op (0 if none survived).
func (g *gen) step(ctx context.Context, tg *typeGen, s int, minWall time.Duration) (float64, error) {
	cands := make([]cand, perStep)
	for i := range cands {
		cands[i] = g.random(tg, s)
		cands[i].MinWall = int64(minWall)
	}
	rs, err := g.d.run(ctx, cands)
	if err != nil {
		return 0, err
	}
	var ns []float64
	for _, c := range cands {
		r := rs[c.ID]
		if !r.OK {
			if r.Atom >= 0 {
				tg.strikes[r.Atom]++
			}
			g.drop(tg, fmt.Sprintf("a sequence of %d calls", s), r)
			continue
		}
		tg.kept = append(tg.kept, kept{c: c, s: s, ns: r.NsPerOp, errs: errShare(r, c)})
		ns = append(ns, r.NsPerOp)
	}
	if len(ns) == 0 {
		return 0, nil
	}
	slices.Sort(ns)
	return ns[len(ns)/2], nil
}

// length finds the suffix length by SpeedGun's binary search (its
// Algorithm 1) over 1 to maxSuffix, for the shortest length whose op
// lasts at least MinOpTime (SpeedGun repeats a test as often as the
// sample time allows: each repetition may meet another interleaving, and
// a short op shows a preempted lock holder in the latency's tail) while
// at least MinReps ops fit in SampleTime. A length that fails both is the
// answer when nothing better exists, as is the longest one tried when
// every op is too short; 0 when every candidate failed.
func (g *gen) length(ctx context.Context, tg *typeGen) (int, error) {
	lo, hi := 1, maxSuffix
	best, fallback := 0, 0
	for tries := 0; lo <= hi && tries < maxTries; tries++ {
		s := (lo + hi) / 2
		ns, err := g.step(ctx, tg, s, 5*time.Millisecond)
		if err != nil {
			return 0, err
		}
		if ns == 0 {
			continue // every candidate failed: try this length again
		}
		tooShort := time.Duration(ns) < g.cfg.MinOpTime
		tooLong := float64(g.cfg.SampleTime)/ns < float64(g.cfg.MinReps)
		switch {
		case tooShort && tooLong:
			return s, nil
		case tooShort:
			fallback = max(fallback, s)
			lo = s + 1
		case tooLong:
			if best == 0 {
				fallback = s
			}
			hi = s - 1
		default:
			best = s // long enough: look for a shorter one
			hi = s - 1
		}
	}
	return cmp.Or(best, fallback), nil
}

// errShare is the share of a candidate's calls in its result's ops that
// returned an error.
func errShare(r res, c cand) float64 {
	calls := 0
	for _, s := range c.Suffixes {
		calls += len(s) * c.Repeat
	}
	if r.Ops == 0 || calls == 0 {
		return 0
	}
	// Goroutine g's op k runs suffix g+k: on average, len(Suffixes) ops
	// make calls calls.
	return float64(r.Errs) / (float64(r.Ops) * float64(calls) / float64(len(c.Suffixes)))
}
