package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/results"
)

// mapFlags are perfmut run's flags of the detectability map
// (docs/sensitivity.md): -function-map and -warn-factor, held as the
// settings report.json records.
type mapFlags struct{ results.MapSettings }

// register registers the map's flags on fs; -warn-factor is checked as it
// is parsed.
func (f *mapFlags) register(fs *flag.FlagSet) {
	f.FunctionMap = true
	fs.BoolVar(&f.FunctionMap, "function-map", true, "map each function's sensitivity after the mutants (the smallest slowdown of it some benchmark notices; a profiled run of each benchmark, bounded: see -plan) into report.json and the reports")
	registerWarnFactor(fs, &f.WarnFactor, "the Markdown summary and SARIF")
}

// registerWarnFactor registers -warn-factor on fs (perfmut run's and
// perfmut sensitivity's), into *warn, checked as it is parsed; where says
// where the notes it turns into warnings are written.
func registerWarnFactor(fs *flag.FlagSet, warn *float64, where string) {
	*warn = detect.DefaultWarnFactor
	fs.Func("warn-factor", fmt.Sprintf("with -changed-since, a changed function whose `factor` (the smallest slowdown of it some benchmark notices) is above this is a warning in %s, not a note (default %v)", where, detect.DefaultWarnFactor), func(s string) error {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || !(x > 1) {
			return fmt.Errorf("want a factor above 1, e.g. 2 (a function twice as slow)")
		}
		*warn = x
		return nil
	})
}

// apply records the flags in c's settings.
func (f *mapFlags) apply(s *results.Settings) { s.MapSettings = f.MapSettings }
