// Package report renders perfmut's results (package results) for people
// and tools: a campaign's report.json as text, Markdown, HTML, SARIF and
// mutation-testing-elements JSON (the Formats registry), a comparison as
// text and Markdown, a plan, a calibration table, the mutant lists of
// perfmut list and show, and the gates (-min-score, -max-undecided) over
// a report.
package report
