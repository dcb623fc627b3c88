package engine

import (
	"runtime"
	"testing"
)

func TestParseLoadavg(t *testing.T) {
	got, err := parseLoadavg("3.88 0.98 0.33 2/467 12345\n")
	if err != nil || got != [3]float64{3.88, 0.98, 0.33} {
		t.Errorf("parseLoadavg = %v, %v; want [3.88 0.98 0.33]", got, err)
	}
	for in, want := range map[string]string{
		"1.0 2.0":         `/proc/loadavg: "1.0 2.0" has fewer than 3 fields`,
		"1.0 x 3.0 1/2 3": `/proc/loadavg: bad load average "x"`,
	} {
		if _, err := parseLoadavg(in); err == nil || err.Error() != want {
			t.Errorf("parseLoadavg(%q): error %v, want %q", in, err, want)
		}
	}
}

func TestParseStat(t *testing.T) {
	stat := "cpu  100 5 50 800 10 1 2 30 7 0\ncpu0 50 2 25 400 5 0 1 15 3 0\nintr 12345\n"
	steal, busy, total, err := parseStat(stat)
	// guest (7) and guest_nice (0) are already in user and nice; busy is
	// user, nice, system, irq and softirq
	if err != nil || steal != 30 || busy != 158 || total != 998 {
		t.Errorf("parseStat = %d, %d, %d, %v; want 30, 158, 998", steal, busy, total, err)
	}
	for in, want := range map[string]string{
		"cpu 1 2 3 4 5 6 7\n":   "/proc/stat: the cpu line has 7 values, want at least 8 (steal is the 8th)",
		"cpu 1 2 3 4 5 6 7 x\n": `/proc/stat: bad cpu time "x"`,
		"intr 1\n":              "/proc/stat has no cpu line",
	} {
		if _, _, _, err := parseStat(in); err == nil || err.Error() != want {
			t.Errorf("parseStat(%q): error %v, want %q", in, err, want)
		}
	}
}

// TestTakeSnapshot: on Linux the load and steal are known; elsewhere
// unknown.
func TestTakeSnapshot(t *testing.T) {
	s := takeSnapshot()
	linux := runtime.GOOS == "linux"
	if s.LoadKnown != linux || s.StealKnown != linux || s.CPUs != runtime.NumCPU() || s.OS != runtime.GOOS || s.Time.IsZero() {
		t.Errorf("takeSnapshot on %s = %+v, want load and steal known exactly on linux", runtime.GOOS, s)
	}
	if linux && s.Total == 0 {
		t.Errorf("takeSnapshot: total CPU time 0")
	}
}
