package main

import (
	"os"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
)

// TestMain links the test binaries of the campaigns and comparisons
// without DWARF (see testutil.LinkWithoutDWARF).
func TestMain(m *testing.M) {
	testutil.LinkWithoutDWARF()
	os.Exit(m.Run())
}
