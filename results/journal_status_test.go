package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestJournalUnknownStatus: a journal line whose status perfmut does not
// know (an edited journal) is an error naming the file and line, not a
// result that no report shows while the header counts it.
func TestJournalUnknownStatus(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	data := `{"id":"a","level":"opt","result":{"status":"killed"},"time":"2026-11-25T17:00:00Z"}` + "\n" +
		`{"id":"b","level":"opt","result":{"status":"bogus"},"time":"2026-11-25T17:00:00Z"}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadJournal(path)
	want := path + `:2: unknown status "bogus" (not a perfmut journal line: was it edited?); remove the line to run that mutant again`
	if err == nil || err.Error() != want {
		t.Errorf("ReadJournal: %v\nwant %s", err, want)
	}
}
