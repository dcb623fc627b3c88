package main

import (
	"flag"
	"fmt"

	"github.com/perfmut/perfmut/internal/compare"
)

// attribFlags are compare's -attribute flags: which changes to explain by
// functions from profiles, in how many rounds.
type attribFlags struct {
	mode   string
	rounds int
}

func (f *attribFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.mode, "attribute", compare.AttributeChanged, "explain changes by functions from CPU and allocation profiles of both versions: `changed` (slower or faster metrics), undecided (those and undecided ones) or off")
	fs.IntVar(&f.rounds, "attribute-rounds", compare.DefaultAttributeRounds, "interleaved profiled `rounds` of each explained benchmark (6 or more give 95% intervals)")
}

// apply sets the comparison's attribution settings.
func (f *attribFlags) apply(c *compare.Comparison) error {
	if f.rounds < 1 {
		return fmt.Errorf("-attribute-rounds %d: want 1 or more (6 or more give 95%% intervals)", f.rounds)
	}
	c.Attribute, c.AttributeRounds = f.mode, f.rounds
	return nil
}
