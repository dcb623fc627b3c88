package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/perfmut/perfmut/score"
)

// JournalFile is the append-only journal in the output directory: one JSON
// line per finished mutant and level, fsynced, so a killed run loses at
// most the mutants in flight.
const JournalFile = "journal.jsonl"

// A JournalEntry is one line of the journal.
type JournalEntry struct {
	ID     string       `json:"id"`
	Level  string       `json:"level"`
	Result *LevelResult `json:"result"`
	Time   time.Time    `json:"time"`
}

// A JournalReader reads a journal line by line, validating each, in the
// manner of benchfmt.Reader:
//
//	r, err := NewJournalReader(path)
//	for r.Scan() {
//		e := r.Result()
//	}
//	if err := r.Err(); err != nil { ... }
//
// A torn last line (the process was killed while writing it) ends the
// journal without an error; any other line that is not a journal entry is
// an error naming the file and line.
type JournalReader struct {
	path string
	data []byte
	off  int
	line int
	e    JournalEntry
	err  error
}

// NewJournalReader reads the journal at path; a missing file is an empty
// journal.
func NewJournalReader(path string) (*JournalReader, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return &JournalReader{path: path, data: data}, nil
}

// Scan advances to the next entry; it returns false at the end of the
// journal or on an error (see Err).
func (r *JournalReader) Scan() bool {
	if r.err != nil || r.off >= len(r.data) {
		return false
	}
	rest := r.data[r.off:]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		// A torn last line starts as every line does; anything else is
		// not ours.
		if !bytes.HasPrefix(rest, []byte(`{"id":`)) && !bytes.HasPrefix([]byte(`{"id":`), rest) {
			r.err = fmt.Errorf("%s:%d: not a perfmut journal line (%.20q...); remove the file or choose another -out", r.path, r.line+1, rest)
		}
		return false
	}
	r.line++
	var e JournalEntry
	if err := json.Unmarshal(rest[:nl], &e); err != nil || e.ID == "" || e.Result == nil {
		if r.off+nl+1 != len(r.data) { // a torn line that happens to end the file is not an error
			r.err = fmt.Errorf("%s:%d: corrupt journal line", r.path, r.line)
		}
		return false
	}
	if !slices.Contains(score.Statuses, e.Result.Status) {
		r.err = fmt.Errorf("%s:%d: unknown status %q (not a perfmut journal line: was it edited?); remove the line to run that mutant again", r.path, r.line, e.Result.Status)
		return false
	}
	r.e = e
	r.off += nl + 1
	return true
}

// Result returns the entry Scan read.
func (r *JournalReader) Result() JournalEntry { return r.e }

// Err returns the error that ended Scan, if any.
func (r *JournalReader) Err() error { return r.err }

// GoodLen is the length of the journal's intact prefix read so far: where
// a resumed run appends.
func (r *JournalReader) GoodLen() int64 { return int64(r.off) }

// ReadJournal reads a whole journal (see JournalReader); goodLen is the
// length of its intact prefix.
func ReadJournal(path string) (entries []JournalEntry, goodLen int64, err error) {
	r, err := NewJournalReader(path)
	if err != nil {
		return nil, 0, err
	}
	for r.Scan() {
		entries = append(entries, r.Result())
	}
	if err := r.Err(); err != nil {
		return nil, 0, err
	}
	return entries, r.GoodLen(), nil
}

// A Journal appends entries to the journal file; it is safe for
// concurrent use.
type Journal struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

// OpenJournal opens path for appending after truncating it to goodLen
// (dropping a torn last line).
func OpenJournal(path string, goodLen int64) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(goodLen); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(goodLen, 0); err != nil {
		f.Close()
		return nil, err
	}
	return &Journal{f: f, w: bufio.NewWriter(f)}, nil
}

// Append writes e as one line and syncs it to disk.
func (j *Journal) Append(e JournalEntry) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.w.Write(data)
	j.w.WriteByte('\n')
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("writing journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("syncing journal: %w", err)
	}
	return nil
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }
