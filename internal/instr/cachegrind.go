package instr

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// parseOutput returns the total instruction count (event Ir) of a
// cachegrind or callgrind output file: the "summary:" line (cachegrind) or
// "totals:" line (callgrind), read at the column the "events:" line gives
// Ir. It is an error for the file to have no events line, no Ir event, or
// no summary.
func parseOutput(r io.Reader) (uint64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	col := -1
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		key, rest, ok := strings.Cut(text, ":")
		if !ok {
			continue
		}
		switch key {
		case "events":
			col = slices.Index(strings.Fields(rest), "Ir")
			if col < 0 {
				return 0, fmt.Errorf("cachegrind output line %d: events %q do not include Ir", line, strings.TrimSpace(rest))
			}
		case "summary", "totals":
			if col < 0 {
				return 0, fmt.Errorf("cachegrind output line %d: %s before the events line", line, key)
			}
			f := strings.Fields(rest)
			if col >= len(f) {
				return 0, fmt.Errorf("cachegrind output line %d: %s has %d values, want Ir at column %d", line, key, len(f), col+1)
			}
			n, err := strconv.ParseUint(f[col], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("cachegrind output line %d: bad Ir count %q", line, f[col])
			}
			return n, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("reading cachegrind output: %w", err)
	}
	if col < 0 {
		return 0, fmt.Errorf("cachegrind output has no events line (not a cachegrind output file, or an empty one)")
	}
	return 0, fmt.Errorf("cachegrind output has no summary line (valgrind stopped before the program ended?)")
}
