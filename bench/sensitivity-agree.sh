#!/bin/bash
# Predicted vs observed: compares perfmut sensitivity's map of a module with
# the verdicts of a spin-loop and sleep campaign on it (docs/sensitivity.md).
#
#   bash bench/sensitivity-agree.sh MODULE_DIR OUT_DIR [perfmut binary]
#
# Runs, in MODULE_DIR: perfmut run -operators spin-loop,sleep -opt on (the
# module's perfmut.yaml, or $CONFIG, gives the sizes) into OUT_DIR/campaign,
# then perfmut sensitivity -json into OUT_DIR/map.json, then measures the
# spin helper's cost per call and per iteration now (internal/detect/testdata/spincost)
# and prints each measured mutant's prediction and the agreement.
set -euo pipefail
mod=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${3:-$out/perfmut}
[ -x "$bin" ] || (cd "$repo" && go build -o "$bin" ./cmd/perfmut)
cfg=(); [ -n "${CONFIG:-}" ] && cfg=(-config "$CONFIG")
extra=(${RUN_FLAGS:-})
log() { echo "$1 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/times.txt"; }
if [ "${SKIP_RUN:-}" = "" ]; then
	log "campaign start"
	(cd "$mod" && "$bin" run -operators spin-loop,sleep -opt on "${cfg[@]}" "${extra[@]}" -out "$out/campaign" ./... > "$out/run.log" 2>&1)
	log "campaign end"
fi
log "map start"
(cd "$mod" && "$bin" sensitivity -json ./... > "$out/map.json")
log "map end"
spin=$(cd "$repo/internal/detect/testdata/spincost" && go test -run '^$' -bench Spin -count 5 -benchtime 100ms)
read -r call iter < <(echo "$spin" | python3 -c "
import sys, statistics
ns = {'0': [], '1000': []}
for l in sys.stdin:
    f = l.split()
    if l.startswith('BenchmarkSpin/'):
        ns[f[0].split('/')[1].split('-')[0]].append(float(f[2]))
c, d = statistics.median(ns['0']), statistics.median(ns['1000'])
print('%.3f %.4f' % (c, (d - c) / 1000))")
echo "spin helper now: $call ns per call, $iter ns per iteration" | tee -a "$out/times.txt"
python3 -c "
import json
r = json.load(open('$out/campaign/report.json'))['baseline']
m = json.load(open('$out/map.json'))['cost']
t = sum(m.values()) / 1e9
print(f\"baseline coverage step {r['bench_coverage_seconds']:.1f}s; map {t:.1f}s ({t / r['bench_coverage_seconds']:.2f}x)\")
" | tee -a "$out/times.txt"
cd "$repo" && go run ./bench/agree -map "$out/map.json" -report "$out/campaign/report.json" -call-ns "$call" -iter-ns "$iter" | tee "$out/agree.txt"
