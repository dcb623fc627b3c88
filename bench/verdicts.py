#!/usr/bin/env python3
"""Reads perfmut report.json files and benchstat output for bench/oracle.sh
and bench/stability.sh.

  verdicts.py borderline REPORT [RATIO]
      one line per borderline verdict: ID LEVEL STATUS RATIO UPPER N OPERATOR
      POSITION (a measured kill whose sec/op rejecting tests all have a
      median ratio below RATIO, default 1.3; every measured survivor; every
      undecided). RATIO is the largest rejecting (else any) sec/op median
      ratio, UPPER the largest 95 % upper bound of the per-round ratios
      (- where the report has none), N the samples of each side.
  verdicts.py judge REPORT ID LEVEL CSV
      benchstat's call on one verdict, from `benchstat -format csv` output
      (the rows judged: sec/op, and B/op or allocs/op where the kill rests
      on them): VERDICT<TAB>KEY ROW<TAB>HOLM VERDICT, where VERDICT is agree
      or disagree (killed <=> some judged row slower at p < 0.05, benchstat's
      own call; survived <=> none), or (STATUS: slower|~) for another
      status, and HOLM the same with Holm's correction over the judged rows.
  verdicts.py summary ROWS...
      the agreement of oracle runs from their tab-separated rows (ID LEVEL
      STATUS ... VERDICT HOLM; bench/oracle.sh writes RESULTS/oracle.tsv),
      all files together: overall, for kills and for survivals, with and
      without Holm's correction; undecided and errors counted apart.
  verdicts.py spread FILE...
      per benchmark of each benchmark file (go test output), its sec/op
      samples: count, median, min, max, max/min, and the share of samples
      above twice the median (a second mode or load spikes); for two
      files (reproduce's base.txt and mut.txt, whose i-th samples ran in one
      round, next to each other) also the per-round ratios: their median,
      the rounds in which the mutant was slower and the sign test's p.
  verdicts.py stability RUN1 RUN... [--busy BUSY]
      each run's statuses; agreement of the decided verdicts (killed,
      survived) of the runs among those decided in every run, in at least
      two runs and in one run at least; flips by kind against RUN1; the
      flips of BUSY against RUN1 and the kills of RUN1 that are plain
      survivors in BUSY.
"""
import collections
import csv
import json
import math
import re
import statistics
import sys

DECIDED = ("killed", "survived")


def load(path):
    with open(path) as f:
        rep = json.load(f)
    out = {}
    for m in rep["mutants"]:
        for level, lr in (m.get("results") or {}).items():
            out[(m["id"], level)] = (m, lr)
    return out


def measured(lr):
    """A result perfmut measured itself (not inferred, not a duplicate's)."""
    return bool(lr.get("iterations")) and not lr.get("inferred_from") and not lr.get("duplicate_of")


def sec_tests(lr):
    return [t for t in lr.get("benchmarks") or [] if t["metric"] == "sec/op"]


def kill_ratio(lr):
    """The largest median ratio among the rejecting sec/op tests, or None."""
    rs = [t["ratio"] for t in sec_tests(lr) if t.get("reject")]
    return max(rs) if rs else None


def best_ratio(lr):
    rs = [t["ratio"] for t in sec_tests(lr)]
    return max(rs) if rs else float("nan")


def upper(lr):
    us = [t["ratio_upper"] for t in sec_tests(lr) if t.get("ratio_upper")]
    return "%.3f" % max(us) if us else "-"


def samples_n(lr):
    ns = [t.get("n_mutant", 0) for t in sec_tests(lr)]
    return max(ns) if ns else 0


def borderline(path, limit=1.3):
    for (mid, level), (m, lr) in sorted(load(path).items()):
        st = lr["status"]
        if not measured(lr) and st != "undecided":
            continue
        if st == "killed":
            r = kill_ratio(lr)
            if r is None or r >= limit:
                continue
        elif st not in ("survived", "undecided"):
            continue
        else:
            r = best_ratio(lr)
        print(mid, level, st, "%.3f" % r, upper(lr), samples_n(lr), m["operator"], "%s:%d" % (m["file"], m["line"]))


def benchstat_rows(path):
    """The rows of `benchstat -format csv`: (name, unit, base, mut, delta, p)."""
    rows, unit = [], None
    with open(path, newline="") as f:
        for rec in csv.reader(f):
            if not rec or not any(rec):
                unit = None
                continue
            if rec[0] == "" and len(rec) > 1 and rec[1] not in ("", "CI") and rec[2] == "CI":
                unit = rec[1]
                continue
            if unit is None or rec[0] in ("", "geomean") or len(rec) < 7:
                continue
            m = re.match(r"p=([0-9.]+)", rec[6])
            if not m:
                continue
            rows.append((rec[0], unit, float(rec[1]), float(rec[3]), rec[5], float(m.group(1))))
    return rows


def slower(row):
    """benchstat's own call: a delta shown (p below alpha) and positive."""
    return row[4].startswith("+")


def holm_slower(rows, alpha=0.05):
    """The rows slower under Holm's step-down correction over rows."""
    out = []
    for i, r in enumerate(sorted(rows, key=lambda r: r[5])):
        if r[5] * (len(rows) - i) > alpha:
            break
        if r[3] > r[2]:
            out.append(r)
    return out


def row_str(r):
    return "%s %s %s p=%.3f" % (r[0], r[1], r[4], r[5])


def call(status, is_slower):
    if status == "killed":
        return "agree" if is_slower else "disagree"
    if status == "survived":
        return "disagree" if is_slower else "agree"
    return "(%s: %s)" % (status, "slower" if is_slower else "~")


def judge(report, mid, level, csv_path):
    m, lr = load(report)[(mid, level)]
    units = {"sec/op"} | {t["metric"] for t in lr.get("benchmarks") or [] if t.get("reject")}
    rows = [r for r in benchstat_rows(csv_path) if r[1] in units]
    if not rows:
        print("(no rows)\tbenchstat has no benchmark to compare\t(no rows)")
        return
    slow = [r for r in rows if slower(r)]
    key = min(slow or [r for r in rows if r[1] == "sec/op"] or rows, key=lambda r: r[5])
    print("%s\t%s\t%s" % (call(lr["status"], bool(slow)), row_str(key), call(lr["status"], bool(holm_slower(rows)))))


def pct(a, b):
    return "%d of %d (%.0f %%)" % (a, b, 100.0 * a / b) if b else "none"


def oracle_rows(paths):
    """The (status, verdict, holm) of every row of the oracle files."""
    for p in paths:
        with open(p) as f:
            for line in f:
                fs = line.rstrip("\n").split("\t")
                st, verdict, holm = fs[2], fs[-2], fs[-1]
                if st in DECIDED and verdict not in ("agree", "disagree"):
                    st = "%s, not compared" % st  # an error, or no benchmark to compare
                yield st, verdict, holm


def summary(paths):
    by = collections.defaultdict(collections.Counter)
    for st, verdict, holm in oracle_rows(paths):
        by[st]["all"] += 1
        by[st]["agree"] += verdict == "agree"
        by[st]["holm"] += holm == "agree"
        by[st]["slower"] += "slower" in verdict
        by[st]["run"] += "not run" not in verdict and "error" not in verdict
    dec = [by["killed"], by["survived"]]
    n = sum(c["all"] for c in dec)
    print("agreement (benchstat's call per row, as reproduce's closing line): %s; kills %s, survivals %s"
          % (pct(sum(c["agree"] for c in dec), n), pct(by["killed"]["agree"], by["killed"]["all"]),
             pct(by["survived"]["agree"], by["survived"]["all"])))
    print("agreement with Holm's correction over each mutant's benchmarks: %s; kills %s, survivals %s"
          % (pct(sum(c["holm"] for c in dec), n), pct(by["killed"]["holm"], by["killed"]["all"]),
             pct(by["survived"]["holm"], by["survived"]["all"])))
    others = {st: c["all"] for st, c in by.items() if st not in DECIDED}
    print("not counted: %s" % (", ".join("%s %d" % kv for kv in sorted(others.items())) or "none"))
    if by["undecided"]["run"]:
        print("undecided that benchstat finds slower: %d of %d reproduced" % (by["undecided"]["slower"], by["undecided"]["run"]))


def bench_values(path):
    vals = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            fs = line.split()
            if len(fs) >= 4 and fs[0].startswith("Benchmark") and fs[3] == "ns/op":
                vals[fs[0]].append(float(fs[2]))
    return vals


def spread(paths):
    print("%-44s %-10s %3s %10s %10s %10s %7s %s" % ("BENCHMARK", "FILE", "N", "MEDIAN", "MIN", "MAX", "MAX/MIN", ">2xMED"))
    for p in paths:
        for name, vs in sorted(bench_values(p).items()):
            med = statistics.median(vs)
            print("%-44s %-10s %3d %10.1f %10.1f %10.1f %7.2f %d" % (name, p.rsplit("/", 1)[-1], len(vs), med, min(vs),
                                                                    max(vs), max(vs) / min(vs), sum(v > 2 * med for v in vs)))


def sign_p(k, n):
    """The two-sided exact sign test's p-value of k successes in n."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1)) / 2.0 ** n
    return min(1.0, 2 * tail)


def paired(base, mut):
    """Per benchmark, the rounds of reproduce paired (the i-th sample of each
    side ran next to each other): the median per-round ratio, the rounds in
    which the mutant was slower and the sign test's p of that count."""
    b, m = bench_values(base), bench_values(mut)
    print("%-44s %6s %12s %s" % ("PAIRED BY ROUND", "ROUNDS", "MEDIAN RATIO", "MUTANT SLOWER IN"))
    for name in sorted(set(b) & set(m)):
        rs = [y / x for x, y in zip(b[name], m[name]) if x > 0]
        k = sum(r > 1 for r in rs)
        print("%-44s %6d %12.3f %d of %d (sign test p=%.3f)" % (name, len(rs), statistics.median(rs), k, len(rs), sign_p(k, len(rs))))


def flips(ref, run):
    kinds = collections.Counter()
    for k, (_, lr) in ref.items():
        if k in run:
            a, b = lr["status"], run[k][1]["status"]
            if a != b and (a in DECIDED or b in DECIDED):
                kinds["%s->%s" % (a, b)] += 1
    return kinds


def status_line(rep):
    c = collections.Counter(lr["status"] for _, lr in rep.values())
    return ", ".join("%s %d" % kv for kv in sorted(c.items()))


def agreement_lines(reps, keys):
    def st(r, k):
        return r[k][1]["status"]

    def one_decision(k):
        return len({st(r, k) for r in reps if st(r, k) in DECIDED}) == 1

    always = [k for k in keys if all(st(r, k) in DECIDED for r in reps)]
    same = [k for k in always if len({st(r, k) for r in reps}) == 1]
    print("decided in every run: %d; the same verdict in every run: %s" % (len(always), pct(len(same), len(always))))
    two = [k for k in keys if sum(st(r, k) in DECIDED for r in reps) >= 2]
    print("decided in at least two runs: %d; the same decision wherever decided: %s; killed in one, survived in another: %d"
          % (len(two), pct(sum(map(one_decision, two)), len(two)), len(two) - sum(map(one_decision, two))))
    one = [k for k in keys if any(st(r, k) in DECIDED for r in reps)]
    ident = [k for k in one if len({st(r, k) for r in reps}) == 1]
    print("decided in one run at least: %d; identical status in every run: %s; the same decision wherever decided: %s"
          % (len(one), pct(len(ident), len(one)), pct(sum(map(one_decision, one)), len(one))))
    return one, ident


def stability(paths, busy_path=None):
    reps = [load(p) for p in paths]
    keys = set(reps[0])
    for r in reps[1:]:
        keys &= set(r)
    print("runs: %d; mutant-levels in every run: %d" % (len(reps), len(keys)))
    for i, r in enumerate(reps, 1):
        print("run %d: %s" % (i, status_line(r)))
    one, ident = agreement_lines(reps, keys)
    for i, r in enumerate(reps[1:], 2):
        f = flips(reps[0], r)
        print("run %d against run 1: %s" % (i, ", ".join("%s %d" % kv for kv in sorted(f.items())) or "no flips"))
    for k in sorted(set(one) - set(ident)):
        print("  changed: %s %s %s %s: %s" % (k[0], k[1], reps[0][k][0]["operator"],
                                             "%s:%d" % (reps[0][k][0]["file"], reps[0][k][0]["line"]),
                                             " ".join(r[k][1]["status"] for r in reps)))
    if busy_path:
        busy = load(busy_path)
        print("beside busy loops: %s" % status_line(busy))
        f = flips(reps[0], busy)
        print("beside busy loops against run 1: %s" % (", ".join("%s %d" % kv for kv in sorted(f.items())) or "no flips"))
        lost = [k for k in keys if reps[0][k][1]["status"] == "killed" and k in busy and busy[k][1]["status"] == "survived"]
        print("killed in run 1, plain survived beside busy loops: %d" % len(lost))
        for k in sorted(lost):
            print("  %s %s" % k)


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "borderline" and args:
        borderline(args[0], float(args[1]) if len(args) > 1 else 1.3)
    elif cmd == "judge" and len(args) == 4:
        judge(*args)
    elif cmd == "summary" and args:
        summary(args)
    elif cmd == "spread" and args:
        spread(args)
        if len(args) == 2:
            paired(*args)
    elif cmd == "stability" and args:
        busy = None
        if "--busy" in args:
            i = args.index("--busy")
            busy, args = args[i + 1], args[:i] + args[i + 2:]
        stability(args, busy)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
