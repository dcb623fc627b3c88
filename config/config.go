// Package config holds perfmut's typed configuration (perfmut.yaml): which
// operators run, their sizes, the oblivion blacklist, the Q2 fast-path
// disablers and the package scope. It is decoded strictly and passed down
// explicitly; there is no package-level mutable state.
package config

import "time"

// FileName is the configuration file read from the module root by default.
const FileName = "perfmut.yaml"

// Config is the whole configuration. The zero value is not useful; start from
// Default or Load.
type Config struct {
	// Path is the file the configuration came from ("" for defaults). It is
	// used to prefix error messages as path:line: msg.
	Path string `yaml:"-"`

	// Operators names the enabled operators; empty means all of operators.All
	// that need no configuration (Q2 operators run only with entries).
	Operators []string `yaml:"operators"`

	// Packages restricts the scope by import-path patterns (as go list: a
	// trailing /... matches sub-packages).
	Packages Packages `yaml:"packages"`

	SpinLoop   SpinLoop   `yaml:"spin-loop"`
	Sleep      Sleep      `yaml:"sleep"`
	AllocChurn AllocChurn `yaml:"alloc-churn"`
	Oblivion   Oblivion   `yaml:"oblivion"`

	CriticalSpin CriticalSpin `yaml:"critical-spin"`
	TailSpike    TailSpike    `yaml:"tail-spike"`

	CallReplace []CallReplace `yaml:"call-replace"`
	VarReplace  []VarReplace  `yaml:"var-replace"`

	// Metrics lists extra benchmark units (from b.ReportMetric) for which a
	// higher value is worse, so the statistics test them too. Load stores
	// them as benchfmt tidies units: p99-ns/op becomes p99-sec/op.
	Metrics []string `yaml:"metrics"`

	// SkipBenchmarks lists regular expressions of benchmarks never to run
	// (as go test -skip matches them: a pattern per level of the name, split
	// at '/'), e.g. ones that need a network or take minutes.
	SkipBenchmarks []string `yaml:"skip-benchmarks"`
}

// Packages is the include/exclude scope.
type Packages struct {
	Include []string `yaml:"include"`
	Exclude []string `yaml:"exclude"`
}

// SpinLoop configures the spin-loop operator.
type SpinLoop struct {
	Iterations []int `yaml:"iterations"` // default 1e4, 1e5, 1e6
}

// Sleep configures the sleep operator.
type Sleep struct {
	Durations []time.Duration `yaml:"durations"` // default 1ms
}

// AllocChurn configures the alloc-churn operator.
type AllocChurn struct {
	Bytes []int `yaml:"bytes"` // default 1024
}

// CriticalSpin configures the critical-spin operator.
type CriticalSpin struct {
	Iterations []int `yaml:"iterations"` // default 1e3, 1e4
}

// TailSpike configures the tail-spike operator: every Every-th execution
// of a site sleeps one of Durations.
type TailSpike struct {
	Every     []int           `yaml:"every"`     // default 1000
	Durations []time.Duration `yaml:"durations"` // default 1ms
}

// Oblivion configures the oblivion operators.
type Oblivion struct {
	// Blacklist names functions whose results are never un-memoized, as
	// "pkg/path.Func" or "(*pkg/path.T).M" or a bare "Func".
	Blacklist []string `yaml:"blacklist"`
}

// CallReplace replaces calls to Func with Value, optionally only inside the
// named caller functions.
type CallReplace struct {
	Func    string   `yaml:"func"`    // pkg/path.Func or (*pkg/path.T).M
	Value   string   `yaml:"value"`   // a Go expression
	Callers []string `yaml:"callers"` // function names, e.g. Lower or (*T).M; empty = everywhere
	Line    int      `yaml:"-"`       // line of the entry in Path, for errors
}

// VarReplace replaces reads of the local variable Var with Value, optionally
// only inside the named functions.
type VarReplace struct {
	Var     string   `yaml:"var"`
	Value   string   `yaml:"value"`
	Callers []string `yaml:"callers"`
	Line    int      `yaml:"-"`
}

// Default returns the configuration used when there is no perfmut.yaml.
func Default() *Config {
	return &Config{
		SpinLoop:   SpinLoop{Iterations: []int{1e4, 1e5, 1e6}},
		Sleep:      Sleep{Durations: []time.Duration{time.Millisecond}},
		AllocChurn: AllocChurn{Bytes: []int{1024}},

		CriticalSpin: CriticalSpin{Iterations: []int{1e3, 1e4}},
		TailSpike:    TailSpike{Every: []int{1000}, Durations: []time.Duration{time.Millisecond}},
	}
}
