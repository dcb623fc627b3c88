package runner

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/results"
)

// checkResumable says in one line (an *inputerr.Error) when the results
// directory dir holds no run to resume: it does not exist, or neither a
// journal nor the settings of an earlier run are there, or a journal
// without the settings its results were measured with (a resumed run
// would relabel them with its own).
func checkResumable(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return inputerr.Errorf("-resume: nothing to resume: -out %s does not exist; leave out -resume to start a campaign there", dir)
	}
	_, jerr := os.Stat(filepath.Join(dir, results.JournalFile))
	_, serr := os.Stat(filepath.Join(dir, settingsFile))
	switch {
	case serr == nil:
		return nil
	case jerr == nil:
		return inputerr.Errorf("-resume: -out %s holds a journal but no %s: the settings its results were measured with are unknown, so they cannot be continued; leave out -resume to start a campaign there", dir, settingsFile)
	}
	return inputerr.Errorf("-resume: nothing to resume: -out %s holds no earlier run (no %s); leave out -resume to start a campaign there", dir, results.JournalFile)
}

// ResumedMeasure is what the run in the results directory dir measured,
// from its settings: "time" or "instructions"; "" when they cannot be
// read. -resume with -measure auto continues that run the same way.
func ResumedMeasure(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, settingsFile))
	if err != nil {
		return ""
	}
	var s results.Settings
	if json.Unmarshal(data, &s) != nil {
		return ""
	}
	if s.Measure == "" {
		return "time"
	}
	return s.Measure
}
