package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResumedMeasure: what the run in a results directory measured, from
// its settings.json: -resume with -measure auto continues it the same way
// (an auto run that fell back to time is resumed on time on a machine
// with valgrind, not refused over the counts' minimum effect).
func TestResumedMeasure(t *testing.T) {
	for settings, want := range map[string]string{
		`{"module":"m"}`:                          "time",
		`{"module":"m","measure":"time"}`:         "time",
		`{"module":"m","measure":"instructions"}`: "instructions",
		`not json`: "",
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, settingsFile), []byte(settings), 0o644)
		if got := ResumedMeasure(dir); got != want {
			t.Errorf("ResumedMeasure(%s) = %q, want %q", settings, got, want)
		}
	}
	if got := ResumedMeasure(t.TempDir()); got != "" {
		t.Errorf("ResumedMeasure(no settings) = %q, want \"\"", got)
	}
}
