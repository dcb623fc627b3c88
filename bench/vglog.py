#!/usr/bin/env python3
"""Summarise a valgrind wrapper log (start end user sys rc args...) of a counted
perfmut run: processes and CPU-seconds by kind, and the wall time with 0, 1, 2+
valgrind processes running. Usage: vglog.py LOG [RUN_START RUN_END]"""
import re, sys
from collections import defaultdict

log = sys.argv[1]
# A sample runs at 2 and N+2 iterations (before 8b74339: at N and 2N).
# The long run of a benchmark's samples is the baseline's most frequent
# count above 2 (old: the smaller of the two most frequent, N, with 2N);
# runs at 2 are the short runs of samples, pre-counts and the search alike.
seen = defaultdict(lambda: defaultdict(int))
for line in open(log):
    m = re.search(r"/base/.* -test\.bench=\^(\w+)\$ -test\.benchtime=(\d+)x", line)
    if m:
        seen[m.group(1)][int(m.group(2))] += 1
runs = {}  # benchmark -> (sample runs, pre-count runs)
for b, c in seen.items():
    top = sorted(sorted(c, key=lambda n: -c[n])[:2])
    if len(top) == 2 and top[1] == 2 * top[0] and top[0] > 2 and c[top[0]] > 1:
        pre = max(top[0] >> 6, 2)
        runs[b] = ({top[0], top[1]}, {pre, 2 * pre})
    else:
        big = [n for n in c if n > 2]
        if big and c[max(big, key=lambda n: c[n])] > 1:
            N = max(big, key=lambda n: c[n]) - 2
            pre = max(N >> 6, 2)
            runs[b] = ({N + 2}, {pre + 2})
rows = []
for line in open(log):
    f = line.split()
    if len(f) < 6:
        continue
    s, e, u, sy, rc = float(f[0]), float(f[1]), float(f[2]), float(f[3]), f[4]
    args = " ".join(f[5:])
    m = re.search(r"-test\.bench=\^(\w+)\$ -test\.benchtime=(\d+)x", args)
    if not m:
        kind = "probe/version"
    else:
        b, n = m.group(1), int(m.group(2))
        sample, pre = runs.get(b, (set(), set()))
        side = "baseline" if "/base/" in args else "mutant"
        if n in sample:
            kind = side + " sample"
        elif n == 2:
            kind = "runs at 2 (short)"
        elif side == "mutant" and n in pre:
            kind = "pre-count"
        else:
            kind = side + (" search" if side == "baseline" else " other")
    rows.append((s, e, u + sy, kind, rc))
by = defaultdict(lambda: [0, 0.0, 0.0])
for s, e, c, k, rc in rows:
    by[k][0] += 1; by[k][1] += c; by[k][2] += e - s
print("%-18s %6s %10s %10s" % ("kind", "procs", "CPU-s", "wall-s"))
tot = [0, 0.0, 0.0]
for k, (n, c, w) in sorted(by.items()):
    print("%-18s %6d %10.1f %10.1f" % (k, n, c, w)); tot[0] += n; tot[1] += c; tot[2] += w
print("%-18s %6d %10.1f %10.1f" % ("total", *tot))
t0 = float(sys.argv[2]) if len(sys.argv) > 2 else min(r[0] for r in rows)
t1 = float(sys.argv[3]) if len(sys.argv) > 3 else max(r[1] for r in rows)
ev = sorted([(s, 1) for s, *_ in rows] + [(e, -1) for _, e, *_ in rows])
conc, last, share = 0, t0, defaultdict(float)
for t, d in ev:
    share[min(conc, 2)] += t - last; conc += d; last = t
share[0] += t1 - last
print("wall %.1f s: 0 running %.1f s, 1 running %.1f s, 2+ running %.1f s" % (t1 - t0, share[0], share[1], share[2]))
