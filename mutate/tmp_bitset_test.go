package mutate_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

func TestTmpBitsetAgrees(t *testing.T) {
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: "/tmp/bs", Config: config.Default(), Operators: operators.All})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := p.Generate()
	n := 0
	for i, err := range p.CheckAll(context.Background(), ms) {
		full := p.CheckFull(ms[i])
		if fmt.Sprint(err) != fmt.Sprint(full) {
			t.Errorf("%s: Check = %v, full check = %v", ms[i].ID, err, full)
		}
		n++
	}
	t.Logf("%d mutants", n)
}
