package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/perfmut/perfmut/results"
)

// CheckOutDir says in one line when a results directory cannot be written.
// It creates nothing (a run that fails on bad input leaves no results
// directory behind): an existing dir must be a writable directory, a new
// one must have a directory as its nearest existing ancestor.
func CheckOutDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil && !absent(err) {
		return fmt.Errorf("-out %s: cannot read it: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	if err != nil {
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
	f, err := os.CreateTemp(dir, ".perfmut-probe-")
	if err != nil {
		return fmt.Errorf("-out %s is not writable: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
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

// MakeOutDir creates the results directory dir, with its parents, when it
// does not exist, and writes GitignoreFile into it. A directory that
// exists is the user's: it is left as it is.
func MakeOutDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, GitignoreFile), []byte("*\n"), 0o644)
}

// checkResumable says in one line (an *InputError) when the results
// directory dir holds no run to resume: it does not exist, or neither a
// journal nor the settings of an earlier run are there.
func checkResumable(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return inputErrorf("-resume: nothing to resume: -out %s does not exist; leave out -resume to start a campaign there", dir)
	}
	for _, f := range []string{results.JournalFile, settingsFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return nil
		}
	}
	return inputErrorf("-resume: nothing to resume: -out %s holds no earlier run (no %s); leave out -resume to start a campaign there", dir, results.JournalFile)
}

// absent reports whether a Stat error means that no directory is there to
// read: the path does not exist, an ancestor is a file, or the name is too
// long to exist. Any other error (permission, a symlink loop) is one the
// user must see.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ENAMETOOLONG)
}
