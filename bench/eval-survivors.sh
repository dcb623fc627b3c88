#!/usr/bin/env bash
# The survivors loop of docs/evaluation.md on github.com/Masterminds/semver/v3:
# run perfmut on three groups of surviving mutants, add the benchmarks of
# bench/evaldata/semver_survivors_bench_test.go.txt in a scratch copy, and run
# perfmut on just those mutants again.
#   group 1: -operators loop-unbreaker        (1 mutant: Constraints.Check's break)
#   group 2: -operators oblivion              (4 mutants, among them constraintNotEqual's)
#   group 3: -changed-since HEAD on line 617  (the 6 Q3 mutants of rewriteRange's loop;
#            a trailing comment marks the line, the mutant IDs do not change)
# Usage: bash bench/eval-survivors.sh   (EVAL=$TMPDIR/perfmut-eval; BENCHTIME=20ms MAXS=20 OPT=both)
set -euo pipefail
main() {
	local root EVAL BENCHTIME MAXS OPT mod dir perfmut
	root=$(cd "$(dirname "$0")/.." && pwd)
	EVAL=${EVAL:-${TMPDIR:-/tmp}/perfmut-eval}
	BENCHTIME=${BENCHTIME:-20ms}
	MAXS=${MAXS:-20}
	OPT=${OPT:-both}
	mod=github.com/Masterminds/semver/v3@v3.5.0
	mkdir -p "$EVAL/bin" "$EVAL/survivors"
	perfmut=$EVAL/bin/perfmut-survivors
	(cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	dir=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	for v in before after; do
		local src=$EVAL/survivors/semver-$v
		rm -rf "$src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		[ $v = after ] && cp "$root/bench/evaldata/semver_survivors_bench_test.go.txt" "$src/survivors_bench_test.go"
		(cd "$src" && git init -q && git add -A && git -c user.email=eval@perfmut -c user.name=eval commit -qm base)
		sed -i '617s|$| // hot loop: see docs/evaluation.md|' "$src/constraints.go"
		local common=(-C "$src" -opt "$OPT" -benchtime "$BENCHTIME" -max-samples "$MAXS")
		for g in loop-unbreaker oblivion rewriteRange; do
			local out=$EVAL/survivors/$v-$g sel
			rm -rf "$out"
			case $g in
			rewriteRange) sel=(-changed-since HEAD) ;;
			*) sel=(-operators "$g") ;;
			esac
			echo "== $v $g: perfmut run ${sel[*]} ${common[*]} ./..."
			"$perfmut" run "${sel[@]}" "${common[@]}" -out "$out" ./... 2>&1 | grep -E '^perfmut: \[|score|changed since' || true
		done
	done
}
main "$@"
