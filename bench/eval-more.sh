#!/usr/bin/env bash
# eval-more.sh: perfmut on modules beyond the four of bench/eval.sh, as a
# new user would run it, one campaign each; prints one row per module for
# docs/evaluation.md: packages and mutants, mutants run, wall time, the
# baseline's share (build, tests, benchmark coverage), statuses, and the
# warnings (baseline benchmarks left out, flaky tests).
#
# Usage (from the repository root):
#   bash bench/eval-more.sh [MODULE@VERSION[:PATTERN]...]
#   SAMPLE=n   mutants per campaign (default 12; 0 = all)
#   OPT=on     -opt level(s)
#   EVAL=dir   work directory (default $TMPDIR/perfmut-eval-more)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mods=("$@")
[ ${#mods[@]} -gt 0 ] || mods=(github.com/emirpasic/gods@v1.18.1 github.com/hashicorp/golang-lru/v2@v2.0.7
	github.com/gammazero/deque@v1.0.0 github.com/google/uuid@v1.6.0 "golang.org/x/text@v0.21.0:./runes ./cases")
SAMPLE=${SAMPLE:-12}; OPT=${OPT:-on}
EVAL=${EVAL:-${TMPDIR:-/tmp}/perfmut-eval-more}
mkdir -p "$EVAL"
(cd "$root" && go build -o "$EVAL/perfmut" ./cmd/perfmut)
echo "$(uptime | sed 's/.*load/load/'); -opt $OPT, -sample $SAMPLE"
for spec in "${mods[@]}"; do
	mv=${spec%%:*}; pats=./...; [[ $spec == *:* ]] && pats=${spec#*:}
	name=$(echo "${mv%@*}" | tr '/' '_')
	dir=$(go mod download -json "$mv" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	rm -rf "$EVAL/$name" "$EVAL/out-$name"; cp -r "$dir" "$EVAL/$name"; chmod -R u+w "$EVAL/$name"
	# shellcheck disable=SC2086
	total=$(cd "$EVAL/$name" && "$EVAL/perfmut" list $pats 2>/dev/null | grep -E '^[0-9]+ mutants? in' | cut -d' ' -f1)
	start=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$EVAL/$name" && "$EVAL/perfmut" run -opt "$OPT" -sample "$SAMPLE" -out "$EVAL/out-$name" $pats >"$EVAL/log-$name" 2>&1) || true
	wall=$(( $(date +%s) - start ))
	python3 - "$EVAL" "$name" "$mv" "$wall" "$pats" "${total:-?}" <<'EOF'
import json, re, sys, collections
ev, name, mv, wall, pats, total = sys.argv[1:]
log = open(f"{ev}/log-{name}").read()
try:
    r = json.load(open(f"{ev}/out-{name}/report.json"))
except Exception:
    last = [l for l in log.splitlines() if l.strip()][-1:]
    print(f"| {mv} `{pats}` | - | {wall}s | failed: {last[0] if last else '?'} |")
    sys.exit(0)
st = collections.Counter(res["status"] for m in r["mutants"] for res in m["results"].values())
cov = re.search(r"benchmark coverage done in (\S+)", log)
meas = re.search(r"measurement ([0-9hms]+)\)", log)
ph = r.get("phases", {})
inf = sum(p.get("inferred", 0) for p in ph.values())
stat = ", ".join(f"{v} {k}" for k, v in sorted(st.items()))
warn = "; ".join(r.get("warnings") or []) or "none"
print(f"| {mv} `{pats}` | {len(r['mutants'])} of {total} | {wall}s (coverage {cov.group(1) if cov else '-'}, measurement {meas.group(1) if meas else '-'}) | {stat}; {inf} inferred | {warn} |")
EOF
done
