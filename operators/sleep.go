package operators

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// Sleep sleeps at the start of every loop body.
var Sleep = &mutate.Operator{
	Name:     "sleep",
	Quadrant: mutate.Q3,
	Cost:     mutate.CostWait,
	Inert:    true,
	Size:     "duration",
	Options: &config.Section{Key: "sleep", New: func() any {
		return &SleepOptions{Durations: []time.Duration{time.Millisecond}}
	}},
	Doc: mutate.Doc{
		Title: "sleep at the start of every loop iteration",
		Body: `Inserts time.Sleep(d) (through a helper, since the mutated file cannot gain
imports) at the start of every for and range body, once per duration in
sleep.durations (default 1ms).`,
		Before: `for _, x := range xs {
	sum += x
}`,
		After: `for _, x := range xs { perfmut_sleep(1000000);
	sum += x
}`,
	},
	Helper: `// perfmut_sleep sleeps for ns nanoseconds.
func perfmut_sleep(ns int64) {
	time.Sleep(time.Duration(ns))
}
`,
	LoopCost: func(params map[string]any, _ bool) (float64, bool) {
		return mutate.ParamNumber(params["duration"])
	},
	HelperImports: []string{"time"},
	Run:           runSleep,
}

// sleepNames are the helper's identifiers and import names.
var sleepNames = helperNames{calls: []string{"perfmut_sleep"}, pkgLevel: []string{"time"}}

// SleepOptions are sleep's options, the sleep: section of the
// configuration.
type SleepOptions struct {
	Durations []time.Duration `yaml:"durations"` // default 1ms
}

// Validate checks the durations.
func (o *SleepOptions) Validate() error {
	return inRange("durations", o.Durations, 1, time.Minute, "sleep duration must be positive and at most 1m")
}

func runSleep(pass *mutate.Pass) {
	var ns []int64
	for _, d := range pass.Options.(*SleepOptions).Durations {
		ns = append(ns, int64(d))
	}
	var sizes []q3Size
	for _, n := range uniqueSorted(ns, func(n int64) bool { return n > 0 }) {
		d := time.Duration(n)
		sizes = append(sizes, q3Size{
			stmt:   fmt.Sprintf("perfmut_sleep(%d)", n),
			params: map[string]any{"duration": Duration(d)},
			desc:   fmt.Sprintf("sleep %s per loop iteration", d),
		})
	}
	insertAtLoops(pass, sizes, sleepNames)
}

// Duration is the sleep operator's "duration" param: it sorts as a number
// (it has Nanoseconds) and prints and marshals as a Go duration ("1ms").
type Duration time.Duration

// Nanoseconds returns d in nanoseconds.
func (d Duration) Nanoseconds() int64 { return int64(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON encodes d as a string such as "1ms".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }
