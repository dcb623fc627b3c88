// Package score holds perfmut's statistics: the one-sided two-sample
// Kolmogorov-Smirnov test, multiple-comparison control over a mutant's
// benchmarks and metrics, effect sizes, the early-stopping rule, and the
// mutation score. Functions are small and pure; results carry warnings.
//
// The pieces, in the order a campaign uses them:
//
//   - OneSidedKS (OneSidedKSMethod): is the mutant's sample stochastically
//     larger than the baseline's? Exact p-values by Hodges' lattice-path
//     count, asymptotic ones by his eq. 5.3, switched as scipy does.
//   - Adjust with a Correction (None, Bonferroni, Holm): one mutant's tests
//     as a family; AdjustFamily first leaves out the tests whose pooled
//     values cannot reach the level (ReachableP; Tarone's reduction for
//     discrete tests, e.g. a constant allocs/op).
//   - MedianRatio: the effect size with a seeded bootstrap interval.
//   - Rule.Decide: after every round of samples, Continue, Kill or Survive,
//     spending alpha over the looks of Rule.Looks, with a non-binding
//     futility stop for mutants that cannot plausibly be killed.
//   - Summarize and CountStatuses: the mutation score by level, operator,
//     quadrant, package and metric, at several alphas.
//   - ClopperPearson: the exact interval of a false-kill rate, for
//     perfmut calibrate's A/A trials.
//
// docs/statistics.md explains the choices and the simulations behind them.
package score
