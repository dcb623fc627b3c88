package main

import (
	"context"
	"io"
	"os"
	"testing"
	"syscall"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

func TestTmpProfGonum(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	t0 := time.Now()
	c0 := cpuNow()
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Config: config.Default(), Operators: operators.All})
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	c1 := cpuNow()
	ms, _ := p.Generate()
	t2 := time.Now()
	c2 := cpuNow()
	writeTable(io.Discard, p, ms)
	t3 := time.Now()
	c3 := cpuNow()
	t.Logf("load %v (cpu %v) generate %v (cpu %v) table %v (cpu %v)", t1.Sub(t0), c1-c0, t2.Sub(t1), c2-c1, t3.Sub(t2), c3-c2)
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
