#!/usr/bin/env bash
# count-cost.sh: the cost of counting instructions. Runs the main job
# (perfmut run -opt on ./...) on a copy of MODULE_DIR with -measure time and
# -measure instructions alternately, ROUNDS times each (time first), and
# prints each run's wall time and measurement phase, the mean wall times,
# their ratio (the target is at most 2) and `uptime` before and after each
# run (docs/instructions.md, "What it costs").
#
# With VGLOG=1 a logging `valgrind` first in PATH records every valgrind
# process of the counted runs (start, end, CPU, arguments), and
# bench/vglog.py sums them by kind (iteration search, baseline samples,
# pre-counts, mutant samples) with the wall time during which 0, 1 or 2+
# of them ran.
#
# Usage (from the repository root):
#   bash bench/count-cost.sh MODULE_DIR
#   ROUNDS=2    runs of each measure;  EXTRA='...' more perfmut run flags
#   WORK=dir    work directory (default: a new temporary one, removed unless KEEP=1)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] && [ -f "$1/go.mod" ] || { echo "usage: bash bench/count-cost.sh MODULE_DIR (a directory with a go.mod)" >&2; exit 2; }
mod=$(cd "$1" && pwd)
ROUNDS=${ROUNDS:-2}; EXTRA=${EXTRA:-}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/perfmut-count-cost-XXXXXX")}
[ -n "${WORK:-}" ] || [ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
if [ "${VGLOG:-}" = 1 ]; then
	real=$(command -v valgrind) || { echo "VGLOG=1: valgrind is not in PATH" >&2; exit 2; }
	cat >"$work/bin/valgrind" <<WRAP
#!/usr/bin/env bash
t=\$(mktemp); s=\$(date +%s.%N)
/usr/bin/time -q -o "\$t" -f '%U %S' "$real" "\$@"; rc=\$?
echo "\$s \$(date +%s.%N) \$(tail -1 "\$t") \$rc \$*" >>"\$VGLOG_FILE"; rm -f "\$t"; exit \$rc
WRAP
	chmod +x "$work/bin/valgrind"
fi
cp -r "$mod" "$work/module"; chmod -R u+w "$work/module"
echo "module $mod, perfmut $(cd "$root" && git rev-parse --short HEAD), work $work"
declare -A sum=([time]=0 [instructions]=0)
for r in $(seq "$ROUNDS"); do
	for m in time instructions; do
		out="$work/$m-$r"; log="$work/$m-$r.log"
		before=$(uptime | sed 's/.*load average: //')
		start=$(date +%s.%N)
		(cd "$work/module" && PATH="$work/bin:$PATH" VGLOG_FILE="$out.vg" \
			"$work/perfmut" run -opt on -measure "$m" $EXTRA -out "$out" ./... >"$log" 2>&1) || { echo "run failed: $log" >&2; tail -3 "$log" >&2; exit 1; }
		end=$(date +%s.%N)
		wall=$(echo "$end - $start" | bc)
		sum[$m]=$(echo "${sum[$m]} + $wall" | bc)
		meas=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"]["opt"]; print("%.1f" % p["measure_seconds"])' "$out/report.json")
		printf '%-12s run %d: wall %6.1f s, measurement %6.1f s; load %s -> %s; %s\n' "$m" "$r" "$wall" "$meas" \
			"$before" "$(uptime | sed 's/.*load average: //')" "$(grep -m1 -E '^opt +score' "$log" || true)"
		if [ -s "$out.vg" ]; then python3 "$root/bench/vglog.py" "$out.vg" "$start" "$end" | sed 's/^/    /'; fi
	done
done
t=$(echo "${sum[time]} / $ROUNDS" | bc -l); i=$(echo "${sum[instructions]} / $ROUNDS" | bc -l)
printf 'mean wall: time %.1f s, instructions %.1f s: ratio %.2f (target at most 2)\n' "$t" "$i" "$(echo "$i / $t" | bc -l)"
