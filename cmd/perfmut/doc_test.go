package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/operators"
)

// TestDoc checks the documentation against the commands, in the manner of
// benchstat's TestDoc: every flag that `perfmut CMD -h` prints is named in
// README.md or docs/*.md, and every flag of the flag tables in docs/*.md
// (rows starting "| `-flag") exists in some command.
func TestDoc(t *testing.T) {
	var docs bytes.Buffer
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(data)
	}
	text := docs.String()

	flagLine := regexp.MustCompile(`(?m)^  -([a-zA-Z][a-zA-Z0-9-]*)`)
	all := map[string]bool{}
	for _, c := range commands() {
		var stdout, stderr bytes.Buffer
		run(context.Background(), &stdout, &stderr, []string{c.name, "-h"})
		help := stdout.String() + stderr.String()
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			name := m[1]
			all[name] = true
			if !regexp.MustCompile("`-" + regexp.QuoteMeta(name) + "[ =`]").MatchString(text) {
				t.Errorf("perfmut %s -%s is not documented in README.md or docs/*.md (write it as `-%s ...`)", c.name, name, name)
			}
		}
	}
	if len(all) == 0 {
		t.Fatal("no flags found in any command's -h output")
	}

	row := regexp.MustCompile("(?m)^\\| `-[^|]*\\|")
	tok := regexp.MustCompile("`-([a-zA-Z][a-zA-Z0-9-]*)")
	var missing []string
	for _, r := range row.FindAllString(text, -1) {
		for _, m := range tok.FindAllStringSubmatch(r, -1) {
			if !all[m[1]] && !slices.Contains(missing, m[1]) {
				missing = append(missing, m[1])
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("flag tables in docs name flags no command has: -%s", strings.Join(missing, ", -"))
	}
}

// TestInertDocumented: the -full-filter help names exactly the operators
// whose mutants skip the functional filter (it is derived from
// mutate.Operator.Inert; the docs refer to it rather than list them).
func TestInertDocumented(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run(context.Background(), &stdout, &stderr, []string{"run", "-h"})
	help := stdout.String() + stderr.String()
	_, flagHelp, _ := strings.Cut(help, "  -full-filter")
	flagHelp, _, _ = strings.Cut(flagHelp, "\n  -")
	for _, op := range operators.All {
		inHelp := regexp.MustCompile(`\b` + regexp.QuoteMeta(op.Name) + `\b`).MatchString(flagHelp)
		if inHelp != op.Inert {
			t.Errorf("-full-filter's help names %s: %v, but Inert is %v", op.Name, inHelp, op.Inert)
		}
	}
}

// TestFormatsDocumented keeps the docs' lists of report files in step with
// the format registry (report.Formats): docs/ci.md's file table has a row
// for each format's file and none for a file no format writes, and
// docs/runner.md's list of renderings and its perfmut report -format row
// name each.
func TestFormatsDocumented(t *testing.T) {
	ci, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	runnerDoc, err := os.ReadFile("../../docs/runner.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, f := range report.Formats() {
		files[f.File] = true
		if !strings.Contains(string(ci), "| `"+f.File+"` |") {
			t.Errorf("docs/ci.md: no row for %s (format %s)", f.File, f.Name)
		}
		if !strings.Contains(string(runnerDoc), "`"+f.File+"`") {
			t.Errorf("docs/runner.md: %s (format %s) is not among the renderings", f.File, f.Name)
		}
		if !regexp.MustCompile("(?m)^\\| `-format f` \\|.*`" + f.Name + "`").Match(runnerDoc) {
			t.Errorf("docs/runner.md: perfmut report's -format row does not name %s", f.Name)
		}
	}
	row := regexp.MustCompile("(?m)^\\| `((?:report\\.[a-z]+)|mutation\\.json)` \\|")
	for _, m := range row.FindAllStringSubmatch(string(ci), -1) {
		if m[1] != "report.json" && !files[m[1]] {
			t.Errorf("docs/ci.md lists %s, which no format writes", m[1])
		}
	}
}
