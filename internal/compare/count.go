package compare

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/score"
)

// countRound takes one counted sample of st's benchmark on each side
// (-measure instructions), both at once when the machine has two cores: a
// count does not move with the load. A failed sample fails the benchmark
// on its side.
func (c *Comparison) countRound(ctx context.Context, sides [2]*compareSide, st *compared, outs [2]io.Writer) error {
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
	return st.recordCounts([2]string{sides[0].name, sides[1].name}, smp, errs, outs)
}

// recordCounts records a counted round, the samples smp of the sides
// named names, or the errors that failed them: both samples are written
// to outs and recorded in st, or, when a side failed, neither is and st
// fails.
func (st *compared) recordCounts(names [2]string, smp [2]instr.Sample, errs [2]error, outs [2]io.Writer) error {
	for side, err := range errs {
		if err != nil {
			st.failed = fmt.Sprintf("%s: %v", names[side], err)
			return nil
		}
	}
	var round [2]bytes.Buffer
	var vals [2]map[string]float64
	for side := range smp {
		instr.WriteResult(&round[side], st.b.Name, smp[side]) // a bytes.Buffer takes every write
		vals[side] = smp[side].Values()
	}
	if err := writeRound(outs, &round); err != nil {
		return err
	}
	st.record(vals, [2]bool{}, func(string) bool { return true })
	return nil
}

// writeRound writes a round's samples, one per side, into the sides'
// samples files, once both were taken: a round is in both files or in
// neither.
func writeRound(outs [2]io.Writer, round *[2]bytes.Buffer) error {
	for side, w := range outs {
		if _, err := w.Write(round[side].Bytes()); err != nil {
			return fmt.Errorf("writing the samples: %w", err)
		}
	}
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
