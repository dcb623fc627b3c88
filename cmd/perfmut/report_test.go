package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resultsDir copies the report package's fixture report.json into a new
// results directory.
func resultsDir(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "report", "testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReportCommand(t *testing.T) {
	dir := resultsDir(t) // fixture: opt 5/11 = 45.5%, noopt 6/11 = 54.5%
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // exact, "" = empty
	}{
		{"all", []string{dir}, 0, "Mutation score", ""},
		{"gate passes", []string{"-min-score", "0.45", dir}, 0, "opt         5     11  45.5%", ""},
		{"gate fails", []string{"-min-score", "50%", dir}, 3, "Mutation score",
			"perfmut report: mutation score below -min-score 50.0%: opt 45.5% (5 of 11 killed)\n"},
		{"gate on noopt only", []string{"-min-score", "0.5", "-levels", "noopt", "-format", "sarif", dir}, 0, `"version": "2.1.0"`, ""},
		// The fixture has 1 undecided mutant at each level.
		{"undecided within the limit", []string{"-max-undecided", "1", dir}, 0, "undecided        1      1", ""},
		{"too many undecided", []string{"-max-undecided", "0", "-levels", "noopt", dir}, 3, "Undecided: 1 mutant",
			"perfmut report: more undecided mutants than -max-undecided 0: noopt 1 (too noisy to decide; perfmut report lists them)\n"},
		{"score gate first", []string{"-max-undecided", "0", "-min-score", "50%", dir}, 3, "",
			"perfmut report: mutation score below -min-score 50.0%: opt 45.5% (5 of 11 killed)\n"},
		{"bad max-undecided", []string{"-max-undecided", "-2", dir}, 2, "",
			"perfmut report: bad -max-undecided -2: want a count of mutants, or -1 for no limit\n"},
		{"markdown", []string{"-format", "md", filepath.Join(dir, "report.json")}, 0, "<!-- perfmut-report -->", ""},
		{"mte", []string{"-format", "mte", dir}, 0, `"schemaVersion": "2"`, ""},
		{"bad min-score", []string{"-min-score", "80", dir}, 2, "",
			"perfmut report: -min-score \"80\": want a fraction in [0, 1] such as 0.8, or a percentage such as 80%\n"},
		{"bad level", []string{"-levels", "O2", dir}, 2, "",
			"perfmut report: -levels \"O2\": unknown level \"O2\"; use opt, noopt or opt,noopt\n"},
		{"bad format", []string{"-format", "pdf", dir}, 2, "",
			"perfmut report: -format: unknown format \"pdf\"; use one of text, md, html, sarif, mte or all\n"},
		{"no dir", nil, 2, "",
			"perfmut report: want one results directory (the -out of perfmut run), got 0 arguments; see perfmut report -h\n"},
		{"not a results dir", []string{t.TempDir()}, 2, "", "no report.json there"},
		{"missing dir", []string{filepath.Join(t.TempDir(), "nope")}, 2, "", "nope: no such directory; give the -out directory of a perfmut run\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &stdout, &stderr, append([]string{"report"}, tc.args...))
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%.500s", tc.stdout, stdout.String())
			}
			if got := stderr.String(); tc.stderr == "" && got != "" || !strings.Contains(got, tc.stderr) {
				t.Errorf("stderr = %q, want %q", got, tc.stderr)
			}
		})
	}
	for _, f := range []string{"report.txt", "report.md", "report.html", "report.sarif", "mutation.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("perfmut report DIR did not write %s: %v", f, err)
		}
	}
}

func TestReportUnfinished(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "journal.jsonl"), []byte("{}\n"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, []string{"report", dir}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	want := "perfmut report: " + dir + " holds an unfinished run (a journal, no report.json yet); finish it with perfmut run -resume -out " + dir + " and the same flags\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// TestReportCorrupt: a report.json of another schema is bad input (exit
// 2, as in merge and reproduce), one line saying what to do.
func TestReportCorrupt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "report.json"), []byte(`{"schema": "other"}`), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, []string{"report", dir}); code != exitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	want := "perfmut report: " + filepath.Join(dir, "report.json") + `: report schema "other", this perfmut reads "perfmut/report/v1"; re-run the campaign or use the perfmut that wrote it` + "\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
