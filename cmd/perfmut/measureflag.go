package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/instr"
)

// The values of -measure.
const (
	measureTime         = "time"
	measureInstructions = "instructions"
	measureAuto         = "auto"
)

// counting resolves -measure (checked by checkMeasure) before anything is
// built or written: time is nil; instructions calls instr.Available, and
// when valgrind cannot count Go programs here its one line is a usage
// error (exit 2); auto counts where Available succeeds and otherwise
// measures time, saying why on log. The counts' minimum effect is
// instr.MinEffect unless -min-effect was given on fs.
func (f *campaignSettings) counting(ctx context.Context, fs *flag.FlagSet, log io.Writer) (*engine.Counting, error) {
	if f.measure == measureTime || f.measure == "" {
		return nil, nil
	}
	info, err := instr.Available(ctx)
	if err != nil {
		var ue *instr.UnavailableError
		switch {
		case !errors.As(err, &ue):
			return nil, err
		case f.measure == measureAuto:
			fmt.Fprintf(log, "perfmut: -measure auto: measuring time: %v\n", err)
			return nil, nil
		}
		return nil, &inputerr.Error{Err: err}
	}
	minEffect := instr.MinEffect
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "min-effect" {
			minEffect = f.minEffect
		}
	})
	return &engine.Counting{Sampler: instr.Sampler{Valgrind: info.Path}, Version: info.Version, MinEffect: minEffect}, nil
}
