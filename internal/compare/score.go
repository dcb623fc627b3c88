package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/results"
)

// readScore reads the report of Comparison.ScoreDir, before any work: a
// missing or unreadable one is bad input.
func (c *Comparison) readScore() (*results.Report, error) {
	if c.ScoreDir == "" {
		return nil, nil
	}
	path := filepath.Join(c.ScoreDir, results.ReportFile)
	if _, err := os.Stat(path); err != nil {
		return nil, inputerr.Errorf("-score %s: no %s there; name the -out directory of a perfmut run (perfmut run -out DIR ./...)", c.ScoreDir, results.ReportFile)
	}
	rep, err := results.ReadFile(path)
	if err != nil {
		return nil, inputerr.Errorf("-score %s: %w", c.ScoreDir, err)
	}
	return rep, nil
}

// scoreSection is the score of the packages whose non-test Go files
// changed (on either side), from rep.
func (c *Comparison) scoreSection(rep *results.Report, dir string, sides [2]*compareSide, d *changes.Diff) *results.ScoreSection {
	var pkgs []string
	for i, lines := range []map[string][]changes.Range{d.Old, d.New} {
		for p := range changedPackages(sides[i].modPath, lines) {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
	}
	code, _ := d.GoFiles()
	s := c.ScoreFor(rep, dir, pkgs, code)
	if rep.Module != "" && rep.Module != sides[1].modPath {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the results in %s are of module %s, not %s", dir, rep.Module, sides[1].modPath))
	}
	return s
}
