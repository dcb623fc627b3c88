package results

// FunctionSensitivity is one function's row of the detectability map:
// the smallest factor by which it must slow down for some benchmark to
// notice, and the benchmark that notices it first.
type FunctionSensitivity struct {
	Package  string `json:"package"`  // import path
	Function string `json:"function"` // as perfmut list names it: Lower, T.M or (*T).M
	// Status is "timed", "set-up only" or "never".
	Status string `json:"status"`
	// Factor is nil when never or set-up only. AtLeast: no timed profile
	// sample fell in the function, and Factor is a lower bound.
	Factor     *float64 `json:"factor"`
	AtLeast    bool     `json:"at_least,omitempty"`
	FactorLow  float64  `json:"factor_low,omitempty"`  // the 95% interval of Factor
	FactorHigh float64  `json:"factor_high,omitempty"` // 0 = unbounded
	Benchmark  string   `json:"benchmark,omitempty"`   // importpath.BenchmarkX protecting it best
	Share      float64  `json:"share"`                 // with callees, of Benchmark's timed samples
	ShareLow   float64  `json:"share_low"`
	ShareHigh  float64  `json:"share_high"`
	FlatShare  float64  `json:"flat_share"` // its own code only
	Samples    int64    `json:"samples"`    // Benchmark's timed profile samples
}

// FunctionMap is how the campaign's detectability map was made.
type FunctionMap struct {
	Benchmarks int `json:"benchmarks"` // benchmarks mapped
	// Seconds is the map's wall time by step: build, coverage,
	// calibrate, profile (0 when reused).
	BuildSeconds     float64 `json:"build_seconds"`
	CoverageSeconds  float64 `json:"coverage_seconds"`
	CalibrateSeconds float64 `json:"calibrate_seconds"`
	ProfileSeconds   float64 `json:"profile_seconds"`
	// Reused is set when the map was read from an earlier campaign's
	// output (-since) because no package it depends on changed.
	Reused bool `json:"reused,omitempty"`
	// Skipped are the benchmarks that failed on the baseline (one line
	// each, "importpath.BenchmarkX: reason").
	Skipped []string `json:"skipped,omitempty"`
	// Counted are the benchmarks (importpath.BenchmarkX) whose detectable
	// ratio is from the baseline's instruction counts (-measure
	// instructions), not from the profiled rounds' wall time.
	Counted []string `json:"counted,omitempty"`
	// From says, in a merged report (perfmut merge), which shard's map it
	// is and whether the other shards' maps agree.
	From string `json:"from,omitempty"`
}

// Seconds is the map's total wall time.
func (m FunctionMap) Seconds() float64 {
	return m.BuildSeconds + m.CoverageSeconds + m.CalibrateSeconds + m.ProfileSeconds
}

// FunctionNote says what protects one function changed since
// -changed-since: its factor and the benchmark that protects it best, or
// that none does.
type FunctionNote struct {
	Function  string   `json:"function"` // importpath.Func
	File      string   `json:"file,omitempty"`
	Line      int      `json:"line,omitempty"`
	Status    string   `json:"status"`
	Factor    *float64 `json:"factor"`
	AtLeast   bool     `json:"at_least,omitempty"`
	Benchmark string   `json:"benchmark,omitempty"`
	Share     float64  `json:"share,omitempty"`
	Warning   bool     `json:"warning"` // never, set-up only or a factor above WarnFactor
	Text      string   `json:"text"`
}

// MapSettings are the detectability map's settings: -function-map and
// -warn-factor. Neither changes a verdict.
type MapSettings struct {
	// FunctionMap is whether the campaign made the map (false in
	// campaigns that did not ask for it, e.g. calibrate's).
	FunctionMap bool `json:"function_map,omitempty" setting:"-function-map,selection"`
	// WarnFactor is -warn-factor: a changed function whose factor is
	// above it gets a warning (0 = detect.DefaultWarnFactor).
	WarnFactor float64 `json:"warn_factor,omitempty" setting:"-warn-factor,selection"`
}
