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
