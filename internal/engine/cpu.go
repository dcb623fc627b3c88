package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// cpuName is b's name as go test -cpu prints it: with "-N" for GOMAXPROCS
// N > 1 when b runs at a -cpu value.
func (b Benchmark) CPUName() string {
	if b.CPU > 1 {
		return b.Name + "-" + strconv.Itoa(b.CPU)
	}
	return b.Name
}

// WithCPUs returns each of bs at each GOMAXPROCS of cpus (bs itself for
// none), in order.
func WithCPUs(bs []Benchmark, cpus []int) []Benchmark {
	if len(cpus) == 0 {
		return bs
	}
	var out []Benchmark
	for _, b := range bs {
		for _, n := range cpus {
			b.CPU = n
			out = append(out, b)
		}
	}
	return out
}

// ParseCPU parses a -cpu list, as go test takes it: comma-separated
// GOMAXPROCS values, each at least 1; "" is none (the default GOMAXPROCS).
func ParseCPU(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad -cpu %q: want comma-separated GOMAXPROCS values of at least 1, e.g. 1,2,4", s)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}
