package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/report"
)

// runErr runs a one-mutant campaign on testdata/name and returns its error.
func runErr(t *testing.T, name, out string) error {
	mod, pkgs := testModule(t, name)
	m := mkMutant(t, mod, "double-spin", "example.com/"+name+"/lib", "lib/lib.go", "func Double(", "r += n", "r += n\n\t\tperfmut_sink++")
	m.Helper = "package lib\n\nvar perfmut_sink int\n"
	if out == "" {
		out = filepath.Join(t.TempDir(), "out")
	}
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = append(c.Mutants, m)
	c.Levels = []string{report.Opt}
	_, err := c.Run(context.Background())
	return err
}

func TestBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules")
	}
	for _, tc := range []struct {
		name, module, out string
		want              []string
	}{
		{"baseline tests fail", "failing", "", []string{"baseline tests fail in package example.com/failing/lib", "TestDouble", "fix the tests"}},
		{"no benchmarks", "nobench", "", []string{"no benchmarks in scope", "example.com/nobench/lib"}},
		{"out not writable", "hot", "/dev/null/out", []string{"-out directory", "not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			module := tc.module
			var err error
			if module == "hot" {
				mod, pkgs := testModule(t, "hot")
				c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod)[:1], tc.out)
				_, err = c.Run(context.Background())
			} else {
				err = runErr(t, module, tc.out)
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
		})
	}
}
