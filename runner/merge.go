package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

// Merge combines the results directories of a sharded campaign (perfmut
// run -shard k/n, every k) into out: report.json with the union of the
// mutants (as an unsharded run lists them), the samples and one journal.
// The shards must come from the same module and settings.
func Merge(out string, dirs []string) (_ *report.Report, err error) {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		if abs, err := filepath.Abs(dir); err == nil && abs == absOut {
			return nil, &InputError{fmt.Errorf("-out %s is one of the shard directories; merge into a new directory", out)}
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, &InputError{fmt.Errorf("%s: no such directory; name the -out directories of the shards' perfmut run", dir)}
		}
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return nil, &InputError{fmt.Errorf("-out %s already exists and is not empty; merge into a new directory (perfmut never overwrites results)", out)}
	}
	// Everything is written to a private directory beside out, renamed to
	// out at the end: a failed merge leaves no half-filled -out.
	parent := filepath.Dir(absOut)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, &InputError{fmt.Errorf("-out %s: cannot create its parent: %w", out, err)}
	}
	final := out
	out, err = os.MkdirTemp(parent, ".perfmut-merge-")
	if err != nil {
		return nil, &InputError{fmt.Errorf("-out %s is not writable: %w", final, errors.Unwrap(err))}
	}
	defer func() {
		if err != nil {
			os.RemoveAll(out)
			return
		}
		os.Remove(final) // an empty directory, if any
		if err = os.Rename(out, final); err != nil {
			os.RemoveAll(out)
		}
	}()
	var merged *report.Report
	owner := map[string]string{}
	shards := map[int]string{}
	shardN := 0
	var journal []byte
	for _, dir := range dirs {
		rep, err := report.ReadFile(filepath.Join(dir, ReportFile))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &InputError{fmt.Errorf("%s has no %s: did its run finish? (continue it with perfmut run -resume -out %s)", dir, ReportFile, dir)}
			}
			return nil, &InputError{err}
		}
		if rep.Settings.Shard != "" {
			k, n, err := ParseShard(rep.Settings.Shard)
			if err != nil {
				return nil, &InputError{fmt.Errorf("%s: %w", dir, err)}
			}
			if shardN != 0 && n != shardN {
				return nil, &InputError{fmt.Errorf("%s is shard %s but an earlier directory is one of %d shards", dir, rep.Settings.Shard, shardN)}
			}
			if prev, ok := shards[k]; ok {
				return nil, &InputError{fmt.Errorf("%s and %s are both shard %d/%d", prev, dir, k, n)}
			}
			shardN, shards[k] = n, dir
		}
		if merged == nil {
			head := *rep
			merged = &head
			merged.Mutants = nil
			merged.Settings.Shard = ""
		} else {
			if rep.Module != merged.Module {
				return nil, &InputError{fmt.Errorf("%s is a run of module %s, not %s", dir, rep.Module, merged.Module)}
			}
			s := rep.Settings
			s.Shard = ""
			if d := settingsDiff(merged.Settings, s); d != "" {
				return nil, &InputError{fmt.Errorf("%s was run with other settings: %s", dir, d)}
			}
			if rep.Started.Before(merged.Started) {
				merged.Started = rep.Started
			}
			if rep.Finished.After(merged.Finished) {
				merged.Finished = rep.Finished
			}
		}
		for _, m := range rep.Mutants {
			if prev, ok := owner[m.ID]; ok {
				return nil, &InputError{fmt.Errorf("mutant %s is in both %s and %s; merge each shard once", m.ID, prev, dir)}
			}
			owner[m.ID] = dir
			for _, lr := range m.Results {
				for _, s := range lr.Samples {
					for _, f := range s.Files {
						if err := copyFile(filepath.Join(dir, f), filepath.Join(out, f)); err != nil {
							return nil, fmt.Errorf("copying samples: %w", err)
						}
					}
				}
			}
			merged.Mutants = append(merged.Mutants, m)
		}
		entries, _, err := ReadJournal(filepath.Join(dir, JournalFile))
		if err != nil {
			return nil, &InputError{err}
		}
		for _, e := range entries {
			line, err := json.Marshal(e)
			if err != nil {
				return nil, err
			}
			journal = append(append(journal, line...), '\n')
		}
	}
	if shardN > 0 {
		var missing []string
		for k := 1; k <= shardN; k++ {
			if shards[k] == "" {
				missing = append(missing, fmt.Sprintf("%d/%d", k, shardN))
			}
		}
		if len(missing) > 0 {
			return nil, &InputError{fmt.Errorf("shard %s missing: merge every shard's directory", strings.Join(missing, ", "))}
		}
	}
	sortMutants(merged.Mutants)
	if merged.Mutants == nil {
		merged.Mutants = []report.Mutant{}
	}
	merged.Score = levelScores(merged.Mutants, settingsLevels(merged.Settings, merged.Mutants))
	merged.Phases = report.SumPhases(merged.Mutants)
	merged.Sensitivity = report.Sensitivities(merged.Mutants)
	sum := score.Summarize(outcomes(merged.Mutants), merged.Settings.Alpha, score.Correction(merged.Settings.Correction))
	merged.Summary = &sum
	if err := os.WriteFile(filepath.Join(out, JournalFile), journal, 0o644); err != nil {
		return nil, err
	}
	if err := report.WriteJSON(filepath.Join(out, "settings.json"), merged.Settings); err != nil {
		return nil, err
	}
	return merged, report.WriteJSON(filepath.Join(out, ReportFile), merged)
}

// settingsLevels is the levels a run with settings s measured.
func settingsLevels(s report.Settings, ms []report.Mutant) []string {
	if l, err := ParseOpt(s.Opt); err == nil {
		return l
	}
	return reportLevels(ms)
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	o, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(o, in); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

// An InputError is a problem with what was given to Merge (a missing or
// foreign directory, an existing -out): bad input, as opposed to a failure
// while writing.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }
