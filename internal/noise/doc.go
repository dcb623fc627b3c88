// Package noise measures how noisy the machine is during a campaign, and
// says when that noise hides the slowdowns that matter to its verdicts.
//
// A [Snapshot] is the machine's load at one moment, with its OS: the load
// averages and the CPU time stolen by the hypervisor so far (Linux:
// /proc/loadavg and /proc/stat; elsewhere unknown). A campaign takes one at
// its start and one at its end ([Machine]). [SpreadOf] is the spread of a
// benchmark's own baseline samples, a pure function over them; [Check]
// says, from the spreads and the campaign's sample budget, whether the
// slowdown that matters (the rule's margin, or its minimum
// effect when the margin is off) is detectable at all, and if not, the one
// line of advice to show at the start (count instructions instead:
// -measure instructions, whose counts do not move with the load).
package noise
