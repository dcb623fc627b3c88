#!/usr/bin/env bash
# behaviour-aa.sh: the false-alarm rate of compare -history's behaviour
# model, A/A.
#
# Compares a module's HEAD with itself (-all) N times into one -history
# store, so that the model of each benchmark learns from the earlier runs
# (1, 2, ... N-1 recorded behaviours besides this run's OLD). Both sides
# are the same code: every "behaviour changed" is a false alarm; the model
# keeps their chance in one comparison at most -alpha (0.05).
#
# Usage (from the repository root):
#   bash bench/behaviour-aa.sh [MODULE_DIR] [N] [PACKAGES]
#   MODULE_DIR  default testdata/demo (copied into a fresh git repository)
#   N           comparisons, default 10
#   PACKAGES    default ./...
#   EXTRA='...' more flags for every comparison
#   KEEP=dir    keep the results directories and the store in dir
# Prints one line per comparison and the totals.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=${1:-$root/testdata/demo}
n=${2:-10}
pkgs=${3:-./...}
EXTRA=${EXTRA:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-behaviour-aa-XXXXXX")
trap 'rm -rf "$work"' EXIT

cp -r "$mod" "$work/mod"; chmod -R u+w "$work/mod"
rm -rf "$work/mod/.git"
git -C "$work/mod" init -q -b main
git -C "$work/mod" add -A
git -C "$work/mod" -c user.name=aa -c user.email=aa@aa commit -q -m base
(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
echo "# $(uptime)"
echo "# perfmut compare -all -history H $EXTRA HEAD HEAD $pkgs on $(basename "$mod"), $n times"
for i in $(seq 1 "$n"); do
  out="$work/out$i"
  set +e
  "$work/perfmut" compare -C "$work/mod" -all -seed "$i" -history "$work/hist" -out "$out" -max-slowdown 1000000% $EXTRA HEAD HEAD $pkgs >"$work/stdout$i" 2>"$work/stderr$i"
  code=$?
  set -e
  if [ ! -f "$out/compare.json" ]; then
    echo "run $i: exit $code, no compare.json:"; tail -3 "$work/stderr$i"; exit 1
  fi
  python3 - "$out/compare.json" "$i" <<'EOF' | tee -a "$work/rows"
import json, sys
c = json.load(open(sys.argv[1]))
judged = [b for b in c.get("benchmarks") or [] if b.get("behaviour")]
changed = [b["name"] for b in judged if b["behaviour"]["changed"]]
entries = max([b["behaviour"]["entries"] for b in judged] or [0])
print("run %s: %d benchmarks judged against up to %d recorded behaviours, %d behaviour changed %s; %.0fs" % (
    sys.argv[2], len(judged), entries, len(changed), " ".join(changed), c["seconds"]))
EOF
done
echo "# $(uptime)"
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$work"/out* "$work/hist" "$KEEP/"; fi
python3 - "$work/rows" <<'EOF'
import re, sys
rows = open(sys.argv[1]).read().splitlines()
judged = sum(int(re.search(r": (\d+) benchmarks judged", r).group(1)) for r in rows)
alarms = sum(int(re.search(r", (\d+) behaviour changed", r).group(1)) for r in rows)
runs = sum(1 for r in rows if int(re.search(r", (\d+) behaviour changed", r).group(1)) > 0)
print("%d comparisons, %d benchmark judgements: %d behaviour changed (false alarms) in %d comparisons (%.0f%%)" % (
    len(rows), judged, alarms, runs, 100.0 * runs / max(len(rows), 1)))
EOF
