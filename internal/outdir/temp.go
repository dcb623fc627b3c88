package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// tempPattern names the temporary directory of a perfmut run (os.MkdirTemp).
const tempPattern = "perfmut-run-*"

// MakeTemp creates the temporary directory of a run in os.TempDir(), with
// a pid file naming this process, after removing those of runs that were
// killed (RemoveStaleTemp). The caller removes it.
func MakeTemp() (string, error) {
	RemoveStaleTemp(os.TempDir())
	dir, err := os.MkdirTemp("", tempPattern)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// RemoveStaleTemp removes from dir the temporary directories of perfmut
// runs that were killed (SIGKILL leaves them behind): those whose pid file
// names a process that no longer exists, or that have had no pid file for
// staleUnwritten.
func RemoveStaleTemp(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPattern))
	for _, m := range matches {
		data, err := os.ReadFile(filepath.Join(m, "pid"))
		if err != nil {
			// A run writes its pid file as soon as it has created the
			// directory: one without it for a while was killed between.
			if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > staleUnwritten {
				os.RemoveAll(m)
			}
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 {
			continue
		}
		if !proc.Alive(pid) {
			os.RemoveAll(m)
		}
	}
}

// CheckTemp says in one line when os.TempDir, where every perfmut command
// builds and runs its work, is not a writable directory: without it the
// go command and valgrind fail in ways that name something else.
func CheckTemp() error {
	dir := os.TempDir()
	fi, err := os.Stat(dir)
	var why string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "no such directory"
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir():
		why = "not a directory"
	case err != nil:
		why = unwrapPath(err).Error()
	default:
		probe, err := os.MkdirTemp(dir, "perfmut-probe-")
		if err == nil {
			os.Remove(probe)
			return nil
		}
		why = "not writable: " + unwrapPath(err).Error()
	}
	return fmt.Errorf("TMPDIR %s: %s; perfmut builds and runs its work there: create it, or set TMPDIR to a writable directory", dir, why)
}
