#!/usr/bin/env bash
# attrib-mutants.sh: how often perfmut compare's attribution names the
# function a regression is in, on mutants as injected regressions.
#
# Each mutant (perfmut list; spin, alloc, lock, oblivion and
# loop-unbreaker by default) on a line some benchmark runs is applied to the working tree of a fresh git
# copy of the module and compared with HEAD (perfmut compare HEAD
# WORKTREE, the default attribution). A mutant compare calls slower is
# killed; for it, the attribution of its first slower metric (sec/op, else
# B/op, else allocs/op) is checked: is the mutated function the top
# attributed function (top 1), among the first three (top 3)? The helper a
# Q3 mutant calls (perfmut_spin, perfmut_alloc, perfmut_lock, generated in
# a file of its own) counts as the mutated function: it is the mutation's
# code, which runs only from there.
#
# Usage (from the repository root):
#   bash bench/attrib-mutants.sh [MODULE_DIR] [N] [OPERATORS]
#   MODULE_DIR  default testdata/demo (copied into a fresh git repository)
#   N           how many killed mutants to evaluate, default 30
#   OPERATORS   default spin-loop,alloc-churn,lock-contention,oblivion,loop-unbreaker
#   EXTRA='...' more flags for every comparison (e.g. -max-samples 10)
#   SEED        the order in which mutants are tried, default 1
#   KEEP=dir    keep every comparison's results directory in dir
# Prints one line per mutant tried and the totals (and per operator): top 1 and top 3 rates,
# and the attribution's time against the rest of the comparisons'.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=${1:-$root/testdata/demo}
n=${2:-30}
ops=${3:-spin-loop,alloc-churn,lock-contention,oblivion,loop-unbreaker}
EXTRA=${EXTRA:-}
SEED=${SEED:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-attrib-XXXXXX")
trap 'rm -rf "$work"' EXIT

cp -r "$mod" "$work/mod"; chmod -R u+w "$work/mod"
rm -rf "$work/mod/.git"
git -C "$work/mod" init -q -b main
git -C "$work/mod" add -A
git -C "$work/mod" -c user.name=at -c user.email=at@at commit -q -m base
(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
"$work/perfmut" list -C "$work/mod" -json -operators "$ops" >"$work/mutants.json"
# The lines some benchmark runs (one short run of every benchmark with
# coverage): a mutant elsewhere cannot be killed and is not tried.
(cd "$work/mod" && go test -run '^$' -bench . -benchtime 5000x -coverpkg ./... -coverprofile "$work/cover.out" ./... >/dev/null)
# The mutants in an order that takes the operators in turn, shuffled
# within each by SEED: ID, operator, package, package.function.
python3 - "$work/mutants.json" "$SEED" "$work/cover.out" "$(cd "$work/mod" && go list -m)" >"$work/order.txt" <<'EOF'
import json, random, sys
ms = json.load(open(sys.argv[1]))
rng = random.Random(int(sys.argv[2]))
covered = set()  # (module-relative file, line) of blocks that ran
for l in open(sys.argv[3]).readlines()[1:]:
    name, rest = l.rsplit(":", 1)
    span, _, count = rest.split()
    if int(count) > 0:
        a, b = span.split(",")
        rel = name[len(sys.argv[4]) + 1:]
        for line in range(int(a.split(".")[0]), int(b.split(".")[0]) + 1):
            covered.add((rel, line))
ms = [m for m in ms if (m["file"], m["line"]) in covered]
by = {}
for m in ms:
    by.setdefault(m["operator"], []).append(m)
for v in by.values():
    rng.shuffle(v)
out = []
while any(by.values()):
    for op in sorted(by):
        if by[op]:
            out.append(by[op].pop())
for m in out:
    print(m["id"], m["operator"], m["package"], m["package"] + "." + m["function"])
EOF
echo "# $(uptime)"
echo "# perfmut compare $EXTRA HEAD WORKTREE on $(basename "$mod") with each mutant of $ops applied, until $n are killed"
killed=0
while read -r id op pkg fn; do
  [ "$killed" -ge "$n" ] && break
  "$work/perfmut" show -C "$work/mod" "$id" | sed '1{/^#/d}' >"$work/patch"
  git -C "$work/mod" apply "$work/patch"
  out="$work/out-$id"
  set +e
  "$work/perfmut" compare -C "$work/mod" -out "$out" -max-slowdown 1000000% $EXTRA HEAD WORKTREE >"$work/stdout" 2>"$work/stderr"
  code=$?
  set -e
  git -C "$work/mod" checkout -q -- .
  git -C "$work/mod" clean -qfd
  if [ ! -f "$out/compare.json" ]; then
    echo "$id $op $fn: exit $code, no compare.json: $(tail -1 "$work/stderr")"; continue
  fi
  line=$(python3 - "$out/compare.json" "$pkg" "$fn" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1])); pkg, fn = sys.argv[2], sys.argv[3]
def is_fn(k):
    return k == fn or k.startswith(pkg + ".perfmut_")
killed = None
for b in c.get("benchmarks") or []:
    for m in b.get("metrics") or []:
        if m["verdict"] == "slower" and killed is None:
            killed = (b, m["metric"])
if killed is None:
    print("notkilled 0 0 - %.1f 0" % c["seconds"]); sys.exit()
b, metric = killed
a = b.get("attribution") or {}
am = [x for x in a.get("metrics", []) if x["metric"] == metric]
funcs = [f["function"] for f in (am[0]["functions"] if am else [])]
rank = next((i + 1 for i, k in enumerate(funcs) if is_fn(k)), 0)
top = funcs[0] if funcs else "-"
print("killed %d %d %s %.1f %.1f %s %s" % (rank == 1, 1 <= rank <= 3, top, c["seconds"], a.get("seconds", 0), b["name"], metric))
EOF
)
  read -r status top1 top3 top secs asecs bench metric <<<"$line"
  echo "$id $op $fn: $status${bench:+ ($bench $metric)}; top $top; rank ok: top1=$top1 top3=$top3; ${secs}s (attribution ${asecs}s)"
  echo "$op $line" >>"$work/results.txt"
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp -r "$out" "$KEEP/"
  if [ "$status" = killed ]; then killed=$((killed + 1)); fi
done <"$work/order.txt"
echo "# $(uptime)"
python3 - "$work/results.txt" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]  # operator, status, top1, top3, top, seconds, attribution seconds, ...
k = [r for r in rows if r[1] == "killed"]
t1 = sum(int(r[2]) for r in k); t3 = sum(int(r[3]) for r in k)
tot = sum(float(r[5]) for r in rows); att = sum(float(r[6]) for r in rows)
print("tried %d, killed %d: top 1 %d (%.0f%%), top 3 %d (%.0f%%)" % (len(rows), len(k), t1, 100.0 * t1 / max(len(k), 1), t3, 100.0 * t3 / max(len(k), 1)))
for op in sorted({r[0] for r in rows}):
    ko = [r for r in k if r[0] == op]
    print("  %s: tried %d, killed %d, top 1 %d, top 3 %d" % (op, sum(1 for r in rows if r[0] == op), len(ko), sum(int(r[2]) for r in ko), sum(int(r[3]) for r in ko)))
print("attribution %.0fs of %.0fs in all: %.2fx the comparisons without it (%.0fs)" % (att, tot, att / max(tot - att, 1e-9), tot - att))
if k:
    ka = sum(float(r[6]) for r in k); kt = sum(float(r[5]) for r in k)
    print("killed mutants only: attribution %.0fs, the rest of their comparisons %.0fs: %.2fx" % (ka, kt - ka, ka / max(kt - ka, 1e-9)))
EOF
