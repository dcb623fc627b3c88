package report

import (
	"fmt"
	"path"

	"github.com/perfmut/perfmut/results"
)

// functionRule is the SARIF rule of the notes on changed functions.
const functionRule = "changed-function-sensitivity"

// sarifChanged appends to rules the rule of the notes on the functions
// changed since -changed-since, and returns one result per note at the
// function's declaration: level "warning" when the note is a warning,
// else "note". None without notes.
func sarifChanged(rep *results.Report, rules []sarifRule, opts Options) ([]sarifRule, []sarifResult) {
	if len(rep.ChangedFunctions) == 0 {
		return rules, nil
	}
	index := len(rules)
	rules = append(rules, sarifRule{
		ID:               functionRule,
		Name:             ruleName(functionRule),
		ShortDescription: sarifText{Text: "What notices a changed function slowing down"},
		Help: &sarifText{Text: "The smallest factor by which the function must slow down for some benchmark to notice, from a CPU-profiled run of each benchmark " +
			"and its noise (docs/sensitivity.md), and the benchmark that notices it first. A warning: " + warnRule(rep) +
			". A benchmark whose timed loop spends more of its time in the function protects it better."},
		Default:    sarifRuleDefaults{Level: "note"},
		Properties: map[string]any{"tags": []string{"performance", "benchmark-coverage"}},
	})
	var out []sarifResult
	for _, n := range rep.ChangedFunctions {
		level := "note"
		if n.Warning {
			level = "warning"
		}
		props := map[string]any{"function": n.Function, "status": n.Status}
		if n.Factor != nil {
			props["factor"] = *n.Factor
		}
		if n.Benchmark != "" {
			props["benchmark"] = n.Benchmark
		}
		out = append(out, sarifResult{
			RuleID:    functionRule,
			RuleIndex: index,
			Level:     level,
			Message:   sarifText{Text: fmt.Sprintf("Changed since %s: %s.", rep.Settings.ChangedSince, n.Text)},
			Locations: []sarifLocation{{Physical: sarifPhysical{
				Artifact: sarifArtifact{URI: path.Join(opts.PathPrefix, n.File), URIBaseID: "%SRCROOT%"},
				Region:   sarifRegion{StartLine: max(n.Line, 1)},
			}}},
			PartialFingerprints: map[string]string{"perfmutFunction/v1": n.Function},
			Properties:          props,
		})
	}
	return rules, out
}
