package runner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
)

// readReport reads the report.json file with the operator of each of its
// mutants (mutate.Mutant.Op, from operators.All): the one place where a
// report read back gets the operators that generating its mutants gave
// them.
func readReport(file string) (*results.Report, error) {
	rep, err := results.ReadFile(file)
	if err != nil {
		return nil, err
	}
	rep.SetOperators(operators.All)
	return rep, nil
}

// ReadResults reads the report of a results directory (the -out of a
// campaign), or of the report.json named by path, and returns the
// directory too. A directory without a report (none, or an unfinished run)
// is an *inputerr.Error saying what to do.
func ReadResults(path string) (rep *results.Report, dir string, err error) {
	dir, file := path, filepath.Join(path, ReportFile)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", inputerr.Errorf("%s: no such directory; give the -out directory of a perfmut run", path)
	case err == nil && !st.IsDir():
		dir, file = filepath.Dir(dir), dir // the report.json itself
	}
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(dir, results.JournalFile)); err == nil {
			return nil, "", inputerr.Errorf("%s holds an unfinished run (a journal, no %s yet); finish it with perfmut run -resume -out %s and the same flags", path, ReportFile, path)
		}
		return nil, "", inputerr.Errorf("%s: no %s there; give the -out directory of a perfmut run", path, ReportFile)
	}
	rep, err = readReport(file)
	return rep, dir, err
}

// CheckSince says in one line when dir, an earlier campaign's results
// (run -since), holds no report a campaign can reuse, before anything is
// built or written; "" is no -since.
func CheckSince(dir string) error {
	if dir == "" {
		return nil
	}
	file := filepath.Join(dir, ReportFile)
	if _, err := os.Stat(file); err != nil {
		return inputerr.Errorf("-since %s: no %s there; give the results directory of an earlier perfmut run", dir, ReportFile)
	}
	rep, err := results.ReadFile(file)
	if err != nil {
		return inputerr.Errorf("-since %s: %v", dir, err)
	}
	if rep.Inputs == nil {
		return inputerr.Errorf("-since %s: %s", dir, noInputs)
	}
	return nil
}
