package instr

import (
	"slices"
	"testing"
)

func TestBenchEnv(t *testing.T) {
	for _, tc := range []struct {
		name   string
		base   []string
		goarch string
		want   []string
	}{
		{"amd64", []string{"HOME=/h", "GOMAXPROCS=4", "GOGC=50", "GOMEMLIMIT=2GiB"}, "amd64",
			[]string{"HOME=/h", "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=1GiB", "GODEBUG=memprofilerate=0,cpu.rdtscp=off"}},
		{"the user's GODEBUG first", []string{"GODEBUG=http2client=0,memprofilerate=1", "PATH=/bin"}, "amd64",
			[]string{"PATH=/bin", "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=1GiB", "GODEBUG=http2client=0,memprofilerate=1,memprofilerate=0,cpu.rdtscp=off"}},
		{"arm64 has no RDTSCP", nil, "arm64",
			[]string{"GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT=1GiB", "GODEBUG=memprofilerate=0"}},
	} {
		if got := benchEnv(tc.base, tc.goarch); !slices.Equal(got, tc.want) {
			t.Errorf("%s: benchEnv = %q, want %q", tc.name, got, tc.want)
		}
	}
}
