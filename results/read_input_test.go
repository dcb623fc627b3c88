package results

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
)

// TestReadFileCorrupt: a report.json that is not one is bad input (exit 2
// in report, reproduce and merge alike: merge said 2, the others 1), in
// one line saying how to write it again.
func TestReadFileCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), ReportFile)
	os.WriteFile(path, []byte(`{"module": `), 0o644)
	_, err := ReadFile(path)
	want := path + ": not a perfmut report.json: unexpected end of JSON input; perfmut run -resume -out " + filepath.Dir(path) + " writes it again from the journal"
	if err == nil || err.Error() != want || !errors.As(err, new(*inputerr.Error)) {
		t.Errorf("ReadFile: %v\nwant the input error %s", err, want)
	}
}
