package detect

import (
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// A Count is how many timed samples of one benchmark's profile a function
// is in: Flat when its own code is running (it is the innermost frame),
// Cum when it is anywhere on the stack (its callees included).
type Count struct{ Flat, Cum int64 }

// Shares are one benchmark's sample counts: Total timed samples and each
// function's Count, by the key keyOf gives the function.
type Shares struct {
	Total int64
	Funcs map[string]Count
}

// Add adds the counts of t, another profile of the same benchmark.
func (s *Shares) Add(t Shares) {
	if s.Funcs == nil {
		s.Funcs = map[string]Count{}
	}
	s.Total += t.Total
	for k, c := range t.Funcs {
		old := s.Funcs[k]
		s.Funcs[k] = Count{old.Flat + c.Flat, old.Cum + c.Cum}
	}
}

// classify tells how a profile's frames count. KeyOf maps a profile
// function name (e.g. example.com/m/p.(*T).M.func1) to the row it belongs
// to ("" = not a function in scope). IsBench reports the benchmark
// function's profile names: only samples with it on the stack are the
// benchmark's.
// SetUp reports the keys of the functions that run only before the timed
// loop: samples with one of them on the stack are left out.
type classify struct {
	IsBench func(name string) bool
	KeyOf   func(name string) string
	SetUp   func(key string) bool
}

// Count counts the benchmark's timed samples in p, weighting each sample
// by its first value (the sample count of a CPU profile).
func (c classify) Count(p *profile.Profile) Shares {
	s := Shares{Funcs: map[string]Count{}}
	for _, smp := range p.Sample {
		frames := frameNames(smp)
		if !slices.ContainsFunc(frames, c.IsBench) {
			continue
		}
		keys := c.keys(frames)
		if c.SetUp != nil && anyKey(keys, c.SetUp) {
			continue
		}
		w := int64(1)
		if len(smp.Value) > 0 {
			w = smp.Value[0]
		}
		s.Total += w
		seen := map[string]bool{}
		for i, k := range keys {
			if k == "" {
				continue
			}
			cnt := s.Funcs[k]
			if i == 0 {
				cnt.Flat += w
			}
			if !seen[k] {
				seen[k] = true
				cnt.Cum += w
			}
			s.Funcs[k] = cnt
		}
	}
	return s
}

// keys maps frames to row keys; keys[0] is the innermost frame's.
func (c classify) keys(frames []string) []string {
	keys := make([]string, len(frames))
	for i, f := range frames {
		keys[i] = c.KeyOf(f)
	}
	return keys
}

// frameNames lists a sample's function names, innermost first, inlined
// frames included.
func frameNames(s *profile.Sample) []string {
	var out []string
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil {
				out = append(out, ln.Function.Name)
			}
		}
	}
	return out
}

func anyKey(keys []string, f func(string) bool) bool {
	for _, k := range keys {
		if k != "" && f(k) {
			return true
		}
	}
	return false
}

// KeyOf returns the function that maps a profile function name to the
// key "importpath.Func" (Func named as perfmut list names functions:
// Lower, T.M or (*T).M) when the function is declared in one of pkgs, else
// "". Closures (F.func1, F.func1.2) belong to their enclosing function,
// and type arguments ([...], [go.shape.int]) are dropped.
func KeyOf(pkgs []string) func(string) string {
	return func(name string) string {
		for _, p := range pkgs {
			rest, ok := strings.CutPrefix(name, p+".")
			if !ok {
				continue
			}
			if fn := declName(rest); fn != "" {
				return p + "." + fn
			}
		}
		return ""
	}
}

// declName turns the part of a profile name after the package path into
// the declared function's name: (*T[...]).M.func2 -> (*T).M.
func declName(s string) string {
	s = stripTypeArgs(s)
	parts := strings.Split(s, ".")
	if strings.HasPrefix(s, "(") { // method with a pointer receiver: (*T).M
		if len(parts) < 2 {
			return ""
		}
		return parts[0] + "." + parts[1]
	}
	if len(parts) >= 2 && !isClosure(parts[1]) && !isDigits(parts[1]) {
		return parts[0] + "." + parts[1] // method with a value receiver
	}
	return parts[0]
}

// stripTypeArgs drops bracketed type arguments, nested ones included:
// (*LRU[go.shape.int]).Get -> (*LRU).Get.
func stripTypeArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isClosure(s string) bool {
	return strings.HasPrefix(s, "func") && isDigits(s[len("func"):]) || strings.HasPrefix(s, "gowrap") || strings.HasPrefix(s, "deferwrap")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
