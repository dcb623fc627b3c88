#!/usr/bin/env bash
# The stability check of docs/evaluation.md: runs one campaign RUNS times
# (default 3) and once more beside busy loops (one per core), then prints
# how many decided verdicts (killed, survived) are identical in every run,
# the flips by kind against the first run, and the kills of the first run
# that are plain survivors beside the busy loops.
# Usage: bash bench/stability.sh MODULE OUT [perfmut run flags and packages]
#   (RUNS=3 BUSY=1 PERFMUT=path; each run's results in OUT/runK, OUT/busy)
set -euo pipefail
busy_pids=()
stop_busy() {
	local p
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	busy_pids=()
}
trap 'stop_busy; rm -rf "$work"' EXIT
work=$(mktemp -d)
campaign() { # name flags...
	local name=$1 start
	shift
	rm -rf "$out/$name"
	start=$(date +%s)
	echo "== $name: $(date -u +%FT%TZ); $(uptime)"
	"$perfmut" run -C "$mod" -out "$out/$name" "$@" </dev/null 2>"$out/$name.log" >"$out/$name.txt" || true
	[ -f "$out/$name/report.json" ] || { echo "stability: $name wrote no report; see $out/$name.log" >&2; exit 1; }
	echo "   $(( $(date +%s) - start )) s; $(grep -E '^(opt|noopt) +score' "$out/$name.txt" | tr -s ' ' | paste -sd';' -)"
}
main() {
	[ $# -ge 2 ] || { echo "usage: bash bench/stability.sh MODULE OUT [perfmut run flags and packages]" >&2; exit 2; }
	local root runs i n refs=()
	root=$(cd "$(dirname "$0")/.." && pwd)
	mod=$1 out=$2
	shift 2
	runs=${RUNS:-3}
	mkdir -p "$out"
	perfmut=${PERFMUT:-$work/perfmut}
	[ -n "${PERFMUT:-}" ] || (cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	for i in $(seq 1 "$runs"); do
		campaign "run$i" "$@"
		refs+=("$out/run$i/report.json")
	done
	local busy=()
	if [ "${BUSY:-1}" = 1 ]; then
		n=$(nproc)
		for i in $(seq 1 "$n"); do
			sh -c 'while :; do :; done' &
			busy_pids+=($!)
		done
		echo "== $n busy loops: pids ${busy_pids[*]}"
		campaign busy "$@"
		stop_busy
		busy=(--busy "$out/busy/report.json")
	fi
	python3 "$root/bench/verdicts.py" stability "${refs[@]}" "${busy[@]}"
}
main "$@"
