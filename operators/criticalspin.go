package operators

import (
	"fmt"
	"strings"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// CriticalSpin burns CPU right after a lock is taken, inside the critical
// section.
var CriticalSpin = &mutate.Operator{
	Name:       "critical-spin",
	Quadrant:   mutate.Q3,
	Cost:       mutate.CostContention,
	Contention: mutate.ContentionWorse,
	Inert:      true,
	Size:       "iterations",
	Options: &config.Section{Key: "critical-spin", New: func() any {
		return &CriticalSpinOptions{Iterations: []int{1e3, 1e4}}
	}},
	Doc: mutate.Doc{
		Title: "spin inside a critical section",
		Body: `Inserts a useless loop of N iterations (critical-spin.iterations in the
configuration; default 1e3 and 1e4, one mutant per size) right after the
Lock or RLock statement of a sync.Mutex or sync.RWMutex whose Unlock or
RUnlock follows in the same function, plainly or deferred. One goroutine
pays N iterations per section; under parallel clients every waiter pays
them too, so a serial benchmark sees a fraction of what a b.RunParallel one
sees. The helper works like spin-loop's.`,
		Before: `mu.Lock()
defer mu.Unlock()
sum += x`,
		After: `mu.Lock(); perfmut_critSpin(1000)
defer mu.Unlock()
sum += x`,
	},
	Helper:        strings.ReplaceAll(spinHelper, "perfmut_spin", "perfmut_critSpin"),
	HelperImports: []string{"sync/atomic"},
	Run:           runCriticalSpin,
}

// critSpinNames are the helper's identifiers and import names.
var critSpinNames = helperNames{calls: []string{"perfmut_critSpin"}, pkgLevel: []string{"perfmut_critSpinData", "perfmut_critSpinSink", "atomic"}}

// CriticalSpinOptions are critical-spin's options, the critical-spin:
// section of the configuration.
type CriticalSpinOptions struct {
	Iterations []int `yaml:"iterations"` // default 1e3, 1e4
}

// Validate checks the sizes.
func (o *CriticalSpinOptions) Validate() error {
	return inRange("iterations", o.Iterations, 1, 1e9, "critical-spin iterations must be between 1 and 1e9")
}

func runCriticalSpin(pass *mutate.Pass) {
	var sizes []q3Size
	for _, n := range uniqueSorted(pass.Options.(*CriticalSpinOptions).Iterations, func(n int) bool { return n > 0 }) {
		sizes = append(sizes, q3Size{
			stmt:   fmt.Sprintf("perfmut_critSpin(%d)", n),
			params: map[string]any{"iterations": n},
			desc:   fmt.Sprintf("spin %d iterations inside the critical section", n),
		})
	}
	insertInCriticalSections(newFile(pass), sizes, critSpinNames)
}

// insertInCriticalSections reports one site per critical section of the
// file and size: stmt inserted right after the Lock or RLock statement, on
// its line. The site's node is the lock call.
func insertInCriticalSections(f *file, sizes []q3Size, names helperNames) {
	if len(sizes) == 0 {
		return
	}
	for _, c := range criticalSections(f) {
		at := c.lock.stmt.End()
		if !f.helperUsable(at, names.calls, names.pkgLevel) {
			continue
		}
		for _, s := range sizes {
			f.Report(mutate.Site{
				Node:        c.lock.call,
				Params:      s.params,
				Description: s.desc + " of " + f.short(c.lock.call),
				Edits:       []mutate.Edit{{Start: f.off(at), End: f.off(at), New: "; " + s.stmt}},
			})
		}
	}
}
