#!/usr/bin/env bash
# Early stopping against a fixed 30 samples on the demo module (issue 4's
# speed goal: >= 5x less benchmark time per decided mutant at >= 95% equal
# verdicts). Runs two campaigns with the same seed at -opt on and compares
# their reports. Usage: bash bench/runner_verdicts.sh [benchtime]
# (PERFMUT=path uses a prebuilt perfmut; OUT=dir keeps the results.)
set -euo pipefail
cd "$(dirname "$0")/.."
bt=${1:-20ms}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${PERFMUT:-}" ]; then cp "$PERFMUT" "$work/perfmut"; else go build -o "$work/perfmut" ./cmd/perfmut; fi
cp -r testdata/demo "$work/demo"
out=${OUT:-$work}
mkdir -p "$out"
for mode in early fixed; do
  extra=()
  [ "$mode" = fixed ] && extra=(-min-samples 30 -max-samples 30)
  start=$(date +%s)
  "$work/perfmut" run -C "$work/demo" -opt on -benchtime "$bt" -seed 1 -out "$out/$mode" "${extra[@]}" 2>"$out/$mode.log" >/dev/null || true
  echo "$mode: $(( $(date +%s) - start ))s wall; $(grep 'done in' "$out/$mode.log")"
done
python3 - "$out/early/report.json" "$out/fixed/report.json" <<'PY'
import json, sys
def load(p):
    r = json.load(open(p))
    out = {}
    for m in r["mutants"]:
        lr = m["results"]["opt"]
        n = max([t["n_mutant"] for t in lr.get("benchmarks") or []] or [0])
        runs = sum(len(s["mutant"]) + len(s["baseline"]) for s in lr.get("samples") or [] if s["metric"] == "sec/op")
        out[m["id"]] = (lr["status"], n, runs)
    return out
e, f = load(sys.argv[1]), load(sys.argv[2])
measured = [i for i in e if e[i][0] in ("killed", "survived") and f[i][0] in ("killed", "survived")]
same = sum(e[i][0] == f[i][0] for i in measured)
re, rf = sum(e[i][2] for i in measured), sum(f[i][2] for i in measured)
print(f"measured mutants: {len(measured)}; equal verdicts: {same}/{len(measured)} = {100*same/max(1,len(measured)):.1f}%")
print(f"benchmark runs: early {re}, fixed {rf}: {rf/max(1,re):.2f}x fewer")
print(f"mean samples per mutant: early {sum(e[i][1] for i in measured)/max(1,len(measured)):.1f}, fixed {sum(f[i][1] for i in measured)/max(1,len(measured)):.1f}")
for st in ("killed", "survived"):
    ids = [i for i in measured if e[i][0] == st]
    ns = sorted(e[i][1] for i in ids)
    print(f"early, {st}: {len(ids)} mutants, {sum(e[i][2] for i in ids)} runs, samples each {ns}")
for i in measured:
    if e[i][0] != f[i][0]:
        print(f"  differs: {i}: early {e[i][0]} (n={e[i][1]}), fixed {f[i][0]} (n={f[i][1]})")
PY
