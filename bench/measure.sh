#!/usr/bin/env bash
# measure.sh: what the measurement design costs and what it decides.
#
# Runs one campaign per design on a module, back to back in one run, and
# prints per design the wall time, perfmut's measurement time, the number of
# benchmark processes, and how many verdicts equal those of the reference
# design (the first one listed).
#
# Usage (from the repository root):
#   bash bench/measure.sh [MODULE_DIR] [DESIGN...]
#   MODULE_DIR  default testdata/demo (copied to a work directory first)
#   DESIGN      fixed30 | before | now   (default: fixed30 before now)
#     fixed30   no early stopping: 30 time-based samples of 100ms each side,
#               no censoring, no inference (the reference)
#     before    the design before fixed-iteration samples: perfmut at
#               $BEFORE (default 37a68a1), its default flags
#     now       this tree's defaults (fixed-iteration samples of about
#               -sample-time, censoring, subsumption, early stopping)
#     now10, now30  the same with -sample-time 10ms, 30ms
#   OPT=on      -opt level(s); EXTRA='...' more flags for every design;
#   KEEP=1      keep the work directory (results of every design)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=${1:-$root/testdata/demo}; shift || true
designs=("$@"); [ ${#designs[@]} -gt 0 ] || designs=(fixed30 before now)
OPT=${OPT:-on}; BEFORE=${BEFORE:-37a68a1}; EXTRA=${EXTRA:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-measure-XXXXXX")
trap 'git -C "$root" worktree remove --force "$work/before-src" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

cp -r "$mod" "$work/mod"; chmod -R u+w "$work/mod"
(cd "$root" && go build -o "$work/perfmut-now" ./cmd/perfmut)
if [[ " ${designs[*]} " == *" before "* ]]; then
	git -C "$root" worktree add -q --detach "$work/before-src" "$BEFORE"
	(cd "$work/before-src" && go build -o "$work/perfmut-before" ./cmd/perfmut)
fi

echo "module $(cd "$work/mod" && go list -m), -opt $OPT; $(uptime | sed 's/.*load/load/')"
printf '%-8s | %8s | %12s | %9s | %s\n' design wall measurement processes "verdicts equal to ${designs[0]}"
for d in "${designs[@]}"; do
	case $d in
	fixed30) bin=$work/perfmut-now; flags=(-min-samples 30 -max-samples 30 -benchtime 100ms -censor 0 -infer=false) ;;
	before) bin=$work/perfmut-before; flags=() ;;
	now) bin=$work/perfmut-now; flags=() ;;
	now10) bin=$work/perfmut-now; flags=(-sample-time 10ms) ;;
	now30) bin=$work/perfmut-now; flags=(-sample-time 30ms) ;;
	*) echo "unknown design $d"; exit 2 ;;
	esac
	start=$(date +%s.%N)
	(cd "$work/mod" && "$bin" run -opt "$OPT" "${flags[@]}" $EXTRA -out "$work/out-$d" ./... >"$work/log-$d" 2>&1) || true
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	python3 - "$work" "$d" "${designs[0]}" "$wall" <<'EOF'
import json, re, sys
work, d, ref, wall = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
def load(name):
    r = json.load(open(f"{work}/out-{name}/report.json"))
    return r, {(m["id"], l): res["status"] for m in r["mutants"] for l, res in m["results"].items()}
r, st = load(d)
_, refst = load(ref)
log = open(f"{work}/log-{d}").read()
m = re.search(r"measurement ([0-9hms.]+)\)", log)
procs = sum(2 * len(s["baseline"]) for m_ in r["mutants"] for res in m_["results"].values()
            for s in res.get("samples") or [] if s["metric"] == "sec/op")
same = sum(1 for k, v in st.items() if refst.get(k) == v)
print(f"{d:<8} | {wall:7.0f}s | {m.group(1) if m else '?':>12} | {procs:>9} | {same}/{len(st)} = {100*same/max(len(st),1):.1f} %")
ops = {(m_["id"], l): m_["operator"] for m_ in r["mutants"] for l in m_["results"]}
for k, v in sorted(st.items()):
    if refst.get(k) != v:
        print(f"{'':<8}   differs: {k[0]} {ops[k]} {k[1]}: {refst.get(k)} -> {v}")
EOF
done
