package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MarkerFile, in every results directory perfmut writes, says that the
// directory is perfmut's: run and compare write only into a new or empty
// directory or one that holds it, so a user's own files are never
// overwritten.
const MarkerFile = ".perfmut-results"

// markerText is what MarkerFile holds.
const markerText = "This directory holds perfmut results: perfmut may replace every file in it.\n"

// PreviousDir, in a results directory, holds the results of the run
// before the last one: a run that starts again in a directory holding
// results moves them there (KeepPrevious), replacing those it held.
const PreviousDir = "previous"

// nextPrevious is where KeepPrevious gathers the results it moves before
// they replace PreviousDir: a rotation killed half-way is finished by the
// next one.
const nextPrevious = ".previous-next"

// isResults reports whether dir is a results directory perfmut wrote: it
// holds MarkerFile or a LockFile, or (perfmut before the marker) the
// .gitignore holding "*" that perfmut writes into every results directory
// it creates.
func isResults(dir string) bool {
	for _, f := range []string{MarkerFile, LockFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, GitignoreFile))
	return err == nil && string(data) == "*\n"
}

// checkOurs says in one line when the existing directory dir may not hold
// perfmut's results: it holds files and is not a results directory.
func checkOurs(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("-out %s: cannot read it: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	if len(ents) == 0 || isResults(dir) {
		return nil
	}
	var names []string
	for _, e := range ents[:min(len(ents), 3)] {
		names = append(names, e.Name())
	}
	more := ""
	if len(ents) > 3 {
		more = fmt.Sprintf(" and %d more", len(ents)-3)
	}
	return fmt.Errorf("-out %s is not a perfmut results directory (it holds %s%s, and no %s): perfmut would overwrite files there; choose a new or empty directory with -out",
		dir, strings.Join(names, ", "), more, MarkerFile)
}

// Mark writes MarkerFile into the results directory dir when it is not
// there yet.
func Mark(dir string) error {
	path := filepath.Join(dir, MarkerFile)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	return os.WriteFile(path, []byte(markerText), 0o644)
}

// KeepPrevious moves the results in the results directory dir into its
// PreviousDir (with a MarkerFile of its own), replacing what that held,
// and reports whether there were any. The caller holds dir's lock; the
// lock, the marker and the .gitignore stay.
func KeepPrevious(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	stay := []string{LockFile, MarkerFile, GitignoreFile, PreviousDir, nextPrevious}
	next := filepath.Join(dir, nextPrevious)
	moved := false
	for _, e := range ents {
		if slices.Contains(stay, e.Name()) || strings.HasPrefix(e.Name(), probePrefix) {
			continue
		}
		if !moved {
			if err := os.MkdirAll(next, 0o755); err != nil {
				return false, err
			}
			moved = true
		}
		if err := os.Rename(filepath.Join(dir, e.Name()), filepath.Join(next, e.Name())); err != nil {
			return false, err
		}
	}
	if _, err := os.Stat(next); errors.Is(err, os.ErrNotExist) {
		return false, nil // nothing to keep, and no rotation to finish
	}
	if err := Mark(next); err != nil {
		return false, err
	}
	prev := filepath.Join(dir, PreviousDir)
	if err := os.RemoveAll(prev); err != nil {
		return false, err
	}
	return true, os.Rename(next, prev)
}

// RemoveUnused removes the results directory dir when it holds nothing
// but perfmut's bookkeeping (the marker, the .gitignore, a lock file): a
// command that created it and failed before writing any result leaves
// nothing behind.
func RemoveUnused(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !slices.Contains([]string{MarkerFile, GitignoreFile, LockFile}, e.Name()) {
			return
		}
	}
	os.RemoveAll(dir)
}
