package mutate_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

func TestTmpAgrees(t *testing.T) {
	dir := os.Getenv("AGREE_DIR")
	if dir == "" {
		t.Skip()
	}
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Patterns: strings.Fields(os.Getenv("AGREE_PAT")), Config: config.Default(), Operators: operators.All})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := p.Generate()
	checkAgrees(t, p, ms)
}
