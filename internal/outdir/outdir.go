// Package outdir is a results directory, the -out of every perfmut command
// that writes one: checking that it can be written before any work and
// that it is perfmut's, not a directory of the user's files (Check,
// MarkerFile), creating it (Make), keeping the results of the
// run before in it when a run starts there again (KeepPrevious), the lock that keeps a second perfmut
// process out while one writes there (Lock, CheckUnlocked), and the
// temporary directory of a run, with the clean-up of those that killed
// runs left behind (MakeTemp, RemoveStaleTemp).
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
)

// Check says in one line when a results directory cannot be written. It
// creates nothing (a run that fails on bad input leaves no results
// directory behind): an existing dir must be a writable directory, empty
// or a results directory (isResults: never a directory of the user's
// files, which perfmut would overwrite); a new one must have a directory
// as its nearest existing ancestor.
func Check(dir string) error { return CheckFor(dir, false) }

// CheckFor is Check, for a run that resumes the run in dir (resume) or
// not. The results directory of a run to resume may be one written before
// MarkerFile (isResults): the caller checks that it holds that run's
// settings.
func CheckFor(dir string, resume bool) error {
	if slices.Contains(strings.Split(filepath.ToSlash(dir), "/"), "...") {
		return fmt.Errorf("-out %s is a package pattern, not a directory: give the results directory after -out, then the packages", dir)
	}
	fi, err := os.Stat(dir)
	if err != nil && !absent(err) {
		return fmt.Errorf("-out %s: cannot read it: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	if err != nil {
		if err := checkLength(dir); err != nil {
			return err
		}
		for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
			pi, err := os.Stat(p)
			if err == nil {
				if !pi.IsDir() {
					return fmt.Errorf("-out %s: cannot create it: %s is not a directory", dir, p)
				}
				return nil
			}
			if p == filepath.Dir(p) {
				return nil
			}
		}
	}
	if !fi.IsDir() {
		return fmt.Errorf("-out %s is a file, not a directory; choose another directory with -out", dir)
	}
	if !resume {
		if err := checkOurs(dir); err != nil {
			return err
		}
	}
	f, err := os.CreateTemp(dir, probePrefix)
	if err != nil {
		return fmt.Errorf("-out %s is not writable: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// probePrefix starts the names of the files Check writes to see that a
// directory is writable.
const probePrefix = ".perfmut-probe-"

// Lengths the systems perfmut runs on refuse past: a path (Linux's
// PATH_MAX; macOS's is 1024) and one name in it (NAME_MAX).
const (
	maxPath = 4095
	maxName = 255
)

// checkLength says in one line when the new directory dir cannot be
// created for its length: MkdirAll would create its first levels, then
// fail.
func checkLength(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	limit := maxPath
	if runtime.GOOS == "darwin" {
		limit = 1023
	}
	if len(abs) > limit {
		return fmt.Errorf("-out: the path is too long (%d bytes, at most %d here); choose a shorter -out", len(abs), limit)
	}
	elems := strings.Split(filepath.ToSlash(abs), "/")
	for i, name := range elems {
		if len(name) > maxName {
			// As mkdir says it, before MkdirAll has made the levels above.
			return fmt.Errorf("-out %s: cannot create it: mkdir %s: %v; choose another directory with -out", dir, filepath.FromSlash(strings.Join(elems[:i+1], "/")), syscall.ENAMETOOLONG)
		}
	}
	return nil
}

// unwrapPath is err without the path an *os.PathError adds to it: the
// line that reports it names the directory already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// GitignoreFile, written into every results directory perfmut creates,
// holds "*": results written inside a module stay out of its git status.
const GitignoreFile = ".gitignore"

// Make creates the results directory dir, with its parents, when it does
// not exist, with GitignoreFile and MarkerFile in it. An existing
// directory is left as it is: Check says whether it may be written, and
// Lock marks it (no .gitignore: in a directory the user made, that is the
// user's choice).
func Make(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, GitignoreFile), []byte("*\n"), 0o644); err != nil {
		return err
	}
	return Mark(dir)
}

// absent reports whether a Stat error means that no directory is there to
// read: the path does not exist, an ancestor is a file, or the name is too
// long to exist. Any other error (permission, a symlink loop) is one the
// user must see.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ENAMETOOLONG)
}
