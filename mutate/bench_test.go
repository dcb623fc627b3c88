package mutate_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// BenchmarkGenerate measures mutant generation after loading (the target
// is at least 20,000 mutants/s) with every operator, on gonum (a
// dependency of perfmut, so it is in the module cache; about 200k lines)
// and on the bundled demo module.
//
//	go test -run '^$' -bench Generate ./mutate
func BenchmarkGenerate(b *testing.B) {
	b.Run("demo", func(b *testing.B) { benchGenerate(b, "../testdata/demo") })
	b.Run("gonum", func(b *testing.B) {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "gonum.org/v1/gonum").Output()
		dir := strings.TrimSpace(string(out))
		if err != nil || dir == "" {
			b.Skipf("gonum is not in the module cache (go list -m: %v)", err)
		}
		benchGenerate(b, dir)
	})
}

func benchGenerate(b *testing.B, dir string) {
	cfg := config.Default()
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Config: cfg, Operators: operators.All})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	n := 0
	for i := 0; i < b.N; i++ {
		ms, err := p.Generate()
		if err != nil {
			b.Fatal(err)
		}
		n += len(ms)
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "mutants/s")
	// On a machine shared with other work, wall-clock throughput varies;
	// mutants per CPU-second (user+sys of this process, all threads) does
	// not, and with GOMAXPROCS workers the wall figure is about this
	// times the number of idle cores.
	b.ReportMetric(float64(n)/cpu.Seconds(), "mutants/cpu-s")
	b.ReportMetric(float64(n)/float64(b.N), "mutants/op")
}

// BenchmarkLoad measures loading gonum with full type information (the
// part of perfmut list ./... before generation).
//
//	go test -run '^$' -bench Load -benchtime 3x ./mutate
func BenchmarkLoad(b *testing.B) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "gonum.org/v1/gonum").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		b.Skipf("gonum is not in the module cache (go list -m: %v)", err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Operators: operators.All}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck measures the in-process type-check of every mutant (list
// -check) on the demo module and, if it is in the module cache, on
// github.com/bits-and-blooms/bitset v1.29.0 (a go 1.16 module whose
// package has an 8866-line generated file), one op = all mutants, checked
// by GOMAXPROCS workers.
//
//	go test -run '^$' -bench Check -benchtime 1x ./mutate
func BenchmarkCheck(b *testing.B) {
	b.Run("demo", func(b *testing.B) { benchCheck(b, "../testdata/demo") })
	b.Run("bitset", func(b *testing.B) {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		dir := filepath.Join(strings.TrimSpace(string(out)), "github.com", "bits-and-blooms", "bitset@v1.29.0")
		if _, serr := os.Stat(dir); err != nil || serr != nil {
			b.Skipf("bitset v1.29.0 is not in the module cache: go mod download github.com/bits-and-blooms/bitset@v1.29.0")
		}
		benchCheck(b, dir)
	})
}

func benchCheck(b *testing.B, dir string) {
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Config: config.Default(), Operators: operators.All})
	if err != nil {
		b.Fatal(err)
	}
	ms, err := p.Generate()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for j, err := range p.CheckAll(context.Background(), ms) {
			if err != nil {
				b.Fatalf("%s: %v", ms[j].ID, err)
			}
		}
	}
	cpu := cpuTime() - cpu0
	n := float64(len(ms) * b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "mutants/s")
	b.ReportMetric(n/cpu.Seconds(), "mutants/cpu-s")
	b.ReportMetric(float64(len(ms)), "mutants/op")
}

// cpuTime returns the user+sys CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCheckReducedAgrees checks every mutant of the demo module with all
// operators both ways: reduced (Check) and against the whole package.
func TestCheckReducedAgrees(t *testing.T) {
	p, err := mutate.Load(context.Background(), mutate.Options{Dir: "../testdata/demo", Config: config.Default(), Operators: operators.All})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := p.Generate()
	if err != nil {
		t.Fatal(err)
	}
	checkAgrees(t, p, ms)
}

// checkAgrees checks that Check and CheckFull agree on every mutant, and
// that the reduced check alone accepts every local mutant that compiles.
func checkAgrees(t *testing.T, p *mutate.Program, ms []mutate.Mutant) {
	local := 0
	for i, err := range p.CheckAll(context.Background(), ms) {
		m := ms[i]
		full := p.CheckFull(m)
		if fmt.Sprint(err) != fmt.Sprint(full) {
			t.Errorf("%s: Check = %v, full check = %v", m.ID, err, full)
		}
		isLocal, red := p.CheckReduced(m)
		if isLocal {
			local++
		}
		if isLocal && full == nil && red != nil {
			t.Errorf("%s %s %s:%d: the reduced check fails: %v", m.ID, m.Operator, m.File, m.Line, red)
		}
	}
	t.Logf("%d mutants, %d checked reduced", len(ms), local)
}
