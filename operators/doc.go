// Package operators holds perfmut's catalogue of performance mutation
// operators (after SlowCoach, ISSRE 2022). Each operator is a plain
// *mutate.Operator value in its own file; All lists them explicitly and
// Validate checks the list.
//
// Operators only find sites and describe them as textual edits on the
// original file content; the engine (package mutate) gives each site its ID,
// position and function name, honours //perfmut:ignore and adds the
// operators' helper declarations to the mutated package as one generated
// file. Operators use the type information of the package so that every
// mutant they propose compiles: a site whose mutation could break the build
// (an unused variable or import, a shadowed helper or package name, an
// unnameable type, a value of the wrong type) is skipped rather than reported.
//
// The quadrants:
//
//   - Q4, developer errors without context: loop-unbreaker, oblivion,
//     global-oblivion, cap-hint-drop; and in concurrent code rlock-to-lock,
//     pool-bypass, chan-unbuffer, atomic-to-mutex.
//   - Q3, effect simulation at the start of every loop body, once per
//     configured size: spin-loop, sleep, alloc-churn, lock-contention; and
//     inside critical sections (after a Lock or RLock whose unlock follows
//     in the same function): critical-spin; at both: tail-spike.
//   - Q2, fast-path disablers from the configuration: call-replace and
//     var-replace; without configuration entries they report nothing.
package operators
