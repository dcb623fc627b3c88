package load

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// CheckMutants type-checks every mutant (in parallel, see
// mutate.Program.CheckAll) and reports the failures to w (perfmut list -check).
func CheckMutants(ctx context.Context, stderr io.Writer, prog *mutate.Program, mutants []mutate.Mutant) error {
	errs := prog.CheckAll(ctx, mutants)
	if err := ctx.Err(); err != nil {
		return err
	}
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			m := mutants[i]
			fmt.Fprintf(stderr, "FAIL %s %s %s:%d: %s\n", m.ID, m.Operator, m.File, m.Line, strings.TrimPrefix(err.Error(), "mutant "+m.ID+" "))
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d mutants do not type-check", failed, len(mutants))
	}
	fmt.Fprintf(stderr, "all %d mutants type-check\n", len(mutants))
	return nil
}
