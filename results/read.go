package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// ReadFile reads and checks a report.json.
func ReadFile(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	rep, err := Decode(data)
	var se *schemaError
	switch {
	case errors.As(err, &se):
		return nil, inputerr.Errorf("%s: %w", path, err) // it says what to do
	case err != nil:
		// Bad input for every command that reads it (exit 2).
		return nil, inputerr.Errorf("%s: %w; perfmut run -resume -out %s writes it again from the journal", path, err, filepath.Dir(path))
	}
	return rep, nil
}

// SetOperators gives every mutant of r the operator of ops its report
// names (mutate.Mutant.Op), as generating it did: a report read back
// carries operator names only. A mutant whose operator ops lacks (a report
// of a newer perfmut) keeps a nil Op.
func (r *Report) SetOperators(ops []*mutate.Operator) {
	byName := make(map[string]*mutate.Operator, len(ops))
	for _, op := range ops {
		byName[op.Name] = op
	}
	for i := range r.Mutants {
		r.Mutants[i].Op = byName[r.Mutants[i].Operator]
	}
}

// Decode parses the content of a report.json. Unknown fields are ignored
// (newer writers may add some); a missing or different schema is an error.
func Decode(data []byte) (*Report, error) {
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("not a perfmut report.json: %w", err)
	}
	switch rep.Schema {
	case Schema:
	case "":
		return nil, fmt.Errorf("not a perfmut report.json: no %q field", "schema")
	default:
		return nil, &schemaError{rep.Schema}
	}
	if c := rep.Settings.Correction; c != "" {
		if _, err := score.ParseCorrection(string(c)); err != nil {
			return nil, fmt.Errorf("settings.correction: %w", err)
		}
	}
	if a := rep.Settings.Alpha; a != 0 && !(a > 0 && a < 1) {
		return nil, fmt.Errorf("settings.alpha %v: want a level between 0 and 1", a)
	}
	for i, m := range rep.Mutants {
		if m.ID == "" {
			return nil, fmt.Errorf("mutant %d has no id", i)
		}
	}
	return &rep, nil
}

// A schemaError is a report.json of another schema: what to do is to run
// the campaign again, or to use the perfmut that wrote it.
type schemaError struct{ schema string }

func (e *schemaError) Error() string {
	return fmt.Sprintf("report schema %q, this perfmut reads %q; re-run the campaign or use the perfmut that wrote it", e.schema, Schema)
}

// WriteAtomic writes data to path atomically: to a temporary file beside
// it, synced, then renamed over it, so that a reader (or a crash) sees the
// old file or the new one, never a partial one.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to path, atomically (WriteAtomic).
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(data, '\n'))
}
