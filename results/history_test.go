package results

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestHistoryAppendRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hist")
	if got, err := ReadHistory(dir); err != nil || got != nil {
		t.Fatalf("no store: %v, %v", got, err)
	}
	e := HistoryEntry{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Module: "m", Commit: "c1", Rev: "main",
		Machine: "linux/amd64", Package: "m", Benchmark: "BenchmarkX", Metric: "sec/op", Iterations: 10, Values: []float64{1, 2}}
	e2 := e
	e2.Commit = "c2"
	if err := AppendHistory(dir, []HistoryEntry{e}); err != nil {
		t.Fatal(err)
	}
	if err := AppendHistory(dir, []HistoryEntry{e2}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadHistory(dir)
	if err != nil || !reflect.DeepEqual(got, []HistoryEntry{e, e2}) {
		t.Fatalf("read %+v, %v", got, err)
	}
	// An interrupted append leaves a partial last line: named, with its line.
	f, err := os.OpenFile(filepath.Join(dir, HistoryFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"2026-`)
	f.Close()
	if _, err := ReadHistory(dir); err == nil || !strings.Contains(err.Error(), "history.jsonl:3: ") {
		t.Errorf("partial line: %v", err)
	}
}
