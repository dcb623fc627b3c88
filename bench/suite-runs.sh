#!/usr/bin/env bash
# The test suite's reliability and speed (docs/evaluation.md, "The test
# suite"): runs `go test ./...` RUNS times, each in a fresh clone of the
# repository at REV (default HEAD), then BUSY_RUNS times more beside busy
# loops (one per core), and prints for every run its time (wall, and the
# user+sys CPU of go test and everything it started) with uptime's load,
# then the pass count of every package alone and beside the loops, and
# every failed test with its output.
# Usage: bash bench/suite-runs.sh [REV] [-- go test flags]
#   RUNS=10 BUSY_RUNS=5 (defaults) run counts; COLD=1 gives each run an
#   empty GOCACHE (a fresh machine's first run); KEEP=dir keeps each
#   run's go test -json output there (default: a temporary directory,
#   removed at the end).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=HEAD
if [ $# -gt 0 ] && [ "$1" != -- ]; then rev=$1; shift; fi
[ "${1:-}" != -- ] || shift
flags=("$@")
runs=${RUNS:-10} busy_runs=${BUSY_RUNS:-5}
busy_pids=() work= test_pid=
stop_busy() {
	local p
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
	busy_pids=()
}
cleanup() {
	# go test and its test binaries are the run's process group (set -m):
	# an interrupt stops them all, as ^C in a terminal would.
	[ -z "$test_pid" ] || { kill -INT -- -"$test_pid" 2>/dev/null || true; wait "$test_pid" 2>/dev/null || true; }
	stop_busy
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
work=$(mktemp -d)
logs=${KEEP:-$work/logs}
mkdir -p "$logs"
commit=$(git -C "$root" rev-parse --short "$rev")

# one NAME: a fresh clone, go test -json ./... in it, its times.
one() {
	local name=$1 dir=$work/$1 start end rc=0
	git clone -q "$root" "$dir/repo"
	git -C "$dir/repo" checkout -q "$commit"
	local cache=${GOCACHE:-$(go env GOCACHE)}
	[ "${COLD:-0}" != 1 ] || cache=$dir/gocache
	start=$(date +%s)
	local times=$dir/times
	set -m
	(
		cd "$dir/repo"
		TIMEFORMAT='%R %U %S'
		{ time GOCACHE=$cache go test -json "${flags[@]}" ./... >"$logs/$name.json" 2>"$logs/$name.stderr"; } 2>"$times"
	) &
	test_pid=$!
	set +m
	wait "$test_pid" || rc=$?
	test_pid=
	end=$(date +%s)
	read -r wall user sys <"$times" || true
	printf '%-8s %s exit %d: %ds wall, %.0fs user+sys CPU; %s\n' "$name" "$(date -u +%H:%M:%S)" "$rc" $((end - start)) \
		"$(echo "$user + $sys" | bc)" "$(uptime | sed 's/.*load/load/')"
	rm -rf "$dir"
}

echo "suite-runs: go test ${flags[*]} ./... at $commit, $runs runs alone then $busy_runs beside $(nproc) busy loops$([ "${COLD:-0}" = 1 ] && echo ', each with an empty GOCACHE')"
echo "start $(date -u '+%Y-%m-%d %H:%M:%S') UTC, $(nproc) cores, $(uptime | sed 's/.*load/load/')"
for i in $(seq 1 "$runs"); do one "alone$i"; done
if [ "$busy_runs" -gt 0 ]; then
	for i in $(seq 1 "$(nproc)"); do
		sh -c 'while :; do :; done' &
		busy_pids+=($!)
	done
	for i in $(seq 1 "$busy_runs"); do one "busy$i"; done
	stop_busy
fi
python3 - "$logs" <<'EOF'
import collections, glob, json, os, re, sys

logs = sys.argv[1]
count = collections.defaultdict(lambda: {"alone": [0, 0], "busy": [0, 0]})  # package -> kind -> [passes, runs]
elapsed = collections.defaultdict(lambda: {"alone": [], "busy": []})  # package -> kind -> seconds
failures = []  # (run, package, test, output)
for path in sorted(glob.glob(os.path.join(logs, "*.json")), key=lambda p: (re.sub(r"\d+", "", p), int(re.sub(r"\D", "", os.path.basename(p)) or 0))):
    run = os.path.basename(path)[:-5]
    kind = re.sub(r"\d+$", "", run)
    out = collections.defaultdict(list)
    failed = set()  # packages with a failed test in this run
    running = set()  # (package, test) started and not finished: a timeout's
    with open(path) as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            pkg, test, act = ev.get("Package", ""), ev.get("Test"), ev.get("Action")
            if act == "output":
                out[(pkg, test)].append(ev["Output"])
            elif act == "run" and test:
                running.add((pkg, test))
            elif act in ("pass", "skip") and test:
                running.discard((pkg, test))
            elif act == "fail" and test:
                running.discard((pkg, test))
                if "/" in test:
                    continue
                failed.add(pkg)
                failures.append((run, pkg, test, "".join(out[(pkg, test)][-30:])))
            elif act in ("pass", "fail") and not test:
                count[pkg][kind][1] += 1
                count[pkg][kind][0] += act == "pass"
                elapsed[pkg][kind].append(ev.get("Elapsed", 0))
                if act == "fail" and pkg not in failed:
                    unfinished = sorted(t for p, t in running if p == pkg and "/" not in t)
                    lines = [l for t in [None] + unfinished for l in out[(pkg, t)]]
                    panic = next((i for i, l in enumerate(lines) if l.startswith("panic: ")), None)
                    text = "".join(lines[panic:panic + 8] if panic is not None else lines[-20:])
                    failures.append((run, pkg, "(the package; unfinished: %s)" % " ".join(unfinished), text))
    stderr = os.path.join(logs, run + ".stderr")
    if os.path.exists(stderr) and os.path.getsize(stderr):
        failures.append((run, "-", "go test's stderr", open(stderr).read()[-2000:]))

kinds = [k for k in ("alone", "busy") if any(c[k][1] for c in count.values())]
def median(v):
    v = sorted(v)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2 if v else 0

print("\npasses per package, and its median elapsed seconds (" + ", ".join(kinds) + ")")
for pkg in sorted(count):
    print("  %-50s %s" % (pkg, "  ".join("%d of %d %6.1fs" % (count[pkg][k][0], count[pkg][k][1], median(elapsed[pkg][k])) for k in kinds)))
print("\n%d failures" % len(failures))
for run, pkg, test, text in failures:
    print("--- %s: %s %s\n%s" % (run, pkg, test, text.rstrip()))
EOF
