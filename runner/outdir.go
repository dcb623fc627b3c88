package runner

import (
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/results"
)

// The results directory is package outdir's; these names remain for the
// campaign's files that still use them.
type OutLock = outdir.Locked

const (
	GitignoreFile  = outdir.GitignoreFile
	staleUnwritten = 10 * time.Second
)

func MakeOutDir(dir string) error          { return outdir.Make(dir) }
func LockOut(dir string) (*OutLock, error) { return outdir.Lock(dir) }
func CheckUnlocked(dir string) error       { return outdir.CheckUnlocked(dir) }
func CheckOutDir(dir string) error         { return outdir.Check(dir) }

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
