package results

// GeneratedSection is what perfmut compare -generate generated: a
// concurrent benchmark (after SpeedGun) of each thread-safe type whose
// methods changed between OLD and NEW, calling the methods both versions
// export. Their verdicts are among the comparison's Benchmarks.
type GeneratedSection struct {
	Benchmarks []GeneratedBenchmark `json:"benchmarks"`
	// Skipped are the changed thread-safe types (or their methods) no
	// benchmark was generated for, with the reason.
	Skipped []GeneratedSkip `json:"skipped,omitempty"`
	// Dropped counts the candidate call sequences the generator's
	// feedback dropped (they panicked, crashed or deadlocked).
	Dropped int `json:"dropped"`
	// Builds counts the go test -c runs the generation paid (the
	// benchmarks' builds into both versions not included).
	Builds int `json:"builds"`
}

// A GeneratedBenchmark is one generated concurrent benchmark.
type GeneratedBenchmark struct {
	Package string `json:"package"`
	Name    string `json:"name"`
	Type    string `json:"type"` // the shared instance's type, e.g. *Store
	// Covers are the functions it calls (the constructor and methods,
	// named as report.json names them); Focus those that changed.
	Covers []string `json:"covers"`
	Focus  []string `json:"focus,omitempty"`
	// File is the generated _test.go holding it, relative to the output
	// directory: copy it into the package to keep the benchmark.
	File  string `json:"file"`
	Calls int    `json:"calls"` // calls per op
}

// A GeneratedSkip is a changed thread-safe type or method without a
// generated benchmark.
type GeneratedSkip struct {
	Package string `json:"package"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
}
