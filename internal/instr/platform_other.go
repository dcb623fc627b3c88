//go:build !linux

package instr

// platformReason is why valgrind cannot count Go programs on goos: it
// does not run on Windows, and on macOS not on current releases nor on
// Apple silicon.
func platformReason(goos, goarch string) string {
	return "valgrind does not run Go programs on " + goos
}
