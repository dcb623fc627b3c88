//go:build unix

package operators

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/perfmut/perfmut/mutate"
)

// BenchmarkRun runs every operator over every file of some standard-library
// packages (about 40k lines), with Q2 entries configured, and reports the
// generation rate. The engine's target is 20,000 mutants/s after loading.
//
//	go test ./operators -run '^$' -bench Run -benchtime 10x
func BenchmarkRun(b *testing.B) {
	m := &testModule{dir: b.TempDir(), cfg: yamlConfig(b, `
call-replace:
  - {func: unicode/utf8.RuneLen, value: "1"}
  - {func: unicode.IsSpace, value: "false"}
var-replace:
  - {var: n, value: "0"}
`)}
	m.load(b, stdlibPackages, func(p *packages.Package) bool { return slices.Contains(stdlibPackages, p.PkgPath) })
	type input struct {
		p    *packages.Package
		i    int
		src  []byte
		file string
	}
	var inputs []input
	lines := 0
	for _, p := range m.pkgs {
		for i, file := range p.CompiledGoFiles {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			lines += strings.Count(string(src), "\n")
			inputs = append(inputs, input{p, i, src, file})
		}
	}
	total := 0
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		for _, in := range inputs {
			for _, op := range All {
				pass := &mutate.Pass{
					Fset: in.p.Fset, File: in.p.Syntax[in.i], Files: in.p.Syntax, Src: in.src, Pkg: in.p.Types, Info: in.p.TypesInfo, Config: m.cfg, Options: m.cfg.Section(op.Options),
					Report: func(mutate.Site) { total++ },
				}
				op.Run(pass)
			}
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "mutants/s")
	// On a loaded machine wall time says little; CPU time is what it costs.
	b.ReportMetric(float64(total)/(cpuTime()-cpu0).Seconds(), "mutants/cpu-s")
	b.ReportMetric(float64(lines*b.N)/b.Elapsed().Seconds(), "lines/s")
}

// cpuTime returns the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
