package score

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUndecidedHintNamesWhatDecides: an undecided mutant's reason names
// only what can still decide it. A quieter machine or longer samples
// narrow a time's spread; an instruction count's spread (a map's random
// seed, say) is the program's own, so for it only more samples are named.
func TestUndecidedHintNamesWhatDecides(t *testing.T) {
	r := Rule{FutilityPower: NoFutility}.WithDefaults()
	noisy := func(metric string) Sample {
		s := Sample{Benchmark: "BenchmarkSet", Metric: metric}
		rng := rand.New(rand.NewPCG(3, 4))
		for range r.MaxSamples {
			s.Baseline = append(s.Baseline, 1e6*math.Exp(0.3*rng.NormFloat64()))
			s.Mutant = append(s.Mutant, 1e6*math.Exp(0.3*rng.NormFloat64()))
		}
		return s
	}
	for _, tt := range []struct{ metric, hint string }{
		{SecPerOp, "more samples (-max-samples), a quieter machine or longer samples (-benchtime) would decide it"},
		{InstructionsPerOp, "more samples (-max-samples) would decide it"},
	} {
		v := r.Decide([]Sample{noisy(tt.metric)})
		if v.Decision != Abstain || !strings.HasSuffix(v.Reason, "; "+tt.hint) {
			t.Errorf("%s: %s, reason %q; want undecided ending %q", tt.metric, v.Decision, v.Reason, tt.hint)
		}
		if tt.metric == InstructionsPerOp && strings.Contains(v.Reason, "quieter") {
			t.Errorf("%s: reason %q suggests a quieter machine, which does not change a count", tt.metric, v.Reason)
		}
	}
}
