package report

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestWriteErrorsCounted: when no rendering can be written, the one-line
// error names the first failure and every file not written, counted
// right ("and 4 more:" listed five before).
func TestWriteErrorsCounted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	fs := Formats()
	err := Write(dir, &results.Report{}, fs, Options{Dir: dir})
	if err == nil {
		t.Fatal("Write into a missing directory: no error")
	}
	var files []string
	for _, f := range fs {
		files = append(files, f.File)
	}
	want := "(" + strings.Join(files, ", ") + ": " + strconv.Itoa(len(fs)) + " files not written)"
	if !strings.HasSuffix(err.Error(), want) || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("Write: %v\nwant one line ending %s", err, want)
	}
}
