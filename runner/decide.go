package runner

import "github.com/perfmut/perfmut/score"

// RuleDecider adapts the statistics' early-stopping rule to a Decider.
func RuleDecider(rule score.Rule) Decider {
	return func(ss []Sample) Verdict {
		in := make([]score.Sample, len(ss))
		for i, s := range ss {
			in[i] = score.Sample{Benchmark: s.Benchmark, Metric: s.Metric, Baseline: s.Baseline, Mutant: s.Mutant}
		}
		v := rule.Decide(in)
		return Verdict{Decision: string(v.Decision), Tests: v.Tests, Warnings: v.Warnings}
	}
}

// RuleSummarizer returns the Campaign.Summarize that breaks the score down
// at the rule's alpha and correction.
func RuleSummarizer(rule score.Rule) func([]score.Outcome) *score.Summary {
	return func(o []score.Outcome) *score.Summary {
		s := score.Summarize(o, rule.Alpha, rule.Correction)
		return &s
	}
}
