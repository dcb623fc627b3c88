// Package config holds perfmut's typed configuration (perfmut.yaml): which
// operators run, the package scope, extra metrics and skipped benchmarks,
// and one section per operator that has options. The operators own their
// sections, as an analysis.Analyzer owns its Flags: each describes its
// section as a Section (a key and a function returning the options at their
// defaults), and Parse decodes every section of a Schema through it. The
// file is decoded strictly (unknown keys, bad types and bad values are
// path:line: errors) and the result is passed down explicitly; there is no
// package-level mutable state.
package config

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

	// Metrics lists extra benchmark units (from b.ReportMetric) for which a
	// higher value is worse, so the statistics test them too. Load stores
	// them as benchfmt tidies units: p99-ns/op becomes p99-sec/op.
	Metrics []string `yaml:"metrics"`

	// SkipBenchmarks lists regular expressions of benchmarks never to run
	// (as go test -skip matches them: a pattern per level of the name, split
	// at '/'), e.g. ones that need a network or take minutes.
	SkipBenchmarks []string `yaml:"skip-benchmarks"`

	// sections holds the operators' sections decoded from the file, by
	// key (see Section).
	sections map[string]any
	// order lists the schema's sections in order, for CheckNames.
	order []*Section
}

// Packages is the include/exclude scope.
type Packages struct {
	Include []string `yaml:"include"`
	Exclude []string `yaml:"exclude"`
}

// Default returns the configuration used when there is no perfmut.yaml:
// every operator section at the defaults its Section.New returns.
func Default() *Config {
	return &Config{}
}
