package instr

import (
	"strings"
)

// memLimit is the GOMEMLIMIT of a counted benchmark. GOGC=off stops the
// garbage collector, whose concurrent work varies from run to run; the
// limit turns it back on only for a benchmark whose heap would otherwise
// grow past it.
const memLimit = "1GiB"

// benchEnv returns base with the settings of a counted run: GOMAXPROCS=1
// (one P: no work stealing between threads), GOGC=off and GOMEMLIMIT (no
// concurrent GC cycles), and GODEBUG (the user's settings first, then
// memprofilerate=0, which stops the random sampling of allocations, and on
// amd64 cpu.rdtscp=off, without which valgrind 3.19 stops the runtime with
// SIGILL). Earlier values of these variables are dropped.
func benchEnv(base []string, goarch string) []string {
	godebug := ""
	env := make([]string, 0, len(base)+4)
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GODEBUG":
			godebug = v
		case "GOMAXPROCS", "GOGC", "GOMEMLIMIT":
		default:
			env = append(env, kv)
		}
	}
	ours := "memprofilerate=0"
	if goarch == "amd64" {
		ours += ",cpu.rdtscp=off"
	}
	if godebug != "" {
		ours = godebug + "," + ours // the last setting of a key wins
	}
	return append(env, "GOMAXPROCS=1", "GOGC=off", "GOMEMLIMIT="+memLimit, "GODEBUG="+ours)
}
