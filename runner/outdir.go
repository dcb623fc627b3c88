package runner

import (
	"os"
	"path/filepath"

	"github.com/perfmut/perfmut/results"
)

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
