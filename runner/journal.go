package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/perfmut/perfmut/report"
)

// JournalFile is the append-only journal in the output directory: one JSON
// line per finished mutant and level, fsynced, so a killed run loses at
// most the mutants in flight.
const JournalFile = "journal.jsonl"

// A JournalEntry is one line of the journal.
type JournalEntry struct {
	ID     string              `json:"id"`
	Level  string              `json:"level"`
	Result *report.LevelResult `json:"result"`
	Time   time.Time           `json:"time"`
}

type resultKey struct{ id, level string }

// ReadJournal reads a journal. A torn last line (the process was killed
// while writing it) is ignored; goodLen is the length of the intact prefix.
func ReadJournal(path string) (entries []JournalEntry, goodLen int64, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	off := 0
	lineNo := 0
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			// A torn last line (the process was killed while writing
			// it) starts as every line does; anything else is not ours.
			if !bytes.HasPrefix(data[off:], []byte(`{"id":`)) && !bytes.HasPrefix([]byte(`{"id":`), data[off:]) {
				return nil, 0, fmt.Errorf("%s:%d: not a perfmut journal line (%.20q...); remove the file or choose another -out", path, lineNo+1, data[off:])
			}
			break
		}
		lineNo++
		line := data[off : off+nl]
		var e JournalEntry
		if err := json.Unmarshal(line, &e); err != nil || e.ID == "" || e.Result == nil {
			if off+nl+1 == len(data) {
				break // a torn line that happens to end the file
			}
			return nil, 0, fmt.Errorf("%s:%d: corrupt journal line", path, lineNo)
		}
		entries = append(entries, e)
		off += nl + 1
	}
	return entries, int64(off), nil
}

// A journal appends entries to the journal file.
type journal struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

// openJournal opens path for appending after truncating it to goodLen
// (dropping a torn last line).
func openJournal(path string, goodLen int64) (*journal, error) {
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
	return &journal{f: f, w: bufio.NewWriter(f)}, nil
}

// append writes e as one line and syncs it to disk.
func (j *journal) append(e JournalEntry) error {
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

func (j *journal) close() error { return j.f.Close() }
