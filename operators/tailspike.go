package operators

import (
	"fmt"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// TailSpike sleeps at every k-th execution of a critical section or a loop
// body.
var TailSpike = &mutate.Operator{
	Name:     "tail-spike",
	Quadrant: mutate.Q3,
	Cost:     mutate.CostWait,
	Inert:    true,
	Tail:     true,
	Size:     "duration",
	Options: &config.Section{Key: "tail-spike", New: func() any {
		return &TailSpikeOptions{Every: []int{1000}, Durations: []time.Duration{time.Millisecond}}
	}},
	Doc: mutate.Doc{
		Title: "sleep at every k-th execution of a critical section or loop body",
		Body: `Inserts a call that counts executions in a package-level atomic counter
and sleeps d at every k-th one (tail-spike.every, default 1000, and
tail-spike.durations, default 1ms; one mutant per site, k and d) right after
the Lock or RLock statement of a critical section (as critical-spin finds
them) and at the start of every for and range body. The mean cost per
execution moves by d/k (1us by default), the 99.9th percentile by d: it asks
whether the benchmarks can see a tail regression at all, which a benchmark
reporting only ns/op rarely can.`,
		Before: `for _, x := range xs {
	sum += x
}`,
		After: `for _, x := range xs { perfmut_tail(1000, 1000000);
	sum += x
}`,
	},
	Helper: `// perfmut_tailCount counts the executions of the mutated site.
var perfmut_tailCount atomic.Uint64

// perfmut_tail sleeps ns nanoseconds at every every-th call.
func perfmut_tail(every uint64, ns int64) {
	if perfmut_tailCount.Add(1)%every == 0 {
		time.Sleep(time.Duration(ns))
	}
}
`,
	HelperImports: []string{"sync/atomic", "time"},
	Run:           runTailSpike,
}

// tailNames are the helper's identifiers and import names.
var tailNames = helperNames{calls: []string{"perfmut_tail"}, pkgLevel: []string{"perfmut_tailCount", "atomic", "time"}}

// TailSpikeOptions are tail-spike's options, the tail-spike: section of
// the configuration: every Every-th execution of a site sleeps one of
// Durations.
type TailSpikeOptions struct {
	Every     []int           `yaml:"every"`     // default 1000
	Durations []time.Duration `yaml:"durations"` // default 1ms
}

// Validate checks the sizes.
func (o *TailSpikeOptions) Validate() error {
	if err := inRange("every", o.Every, 1, 1e9, "tail-spike every must be between 1 and 1e9 (1 sleeps at every execution)"); err != nil {
		return err
	}
	return inRange("durations", o.Durations, 1, time.Minute, "tail-spike duration must be positive and at most 1m")
}

func runTailSpike(pass *mutate.Pass) {
	opts := pass.Options.(*TailSpikeOptions)
	var ns []int64
	for _, d := range opts.Durations {
		ns = append(ns, int64(d))
	}
	var loops, sections []q3Size
	for _, k := range uniqueSorted(opts.Every, func(k int) bool { return k > 0 }) {
		for _, n := range uniqueSorted(ns, func(n int64) bool { return n > 0 }) {
			d := time.Duration(n)
			size := q3Size{
				stmt:   fmt.Sprintf("perfmut_tail(%d, %d)", k, n),
				params: map[string]any{"every": k, "duration": Duration(d)},
			}
			size.desc = fmt.Sprintf("sleep %s at %sloop iteration", d, everyNth(k))
			loops = append(loops, size)
			size.desc = fmt.Sprintf("sleep %s at %sentry to the critical section", d, everyNth(k))
			sections = append(sections, size)
		}
	}
	insertAtLoops(pass, loops, tailNames)
	insertInCriticalSections(newFile(pass), sections, tailNames)
}

// everyNth returns "every 1000th ", "every 2nd ", ... and "every " for 1.
func everyNth(k int) string {
	if k == 1 {
		return "every "
	}
	suffix := "th"
	switch {
	case k%100 >= 11 && k%100 <= 13:
	case k%10 == 1:
		suffix = "st"
	case k%10 == 2:
		suffix = "nd"
	case k%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("every %d%s ", k, suffix)
}
