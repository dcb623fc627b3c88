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

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Merge combines the results directories of a sharded campaign (perfmut
// run -shard k/n, every k) into out: report.json with the union of the
// mutants (as an unsharded run lists them), the samples and one journal.
// The shards must come from the same module and settings.
func Merge(out string, dirs []string) (_ *results.Report, err error) {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	if err := checkMergeDirs(out, absOut, dirs); err != nil {
		return nil, err
	}
	// Everything is written to a private directory beside out, renamed to
	// out at the end: a failed merge leaves no half-filled -out.
	parent := filepath.Dir(absOut)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, inputerr.Errorf("-out %s: cannot create its parent: %w", out, err)
	}
	final := out
	_, statErr := os.Stat(final)
	created := statErr != nil // perfmut creates out: see outdir.Make
	out, err = os.MkdirTemp(parent, ".perfmut-merge-")
	if err != nil {
		return nil, inputerr.Errorf("-out %s is not writable: %w", final, errors.Unwrap(err))
	}
	if created {
		err = os.WriteFile(filepath.Join(out, outdir.GitignoreFile), []byte("*\n"), 0o644)
	}
	if err == nil {
		err = outdir.Mark(out)
	}
	if err != nil {
		os.RemoveAll(out)
		return nil, err
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
	m := &merger{out: out, owner: map[string]string{}, shards: map[int]string{}}
	for _, dir := range dirs {
		if err := m.add(dir); err != nil {
			return nil, err
		}
	}
	if err := m.checkShards(); err != nil {
		return nil, err
	}
	merged := m.merged
	results.SortMutants(merged.Mutants)
	if merged.Mutants == nil {
		merged.Mutants = []results.Mutant{}
	}
	merged.Score = results.LevelScores(merged.Mutants, settingsLevels(merged.Settings, merged.Mutants))
	merged.Phases = results.SumPhases(merged.Mutants)
	merged.Sensitivity = sensitivities(merged.Mutants)
	sum := score.Summarize(results.Outcomes(merged.Mutants), merged.Settings.Alpha, merged.Settings.Correction)
	merged.Summary = &sum
	if err := os.WriteFile(filepath.Join(out, results.JournalFile), m.journal, 0o644); err != nil {
		return nil, err
	}
	if err := results.WriteJSON(filepath.Join(out, "settings.json"), merged.Settings); err != nil {
		return nil, err
	}
	if err := m.finishMapNoise(); err != nil {
		return nil, err
	}
	return merged, results.WriteJSON(filepath.Join(out, ReportFile), merged)
}

// checkMergeDirs checks Merge's input: directories that exist, that no
// run is writing, none of them out, and out new or empty.
func checkMergeDirs(out, absOut string, dirs []string) error {
	for _, dir := range dirs {
		if abs, err := filepath.Abs(dir); err == nil && abs == absOut {
			return inputerr.Errorf("-out %s is one of the shard directories; merge into a new directory", out)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return inputerr.Errorf("%s: no such directory; name the -out directories of the shards' perfmut run", dir)
		}
		// A run still writing there has not written its report yet (or
		// holds an earlier one).
		var iu *outdir.InUseError
		if err := outdir.CheckUnlocked(dir); errors.As(err, &iu) {
			return inputerr.Errorf("%s is in use by perfmut (pid %d, since %s); merge it once that run has finished", dir, iu.PID, iu.Since.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return inputerr.Errorf("-out %s already exists and is not empty; merge into a new directory (perfmut never overwrites results)", out)
	}
	return nil
}

// A merger accumulates the shards Merge reads.
type merger struct {
	out     string            // where samples are copied
	merged  *results.Report   // the first shard's report with every shard's mutants
	owner   map[string]string // mutant ID -> the directory it came from
	shards  map[int]string    // shard k -> its directory
	shardN  int               // n of the shards k/n, 0 if unsharded
	journal []byte            // every shard's journal entries, checked
	head    shardHead         // the first shard, whose map and noise the merged report keeps
}

// add merges the results directory dir: its report's mutants, their
// samples and its journal.
func (m *merger) add(dir string) error {
	rep, err := readReport(filepath.Join(dir, ReportFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, jerr := os.Stat(filepath.Join(dir, results.JournalFile)); jerr == nil {
				return inputerr.Errorf("%s has no %s: its run did not finish (continue it with perfmut run -resume -out %s)", dir, ReportFile, dir)
			}
			return inputerr.Errorf("%s is not the results directory of a perfmut run (no %s, no %s)", dir, ReportFile, results.JournalFile)
		}
		return &inputerr.Error{Err: err}
	}
	if rep.Unfinished != "" {
		return inputerr.Errorf("%s: its run was interrupted before %s; finish it with perfmut run -resume -out %s, then merge", dir, rep.Unfinished, dir)
	}
	if err := m.addShard(dir, rep); err != nil {
		return err
	}
	for _, mu := range rep.Mutants {
		if prev, ok := m.owner[mu.ID]; ok {
			return inputerr.Errorf("mutant %s is in both %s and %s; merge each shard once", mu.ID, prev, dir)
		}
		m.owner[mu.ID] = dir
		for _, lr := range mu.Results {
			for _, s := range lr.Samples {
				for _, f := range s.Files {
					if err := copyFile(filepath.Join(dir, f), filepath.Join(m.out, f)); err != nil {
						return fmt.Errorf("copying samples: %w", err)
					}
				}
			}
		}
		m.merged.Mutants = append(m.merged.Mutants, mu)
	}
	entries, _, err := results.ReadJournal(filepath.Join(dir, results.JournalFile))
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		m.journal = append(append(m.journal, line...), '\n')
	}
	return nil
}

// addShard checks that rep (of dir) is a distinct shard of the same
// campaign as those before it, and merges its head: the time span.
func (m *merger) addShard(dir string, rep *results.Report) error {
	if rep.Settings.Shard != "" {
		k, n, err := ParseShard(rep.Settings.Shard)
		if err != nil {
			return inputerr.Errorf("%s: %w", dir, err)
		}
		if m.shardN != 0 && n != m.shardN {
			return inputerr.Errorf("%s is shard %s but an earlier directory is one of %d shards", dir, rep.Settings.Shard, m.shardN)
		}
		if prev, ok := m.shards[k]; ok {
			return inputerr.Errorf("%s and %s are both shard %d/%d", prev, dir, k, n)
		}
		m.shardN, m.shards[k] = n, dir
	}
	if m.merged == nil {
		head := *rep
		m.merged = &head
		m.merged.Mutants = nil
		m.merged.Settings.Shard = ""
		m.head = shardHead{dir: dir, shard: rep.Settings.Shard}
		if hasMap(rep) {
			m.head.mapFrom.dir, m.head.mapFrom.shard = dir, rep.Settings.Shard
		}
		return nil
	}
	if rep.Module != m.merged.Module {
		return inputerr.Errorf("%s is a run of module %s, not %s", dir, rep.Module, m.merged.Module)
	}
	s := rep.Settings
	s.Shard = ""
	if d := m.merged.Settings.Diff(s); d != "" {
		return inputerr.Errorf("%s was run with other settings: %s", dir, d)
	}
	if rep.Started.Before(m.merged.Started) {
		m.merged.Started = rep.Started
	}
	if rep.Finished.After(m.merged.Finished) {
		m.merged.Finished = rep.Finished
	}
	m.addMap(dir, rep)
	m.addNoise(dir, rep)
	return nil
}

// checkShards reports the shards missing from a sharded campaign.
func (m *merger) checkShards() error {
	var missing []string
	for k := 1; k <= m.shardN; k++ {
		if m.shards[k] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, m.shardN))
		}
	}
	if len(missing) > 0 {
		return inputerr.Errorf("shard %s missing: merge every shard's directory", strings.Join(missing, ", "))
	}
	return nil
}

// settingsLevels is the levels a run with settings s measured.
func settingsLevels(s results.Settings, ms []results.Mutant) []string {
	if l, err := ParseOpt(s.Opt); err == nil {
		return l
	}
	return results.ReportLevels(ms)
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
