// Package score holds perfmut's statistics: the one-sided two-sample
// Kolmogorov-Smirnov and Mann-Whitney U tests, multiple-comparison control
// over a mutant's benchmarks and metrics, effect sizes, the early-stopping
// rule with its margin for survivors, the paired test of perfmut compare,
// and the mutation score. Functions are small and pure; results carry
// warnings.
//
// The pieces, in the order a campaign uses them:
//
//   - Test (the -test flag; the registered TwoSample tests of Tests, KS
//     and MWU): is the mutant's sample stochastically larger than the
//     baseline's? OneSidedKS gives exact p-values by Hodges' lattice-path
//     count and asymptotic ones by his eq. 5.3, switched as scipy does;
//     OneSidedMWU is exact under the permutation null given the ties. KS
//     breaks the ties of time metrics at random, seeded per test and per
//     mutant (Rule.ForMutant).
//   - Adjust with a Correction (None, Bonferroni, Holm): one mutant's tests
//     as a family; AdjustFamily first leaves out the tests whose pooled
//     values cannot reach the level (Test.ReachableP; Tarone's reduction
//     for discrete tests, e.g. a constant allocs/op). The kill rule fixes
//     a mutant's family once, at its first look, for the whole sequence;
//     the counts out of it are late counts with the alpha its calibrated
//     levels leave (sequence.go).
//   - MedianRatio: the effect size with a seeded bootstrap interval;
//     PairedRatio and UpperRatio: the median of the per-round ratios with
//     the sign test's interval, and the order statistic a survivor's bound
//     is at each look (Rule.survivorRanks spends 5% over the looks).
//   - Rule.Decide: after every round of samples, Continue, Kill, Survive or
//     Abstain, spending alpha over the looks of Rule.Looks, with a
//     futility stop (not binding) for mutants that cannot plausibly be
//     killed. A mutant survives only when every time test's upper bound
//     is below Rule.Margin (the median slowdown a survivor rules out); without a kill and
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
//
// # Adding a statistical test
//
// A test is a value, TwoSample: its name (the -test value and report.json's
// "test"), its label for reports, its p-value function, whether the rule
// breaks the ties of time metrics before it, and its efficiency for
// MinDetectable. To add one, say "median":
//
//  1. score/median.go: the name (const MedianTest Test = "median"), a
//     function medianTest() TwoSample, and its p-value function: one-sided
//     ("mutant larger"), valid under the permutation null given the ties,
//     smallest for the split that gives the mutant the largest values
//     (Test.ReachableP relies on it). score/median_test.go: its exact
//     p-values on small samples.
//  2. score/test.go: medianTest() in the list of Tests. ParseTest,
//     Rule.Validate, Decide, DecideAhead and TestRegistry take it from
//     there; an unknown name is an error, never KS.
//  3. score/levels_table.go: its calibration, written for every registered
//     test by go run ./bench/simrule -levels -reps 1000000 >
//     score/levels_table.go (see bench/simrule; the other tests' rows come
//     out the same, the simulation is seeded). Until then its looks share
//     alpha by the union bound (Rule.familyLevels), which is valid and
//     conservative.
//  4. The -test flag's help text, in cmd/perfmut/runflags.go and
//     cmd/perfmut/sensitivity.go, and the flag tables of docs/runner.md.
//  5. docs/statistics.md, "The test: Kolmogorov-Smirnov or Mann-Whitney":
//     what it sees, and its rows of the simulations (go run ./bench/simrule
//     -runs 4000 with a variant for it in bench/simrule/tables.go).
package score
