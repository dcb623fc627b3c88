#!/usr/bin/env bash
# demo-time.sh: the README's main job, timed.
#
# Runs `perfmut run -C DEMO -opt on -out DIR ./...` (the README's main job,
# with a built binary instead of go run) on a fresh copy of testdata/demo:
# one warm-up run (not counted), then N timed runs, and prints each run's
# wall time, its "done in" line and `uptime`, the median of the timed runs,
# and the statuses of the last run against a results directory.
#
# Usage (from anywhere in the repository):
#   bash bench/demo-time.sh [-n N] [-diff DIR] [BIN...]
#   -n N       timed runs per binary (default 3)
#   -diff DIR  a results directory (its report.json) to compare the last
#              run's statuses with: one line per mutant whose status differs
#   BIN...     perfmut binaries to time (default: this tree's, built first);
#              with several, the runs alternate between them (BIN1, BIN2,
#              BIN1, ...) so that a shared machine's load falls on all alike,
#              and each gets its own median
#   KEEP=1     keep the work directory (every run's results)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=3 diff=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-diff) diff=$(cd "$2" && pwd); shift 2 ;;
	-*) echo "demo-time.sh: unknown flag $1 (want -n N, -diff DIR)" >&2; exit 2 ;;
	*) break ;;
	esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-demo-time-XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
bins=()
if [ $# -eq 0 ]; then
	(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
	bins=("$work/perfmut")
else
	for b in "$@"; do bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"); done
fi
cp -r "$root/testdata/demo" "$work/demo"
chmod -R u+w "$work/demo"

# run BIN OUT: one main job; prints its wall time in seconds.
run() {
	local start end
	start=$(date +%s.%N)
	"$1" run -C "$work/demo" -opt on -out "$2" ./... >"$2.log" 2>&1 || { echo "demo-time.sh: $1 failed, see $2.log" >&2; exit 1; }
	end=$(date +%s.%N)
	echo "$start $end" | awk '{printf "%.1f", $2 - $1}'
}

for i in "${!bins[@]}"; do
	echo "warm-up ${bins[$i]}: $(run "${bins[$i]}" "$work/warm$i") s"
done
for r in $(seq 1 "$n"); do
	for i in "${!bins[@]}"; do
		load=$(uptime | sed 's/.*load average: //')
		w=$(run "${bins[$i]}" "$work/b$i-r$r")
		echo "$w" >>"$work/b$i.walls"
		printf 'run %d %s: %s s (load %s -> %s) %s\n' "$r" "${bins[$i]}" "$w" "$load" \
			"$(uptime | sed 's/.*load average: //')" "$(grep -o 'perfmut: done in .*' "$work/b$i-r$r.log")"
	done
done
for i in "${!bins[@]}"; do
	echo "median of $n, ${bins[$i]}: $(sort -n "$work/b$i.walls" | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}') s"
	last=$work/b$i-r$n
	grep -E '^(opt|noopt) +score' "$last.log" || true
	grep -c 'noise:' "$last.log" | sed 's/^/noise lines in the last run: /'
	if [ -n "$diff" ]; then
		python3 - "$diff/report.json" "$last/report.json" <<'EOF'
import json, sys
def statuses(path):
    out = {}
    for m in json.load(open(path))['mutants']:
        for level, r in m['results'].items():
            out[(m['id'], level)] = (r['status'], '%s %s:%d' % (m['operator'], m['file'], m['line']))
    return out
a, b = statuses(sys.argv[1]), statuses(sys.argv[2])
diff = [k for k in sorted(set(a) | set(b)) if (a.get(k) or ('-',))[0] != (b.get(k) or ('-',))[0]]
for k in diff:
    print('  %s %s %s: %s -> %s' % (k[0], k[1], (a.get(k) or b.get(k))[1], (a.get(k) or ('-',))[0], (b.get(k) or ('-',))[0]))
print('statuses differing from %s: %d of %d' % (sys.argv[1], len(diff), len(set(a) | set(b))))
EOF
	fi
done
