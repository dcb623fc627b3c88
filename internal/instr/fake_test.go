package instr

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// fakeValgrind is a shell script standing in for valgrind: it reads
// --cachegrind-out-file= and -test.benchtime=Nx from its arguments and
// behaves as $FAKE_MODE says. A normal run prints one benchmark result of
// N iterations and writes a summary of FAKE_BASE + FAKE_PEROP * N
// instructions; with FAKE_LOG set it appends N to that file. It exits 3 unless it got the sampler's environment, 4
// without -test.benchmem. With FAKE_OUTLOG set it appends its output
// file's path to that file. A run at FAKE_FAILN iterations fails. With
// FAKE_ORDER set it appends "start N" to that file as it starts and "end
// N" as it ends; with FAKE_BARRIER set too it waits after its start (up to
// 20 s) until the file has FAKE_BARRIER starts. A one-off cost of the
// loop adds FAKE_GROW instructions to every run above 2 iterations;
// FAKE_SQ adds N*N/FAKE_SQ (a count per operation that grows with N).
const fakeValgrind = `#!/bin/sh
out=""; n=""; mem=""
for a in "$@"; do
  case "$a" in
  -test.benchmem) mem=1 ;;
  --cachegrind-out-file=*) out="${a#--cachegrind-out-file=}" ;;
  -test.benchtime=*x) n="${a#-test.benchtime=}"; n="${n%x}" ;;
  esac
done
if [ -n "$FAKE_LOG" ]; then echo "$n" >> "$FAKE_LOG"; fi
if [ -n "$FAKE_OUTLOG" ]; then echo "$out" >> "$FAKE_OUTLOG"; fi
if [ -n "$FAKE_ORDER" ]; then
  echo "start $n" >> "$FAKE_ORDER"
  i=0
  while [ -n "$FAKE_BARRIER" ] && [ "$(grep -c start "$FAKE_ORDER")" -lt "$FAKE_BARRIER" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
fi
if [ "$n" = "$FAKE_FAILN" ]; then echo "--- FAIL: at $n"; exit 1; fi
if [ "$GOMAXPROCS" != 1 ] || [ "$GOGC" != off ]; then echo "bad environment"; exit 3; fi
if [ -z "$mem" ]; then echo "no -test.benchmem"; exit 4; fi
case "$FAKE_MODE" in
fail) echo "--- FAIL: BenchmarkFake"; exit 1 ;;
sleep) exec sleep 60 ;;
sigill) printf 'vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48\n==7== Process terminating with default action of signal 4 (SIGILL)\n==7==    at 0x46F4E1: runtime.cputicks\n'; exit 132 ;;
noresult) echo PASS; exit 0 ;;
two) printf 'BenchmarkA \t %s\t 1 ns/op\nBenchmarkB \t %s\t 1 ns/op\n' "$n" "$n"; exit 0 ;;
wrongn) printf 'BenchmarkFake \t 1\t 1 ns/op\n'; exit 0 ;;
nofile) printf 'BenchmarkFake \t %s\t 1 ns/op\n' "$n"; exit 0 ;;
flat) FAKE_PEROP=0 ;;
esac
printf 'BenchmarkFake \t %s\t 1 ns/op\nPASS\n' "$n"
g=0; if [ -n "$FAKE_GROW" ] && [ "$n" -gt 2 ]; then g=$FAKE_GROW; fi
if [ -n "$FAKE_SQ" ]; then g=$((g + n * n / FAKE_SQ)); fi
printf 'events: Ir\nsummary: %s\n' "$((FAKE_BASE + FAKE_PEROP * n + g))" > "$out"
if [ -n "$FAKE_ORDER" ]; then echo "end $n" >> "$FAKE_ORDER"; fi
`

// fakeSampler returns a Sampler whose valgrind is fakeValgrind, run with
// FAKE_MODE=mode, FAKE_BASE=1000 and FAKE_PEROP=perOp.
func fakeSampler(t *testing.T, mode string, perOp int) *Sampler {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake valgrind is a shell script")
	}
	path := filepath.Join(t.TempDir(), "valgrind")
	if err := os.WriteFile(path, []byte(fakeValgrind), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "FAKE_MODE="+mode, "FAKE_BASE=1000", "FAKE_PEROP="+strconv.Itoa(perOp))
	return &Sampler{Valgrind: path, Env: env}
}
