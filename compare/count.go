package compare

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/score"
)

// countRound takes one counted sample of st's benchmark on each side
// (-measure instructions), both at once when the machine has two cores: a
// count does not move with the load. A failed sample fails the benchmark
// on its side.
func (c *Comparison) countRound(ctx context.Context, sides [2]*compareSide, st *compared, outs [2]*os.File) error {
	var smp [2]instr.Sample
	var errs [2]error
	count := func(side int) {
		s := sides[side]
		smp[side], errs[side] = s.w.CountSample(ctx, s.w.Binary(st.b.Pkg), s.w.Package(st.b.Pkg).Dir, st.b, st.n)
	}
	if runtime.NumCPU() >= 2 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			count(1)
		}()
		count(0)
		<-done
	} else {
		count(0)
		count(1)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var vals [2]map[string]float64
	for side, err := range errs {
		if err != nil {
			st.failed = fmt.Sprintf("%s: %v", sides[side].name, err)
			return nil
		}
		if err := instr.WriteResult(outs[side], st.b.Name, smp[side]); err != nil {
			return fmt.Errorf("writing the samples: %w", err)
		}
		vals[side] = smp[side].Values()
	}
	st.record(vals, [2]bool{}, func(string) bool { return true })
	return nil
}

// ruleFor is the rule deciding st: on counts, the counts' minimum effect
// (engine.Counting.MinEffect).
func (c *Comparison) ruleFor(rule score.Rule, st *compared) score.Rule {
	if st.n > 0 && c.Counting != nil && c.Counting.MinEffect > 0 {
		rule.MinEffect = c.Counting.MinEffect
	}
	return rule
}
