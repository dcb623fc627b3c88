package testutil

import (
	"os"
	"strings"
)

// LinkWithoutDWARF adds -ldflags=-w to GOFLAGS for the rest of the test
// binary's life, unless GOFLAGS already sets -ldflags: every go test -c
// the tests' campaigns and comparisons run then links without DWARF.
// Linking is most of a build whose packages are in the build cache (a test
// binary of testdata/hot: 0.2 CPU-seconds instead of 0.33), no test reads
// DWARF (profiles, objdump and the equivalence check use the symbol table,
// and a counting campaign links without DWARF anyway), and a test binary
// runs hundreds of such builds. Call it from TestMain, before any test
// runs.
func LinkWithoutDWARF() {
	flags := os.Getenv("GOFLAGS")
	if strings.Contains(flags, "-ldflags") {
		return
	}
	os.Setenv("GOFLAGS", strings.TrimSpace(flags+" -ldflags=-w"))
}
