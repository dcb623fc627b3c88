package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// SARIF 2.1.0, the subset perfmut writes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool        `json:"tool"`
	Invocations []sarifInvoke    `json:"invocations,omitempty"`
	Results     []sarifResult    `json:"results"`
	Properties  map[string]any   `json:"properties,omitempty"`
	Automation  *sarifAutomation `json:"automationDetails,omitempty"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifInvoke struct {
	ExecutionSuccessful bool   `json:"executionSuccessful"`
	StartTimeUTC        string `json:"startTimeUtc,omitempty"`
	EndTimeUTC          string `json:"endTimeUtc,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	ShortDescription sarifText         `json:"shortDescription"`
	FullDescription  *sarifText        `json:"fullDescription,omitempty"`
	Help             *sarifText        `json:"help,omitempty"`
	Default          sarifRuleDefaults `json:"defaultConfiguration"`
	Properties       map[string]any    `json:"properties,omitempty"`
}

type sarifRuleDefaults struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// writeSARIF writes a SARIF 2.1.0 log (for GitHub code scanning, reviewdog and
// IDEs) with one result per mutant that survived, was undecided or that no
// benchmark reaches, at the mutant's source position: rule = operator, level
// "warning" for survivors and "note" for the others, the message names
// the benchmarks tried. File URIs are module-relative, prefixed with
// opts.PathPrefix, against the %SRCROOT% base.
func writeSARIF(w io.Writer, rep *results.Report, opts Options) error {
	lv := levels(rep, opts)
	all := sarifFindings(rep, lv)

	rules, ruleIndex := sarifRules(all)
	found := sarifResults(rep, all, lv, ruleIndex, opts)
	rules, notes := sarifChanged(rep, rules, opts)
	found = append(found, notes...)
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "perfmut", InformationURI: "https://github.com/perfmut/perfmut", Rules: rules}},
		Results: found,
		Properties: map[string]any{
			"module": rep.Module,
			"score":  rep.Score,
		},
		Automation: &sarifAutomation{ID: "perfmut/" + rep.Module + "/"},
	}
	if rules == nil {
		run.Tool.Driver.Rules = []sarifRule{}
	}
	if !rep.Started.IsZero() {
		inv := sarifInvoke{ExecutionSuccessful: true, StartTimeUTC: rep.Started.UTC().Format("2006-01-02T15:04:05Z")}
		if !rep.Finished.IsZero() {
			inv.EndTimeUTC = rep.Finished.UTC().Format("2006-01-02T15:04:05Z")
		}
		run.Invocations = []sarifInvoke{inv}
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifRules is one rule per operator of the findings, in the order of
// their first finding, and each operator's index among them.
func sarifRules(all []finding) ([]sarifRule, map[string]int) {
	var rules []sarifRule
	ruleIndex := map[string]int{}
	for _, f := range all {
		op := f.M.Operator
		if _, ok := ruleIndex[op]; ok {
			continue
		}
		ruleIndex[op] = len(rules)
		rules = append(rules, sarifRule{
			ID:               op,
			Name:             ruleName(op),
			ShortDescription: sarifText{Text: fmt.Sprintf("perfmut %s mutant (%s) not detected by any benchmark", op, f.M.Quadrant)},
			Help: &sarifText{
				Text: "A performance mutant is a behaviour-preserving slowdown injected by perfmut. " +
					"A surviving mutant ran under benchmarks that did not notice it; a no-coverage mutant is in code no benchmark reaches; " +
					"an undecided mutant was measured to the sample budget without a kill, its benchmarks too noisy to rule out a slowdown. " +
					"Write or strengthen a benchmark for this code, or mark the line //perfmut:ignore if its speed does not matter.",
			},
			Default:    sarifRuleDefaults{Level: "warning"},
			Properties: map[string]any{"quadrant": string(f.M.Quadrant), "tags": []string{"performance", "mutation-testing"}},
		})
	}

	return rules, ruleIndex
}

// sarifResults is one result per finding.
func sarifResults(rep *results.Report, all []finding, lv []string, ruleIndex map[string]int, opts Options) []sarifResult {
	out := []sarifResult{}
	for _, f := range all {
		m := f.M
		level := "warning"
		if !f.Covered || f.undecided {
			level = "note"
		}
		statuses := map[string]string{}
		for _, l := range lv {
			if s := m.Status(l); s != "" {
				statuses[l] = string(s)
			}
		}
		out = append(out, sarifResult{
			RuleID:    m.Operator,
			RuleIndex: ruleIndex[m.Operator],
			Level:     level,
			Message:   sarifText{Text: sarifMessage(rep, f, lv, opts.Dir)},
			Locations: []sarifLocation{{Physical: sarifPhysical{
				Artifact: sarifArtifact{URI: path.Join(opts.PathPrefix, m.File), URIBaseID: "%SRCROOT%"},
				Region:   sarifRegion{StartLine: max(m.Line, 1), StartColumn: m.Column},
			}}},
			PartialFingerprints: map[string]string{"perfmutMutant/v1": m.ID},
			Properties: map[string]any{
				"mutant":   m.ID,
				"function": m.Function,
				"package":  m.Package,
				"status":   statuses,
			},
		})
	}
	return out
}

// sarifFindings are SARIF's results: covered survivors, then undecided
// mutants not among them, then no-coverage ones.
func sarifFindings(rep *results.Report, lv []string) []finding {
	covered, uncovered := findings(rep, lv)
	all := slices.Clone(covered)
	seen := map[*results.Mutant]bool{}
	for _, f := range covered {
		seen[f.M] = true
	}
	for _, f := range undecidedFindings(rep, lv) {
		if !seen[f.M] {
			all = append(all, f)
			seen[f.M] = true
		}
	}
	for _, g := range uncovered {
		for _, f := range g {
			if !seen[f.M] {
				all = append(all, f)
			}
		}
	}
	return all
}

// sarifMessage says what went unnoticed and which benchmarks tried.
func sarifMessage(rep *results.Report, f finding, lv []string, dir string) string {
	m := f.M
	var b strings.Builder
	if f.undecided {
		fmt.Fprintf(&b, "Performance mutant undecided at %s in %s: %s.", strings.Join(f.Levels, " and "), m.Function, m.Description)
		for _, l := range f.Levels {
			fmt.Fprintf(&b, " %s: %s.", l, firstLine(m.Results[l].Reason))
		}
		fmt.Fprintf(&b, " Check it with %s.", reproduceCommand(rep, m, dir))
		return b.String()
	}
	if !f.Covered {
		fmt.Fprintf(&b, "No benchmark reaches this %s mutant in %s: %s.", m.Operator, m.Function, m.Description)
		if r := m.Results[f.Levels[0]]; r != nil && r.Reason != "" && !strings.HasPrefix(r.Reason, "no benchmark ") {
			fmt.Fprintf(&b, " (%s)", firstLine(r.Reason))
		}
		b.WriteString(" A slowdown here would go unnoticed.")
		if g := generatedLine(m); g != "" {
			b.WriteString(" Fix: " + g + ".")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "Performance mutant survived at %s in %s: %s.", strings.Join(f.Levels, " and "), m.Function, m.Description)
	var names []string
	for _, l := range f.Levels {
		for _, t := range m.Results[l].Benchmarks {
			if !slices.Contains(names, t.Benchmark) {
				names = append(names, t.Benchmark)
			}
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, " Benchmarks tried: %s.", strings.Join(names, ", "))
	}
	for _, l := range f.Levels {
		fmt.Fprintf(&b, " %s: %s.", l, testsLine(m.Results[l].Benchmarks))
		if s, ok := results.SensitivityAt(rep, m.Mutant, l); ok {
			fmt.Fprintf(&b, " Sensitivity (%s): %s.", l, s.Text)
		}
	}
	for _, l := range lv {
		if m.Status(l) == score.Killed {
			fmt.Fprintf(&b, " It is killed at %s.", l)
		}
	}
	fmt.Fprintf(&b, " Check it with %s.", reproduceCommand(rep, m, dir))
	if g := generatedLine(m); g != "" {
		b.WriteString(" Fix: " + g + ".")
	}
	return b.String()
}

// ruleName turns "loop-unbreaker" into "LoopUnbreaker".
func ruleName(op string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(op, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
