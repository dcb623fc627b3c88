// Package instr counts the instructions a Go benchmark executes per
// operation, under valgrind's cachegrind tool.
//
// Wall time on a shared machine moves with the neighbours' load; the number
// of instructions a benchmark executes does not. A [Sampler] runs one
// benchmark of a compiled test binary (go test -c) twice under
// valgrind --tool=cachegrind --cache-sim=no, at 2 and at N + 2 iterations
// (-test.benchtime=Nx), and reports (I(N+2) - I(2)) / N: the difference
// cancels everything the two processes share (process start, package
// initialisation, the benchmark's set-up before its loop, and the
// 1-iteration run the testing package makes first), so what is left is the
// instructions of N iterations of the timed loop, including the runtime work
// they cause (allocation, scheduling).
//
// The benchmark runs with GOMAXPROCS=1 and GOGC=off (with a GOMEMLIMIT as a
// safety net), which remove most run-to-run variation (GC cycles), with
// GODEBUG=memprofilerate=0, which removes the memory profiler's randomly
// placed work, and on amd64 with GODEBUG=cpu.rdtscp=off, so that a valgrind
// that cannot decode RDTSCP does not stop the runtime with SIGILL.
//
// What a count can and cannot see, the evidence behind these settings and
// the design of perfmut run -measure are in docs/instructions.md.
//
// [Available] reports whether valgrind is installed and can run a Go
// program here; when it is not, its error is an [*UnavailableError] whose
// message is one line saying how to get it.
package instr
