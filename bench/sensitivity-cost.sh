#!/bin/bash
# The map's cost against a campaign's coverage step (docs/sensitivity.md,
# "Cost"): in MODULE_DIR, ROUNDS times (default 2), alternately,
# `perfmut run -plan=exact -opt on ./...` (its "benchmark coverage" is the
# campaign's baseline coverage step, to 0.1s) and
# `perfmut sensitivity -json ./...` (its cost, by step), each with the load
# before it. Prints one line per pair and keeps the outputs in OUT_DIR.
#
#   bash bench/sensitivity-cost.sh MODULE_DIR OUT_DIR [perfmut binary] [ROUNDS]
set -euo pipefail
mod=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${3:-$out/perfmut}
rounds=${4:-2}
[ -x "$bin" ] || (cd "$repo" && go build -o "$bin" ./cmd/perfmut)
load() { cut -d' ' -f1 /proc/loadavg; }
for i in $(seq 1 "$rounds"); do
	echo "uptime before pair $i: $(uptime)" >&2
	l1=$(load)
	(cd "$mod" && "$bin" run -plan=exact -opt on ./... > "$out/plan$i.txt" 2> "$out/plan$i.log")
	cov=$(sed -n 's/^baseline (measured): .*, \([0-9hms.]*\) benchmark coverage,.*/\1/p' "$out/plan$i.txt")
	l2=$(load)
	(cd "$mod" && "$bin" sensitivity -json ./... > "$out/map$i.json")
	python3 - "$out/map$i.json" "$cov" "$l1" "$l2" "$(date -u +%H:%M)" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))['cost']
cov = sys.argv[2]
secs = sum(float(v) * {'h': 3600, 'm': 60, 's': 1, 'ms': 1e-3}[u] for v, u in re.findall(r'([0-9.]+)(ms|h|m|s)', cov))
steps = [m[k] / 1e9 for k in ('build_ns', 'calibrate_ns', 'coverage_ns', 'profile_ns')]
t = sum(steps)
ratio = t / secs if secs else float('inf')
print(f"{sys.argv[5]} load {sys.argv[3]}/{sys.argv[4]}: coverage step {cov}, map {t:.1f}s "
      f"(build {steps[0]:.1f} + calibration {steps[1]:.1f} + coverage {steps[2]:.1f} + profiled {steps[3]:.1f}), ratio {ratio:.2f}x")
PY
done
