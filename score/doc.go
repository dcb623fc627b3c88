// Package score holds perfmut's statistics: the one-sided two-sample
// Kolmogorov-Smirnov test, multiple-comparison control over a mutant's
// benchmarks and metrics, effect sizes, the early-stopping rule, and the
// mutation score. Functions are small and pure; results carry warnings.
package score
