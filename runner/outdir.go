package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// CheckOutDir says in one line when a results directory cannot be written.
// It creates nothing (a run that fails on bad input leaves no results
// directory behind): an existing dir must be a writable directory, a new
// one must have a directory as its nearest existing ancestor.
func CheckOutDir(dir string) error {
	fi, err := os.Stat(dir)
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
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-out %s is not writable: %v; choose another directory with -out", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
