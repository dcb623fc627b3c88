package attrib

import (
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Charges are one profile's values by function.
type Charges struct {
	Total float64
	// Self is each function's charged value: the samples whose innermost
	// module frame it is, or, without a module frame, whose outermost
	// frame it is.
	Self map[string]float64
	// Cum is each module function's value with everything it called.
	Cum map[string]float64
	// Callees holds, for each module function, the module functions seen
	// below it on a stack.
	Callees map[string]map[string]bool
	// Stacks is the value of each stack of module functions, outermost
	// first, joined by " > " ("" for samples without one).
	Stacks map[string]float64
	// GC is the value of the samples in the garbage collector (a
	// runtime.gc* frame: background marking, assists).
	GC float64
}

// A Keyer maps a profile's function name to the key of the module
// function it belongs to (importpath.Func), or "" for code outside the
// module; detect.KeyOf is one.
type Keyer func(name string) string

// ValueIndex is the index of the sample type typ (cpu, alloc_space,
// alloc_objects) in p.
func ValueIndex(p *profile.Profile, typ string) (int, error) {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i, nil
		}
	}
	var have []string
	for _, st := range p.SampleType {
		have = append(have, st.Type)
	}
	return 0, fmt.Errorf("profile has no %s values (it has %s)", typ, strings.Join(have, ", "))
}

// Charge reduces p's values of sample type typ to Charges.
func Charge(p *profile.Profile, typ string, key Keyer) (Charges, error) {
	vi, err := ValueIndex(p, typ)
	if err != nil {
		return Charges{}, err
	}
	c := Charges{Self: map[string]float64{}, Cum: map[string]float64{}, Callees: map[string]map[string]bool{}, Stacks: map[string]float64{}}
	for _, s := range p.Sample {
		v := float64(s.Value[vi])
		if v == 0 {
			continue
		}
		c.Total += v
		names := frames(s)
		keys := make([]string, len(names))
		for i, n := range names {
			keys[i] = key(n)
		}
		c.Self[selfKey(names, keys)] += v
		c.addStack(keys, v)
		if slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "runtime.gc") }) {
			c.GC += v
		}
	}
	return c, nil
}

// addStack adds a sample's value v to the Cum of each module function on
// its stack (keys, innermost first; "" outside the module) and records
// which module functions ran below which.
func (c *Charges) addStack(keys []string, v float64) {
	var seen, stack []string
	for _, k := range keys {
		if k != "" && (len(stack) == 0 || stack[len(stack)-1] != k) {
			stack = append(stack, k)
		}
		if k == "" || slices.Contains(seen, k) {
			continue
		}
		c.Cum[k] += v
		for _, inner := range seen {
			if c.Callees[k] == nil {
				c.Callees[k] = map[string]bool{}
			}
			c.Callees[k][inner] = true
		}
		seen = append(seen, k)
	}
	slices.Reverse(stack)
	c.Stacks[strings.Join(stack, " > ")] += v
}

// selfKey is the function a sample is charged to: its innermost module
// frame, else its outermost frame other than runtime.goexit.
func selfKey(names, keys []string) string {
	for _, k := range keys {
		if k != "" {
			return k
		}
	}
	for i := len(names) - 1; i >= 0; i-- {
		if names[i] != "runtime.goexit" {
			return names[i]
		}
	}
	return "(unknown)"
}

// frames lists a sample's function names, innermost first, inlined
// frames included.
func frames(s *profile.Sample) []string {
	var out []string
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil {
				out = append(out, ln.Function.Name)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "(unknown)")
	}
	return out
}

// ToChanged is c with the value of each stack whose innermost module
// function did not change moved to the innermost changed function above
// it on that stack, if there is one: the change made those calls (an
// oblivion mutant of Tokenize calls the unchanged isSeparator again).
// Benchmark functions take nothing: a changed benchmark calls
// everything. changed holds the changed functions' keys.
func (c Charges) ToChanged(changed map[string]string) Charges {
	if len(changed) == 0 {
		return c
	}
	self, moved := maps.Clone(c.Self), map[string]float64{}
	for stack, v := range c.Stacks {
		if stack == "" {
			continue
		}
		fs := strings.Split(stack, " > ")
		inner := fs[len(fs)-1]
		if _, ok := changed[inner]; ok {
			continue
		}
		for i := len(fs) - 2; i >= 0; i-- {
			if _, ok := changed[fs[i]]; ok && !isBenchmark(fs[i]) {
				moved[inner] += v
				self[fs[i]] += v
				break
			}
		}
	}
	for k, v := range moved {
		if self[k] -= v; math.Abs(self[k]) <= 1e-9*v {
			delete(self, k) // all of it moved: no rounding left behind
		}
	}
	c.Self = self
	return c
}

// isBenchmark reports whether key (importpath.Func) names a benchmark
// function.
func isBenchmark(key string) bool {
	_, name := path.Split(key)
	name = name[strings.Index(name, ".")+1:]
	return strings.HasPrefix(name, "Benchmark")
}
