// Package behave learns, per benchmark, a model of its behaviour from the
// profiles of past runs (perfmut compare -history), after PReT (automatic
// performance regression testing from application snapshots): a
// version's behaviour is its profiled rounds, each reduced to Features,
// the shares of the benchmark's CPU time in each function, each stack of
// module functions and the garbage collector, and the shares of its
// allocated bytes in each function. Learn clusters the recorded
// behaviours online, in the order they were recorded: each joins the
// first cluster it does not differ from, else starts one. Two behaviours
// differ (Compare) when some feature's share moved by at least MinMove
// and a two-sided Mann-Whitney test of the rounds' shares rejects at
// alpha, Holm-corrected over the features that moved that much: no
// threshold per benchmark. Judge says whether NEW's behaviour changed: it
// differs from OLD's rounds interleaved with its own, and matches none of
// OLD's clusters.
package behave
