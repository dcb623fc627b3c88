// Package report renders perfmut's results (package results) for people
// and tools: a campaign's report.json as text, Markdown, HTML, SARIF and
// mutation-testing-elements JSON (the Formats registry), a comparison as
// text and Markdown, a plan, a calibration table, the mutant lists of
// perfmut list and show, and the gates (-min-score, -max-undecided) over
// a report.
//
// # Adding a report format
//
// The formats are one registry, Formats (write.go): perfmut report's
// -format flag and usage text, WriteAll (perfmut run, merge and report)
// and the docs tests read it. A new format touches:
//
//  1. internal/report/NAME.go: its renderer, a func(w io.Writer, rep
//     *results.Report, opts Options) error; text.go and sarif.go show the
//     helpers (levels, findings, position, testsLine).
//  2. internal/report/write.go: one entry in Formats: the -format name, the file
//     it writes in the results directory, the renderer.
//  3. internal/report/formats_test.go: a test of its content (as TestSARIFContent);
//     TestWriteAll already checks that every format writes its file.
//  4. docs/ci.md: a row in the table of the files a campaign writes;
//     docs/runner.md: the file among the renderings and the name in
//     perfmut report's -format row (TestFormatsDocumented in cmd/perfmut
//     fails until both are there).
package report
