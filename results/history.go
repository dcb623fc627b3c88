package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/score"
)

// HistoryFile is the store of compare -history DIR: one JSON line per
// version, benchmark and metric measured by a comparison.
const HistoryFile = "history.jsonl"

// A HistoryEntry is the distribution of one benchmark metric on one
// version of the code, as one comparison measured it.
type HistoryEntry struct {
	Time      time.Time `json:"time"`
	Module    string    `json:"module"`
	Commit    string    `json:"commit"`
	Rev       string    `json:"rev"`     // as given (WORKTREE: uncommitted edits on Commit)
	Machine   string    `json:"machine"` // GOOS/GOARCH, CPU model, GOMAXPROCS and Go version: only the same machine's entries are compared
	Package   string    `json:"package"`
	Benchmark string    `json:"benchmark"`
	Metric    string    `json:"metric"`
	// Iterations is the fixed iteration count of every sample (0 for
	// time-based samples).
	Iterations int       `json:"iterations,omitempty"`
	Values     []float64 `json:"values"`
	// Rounds, for the metric BehaviourMetric (in the behaviour store,
	// BehaviourFile), are the profiled rounds' features (package
	// internal/behave): per round, each one's share.
	Rounds []map[string]float64 `json:"rounds,omitempty"`
}

// A HistoryReader reads a history store line by line, like benchfmt's
// Reader: Scan, Result, Err.
type HistoryReader struct {
	sc   *bufio.Scanner
	name string
	line int
	cur  HistoryEntry
	err  error
}

// NewHistoryReader reads the store r; name is its file name for errors.
func NewHistoryReader(r io.Reader, name string) *HistoryReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &HistoryReader{sc: sc, name: name}
}

// Scan advances to the next entry; false at the end or on an error (Err).
func (r *HistoryReader) Scan() bool {
	for r.err == nil && r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(b) == 0 {
			continue
		}
		r.cur = HistoryEntry{}
		if err := json.Unmarshal(b, &r.cur); err != nil {
			r.err = fmt.Errorf("%s:%d: %v", r.name, r.line, err)
			return false
		}
		return true
	}
	if r.err == nil {
		r.err = r.sc.Err()
	}
	return false
}

// Result is the entry Scan read.
func (r *HistoryReader) Result() HistoryEntry { return r.cur }

// Err is the first error, if any.
func (r *HistoryReader) Err() error { return r.err }

// ReadHistory reads every entry of dir's store (none if it does not exist).
func ReadHistory(dir string) ([]HistoryEntry, error) { return readEntries(dir, HistoryFile) }

// ReadBehaviours reads every entry of dir's behaviour store (none if it
// does not exist).
func ReadBehaviours(dir string) ([]HistoryEntry, error) { return readEntries(dir, BehaviourFile) }

// readEntries reads the store file of dir.
func readEntries(dir, file string) ([]HistoryEntry, error) {
	name := filepath.Join(dir, file)
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []HistoryEntry
	rd := NewHistoryReader(f, name)
	for rd.Scan() {
		out = append(out, rd.Result())
	}
	return out, rd.Err()
}

// AppendHistory appends entries to dir's store (created if needed) with
// one write, so that an interrupted append leaves at most a partial last
// line, which a later read reports with its line number.
func AppendHistory(dir string, entries []HistoryEntry) error {
	return appendEntries(dir, HistoryFile, entries)
}

// AppendBehaviours appends entries to dir's behaviour store, as
// AppendHistory does to its store.
func AppendBehaviours(dir string, entries []HistoryEntry) error {
	return appendEntries(dir, BehaviourFile, entries)
}

// appendEntries appends entries to the store file of dir.
func appendEntries(dir, file string, entries []HistoryEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var buf []byte
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf = append(append(buf, b...), '\n')
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// A Drift is a benchmark metric whose NEW distribution is slower than the
// oldest one in the recent history of the same machine. perfmut compare
// words it as one of its warnings.
type Drift struct {
	Benchmark string    `json:"benchmark"`
	Metric    string    `json:"metric"`
	Ratio     float64   `json:"ratio"` // median NEW / median of the reference
	P         float64   `json:"p"`     // one-sided KS, NEW slower than the reference
	Since     string    `json:"since"` // the reference's commit
	SinceRev  string    `json:"since_rev"`
	SinceTime time.Time `json:"since_time"`
	Entries   int       `json:"entries"` // recorded distributions of this metric looked back over
}

// FormatRatio shows a ratio NEW/OLD with three significant digits, "inf"
// for an unbounded one.
func FormatRatio(r float64) string {
	switch {
	case r == score.UnboundedRatio:
		return "inf"
	case r == -score.UnboundedRatio:
		return "-inf"
	}
	return fmt.Sprintf("%.3g", r)
}
