package score

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

type ksCase struct {
	Baseline []float64 `json:"baseline"`
	Mutant   []float64 `json:"mutant"`
	D        float64   `json:"d"`
	PExact   *float64  `json:"p_exact"`
	PAsymp   float64   `json:"p_asymp"`
	PAuto    float64   `json:"p_auto"`
}

func readKSCases(t *testing.T, path string) []ksCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && path != "testdata/ks_reference.json" {
			t.Skipf("%s not present", path)
		}
		t.Fatal(err)
	}
	var ref struct {
		Cases []ksCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(ref.Cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return ref.Cases
}

// close reports whether got is within 1e-6 relative or 1e-12 absolute of want.
func close(got, want float64) bool {
	diff := math.Abs(got - want)
	return diff <= 1e-12 || diff <= 1e-6*math.Abs(want)
}

// TestOneSidedKSReference checks every case of the scipy reference values
// (scipy 1.10.1 ks_2samp, alternative "less"; see testdata).
func TestOneSidedKSReference(t *testing.T) {
	for _, path := range []string{"testdata/ks_reference.json"} {
		t.Run(path, func(t *testing.T) {
			cases := readKSCases(t, path)
			for i, c := range cases {
				b0, m0 := slices.Clone(c.Baseline), slices.Clone(c.Mutant)
				d, p := OneSidedKS(c.Baseline, c.Mutant)
				if !close(d, c.D) || !close(p, c.PAuto) {
					t.Errorf("case %d (%dx%d): auto = (%v, %v), want (%v, %v)", i, len(c.Baseline), len(c.Mutant), d, p, c.D, c.PAuto)
				}
				if _, p := OneSidedKSMethod(c.Baseline, c.Mutant, Asymp); !close(p, c.PAsymp) {
					t.Errorf("case %d (%dx%d): asymp p = %v, want %v", i, len(c.Baseline), len(c.Mutant), p, c.PAsymp)
				}
				if c.PExact != nil {
					if _, p := OneSidedKSMethod(c.Baseline, c.Mutant, Exact); !close(p, *c.PExact) {
						t.Errorf("case %d (%dx%d): exact p = %v, want %v", i, len(c.Baseline), len(c.Mutant), p, *c.PExact)
					}
				}
				if !slices.Equal(b0, c.Baseline) || !slices.Equal(m0, c.Mutant) {
					t.Fatalf("case %d: OneSidedKS modified its arguments", i)
				}
			}
		})
	}
}

// TestOneSidedKSNotes checks the cases listed in ks_notes.md (from scipy's
// own tests) and the smallest reachable p-values.
func TestOneSidedKSNotes(t *testing.T) {
	tests := []struct {
		baseline, mutant []float64
		d, p             float64
	}{
		{[]float64{0}, []float64{1}, 1, 0.5},
		{[]float64{1.01, 2.01}, []float64{1, 2, 3}, 1.0 / 3, 0.7},
		{[]float64{0.99, 1.99}, []float64{1, 2, 3, 4}, 3.0 / 4, 0.2},
		{[]float64{1, 2, 3, 4}, []float64{1.01, 2.01}, 1.0 / 4, 0.8},
		{[]float64{1, 2, 3}, []float64{2, 3, 4}, 1.0 / 3, 0.75},
		// Shifted above every baseline value: 1/C(2n, n).
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 1, 0.05},
		{[]float64{5, 1, 4, 2, 3}, []float64{10, 7, 9, 8, 6}, 1, 1.0 / 252},
		// Constant samples (B/op, allocs/op) can kill.
		{[]float64{1024, 1024, 1024, 1024, 1024}, []float64{2048, 2048, 2048, 2048, 2048}, 1, 1.0 / 252},
		// Identical samples.
		{[]float64{3, 1, 2, 2}, []float64{2, 1, 3, 2}, 0, 1},
		{[]float64{7, 7, 7}, []float64{7, 7, 7}, 0, 1},
		// Mutant faster.
		{[]float64{4, 5, 6}, []float64{1, 2, 3}, 0, 1},
		// Empty.
		{nil, []float64{1}, 0, 1},
		{[]float64{1}, nil, 0, 1},
	}
	for _, tt := range tests {
		d, p := OneSidedKS(tt.baseline, tt.mutant)
		if !close(d, tt.d) || !close(p, tt.p) {
			t.Errorf("OneSidedKS(%v, %v) = (%v, %v), want (%v, %v)", tt.baseline, tt.mutant, d, p, tt.d, tt.p)
		}
	}
	for _, tt := range []struct {
		n int
		p float64
	}{{3, 0.05}, {5, 1.0 / 252}, {10, 5.412544112234515e-06}} {
		if got := smallestP(tt.n); !close(got, tt.p) {
			t.Errorf("smallestP(%d) = %v, want %v", tt.n, got, tt.p)
		}
	}
}

// bruteP is the exact p-value by enumerating every split of the pooled
// ranks 0..n1+n2-1 into a baseline of n1 and a mutant of n2.
func bruteP(n1, n2 int, d float64) float64 {
	var hits, total int
	pool := make([]float64, n1+n2)
	for i := range pool {
		pool[i] = float64(i)
	}
	for mask := 0; mask < 1<<(n1+n2); mask++ {
		if popcount(mask) != n1 {
			continue
		}
		var x, y []float64
		for i, v := range pool {
			if mask&(1<<i) != 0 {
				x = append(x, v)
			} else {
				y = append(y, v)
			}
		}
		total++
		if dd, _ := OneSidedKSMethod(x, y, Asymp); dd >= d-1e-12 {
			hits++
		}
	}
	return float64(hits) / float64(total)
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestExactMatchesEnumeration compares the exact p-value with a full
// enumeration of the permutation distribution for small unequal and equal
// sizes, at every reachable d.
func TestExactMatchesEnumeration(t *testing.T) {
	for _, sz := range [][2]int{{1, 2}, {2, 3}, {3, 5}, {4, 6}, {5, 3}, {6, 4}, {7, 5}, {4, 8}, {6, 6}, {2, 9}} {
		n1, n2 := sz[0], sz[1]
		lcm := n1 * n2 / gcd(n1, n2)
		for h := 1; h <= lcm; h++ {
			d := float64(h) / float64(lcm)
			want := bruteP(n1, n2, d)
			got := ksExact(n1, n2, gcd(n1, n2), h)
			if !close(got, want) {
				t.Errorf("exact p(%d, %d, d=%d/%d) = %v, enumeration %v", n1, n2, h, lcm, got, want)
			}
		}
	}
}

// TestExactSwitchOver checks the sizes at which Auto and Exact stop being
// exact, as in scipy.
func TestExactSwitchOver(t *testing.T) {
	tests := []struct {
		n1, n2 int
		fits   bool
	}{
		{5, 5, true},
		{20000, 20000, true}, // equal sizes: closed form
		{300, 250, true},
		{515, 510, true},  // C(1025, 510) ~ 1e307
		{520, 510, false}, // C(1030, 510) ~ 1e308 overflows a float64
		{10, 3000, true},
	}
	for _, tt := range tests {
		if got := exactFits(tt.n1, tt.n2); got != tt.fits {
			t.Errorf("exactFits(%d, %d) = %v, want %v", tt.n1, tt.n2, got, tt.fits)
		}
	}
	// Beyond 10000 Auto is asymptotic even for equal sizes; Exact is not.
	r := rand.New(rand.NewPCG(1, 2))
	x, y := normals(r, 10001, 0, 1), normals(r, 10001, 0.05, 1)
	d, pa := OneSidedKS(x, y)
	_, pas := OneSidedKSMethod(x, y, Asymp)
	_, pe := OneSidedKSMethod(x, y, Exact)
	if pa != pas || d == 0 {
		t.Errorf("n=10001: auto p %v, asymp %v (d %v)", pa, pas, d)
	}
	if pe == pas {
		t.Errorf("n=10001: exact p %v equals asymp", pe)
	}
	// Unequal sizes past the overflow point: Exact falls back to Asymp.
	x, y = normals(r, 600, 0, 1), normals(r, 500, 0.2, 1)
	_, pe = OneSidedKSMethod(x, y, Exact)
	_, pas = OneSidedKSMethod(x, y, Asymp)
	if pe != pas {
		t.Errorf("600x500: exact p %v, want the asymptotic %v", pe, pas)
	}
}

func normals(r *rand.Rand, n int, mean, sd float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = mean + sd*r.NormFloat64()
	}
	return x
}

// TestKSProperties checks, on random samples of many sizes and tie
// patterns, that d and p are in range, p is non-increasing in d at fixed
// sizes, d is invariant to the order of the values, and exact and asymptotic
// agree for larger samples.
func TestKSProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 300; iter++ {
		n1, n2 := 1+r.IntN(40), 1+r.IntN(40)
		x, y := normals(r, n1, 0, 1), normals(r, n2, r.Float64(), 1)
		if iter%3 == 0 { // heavy ties
			for i := range x {
				x[i] = math.Round(x[i])
			}
			for i := range y {
				y[i] = math.Round(y[i])
			}
		}
		checkKSInvariants(t, x, y)
	}
}

func checkKSInvariants(t *testing.T, x, y []float64) {
	t.Helper()
	for _, m := range []Method{Auto, Exact, Asymp} {
		d, p := OneSidedKSMethod(x, y, m)
		if !(d >= 0 && d <= 1) || !(p >= 0 && p <= 1) {
			t.Fatalf("%v OneSidedKS(%v, %v) = (%v, %v): out of [0, 1]", m, x, y, d, p)
		}
		if d == 0 && p != 1 {
			t.Fatalf("%v OneSidedKS(%v, %v) = (0, %v), want p = 1", m, x, y, p)
		}
	}
	if len(x) == 0 || len(y) == 0 {
		return
	}
	d, p := OneSidedKS(x, y)
	// The reversed order of the values gives the same d.
	xr, yr := slices.Clone(x), slices.Clone(y)
	slices.Reverse(xr)
	slices.Reverse(yr)
	if d2, p2 := OneSidedKS(xr, yr); d2 != d || p2 != p {
		t.Fatalf("order changes the result: (%v, %v) vs (%v, %v)", d, p, d2, p2)
	}
	// Identical samples give d = 0, p = 1.
	if d, p := OneSidedKS(x, slices.Clone(x)); d != 0 || p != 1 {
		t.Fatalf("OneSidedKS(x, x) = (%v, %v)", d, p)
	}
	// p is non-increasing in d at these sizes.
	n1, n2 := len(x), len(y)
	g := gcd(n1, n2)
	lcm := n1 / g * n2
	if lcm > 600 {
		return
	}
	for _, m := range []Method{Exact, Asymp} {
		prev := 1.0
		for h := 0; h <= lcm; h++ {
			var p float64
			if m == Exact {
				p = ksExact(n1, n2, g, h)
			} else {
				p = ksAsymp(n1, n2, float64(h)/float64(lcm))
			}
			if p > prev*(1+1e-12) {
				t.Fatalf("%v p(%d, %d) rises from %v to %v at h = %d/%d", m, n1, n2, prev, p, h, lcm)
			}
			prev = p
		}
	}
}

// FuzzOneSidedKS checks the invariants on arbitrary samples.
func FuzzOneSidedKS(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5}, []byte{6, 7, 8, 9, 10})
	f.Add([]byte{1, 1, 1}, []byte{1, 1, 2})
	f.Add([]byte{}, []byte{3})
	f.Add([]byte{200, 3, 7, 7, 9, 12, 40}, []byte{1, 7, 7, 8})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) > 60 || len(b) > 60 {
			return
		}
		x, y := make([]float64, len(a)), make([]float64, len(b))
		for i, v := range a {
			x[i] = float64(v)
		}
		for i, v := range b {
			y[i] = float64(v)
		}
		checkKSInvariants(t, x, y)
		if len(x) > 0 && len(y) > 0 {
			// Shifting the mutant above every baseline value gives d = 1 and
			// the smallest p for these sizes.
			z := make([]float64, len(y))
			for i, v := range y {
				z[i] = 1000 + v
			}
			d, p := OneSidedKSMethod(x, z, Exact)
			if want := math.Exp(-logBinom(len(x)+len(z), len(x))); d != 1 || !close(p, want) {
				t.Fatalf("shifted: (%v, %v), want (1, %v)", d, p, want)
			}
		}
	})
}

func BenchmarkOneSidedKSExact200x200(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	x, y := normals(r, 200, 0, 1), normals(r, 200, 0.3, 1)
	b.ReportAllocs()
	for b.Loop() {
		OneSidedKSMethod(x, y, Exact)
	}
}

func BenchmarkOneSidedKSExact200x150(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	x, y := normals(r, 200, 0, 1), normals(r, 150, 0.3, 1)
	b.ReportAllocs()
	for b.Loop() {
		OneSidedKSMethod(x, y, Exact)
	}
}

func BenchmarkOneSidedKSExact30x30(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	x, y := normals(r, 30, 0, 1), normals(r, 30, 0.3, 1)
	b.ReportAllocs()
	for b.Loop() {
		OneSidedKS(x, y)
	}
}
