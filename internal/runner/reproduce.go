package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
)

// Files of a reproduction: the raw go test output of every baseline and
// mutant sample, in the benchmark format benchstat reads.
const (
	ReproBaseFile = "base.txt"
	ReproMutFile  = "mut.txt"
)

// DefaultReproTimeout is the deadline of one benchmark process of a
// reproduction.
const DefaultReproTimeout = 10 * time.Minute

// A Reproduction measures one mutant against the baseline the way a user
// checks a change with benchstat: it builds the baseline's and the
// mutant's test binaries (the mutant through go build -overlay: the
// module's files are only read), runs each benchmark on both alternately,
// Count times each at its fixed iteration count, and writes the outputs
// to ReproBaseFile and ReproMutFile in Out, replacing them only once all
// are written. It shares nothing with the
// campaign's samples.
type Reproduction struct {
	Module   string            // module root, absolute
	Packages []*mutate.Package // the module's packages: where each test binary runs
	Overlay  map[string][]byte // the mutant's files: absolute path -> content
	Level    string            // results.Opt or results.NoOpt
	Tags     []string          // build tags
	// Benchmarks are the benchmarks to run, each at its own count.
	Benchmarks []ReproBenchmark
	Count      int           // samples of each side
	Timeout    time.Duration // deadline of each benchmark process; 0 = DefaultReproTimeout
	Out        string        // directory for ReproBaseFile and ReproMutFile
	Log        io.Writer     // one line per round; nil = discard
}

// A ReproBenchmark is one benchmark of a reproduction.
type ReproBenchmark struct {
	Package string // import path of the package whose test binary holds it
	Name    string // full name, e.g. BenchmarkFind/n=10
	CPU     int    // GOMAXPROCS it runs with (-test.cpu); 0 = the default
	N       int    // iterations of every sample (-test.benchtime Nx)
}

func (b ReproBenchmark) bench() engine.Benchmark {
	return engine.Benchmark{Pkg: b.Package, Name: b.Name, CPU: b.CPU}
}

// Run builds both sides' test binaries, runs the samples and writes the
// two files. Temporary files are removed whatever happens, and those a
// killed reproduction left in Out (the caller holds the results
// directory's lock) first.
func (p *Reproduction) Run(ctx context.Context) error {
	if err := p.check(); err != nil {
		return err
	}
	removeStaleSamples(p.Out)
	err := p.run(ctx)
	if err != nil && ctx.Err() != nil {
		return errors.New("interrupted: no new samples (the files of the reproduction before, if any, are kept)")
	}
	return err
}

// removeStaleSamples removes from dir the temporary sample files of
// reproductions that were killed.
func removeStaleSamples(dir string) {
	for _, name := range []string{ReproBaseFile, ReproMutFile} {
		stale, _ := filepath.Glob(filepath.Join(dir, "."+name+".tmp-*"))
		for _, f := range stale {
			os.Remove(f)
		}
	}
}

// run is Run after the checks.
func (p *Reproduction) run(ctx context.Context) error {
	r := newRun(&Campaign{Module: mutate.Module{Dir: p.Module}, Packages: p.Packages, Measurement: engine.Measurement{Tags: p.Tags}})
	r.Prog = engine.NewProgress(p.Log, false, 0)
	err := r.makeTemp()
	if r.Tmp != "" {
		defer os.RemoveAll(r.Tmp)
	}
	if err != nil {
		return err
	}
	bins, err := p.build(ctx, r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p.Out, 0o755); err != nil {
		return err
	}
	// The samples go to temporary files beside the results, renamed over
	// them once every sample is written: a reproduction that fails keeps
	// the files of the one before.
	var outs [2]*os.File
	for i, name := range []string{ReproBaseFile, ReproMutFile} {
		f, err := os.CreateTemp(p.Out, "."+name+".tmp-")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		outs[i] = f
	}
	if err := p.samples(ctx, r, bins, outs); err != nil {
		return err
	}
	return renameSamples(outs, p.Out)
}

// renameSamples closes the temporary files outs and renames them to
// ReproBaseFile and ReproMutFile in dir.
func renameSamples(outs [2]*os.File, dir string) error {
	for i, name := range []string{ReproBaseFile, ReproMutFile} {
		err := outs[i].Chmod(0o644) // CreateTemp's 0600 is for temporary files
		if err == nil {
			err = outs[i].Sync()
		}
		if cerr := outs[i].Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(outs[i].Name(), filepath.Join(dir, name))
		}
		if err != nil {
			return fmt.Errorf("writing the samples: %w", err)
		}
	}
	return nil
}

// check reports a reproduction that cannot run.
func (p *Reproduction) check() error {
	if len(p.Benchmarks) == 0 {
		return errors.New("reproduce: no benchmark to run")
	}
	if p.Count < 1 {
		return fmt.Errorf("reproduce: count %d: want at least 1", p.Count)
	}
	for _, b := range p.Benchmarks {
		if b.N < 1 {
			return fmt.Errorf("reproduce: %s: iteration count %d: want at least 1", b.Name, b.N)
		}
		if p.dir(b.Package) == "" {
			return fmt.Errorf("reproduce: %s: package %s is not in the module", b.Name, b.Package)
		}
	}
	return nil
}

// dir is the directory of the package with import path pkg, or "".
func (p *Reproduction) dir(pkg string) string {
	for _, q := range p.Packages {
		if q.ImportPath == pkg {
			return q.Dir
		}
	}
	return ""
}

// build builds the test binary of each benchmark's package on both sides:
// bins[0] the baseline's, bins[1] the mutant's, by package.
func (p *Reproduction) build(ctx context.Context, r *run) ([2]map[string]string, error) {
	bins := [2]map[string]string{{}, {}}
	odir := filepath.Join(r.Tmp, "overlay")
	if err := os.MkdirAll(odir, 0o755); err != nil {
		return bins, err
	}
	overlay, names, err := engine.WriteOverlay(odir, p.Module, p.Overlay)
	if err != nil {
		return bins, err
	}
	for _, b := range p.Benchmarks {
		if bins[0][b.Package] != "" {
			continue
		}
		for side, ov := range []string{"", overlay} {
			bin := filepath.Join(r.Tmp, fmt.Sprintf("%s.%d.test", engine.SafeName(b.Package), side))
			ok, err := r.GoTestC(ctx, p.Module, b.Package, bin, ov, p.Level)
			var be *engine.BuildError
			if errors.As(err, &be) {
				return bins, fmt.Errorf("building the %s test binary of %s: %s", sideName(side), b.Package, names.Replace(be.Reason()))
			}
			if err != nil {
				return bins, err
			}
			if !ok {
				return bins, fmt.Errorf("%s has no test files: no test binary holds %s", b.Package, b.Name)
			}
			bins[side][b.Package] = bin
		}
	}
	return bins, nil
}

func sideName(side int) string { return [2]string{"baseline", "mutant"}[side] }

// samples runs one unrecorded sample of each side per benchmark (neither
// side starts cold), then Count rounds: in each, every benchmark once on
// each side, the side that goes first alternating from round to round.
func (p *Reproduction) samples(ctx context.Context, r *run, bins [2]map[string]string, outs [2]*os.File) error {
	for _, b := range p.Benchmarks {
		for side := range 2 {
			if _, err := p.sample(ctx, bins[side][b.Package], b, side); err != nil {
				return err
			}
		}
	}
	for round := range p.Count {
		start := time.Now()
		for _, b := range p.Benchmarks {
			for k := range 2 {
				side := (round + k) % 2
				out, err := p.sample(ctx, bins[side][b.Package], b, side)
				if err != nil {
					return err
				}
				if _, err := outs[side].Write(out); err != nil {
					return err
				}
			}
		}
		r.Prog.Logf("perfmut: reproduce: round %d of %d (%s)", round+1, p.Count, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// sample runs benchmark b once at its fixed count in bin and returns the
// process's output.
func (p *Reproduction) sample(ctx context.Context, bin string, b ReproBenchmark, side int) ([]byte, error) {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultReproTimeout
	}
	args := []string{"-test.run=^$", "-test.bench=" + b.bench().Pattern(), "-test.benchtime=" + strconv.Itoa(b.N) + "x",
		"-test.count=1", "-test.benchmem", "-test.timeout=0", "-test.paniconexit0"}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
	res, err := proc.Run(ctx, p.dir(b.Package), nil, timeout, bin, args...)
	switch {
	case err != nil:
		return nil, fmt.Errorf("running the %s test binary of %s: %w", sideName(side), b.Package, err)
	case res.Canceled:
		return nil, ctx.Err()
	case res.TimedOut:
		return nil, fmt.Errorf("%s on the %s ran past its deadline (%s) at %dx; give -timeout or a smaller -benchtime", b.Name, sideName(side), timeout, b.N)
	case !res.OK():
		return nil, fmt.Errorf("%s failed on the %s (exit %d): %s", b.Name, sideName(side), res.ExitCode, engine.LastLines(res.Output, 5))
	}
	if !ranBenchmark(res.Output, b.bench()) {
		return nil, fmt.Errorf("%s did not run on the %s: no such benchmark in %s", b.Name, sideName(side), b.Package)
	}
	return res.Output, nil
}

// ranBenchmark reports whether out, a test binary's output, holds a
// result of b.
func ranBenchmark(out []byte, b engine.Benchmark) bool {
	want := strings.TrimPrefix(b.Name, "Benchmark") + b.Suffix() // benchfmt drops the prefix
	rd := benchfmt.NewReader(bytes.NewReader(out), "")
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok && r.Name.String() == want {
			return true
		}
	}
	return false
}
