// Package noise says when the machine's noise hides the slowdowns that
// matter to a campaign's verdicts, from the baseline's own samples.
//
// [spreadOf] is the spread of a benchmark's baseline samples, a pure
// function over them; [Check] says, from the spreads and the campaign's
// sample budget, whether the slowdown that matters (the rule's margin, or
// its minimum effect when the margin is off) is detectable at all, and if
// not, the one line of advice to show at the start (count instructions
// instead: -measure instructions, whose counts do not move with the load).
// The machine's load over the campaign is results.Machine.
package noise
