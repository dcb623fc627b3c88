//go:build !linux

package engine

import "github.com/perfmut/perfmut/results"

// readLoad leaves s's load and steal unknown: only Linux gives them here.
func readLoad(s *results.Snapshot) {}
