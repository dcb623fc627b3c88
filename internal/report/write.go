package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/results"
)

// A Format is one rendering of a report and the file it goes to.
type Format struct {
	Name   string // as in perfmut report -format
	File   string // file name in the output directory
	Render func(w io.Writer, rep *results.Report, opts Options) error
}

// Formats lists every rendering, in the order WriteAll writes them. It is
// the one list of formats: perfmut report's -format and usage text, and
// the tests that keep docs/ci.md's file table in step, all read it.
func Formats() []Format {
	return []Format{
		{"text", "report.txt", Text},
		{"md", "report.md", writeMarkdown},
		{"html", "report.html", writeHTML},
		{"sarif", "report.sarif", writeSARIF},
		{"mte", "mutation.json", writeMTE},
	}
}

// FormatNames is the list of format names, for usage messages.
func FormatNames() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Name)
	}
	return out
}

// LookupFormat returns the format called name.
func LookupFormat(name string) (Format, error) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown format %q; use one of %s or all", name, strings.Join(FormatNames(), ", "))
}

// WriteAll writes every rendering of rep (Formats) into dir, each
// atomically. It does not
// write report.json itself. The benchstat commands in the reports use dir
// as given.
func WriteAll(dir string, rep *results.Report) error {
	return Write(dir, rep, Formats(), Options{Dir: dir})
}

// Write writes the given renderings of rep into dir. It writes every one
// it can and returns the errors of those it could not.
// The error is one line: the first failure and how many files failed.
func Write(dir string, rep *results.Report, formats []Format, opts Options) error {
	var errs []error
	var failed []string
	for _, f := range formats {
		var buf bytes.Buffer
		if err := f.Render(&buf, rep, opts); err != nil {
			errs = append(errs, fmt.Errorf("rendering %s: %w", f.File, err))
			failed = append(failed, f.File)
			continue
		}
		if err := results.WriteAtomic(filepath.Join(dir, f.File), buf.Bytes()); err != nil {
			errs = append(errs, err)
			failed = append(failed, f.File)
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return fmt.Errorf("%v (%s: %d files not written)", errs[0], strings.Join(failed, ", "), len(failed))
}
