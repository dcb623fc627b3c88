package results

// Noise is the machine's noise over a campaign: the load and CPU steal at
// its start and end, the spread of each benchmark's baseline samples, and
// the advice given at the start when the noise exceeds what the
// campaign's kills need.
type Noise struct {
	// Measures is what the samples measure: "time", or "instructions
	// (valgrind 3.19.0)".
	Measures string  `json:"measures,omitempty"`
	Machine  Machine `json:"machine"`
	// Benchmarks are the baseline's benchmarks in the campaign's order.
	Benchmarks []BenchNoise `json:"benchmarks,omitempty"`
	// Advice are the noise check's lines (one per level and metric that has
	// one): none when every benchmark whose noise is known can detect a
	// slowdown of the minimum effect.
	Advice []string `json:"advice,omitempty"`
}

// BenchNoise is the spread of one benchmark's baseline samples.
type BenchNoise struct {
	Name   string  `json:"name"`            // as score.TestResult.Benchmark names it
	Level  string  `json:"level,omitempty"` // the optimization level of its samples (Opt, NoOpt)
	Metric string  `json:"metric"`          // the samples' metric: "sec/op" or "instructions/op"
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// MaxMin is the largest sample over the smallest, CV the robust
	// coefficient of variation, Detectable the smallest slowdown (a
	// ratio) the benchmark detects at the campaign's sample budget: nil
	// when unknown (too few samples, a sample that is not positive).
	MaxMin     *float64 `json:"max_min"`
	CV         *float64 `json:"cv"`
	Detectable *float64 `json:"detectable"`
	TooNoisy   bool     `json:"too_noisy,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
}
