#!/usr/bin/env bash
# The benchstat oracle of docs/evaluation.md: perfmut reproduce on a
# campaign's borderline verdicts (kills whose sec/op ratio is below 1.3,
# every survivor, every undecided), then a table of perfmut's verdict
# against benchstat's (20 alternating runs of each side at the campaign's
# fixed count; slower = p <= 0.05 and a higher median) and the share of
# kills and survivals benchstat agrees with.
# Usage: bash bench/oracle.sh MODULE RESULTS   (COUNT=20 RATIO=1.3 PERFMUT=path)
set -euo pipefail
main() {
	[ $# -eq 2 ] || { echo "usage: bash bench/oracle.sh MODULE RESULTS" >&2; exit 2; }
	local root mod res count ratio perfmut
	root=$(cd "$(dirname "$0")/.." && pwd)
	mod=$1 res=$2 count=${COUNT:-20} ratio=${RATIO:-1.3}
	[ -f "$res/report.json" ] || { echo "oracle: $res/report.json: no such file; give a perfmut run's -out" >&2; exit 2; }
	work=$(mktemp -d) # global: the EXIT trap runs after main returns
	trap 'rm -rf "$work"' EXIT
	perfmut=${PERFMUT:-$work/perfmut}
	[ -n "${PERFMUT:-}" ] || (cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	python3 "$root/bench/verdicts.py" borderline "$res/report.json" "$ratio" >"$work/list"
	echo "oracle: $(wc -l <"$work/list") borderline verdicts in $res (count $count, ratio below $ratio); $(date -u +%FT%TZ); $(uptime)"
	printf '%-12s %-6s %-9s %-6s %-16s %-22s %-40s %s\n' ID LEVEL PERFMUT RATIO OPERATOR POSITION BENCHSTAT VERDICT
	local agree=0 decided=0 id level status r op pos line verdict found
	while read -r id level status r op pos; do
		if line=$("$perfmut" reproduce -C "$mod" -out "$res" -count "$count" -level "$level" "$id" </dev/null 2>"$work/err" | tail -1); then
			verdict=${line%%:*}
			found=$(sed -nE 's/.*: ([^ ]+ [^ ]+ [-+][0-9.Inf]+% p=[0-9.]+)\)?$/\1/p' <<<"$line")
		else
			verdict=error found=$(tail -1 "$work/err")
		fi
		case $verdict in
		agree) agree=$((agree + 1)) decided=$((decided + 1)) ;;
		disagree) decided=$((decided + 1)) ;;
		*) verdict="($verdict)" ;;
		esac
		printf '%-12s %-6s %-9s %-6s %-16s %-22s %-40s %s\n' "$id" "$level" "$status" "$r" "$op" "$pos" "$found" "$verdict"
	done <"$work/list"
	if [ "$decided" -gt 0 ]; then
		echo "agreement: $agree of $decided kills and survivals ($(( 100 * agree / decided )) %); undecided and errors not counted"
	else
		echo "agreement: no kill or survival to check"
	fi
}
main "$@"
