#!/usr/bin/env bash
# The minimal overhead of each Q3 operator's injected code (the SlowCoach
# paper's Table III) and of the concurrency operators' changes per execution
# of a site, serial and parallel, with optimizations and without
# (-gcflags=all=-N -l).
# Runs bench/q3overhead's benchmarks COUNT times per level and prints, per
# mutant, the median ns per loop iteration and the overhead over the
# baseline loop. Usage: bash bench/q3overhead.sh [count] [benchtime]
# OUT=dir keeps the raw benchmark output (opt.txt, noopt.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5}
bt=${2:-200ms}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
go test -count=1 -run TestGenerated ./bench/q3overhead >/dev/null # the variants are today's operator output
go test -run '^$' -bench . -benchtime "$bt" -count "$count" ./bench/q3overhead >"$out/opt.txt"
go test -run '^$' -bench . -benchtime "$bt" -count "$count" -gcflags=all='-N -l' ./bench/q3overhead >"$out/noopt.txt"
python3 - "$out/opt.txt" "$out/noopt.txt" "$count" <<'PY'
import re, statistics, sys
def load(path):
    res = {}
    for line in open(path):
        m = re.match(r'^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$', line)
        if not m:
            continue
        f = m.group(2).split()
        vals = {f[i + 1]: float(f[i]) for i in range(0, len(f) - 1, 2)}
        res.setdefault(m.group(1), []).append(vals)
    return {k: {u: statistics.median(v[u] for v in vs) for u in vs[0]} for k, vs in res.items()}
opt, noopt = load(sys.argv[1]), load(sys.argv[2])
def fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= div:
            return "%.3g %s" % (ns / div, unit)
    return "%.3g ns" % ns
for group in ("BenchmarkOverhead", "BenchmarkParallel", "BenchmarkSites", "BenchmarkSitesParallel"):
    sites = group.startswith("BenchmarkSites")
    names = [k for k in opt if k.startswith(group + "/")]
    if sites:  # group/Function/operator[/params]: each function's baseline first
        order = []
        for k in names:
            fn = k.split("/")[1]
            if fn not in order:
                order.append(fn)
        names.sort(key=lambda k: (order.index(k.split("/")[1]), not k.endswith("/baseline")))
    unit = "execution of the site" if sites else "loop iteration"
    print("%s: median of %s runs; overhead = mutant - baseline, per %s:\n" % (group, sys.argv[3], unit))
    print("| %-44s | %12s | %12s | %12s | %12s | %8s |" % ("variant", "opt ns/it", "opt overhead", "noopt ns/it", "noopt overh.", "B/it"))
    print("|" + "|".join("-" * (w + 2) for w in (44, 12, 12, 12, 12, 8)) + "|")
    for k in names:
        base = group + "/" + k.split("/")[1] + "/baseline" if sites else group + "/baseline"
        o, n = opt[k]["ns/op"], noopt[k]["ns/op"]
        print("| %-44s | %12s | %12s | %12s | %12s | %8s |" % (
            k[len(group) + 1:], fmt(o), fmt(o - opt[base]["ns/op"]) if k != base else "-",
            fmt(n), fmt(n - noopt[base]["ns/op"]) if k != base else "-",
            "%g" % opt[k].get("B/op", 0)))
    print()
PY
echo "raw output: $out/opt.txt $out/noopt.txt"
