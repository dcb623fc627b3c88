#!/usr/bin/env bash
# perfmut generate's evaluation (docs/evaluation.md, "perfmut generate"):
# on the demo and on real modules from the proxy, a campaign (run), then
# generate reading its results; prints each step's wall time and uptime,
# generate's per-benchmark lines and the scores before and after, and
# checks that the generated files, added to a copy of the module, pass
# go vet and the module's tests.
# Usage: bash bench/generate.sh [MODULE@VERSION [SAMPLE]]...
#   no arguments: the demo (testdata/demo) only; SAMPLE is run's -sample (0 = all).
#   EVAL=$TMPDIR/perfmut-eval-gen OPT=on
set -euo pipefail
main() {
	local root EVAL OPT perfmut
	root=$(cd "$(dirname "$0")/.." && pwd)
	EVAL=${EVAL:-${TMPDIR:-/tmp}/perfmut-eval-gen}
	OPT=${OPT:-on}
	mkdir -p "$EVAL/bin"
	perfmut=$EVAL/bin/perfmut
	(cd "$root" && go build -o "$perfmut" ./cmd/perfmut)
	one demo "$root/testdata/demo" 0
	while [ $# -gt 0 ]; do
		local mod=$1 sample=${2:-0} dir name
		shift 2 || shift $#
		dir=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
		name=$(basename "${mod%@*}")
		rm -rf "${EVAL:?}/$name"
		cp -r "$dir" "$EVAL/$name"
		chmod -R u+w "$EVAL/$name"
		one "$name" "$EVAL/$name" "$sample"
	done
}
# one runs the campaign and generate on the module in dir.
one() {
	local name=$1 dir=$2 sample=$3 out=$EVAL/$1-out check=$EVAL/$1-check
	rm -rf "$out" "$check"
	echo "== $name: run -opt $OPT -sample $sample; $(uptime)"
	/usr/bin/time -f "run: %e s wall" "$perfmut" run -C "$dir" -opt "$OPT" -sample "$sample" -out "$out" ./... >"$out.run.log" 2>&1 || true
	tail -4 "$out.run.log"
	echo "== $name: generate; $(uptime)"
	/usr/bin/time -f "generate: %e s wall" "$perfmut" generate -C "$dir" -opt "$OPT" -out "$out" ./... >"$out.gen.log" 2>&1
	grep -v '^perfmut: \[' "$out.gen.log" | tail -40
	echo "== $name: go vet and go test with the generated files added; $(uptime)"
	cp -r "$dir" "$check"
	(cd "$out/generate" && find . -name perfmut_gen_test.go) | while read -r f; do
		local pkg
		pkg=$(dirname "$f")
		[ -d "$check/$pkg" ] || pkg=.
		cp "$out/generate/$f" "$check/$pkg/"
	done
	(cd "$check" && go vet ./... && go test -count=1 ./... | tail -5)
}
main "$@"
