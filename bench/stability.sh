#!/usr/bin/env bash
# The stability check of docs/evaluation.md: runs one campaign RUNS times
# (default 3) and once more beside busy loops (one per core), then prints
# each run's statuses, how many decided verdicts (killed, survived) are
# identical (among those decided in every run, in at least two runs, in
# one run at least), the flips by kind against the first run, and the
# kills of the first run that are plain survivors beside the busy loops.
# Every line a step starts with carries the time and `uptime`'s load.
# Usage: bash bench/stability.sh MODULE OUT [perfmut run flags and packages]
#   (RUNS=3 BUSY=1 PERFMUT=path; each run's results in OUT/runK, OUT/busy,
#   its stdout and stderr in OUT/runK.txt and OUT/runK.log)
set -euo pipefail
busy_pids=() run_pid= work=
stop_busy() {
	local p
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	busy_pids=()
}
cleanup() {
	[ -z "$run_pid" ] || { kill -TERM "$run_pid" 2>/dev/null || true; wait "$run_pid" 2>/dev/null || true; }
	stop_busy
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
work=$(mktemp -d)
campaign() { # name flags...
	local name=$1 start rc=0
	shift
	rm -rf "${out:?}/$name"
	start=$(date +%s)
	echo "== $name: $(date -u +%FT%TZ); $(uptime)"
	# In the background, so that an interrupt reaches cleanup at once.
	"$perfmut" run -C "$mod" -out "$out/$name" "$@" </dev/null 2>"$out/$name.log" >"$out/$name.txt" &
	run_pid=$!
	wait "$run_pid" || rc=$?
	run_pid=
	[ -f "$out/$name/report.json" ] || { echo "stability: $name wrote no report (exit $rc); see $out/$name.log" >&2; exit 1; }
	echo "   $(( $(date +%s) - start )) s, exit $rc; ended $(date -u +%FT%TZ); $(uptime)"
	echo "   $(grep -E '^(opt|noopt) +score' "$out/$name.txt" | tr -s ' ' | paste -sd';' -)"
}
main() {
	[ $# -ge 2 ] || { echo "usage: bash bench/stability.sh MODULE OUT [perfmut run flags and packages]" >&2; exit 2; }
	local root runs i n refs=()
	root=$(cd "$(dirname "$0")/.." && pwd)
	mod=$1 out=$2
	shift 2
	runs=${RUNS:-3}
	case $runs in '' | *[!0-9]* | 0) echo "stability: RUNS=$runs: give a positive count of runs" >&2; exit 2 ;; esac
	[ -d "$mod" ] || { echo "stability: $mod: no such directory; give the module's root" >&2; exit 2; }
	mkdir -p "$out"
	perfmut=${PERFMUT:-$work/perfmut}
	[ -n "${PERFMUT:-}" ] || (cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	echo "stability: perfmut run -C $mod $*; $runs runs$([ "${BUSY:-1}" = 1 ] && echo ", then one beside $(nproc) busy loops")"
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
