#!/usr/bin/env bash
# compare-aa.sh: the false-change rate of perfmut compare, A/A.
#
# Compares a module's HEAD with itself (-all: every benchmark) N times and
# counts the verdicts per metric. Both sides are the same code, so every
# slower or faster verdict is a false change; the rule bounds the chance of
# any in one comparison by -alpha (0.05).
#
# Usage (from the repository root):
#   bash bench/compare-aa.sh [MODULE_DIR] [N]
#   MODULE_DIR  default testdata/demo (copied into a fresh git repository)
#   N           repetitions, default 20
#   EXTRA='...' more flags for every comparison (e.g. -sample-time 10ms)
# Prints one line per repetition and a total; exits 1 if any comparison
# reported slower (the gate would have failed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=${1:-$root/testdata/demo}
n=${2:-20}
EXTRA=${EXTRA:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-compare-aa-XXXXXX")
trap 'rm -rf "$work"' EXIT

cp -r "$mod" "$work/mod"; chmod -R u+w "$work/mod"
git -C "$work/mod" init -q -b main
git -C "$work/mod" add -A
git -C "$work/mod" -c user.name=aa -c user.email=aa@aa commit -q -m base
(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
echo "# $(uptime)"
echo "# perfmut compare -all $EXTRA HEAD HEAD on $(basename "$mod"), $n times"
total_slower=0; failed=0
for i in $(seq 1 "$n"); do
  out="$work/out$i"
  set +e
  "$work/perfmut" compare -C "$work/mod" -all -seed "$i" -out "$out" $EXTRA HEAD HEAD >"$work/stdout$i" 2>"$work/stderr$i"
  code=$?
  set -e
  if [ ! -f "$out/compare.json" ]; then
    echo "run $i: exit $code, no compare.json:"; tail -3 "$work/stderr$i"; exit 1
  fi
  counts=$(grep -o '"verdict": "[a-z]*"' "$out/compare.json" | sort | uniq -c | awk '{printf "%s %s, ", $1, $3}' | tr -d '"')
  slower=$(grep -c '"verdict": "slower"' "$out/compare.json" || true)
  total_slower=$((total_slower + slower))
  [ "$code" -eq 0 ] || failed=$((failed + 1))
  printf 'run %2d: exit %d; %s%ss\n' "$i" "$code" "$counts" "$(grep -o '"seconds": [0-9.]*' "$out/compare.json" | cut -d' ' -f2 | cut -c1-5)"
done
echo "# $n comparisons: $total_slower slower metrics, $failed exited non-zero"
[ "$total_slower" -eq 0 ]
