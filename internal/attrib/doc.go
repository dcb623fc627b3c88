// Package attrib attributes a benchmark's change between two versions of
// a module to functions, from pprof profiles of both versions taken in
// interleaved rounds at one fixed iteration count (perfmut compare
// -attribute).
//
// Each profile is reduced to Charges: every sample's value (CPU
// nanoseconds, allocated bytes or objects) goes to the innermost frame
// that belongs to the module, so that the runtime, the standard library
// and dependencies count for the module function that called them (an
// allocation's runtime.mallocgc for the function that allocates, a lock's
// sync.(*Mutex).Lock for the function that locks), and the value of an
// unchanged function called by a changed one to the changed one (the
// change made the calls). Rank pairs the rounds,
// divides by the iteration count and ranks the functions by how much
// their value per op moved in the direction of the change, each with the
// sign-test interval of its per-round differences; Changed finds the
// functions whose declarations hold the change's lines, and Summary says
// it in one line for a pull request.
package attrib
