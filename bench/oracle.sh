#!/usr/bin/env bash
# The benchstat oracle of docs/evaluation.md: perfmut reproduce on a
# campaign's borderline verdicts (kills whose sec/op ratio is below 1.3,
# every survivor, every undecided), then the benchstat command
# (golang.org/x/perf/cmd/benchstat) on the files reproduce wrote: 20
# alternating runs of each side at the campaign's fixed count. A table of
# perfmut's verdict against benchstat's call (slower = p < 0.05 and a
# higher median; killed <=> slower, survived <=> not slower), with and
# without Holm's correction over each mutant's benchmarks, the agreement
# for kills and survivals (undecided and errors counted apart), and for
# every disagreement and undecided verdict the spread of its samples.
# Every step's line carries the time and `uptime`'s load.
# Usage: bash bench/oracle.sh MODULE RESULTS
#   (COUNT=20 RATIO=1.3 PERFMUT=path BENCHSTAT=path; UNDECIDED=0 lists the
#   undecided verdicts without reproducing them; rows also in RESULTS/oracle.tsv)
set -euo pipefail
work= repro_pid=
cleanup() {
	[ -z "$repro_pid" ] || { kill -TERM "$repro_pid" 2>/dev/null || true; wait "$repro_pid" 2>/dev/null || true; }
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
reproduce() { # MODULE RESULTS COUNT LEVEL ID; in the background, so that an interrupt reaches cleanup at once
	local rc=0
	"$perfmut" reproduce -C "$1" -out "$2" -count "$3" -level "$4" "$5" </dev/null >"$work/out" 2>"$work/err" &
	repro_pid=$!
	wait "$repro_pid" || rc=$?
	repro_pid=
	return "$rc"
}
main() {
	[ $# -eq 2 ] || { echo "usage: bash bench/oracle.sh MODULE RESULTS" >&2; exit 2; }
	local root mod res count ratio perfmut benchstat
	root=$(cd "$(dirname "$0")/.." && pwd)
	mod=$1 res=$2 count=${COUNT:-20} ratio=${RATIO:-1.3}
	[ -f "$res/report.json" ] || { echo "oracle: $res/report.json: no such file; give a perfmut run's -out" >&2; exit 2; }
	work=$(mktemp -d)
	perfmut=${PERFMUT:-$work/perfmut} benchstat=${BENCHSTAT:-$work/benchstat}
	[ -n "${PERFMUT:-}" ] || (cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	[ -n "${BENCHSTAT:-}" ] || (cd "$root" && go build -o "$benchstat" golang.org/x/perf/cmd/benchstat)
	python3 "$root/bench/verdicts.py" borderline "$res/report.json" "$ratio" >"$work/list"
	echo "oracle: $(wc -l <"$work/list") borderline verdicts in $res (count $count, kills below x$ratio); $(date -u +%FT%TZ); $(uptime)"
	local fmt='%-12s %-5s %-9s %-6s %-6s %-3s %-16s %-22s %-52s %-9s %s\n'
	printf "$fmt" ID LEVEL PERFMUT RATIO UPPER N OPERATOR POSITION 'BENCHSTAT (key row)' VERDICT HOLM
	local id level status r up n op pos dir call key holm rw
	: >"$res/oracle.tsv"
	while read -r id level status r up n op pos; do
		dir=$res/reproduce/$id/$level
		if [ "$status" = undecided ] && [ "${UNDECIDED:-1}" = 0 ]; then
			call="(undecided: not run)" key="-" holm="(undecided: not run)"
		elif reproduce "$mod" "$res" "$count" "$level" "$id" &&
			"$benchstat" -format csv "$dir/base.txt" "$dir/mut.txt" >"$work/csv" 2>/dev/null; then
			IFS=$'\t' read -r call key holm < <(python3 "$root/bench/verdicts.py" judge "$res/report.json" "$id" "$level" "$work/csv")
			# reproduce's own closing line judges the same rows with the same library: a check.
			rw=$(tail -1 "$work/out" | cut -d: -f1)
			case $call in agree | disagree) [ "$rw" = "$call" ] || key="$key [reproduce: $rw]" ;; esac
		else
			call="(error)" key=$(tail -1 "$work/err") holm="(error)"
		fi
		printf "$fmt" "$id" "$level" "$status" "$r" "$up" "$n" "$op" "$pos" "$key" "$call" "$holm"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$level" "$status" "$r" "$up" "$n" "$op" "$pos" "$key" "$call" "$holm" >>"$res/oracle.tsv"
	done <"$work/list"
	echo "oracle: done $(date -u +%FT%TZ); $(uptime)"
	python3 "$root/bench/verdicts.py" summary "$res/oracle.tsv"
	while IFS=$'\t' read -r id level status r up n op pos key call holm; do
		case $call in agree | "(error)" | *"not run)") continue ;; esac
		echo "-- $id $level $status $op $pos: $call; samples (ns/op) of $res/reproduce/$id/$level"
		python3 "$root/bench/verdicts.py" spread "$res/reproduce/$id/$level/base.txt" "$res/reproduce/$id/$level/mut.txt"
	done <"$res/oracle.tsv"
}
main "$@"
