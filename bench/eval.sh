#!/usr/bin/env bash
# Reproduces docs/evaluation.md: perfmut on real modules from the Go module
# proxy (issue 6). For each module: copy it out of the module cache, count
# its lines, list its mutants (generation time), type-check them (list
# -check), run a sampled campaign, time a few mutant builds, then summarize
# everything with bench/evalsummary.py. Optionally an A/A calibration.
#
# Usage: bash bench/eval.sh [name...]     (default: btree bitset semver fastjson)
#   EVAL=$TMPDIR/perfmut-eval  work directory (sources in $EVAL/src, results in $EVAL/out)
#   SAMPLE=10 SEED=1      mutants per module (perfmut run -sample/-seed; 0 = all)
#   BENCHTIME=20ms MAXS=20 OPT=both    perfmut run -benchtime/-max-samples/-opt
#   CHECK=1               also run `perfmut list -check` (slow on bitset: minutes)
#   BUILDS=3              mutants per module whose build is timed by hand
#   CAL=semver TRIALS=20 CAL_OPT=on    calibration module, trials per kind, level (CAL= to skip)
#   Q3COUNT=5 Q3BENCHTIME=200ms   bench/q3overhead.sh's count and benchtime (step q3)
#   STEPS="prep list check run builds q3 cal summary"   which steps to run
#   SAMPLE_<name>=, SEED_<name>=, BENCHTIME_<name>=, MAXS_<name>=, OPT_<name>=   per-module overrides
#                         (defaults SAMPLE_fastjson=8 SEED_fastjson=3 MAXS_fastjson=10: its hot
#                         mutants reach 55 benchmarks; docs/evaluation.md used these settings)
# Every perfmut command is echoed with its wall time into $EVAL/commands.log.
set -euo pipefail
# Everything is in main so that bash parses the whole script before running it
# (editing it during a long campaign does not break the running copy).
main() {
root=$(cd "$(dirname "$0")/.." && pwd)
EVAL=${EVAL:-${TMPDIR:-/tmp}/perfmut-eval}
SAMPLE=${SAMPLE:-10}
SEED=${SEED:-1}
BENCHTIME=${BENCHTIME:-20ms}
SAMPLE_fastjson=${SAMPLE_fastjson:-8}
SEED_fastjson=${SEED_fastjson:-3}
MAXS_fastjson=${MAXS_fastjson:-10}
MAXS=${MAXS:-20}
OPT=${OPT:-both}
CHECK=${CHECK:-1}
BUILDS=${BUILDS:-3}
CAL=${CAL-semver}
TRIALS=${TRIALS:-20}
CAL_OPT=${CAL_OPT:-on}
Q3COUNT=${Q3COUNT:-5}
Q3BENCHTIME=${Q3BENCHTIME:-200ms}
STEPS=${STEPS:-prep list check run builds q3 cal summary}

declare -A MODS=(
	[btree]=github.com/google/btree@v1.1.3
	[bitset]=github.com/bits-and-blooms/bitset@v1.29.0
	[semver]=github.com/Masterminds/semver/v3@v3.5.0
	[fastjson]=github.com/valyala/fastjson@v1.6.10
)
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(btree bitset semver fastjson)

mkdir -p "$EVAL/src" "$EVAL/out" "$EVAL/meta"
step() { [[ " $STEPS " == *" $1 "* ]]; }
# v VAR name: $VAR_name if set, else $VAR.
v() {
	local o="$1_$2"
	echo "${!o:-${!1}}"
}
# timed NAME 'SHELL COMMAND': runs it, logs it with its wall time and exit
# status ($EVAL/commands.log, $EVAL/meta/NAME.seconds, NAME.rc).
timed() {
	local name=$1 cmd=$2 t0 t1 rc=0
	t0=$(date +%s.%N)
	bash -c "$cmd" || rc=$?
	t1=$(date +%s.%N)
	python3 -c "print('%.2f' % ($t1 - $t0))" >"$EVAL/meta/$name.seconds"
	echo "$rc" >"$EVAL/meta/$name.rc"
	printf '%s  # %ss, exit %s, %s\n' "$cmd" "$(cat "$EVAL/meta/$name.seconds")" "$rc" "$(date -u +%TZ)" >>"$EVAL/commands.log"
}

# A binary per invocation: a campaign still running keeps its own.
PERFMUT=$EVAL/bin/perfmut-$(date -u +%H%M%S)
mkdir -p "$EVAL/bin"
(cd "$root" && go build -o "$PERFMUT" ./cmd/perfmut)
echo "# $(date -u +%FT%TZ) perfmut $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?') (+ working tree), $(go version)" >>"$EVAL/commands.log"

for name in "${names[@]}"; do
	mod=${MODS[$name]}
	src=$EVAL/src/$name
	out=$EVAL/out/$name
	if step prep; then
		dir=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
		rm -rf "$src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		echo "$mod" >"$EVAL/meta/$name.module"
		# Lines of the code perfmut mutates: non-test .go files of the packages
		# as the go command selects them (build tags), minus generated files.
		(cd "$src" && go list -f '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' ./...) >"$EVAL/meta/$name.gofiles"
		(cd "$src" && go list -f '{{$d := .Dir}}{{range .TestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' ./...) >"$EVAL/meta/$name.testfiles"
		(cd "$src" && go test -count=1 ./... >"$EVAL/meta/$name.gotest" 2>&1) || true
	fi
	if step list; then
		timed "$name.list" "'$PERFMUT' list -json -C '$src' ./... >'$EVAL/meta/$name.list.json' 2>'$EVAL/meta/$name.list.err'"
	fi
	if step check && [ "$CHECK" = 1 ]; then
		timed "$name.check" "'$PERFMUT' list -check -C '$src' ./... >'$EVAL/meta/$name.check.txt' 2>&1"
	fi
	if step run; then
		rm -rf "$out"
		timed "$name.run" "'$PERFMUT' run -C '$src' -out '$out' -sample $(v SAMPLE "$name") -seed $(v SEED "$name") -opt $(v OPT "$name") -benchtime $(v BENCHTIME "$name") -max-samples $(v MAXS "$name") ./... >'$EVAL/meta/$name.run.out' 2>'$EVAL/meta/$name.run.err'"
		cmp -s <(cd "$src" && find . -type f ! -path './.git/*' -exec sha256sum {} + | sort) \
			<(cd "$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')" && find . -type f -exec sha256sum {} + | sort) &&
			echo unchanged >"$EVAL/meta/$name.pristine" || echo CHANGED >"$EVAL/meta/$name.pristine"
	fi
	if step builds && [ -f "$out/report.json" ]; then
		# Time `go test -c` of a few sampled mutants by hand in a scratch copy
		# (opt and -N -l), against the unmutated package (fully cached), all
		# with a warm cache for everything the mutant does not touch.
		scratch=$EVAL/scratch/$name
		rm -rf "$scratch"
		mkdir -p "$(dirname "$scratch")"
		cp -r "$src" "$scratch"
		python3 - "$out/report.json" "$BUILDS" >"$EVAL/meta/$name.buildids" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ms = [m for m in r["mutants"] if all(lr["status"] != "compile-error" for lr in m["results"].values())]
for m in ms[: int(sys.argv[2])]:
    print(m["id"], m["package"])
PY
		: >"$EVAL/meta/$name.builds"
		while read -r id pkg; do
			for lvl in opt noopt; do
				flags=()
				[ $lvl = noopt ] && flags=(-gcflags=all=-N\ -l)
				(cd "$scratch" && go test -c -o /dev/null "${flags[@]}" "$pkg" >/dev/null 2>&1) # warm
				t0=$(date +%s.%N)
				(cd "$scratch" && go test -c -o /dev/null "${flags[@]}" "$pkg" >/dev/null 2>&1)
				t1=$(date +%s.%N)
				"$PERFMUT" show -C "$src" "$id" >"$EVAL/meta/diff.tmp"
				(cd "$scratch" && patch -s -p1 <"$EVAL/meta/diff.tmp")
				# A unique comment in each changed file: perfmut's own overlay build of
				# this very mutant is in the build cache and would answer otherwise.
				files=$(sed -n 's|^+++ b/||p' "$EVAL/meta/diff.tmp")
				for f in $files; do echo "// eval.sh $(date +%s%N)" >>"$scratch/$f"; done
				t2=$(date +%s.%N)
				(cd "$scratch" && go test -c -o /dev/null "${flags[@]}" "$pkg" >/dev/null 2>&1) || true
				t3=$(date +%s.%N)
				for f in $files; do
					if [ -f "$src/$f" ]; then cp "$src/$f" "$scratch/$f"; else rm -f "$scratch/$f"; fi
				done
				echo "$id $lvl $(python3 -c "print('%.3f %.3f' % ($t1 - $t0, $t3 - $t2))")" >>"$EVAL/meta/$name.builds"
			done
		done <"$EVAL/meta/$name.buildids"
	fi
done

if step q3; then
	timed "q3overhead" "OUT='$EVAL/meta/q3raw' bash '$root/bench/q3overhead.sh' $Q3COUNT $Q3BENCHTIME >'$EVAL/meta/q3overhead.txt' 2>&1"
fi

if step cal && [ -n "$CAL" ]; then
	rm -rf "$EVAL/out/calibrate-$CAL"
	timed "calibrate" "'$PERFMUT' calibrate -C '$EVAL/src/$CAL' -out '$EVAL/out/calibrate-$CAL' -trials $TRIALS -opt $CAL_OPT -benchtime $BENCHTIME -max-samples $MAXS ./... >'$EVAL/meta/calibrate.out' 2>'$EVAL/meta/calibrate.err'"
fi

if step summary; then
	python3 "$root/bench/evalsummary.py" "$EVAL" "${names[@]}" | tee "$EVAL/summary.md"
fi
}

main "$@"
