// Package score holds perfmut's statistics: the one-sided two-sample
// Kolmogorov-Smirnov and Mann-Whitney U tests, multiple-comparison control
// over a mutant's benchmarks and metrics, effect sizes, the early-stopping
// rule with its margin for survivors, the paired test of perfmut compare,
// and the mutation score. Functions are small and pure; results carry
// warnings.
//
// The pieces, in the order a campaign uses them:
//
//   - Test (KS or MWU, the -test flag): is the mutant's sample
//     stochastically larger than the baseline's? OneSidedKS gives exact
//     p-values by Hodges' lattice-path count and asymptotic ones by his
//     eq. 5.3, switched as scipy does; OneSidedMWU is exact under the
//     permutation null given the ties. KS breaks the ties of time metrics
//     at random, seeded per test and per mutant (Rule.ForMutant).
//   - Adjust with a Correction (None, Bonferroni, Holm): one mutant's tests
//     as a family; AdjustFamily first leaves out the tests whose pooled
//     values cannot reach the level (ReachableP; Tarone's reduction for
//     discrete tests, e.g. a constant allocs/op). The kill rule fixes a
//     mutant's family once, at its first look, for the whole sequence.
//   - MedianRatio: the effect size with a seeded bootstrap interval;
//     PairedRatio and UpperRatio: the median of the per-round ratios with
//     the sign test's interval and one-sided 95% upper bound.
//   - Rule.Decide: after every round of samples, Continue, Kill, Survive or
//     Abstain, spending alpha over the looks of Rule.Looks, with a
//     futility stop for mutants that cannot plausibly be killed. A mutant
//     survives only when every time test's upper bound is at most
//     Rule.Margin (the slowdown a survivor rules out); without a kill and
//     without that evidence at MaxSamples the rule abstains and the mutant
//     is Undecided, counted beside the score, outside its denominator.
//     DecideAhead kills ahead of benchmarks not measured yet.
//   - Rule.DecideChange (perfmut compare): the paired Wilcoxon signed-rank
//     test of the per-round ratios NEW/OLD (SignedRank) in both
//     directions, so that a drift shared by a round's two samples cancels.
//   - Summarize and CountStatuses: the mutation score by level, operator,
//     quadrant, package and metric, at several alphas.
//   - ClopperPearson: the exact interval of a false-kill rate, and
//     MinEffectSuggestion, for perfmut calibrate's A/A trials.
//
// docs/statistics.md explains the choices and the simulations behind them.
package score
