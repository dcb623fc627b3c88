package detect

import "fmt"

// profileHz is the CPU profile's sampling rate asked for in the profiled
// runs, five times runtime/pprof's 100: a share of 1 % needs hundreds of
// samples. Kernels whose CPU timers fire on the scheduler tick deliver at
// most the tick's rate (often 250 Hz).
const profileHz = 500

// hzEnv is the variable that turns the faster rate on in a test binary
// built with hzOverlay: the noise samples run without it.
const hzEnv = "PERFMUT_CPU_PROFILE_HZ"

// hzFile is the file hzOverlay adds to the package's test build.
const hzFile = "zz_perfmut_cpuhz_test.go"

// hzSource is that file: when hzEnv is set, it starts the CPU profiler at
// that rate before the testing package's -test.cpuprofile starts it at
// 100 Hz; the runtime keeps the first rate (and says so on stderr) and
// the profile's samples then come at the faster rate. Only counts are
// read from the profile, so its stated period (10ms) does not matter.
func hzSource(pkgName string) string {
	return fmt.Sprintf(`package %s

import (
	"os"
	"runtime"
	"strconv"
)

func init() {
	if hz, err := strconv.Atoi(os.Getenv(%q)); err == nil && hz > 0 {
		runtime.SetCPUProfileRate(hz)
	}
}
`, pkgName, hzEnv)
}
