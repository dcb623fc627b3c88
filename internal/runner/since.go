package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Incremental campaigns (-since DIR): a mutant's result at a level is taken
// from an earlier campaign's results directory when nothing it depends on
// changed: the Go version, the machine and the settings that affect
// verdicts (results.Inputs), and the content of the mutated package and of
// every package that judged it (results.LevelResult.Judges). The mutant
// itself is the same when its ID is: IDs come from its function's source,
// operator and parameters.

// noInputs says why an earlier report cannot serve -since.
const noInputs = "its report.json records no inputs (it was made by an older perfmut); run a full campaign first"

// inputs computes the campaign's inputs: the hashes of every loaded
// package's directory and of what else the verdicts depend on.
func (r *run) inputs(ctx context.Context) (*results.Inputs, error) {
	c := r.c
	in := &results.Inputs{Go: c.Settings.GoVersion, Machine: engine.Machine(ctx), Packages: map[string]string{}}
	// What chooses the mutants, orders the rounds or selects the levels
	// does not change a verdict (results.Settings.Verdict).
	h := sha256.New()
	json.NewEncoder(h).Encode(c.Settings.Verdict())
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(c.Module.Dir, f))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	in.Settings = hex.EncodeToString(h.Sum(nil))
	in.Code = map[string]results.PackageCode{}
	r.cov.spans = map[string][]funcSpan{}
	for _, p := range c.Packages {
		sum, err := dirHash(p.Dir)
		if err != nil {
			return nil, fmt.Errorf("hashing package %s: %w", p.ImportPath, err)
		}
		in.Packages[p.ImportPath] = sum
		if in.Code[p.ImportPath], err = packageCode(p.ImportPath, p.Dir, r.cov.spans); err != nil {
			return nil, fmt.Errorf("hashing package %s: %w", p.ImportPath, err)
		}
	}
	return in, nil
}

// dirHash hashes the regular files of a package directory and, recursively,
// of its testdata directory, which tests may read.
func dirHash(dir string) (string, error) {
	return hashDir(dir, nil)
}

// hashDir is dirHash of the files' contents as transform (if not nil)
// returns them, given their slash-separated path relative to dir.
func hashDir(dir string, transform func(rel string, data []byte) []byte) (string, error) {
	h := sha256.New()
	add := func(path string) error {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if transform != nil {
			data = transform(rel, data)
		}
		fmt.Fprintf(h, "%s\x00", rel)
		h.Write(data)
		h.Write([]byte{0})
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := add(filepath.Join(dir, e.Name())); err != nil {
				return "", err
			}
		}
	}
	td := filepath.Join(dir, "testdata")
	err = filepath.WalkDir(td, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == td {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			return add(path)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// judgesOf is what lr depends on: see results.LevelResult.Judges. built is
// the set of packages m's binaries were built for (mutated, tested,
// measuring).
func (r *run) judgesOf(pkg string, lr *results.LevelResult, built map[string]bool) []string {
	if lr.Status == score.Killed && len(built) > 0 {
		out := make([]string, 0, len(built))
		for p := range built {
			out = append(out, p)
		}
		sort.Strings(out)
		return out
	}
	return slices.Clone(r.base.affected[pkg])
}

// reuse takes from the campaign in dir the results whose inputs are the
// same as now, for the mutant and level pairs still to do; it copies their
// sample files and appends them to the journal. It returns how many it
// took, or why it took none.
func (r *run) reuse(dir string, cur *results.Inputs) (n int, why string, err error) {
	c := r.c
	prev, err := readReport(filepath.Join(dir, ReportFile))
	if err != nil {
		return 0, "", inputerr.Errorf("-since %s: %w", dir, err)
	}
	r.since.prev = prev
	switch p := prev.Inputs; {
	case p == nil:
		return 0, "", inputerr.Errorf("-since %s: %s", dir, noInputs)
	case p.Go != cur.Go:
		why = fmt.Sprintf("the Go version differs (%s then, %s now)", p.Go, cur.Go)
	case p.Machine != cur.Machine:
		why = fmt.Sprintf("the machine differs (%s then, %s now)", p.Machine, cur.Machine)
	case p.Settings != cur.Settings:
		why = "the settings that affect verdicts, go.mod or go.sum differ"
	}
	if why != "" {
		r.since.why = why
		return 0, why, nil
	}
	byID := map[string]results.Mutant{}
	for _, m := range prev.Mutants {
		byID[m.ID] = m
	}
	// A benchmark or test of an unchanged package may still run a
	// changed function of another package.
	var fr *funcReuse
	if prev.Inputs.Code != nil {
		fr = newFuncReuse(prev.Inputs, cur)
	}
	for _, m := range c.Mutants {
		pm, ok := byID[m.ID]
		if !ok {
			continue
		}
		fn, err := r.mutantFunc(m)
		if err != nil {
			return n, "", err
		}
		for _, level := range c.Levels {
			lr := pm.Results[level]
			if lr == nil || r.results[resultKey{m.ID, level}] != nil || !sameInputs(prev.Inputs, cur, m.Package, lr.Judges) {
				continue
			}
			if fr != nil && fr.hotIn(fn, m.Package, r.c.untested(m), lr.Judges, false) {
				continue
			}
			if ok, err := r.take(dir, m.ID, level, lr); err != nil {
				return n, "", err
			} else if ok {
				n++
			}
		}
	}
	return n, "", nil
}

// take reuses lr, the result of mutant id at level in the campaign in dir:
// it copies its sample files and appends it to the journal. It reports
// false if lr is no verdict to keep (reusable) or a sample file is missing
// (the mutant is then run again).
func (r *run) take(dir, id, level string, lr *results.LevelResult) (bool, error) {
	if !reusable(lr) {
		return false, nil
	}
	if err := copySamples(dir, r.c.Out, lr); err != nil {
		return false, nil
	}
	reused := *lr
	reused.Reused, reused.Retested = true, false
	r.results[resultKey{id, level}] = &reused
	return true, r.out.journal.Append(results.JournalEntry{ID: id, Level: level, Result: &reused, Time: time.Now().UTC()})
}

// reusable reports whether the earlier result lr is a verdict worth
// keeping when its inputs are unchanged: an undecided one (too noisy to
// call) is measured again.
func reusable(lr *results.LevelResult) bool { return lr.Status != score.Undecided }

// sameInputs reports whether the mutated package and every judge hash the
// same in both campaigns.
func sameInputs(prev, cur *results.Inputs, pkg string, judges []string) bool {
	if len(judges) == 0 {
		return false
	}
	for _, p := range append([]string{pkg}, judges...) {
		h, ok := prev.Packages[p]
		if !ok || h != cur.Packages[p] {
			return false
		}
	}
	return true
}

// copySamples copies the benchfmt files of lr from one results directory
// to another.
func copySamples(from, to string, lr *results.LevelResult) error {
	for _, s := range lr.Samples {
		for _, f := range s.Files {
			if f == "" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(from, filepath.FromSlash(f)))
			if err != nil {
				return err
			}
			dst := filepath.Join(to, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
