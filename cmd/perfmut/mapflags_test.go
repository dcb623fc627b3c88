package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/detect"
)

// TestMapFlags: the map is on by default with detect's threshold; a
// -warn-factor that is not above 1 is refused as it is parsed.
func TestMapFlags(t *testing.T) {
	parse := func(args ...string) (mapFlags, error) {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f mapFlags
		f.register(fs)
		return f, fs.Parse(args)
	}
	f, err := parse()
	if err != nil || !f.FunctionMap || f.WarnFactor != detect.DefaultWarnFactor {
		t.Errorf("defaults = %+v, %v; want the map on, -warn-factor %v", f, err, detect.DefaultWarnFactor)
	}
	f, err = parse("-function-map=false", "-warn-factor", "1.5")
	if err != nil || f.FunctionMap || f.WarnFactor != 1.5 {
		t.Errorf("-function-map=false -warn-factor 1.5 = %+v, %v", f, err)
	}
	for _, bad := range []string{"1", "0.5", "x2", "NaN"} {
		if _, err := parse("-warn-factor", bad); err == nil || !strings.Contains(err.Error(), "want a factor above 1, e.g. 2") {
			t.Errorf("-warn-factor %s: err %v", bad, err)
		}
	}
}
