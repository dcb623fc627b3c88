#!/usr/bin/env bash
# whole.sh: whole campaigns (every mutant, -opt both) on real modules from
# the Go module proxy, then an incremental re-run with -since after one
# function changed. Prints per module the wall time, the baseline steps,
# the mutant phases, and the equivalent and duplicate mutants per operator
# and level (docs/evaluation.md, "Whole campaigns").
#
# Usage (from the repository root):
#   bash bench/whole.sh [module@version ...]
#     default: github.com/google/btree@v1.1.3 github.com/Masterminds/semver/v3@v3.5.0
#              github.com/valyala/fastjson@v1.6.10 github.com/bits-and-blooms/bitset@v1.29.0
#   WORK=dir    work directory (default: a new temporary one, kept)
#   OPT=both    -opt;  EXTRA='...' more perfmut run flags
#   SINCE_FILE=path SINCE_FUNC=name  for -since: the file (in the module) and
#               function whose body gets a harmless statement; default: none
#   SINCE_AUTO=N  also -since after each of N functions, in turn, chosen evenly
#               from the functions (sorted by file and name) where the first run
#               measured a mutant: the changes a pull request makes to measured code
#   FIRST=keep  keep an earlier first run in WORK (its report and wall time) and
#               only run the -since campaigns
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mods=("$@")
[ ${#mods[@]} -gt 0 ] || mods=(github.com/google/btree@v1.1.3 github.com/Masterminds/semver/v3@v3.5.0
	github.com/valyala/fastjson@v1.6.10 github.com/bits-and-blooms/bitset@v1.29.0)
OPT=${OPT:-both}; EXTRA=${EXTRA:-}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/perfmut-whole-XXXXXX")}
mkdir -p "$work"
(cd "$root" && go build -o "$work/perfmut" ./cmd/perfmut)
echo "work directory $work"
for mv in "${mods[@]}"; do
	name=$(basename "${mv%@*}")
	src=$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$mv" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	if [ "${FIRST:-}" = keep ] && [ -f "$work/$name-out/report.json" ] && [ -f "$work/$name.wall" ]; then
		first=$(cat "$work/$name.wall")
		echo "== $mv: the first run in $work/$name-out ($first s)"
	else
		rm -rf "$work/$name" "$work/$name-out" "$work/$name-since"
		cp -r "$src" "$work/$name"; chmod -R u+w "$work/$name"
		(cd "$work/$name" && [ -f go.sum ] || go mod tidy >/dev/null 2>&1 || true)
		echo "== $mv, -opt $OPT, $(uptime | sed 's/.*load/load/')"
		start=$(date +%s)
		(cd "$work/$name" && "$work/perfmut" run -opt "$OPT" $EXTRA -out "$work/$name-out" ./... >"$work/$name.log" 2>&1) || true
		first=$(( $(date +%s) - start ))
		echo "$first" >"$work/$name.wall"
		echo "wall $first s; $(grep 'done in' "$work/$name.log" || tail -1 "$work/$name.log"); at the end $(uptime | sed 's/.*load/load/')"
	fi
	python3 - "$work/$name-out/report.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
b = r.get("baseline") or {}
print("baseline: build+test %.0f s, benchmark coverage %.0f s, test coverage %.0f s" % (
    b.get("build_test_seconds", 0), b.get("bench_coverage_seconds", 0), b.get("test_coverage_seconds", 0)))
for l, p in sorted(r.get("phases", {}).items()):
    print("%-5s builds %4.0f s, tests %4.0f s, measurement %4.0f s; measured %d, inferred %d, equivalent %d, duplicates %d, not built %d" % (
        l, p["build_seconds"], p["test_seconds"], p["measure_seconds"], p["measured"], p["inferred"],
        p.get("equivalent", 0), p.get("duplicates", 0), p.get("not_built", 0)))
for l, s in sorted(r["score"].items()):
    print("%-5s score %.1f %% (%d killed of %d valid)" % (l, 100 * s["score"], s["killed"], s["valid"]))
eq = collections.Counter()
tot = collections.Counter()
for m in r["mutants"]:
    for l, res in m["results"].items():
        tot[(m["operator"], l)] += 1
        if res["status"] == "equivalent":
            eq[(m["operator"], l, "equivalent")] += 1
        if res.get("duplicate_of"):
            eq[(m["operator"], l, "duplicate")] += 1
ops = sorted({o for o, _ in tot})
print("operator: equivalent/duplicate of mutants, opt | noopt")
for o in ops:
    cells = []
    for l in ("opt", "noopt"):
        if tot[(o, l)]:
            cells.append("%d/%d of %d" % (eq[(o, l, "equivalent")], eq[(o, l, "duplicate")], tot[(o, l)]))
    print("  %-16s %s" % (o, " | ".join(cells)))
PY
	changes=()
	[ -n "${SINCE_FILE:-}" ] && changes+=("$SINCE_FILE:$SINCE_FUNC")
	if [ -n "${SINCE_AUTO:-}" ]; then
		while read -r c; do changes+=("$c"); done < <(python3 - "$work/$name-out/report.json" "$SINCE_AUTO" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
fs = sorted({(m["file"], m["function"].rsplit(".", 1)[-1]) for m in r["mutants"]
             if m.get("function") and any(res.get("benchmarks") and not res.get("inferred_from")
                                          for res in m["results"].values())})
n = min(int(sys.argv[2]), len(fs))
for i in range(n):
    f, fn = fs[i * len(fs) // n]
    print("%s:%s" % (f, fn))
PY
)
	fi
	for change in ${changes[@]+"${changes[@]}"}; do
		file=${change%%:*} fn=${change#*:}
		rm -rf "$work/$name-changed" "$work/$name-since"
		cp -r "$work/$name" "$work/$name-changed"
		python3 - "$work/$name-changed/$file" "$fn" <<'PY'
import re, sys
path, fn = sys.argv[1], sys.argv[2]
s = open(path).read()
m = re.search(r"\nfunc (\([^)]*\) )?" + re.escape(fn) + r"\b[^\n]*\{\n", s)
if not m:
    sys.exit("function %s not found in %s" % (fn, path))
s = s[:m.end()] + "\t_ = 0 // changed\n" + s[m.end():]
open(path, "w").write(s)
PY
		start=$(date +%s)
		(cd "$work/$name-changed" && "$work/perfmut" run -opt "$OPT" $EXTRA -since "$work/$name-out" -out "$work/$name-since" ./... >"$work/$name-since.log" 2>&1) || true
		again=$(( $(date +%s) - start ))
		echo "-since after changing $fn in $file: wall $again s ($(( 100 * again / (first > 0 ? first : 1) )) % of the first run), $(uptime | sed 's/.*load/load/')"
		grep -- '-since' "$work/$name-since.log" | sed 's/^perfmut: -since [^:]*: /  /' || true
		rm -rf "$work/$name-changed"
	done
done
