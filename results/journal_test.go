package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadJournalTail(t *testing.T) {
	good := `{"id":"a","level":"opt","result":{"status":"killed","benchmarks":[]},"time":"2026-01-01T00:00:00Z"}` + "\n"
	for _, tc := range []struct {
		name, data string
		entries    int
		goodLen    int
		err        string
	}{
		{"complete", good, 1, len(good), ""},
		{"torn last line", good + `{"id":"b","lev`, 1, len(good), ""},
		{"torn first line", `{"i`, 0, 0, ""},
		{"garbage without newline", "garbage", 0, 0, "journal.jsonl:1: not a perfmut journal line"},
		{"garbage after a line", good + "garbage", 0, 0, "journal.jsonl:2: not a perfmut journal line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), JournalFile)
			os.WriteFile(path, []byte(tc.data), 0o644)
			es, n, err := ReadJournal(path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(es) != tc.entries || n != int64(tc.goodLen) {
				t.Errorf("got %d entries, good length %d, %v; want %d, %d", len(es), n, err, tc.entries, tc.goodLen)
			}
		})
	}
}
