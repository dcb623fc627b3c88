package generate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// CheckWrite says in one line (an *inputerr.Error) why -write would
// refuse: a package of pkgs already has the generated file.
func CheckWrite(pkgs []*mutate.Package) error {
	for _, p := range pkgs {
		path := filepath.Join(p.Dir, FileName)
		if _, err := os.Stat(path); err == nil {
			return inputerr.Errorf("%s already exists; -write never overwrites a file: remove or rename it first", path)
		}
	}
	return nil
}

// WriteModule writes each generated file into its package's directory
// of the module, as a new file (never over an existing one).
func (res *Result) WriteModule() error {
	pkgs := make([]string, 0, len(res.files))
	for p := range res.files {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		f := res.files[p]
		src, err := renderFile(f.spec)
		if err != nil {
			return err
		}
		path := filepath.Join(f.pkg.Dir, FileName)
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return inputerr.Errorf("%s already exists; -write never overwrites a file: remove or rename it first", path)
		}
		if err != nil {
			return err
		}
		_, err = out.Write(src)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		res.Written = append(res.Written, path)
	}
	return nil
}

// Print writes the result for a reader: per benchmark the mutants it
// kills and misses and its ns/op, the functions skipped and why, the
// scores before and after, and the files.
func (res *Result) Print(w io.Writer) {
	for _, b := range res.Benchmarks {
		fmt.Fprintf(w, "%s (%s, %s): kills %s no benchmark killed", b.Name, b.Function, b.Package, english.Plural(len(b.Kills), "mutant"))
		if len(b.Misses) > 0 {
			fmt.Fprintf(w, ", misses %d", len(b.Misses))
		}
		fmt.Fprintf(w, "; %.0f ns/op\n", b.NsPerOp)
		for _, m := range b.Kills {
			fmt.Fprintf(w, "  kills  %s %s %s:%d (was %s)\n", m.ID, m.Operator, m.File, m.Line, m.Before)
		}
		for _, m := range b.Misses {
			fmt.Fprintf(w, "  misses %s %s %s:%d (%s)\n", m.ID, m.Operator, m.File, m.Line, res.Status[m.ID])
		}
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "skipped %s (%s): %s\n", s.Function, s.Package, s.Reason)
	}
	for _, s := range res.Scores {
		if s.Package == "" {
			s.Package = "module " + res.Module
		}
		fmt.Fprintf(w, "%s %s score %.1f%% -> %.1f%% (%d -> %d killed of %d valid)\n", s.Package, s.Level, 100*s.Before.Score, 100*s.After.Score, s.Before.Killed, s.After.Killed, s.After.Valid)
	}
	fmt.Fprintf(w, "%s kept; %s for the candidates; %.0fs\n", english.Plural(len(res.Benchmarks), "benchmark"), english.Plural(res.Builds, "go build"), res.Seconds)
	for _, f := range res.Files {
		fmt.Fprintf(w, "wrote %s\n", f)
	}
	for _, f := range res.Written {
		fmt.Fprintf(w, "wrote %s into the module\n", f)
	}
	if len(res.Files) > 0 && len(res.Written) == 0 {
		fmt.Fprintf(w, "add %s to the module (-n: never over an existing file):\n", english.Choose(len(res.files), "it", "them"))
		for _, p := range slices.Sorted(maps.Keys(res.files)) {
			fmt.Fprintf(w, "  %s\n", res.copyCommand(p))
		}
	}
}

// copyCommand is the command that copies package pkg's generated file
// into its directory of the module, never over an existing file.
func (res *Result) copyCommand(pkg string) string {
	f := res.files[pkg]
	return fmt.Sprintf("cp -n %s %s", f.out, filepath.Join(f.pkg.Dir, FileName))
}

// Annotate records, on each mutant of rep a kept benchmark kills, the
// benchmark, its file and the command that copies the file into the
// module (never over an existing file); it returns how many mutants it
// marked.
func (res *Result) Annotate(rep *results.Report) int {
	byName := map[string]Benchmark{}
	for _, b := range res.Benchmarks {
		byName[b.Name] = b
	}
	n := 0
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		b, ok := byName[res.killer[m.ID]]
		if !ok || res.files[b.Package] == nil {
			continue
		}
		m.Generated = &results.GeneratedKill{Benchmark: b.Name, File: b.File, Command: res.copyCommand(b.Package)}
		n++
	}
	return n
}
