#!/usr/bin/env python3
"""Summarizes bench/eval.sh's results as the Markdown tables of docs/evaluation.md.

Usage: python3 bench/evalsummary.py EVALDIR name...
Reads EVALDIR/meta/<name>.* (written by eval.sh) and EVALDIR/out/<name>/report.json.
"""
import collections
import json
import os
import re
import statistics
import sys

STATUSES = ["killed", "survived", "no-coverage", "compile-error", "fne", "timeout", "crash"]


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def generated(text):
    # The go command's rule: a line "// Code generated ... DO NOT EDIT." before the package clause.
    for line in text.splitlines():
        if line.startswith("package "):
            return False
        if re.match(r"^// Code generated .* DO NOT EDIT\.$", line):
            return True
    return False


def loc(files):
    code = gen = 0
    for path in files:
        text = read(path)
        n = sum(1 for line in text.splitlines() if line.strip())
        if generated(text):
            gen += n
        else:
            code += n
    return code, gen


def main():
    ev, names = sys.argv[1], sys.argv[2:]
    meta = lambda name, ext: os.path.join(ev, "meta", "%s.%s" % (name, ext))
    reports = {}
    for name in names:
        p = os.path.join(ev, "out", name, "report.json")
        if os.path.exists(p):
            reports[name] = json.load(open(p))

    print("## Modules (Table II)\n")
    print("Non-blank lines of the .go files the go command builds (build tags applied); generated files apart.\n")
    print("| module | packages | code LOC | generated LOC | test LOC | mutants | generation (list) | type-check (list -check) | failing type-check | go test |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    per_op = collections.OrderedDict()
    for name in names:
        gofiles = [l for l in read(meta(name, "gofiles")).splitlines() if l]
        testfiles = [l for l in read(meta(name, "testfiles")).splitlines() if l]
        code, gen = loc(gofiles)
        tcode, _ = loc(testfiles)
        pkgs = len({os.path.dirname(f) for f in gofiles})
        try:
            ms = json.loads(read(meta(name, "list.json"), "[]") or "[]")
        except json.JSONDecodeError:
            ms = []
        ops = collections.Counter(m["operator"] for m in ms)
        per_op[name] = ops
        chk = read(meta(name, "check.txt"))
        fails = collections.Counter()
        for line in chk.splitlines():
            m = re.match(r"^FAIL \S+ (\S+) ", line)
            if m:
                fails[m.group(1)] += 1
        nfail = sum(fails.values())
        chk_s = read(meta(name, "check.seconds")).strip()
        failtxt = "%d (%s)" % (nfail, ", ".join("%s %d" % kv for kv in sorted(fails.items()))) if nfail else ("0" if chk_s else "-")
        gt = read(meta(name, "gotest"))
        gtok = "ok" if gt and "FAIL" not in gt else ("FAIL" if gt else "-")
        print("| %s | %d | %d | %d | %d | %d | %ss | %s | %s | %s |" % (
            read(meta(name, "module")).strip() or name, pkgs, code, gen, tcode, len(ms),
            read(meta(name, "list.seconds")).strip() or "-", (chk_s + "s") if chk_s else "-", failtxt, gtok))
    ops = sorted({op for c in per_op.values() for op in c})
    print("\n### Mutants per operator (all generated, before sampling)\n")
    print("| operator | " + " | ".join(names) + " | total |")
    print("|---|" + "---|" * (len(names) + 1))
    for op in ops:
        row = [per_op[n].get(op, 0) for n in names]
        print("| %s | %s | %d |" % (op, " | ".join(map(str, row)), sum(row)))
    tot = [sum(per_op[n].values()) for n in names]
    print("| **all** | %s | %d |" % (" | ".join(map(str, tot)), sum(tot)))

    print("\n## Campaigns (sampled)\n")
    print("| module | mutants run | settings | wall time | measurement | statuses opt | statuses noopt | valid share opt / noopt | score opt / noopt (covered only) |")
    print("|---|---|---|---|---|---|---|---|---|")
    allcount = {"opt": collections.Counter(), "noopt": collections.Counter()}
    for name in names:
        r = reports.get(name)
        if not r:
            print("| %s | - | no report.json | | | | | | |" % name)
            continue
        s = r["settings"]
        err = read(meta(name, "run.err"))
        m = re.search(r"done in (\S+) \(measurement (\S+)\)", err)
        wall, meas = (m.group(1), m.group(2)) if m else (read(meta(name, "run.seconds")).strip() + "s", "-")
        cells = {}
        shares = {}
        scores = {}
        for lvl in ("opt", "noopt"):
            c = collections.Counter(mu["results"][lvl]["status"] for mu in r["mutants"] if lvl in mu["results"])
            allcount[lvl].update(c)
            n = sum(c.values())
            if n == 0:
                cells[lvl], shares[lvl], scores[lvl] = "-", "-", "-"
                continue
            cells[lvl] = ", ".join("%s %d" % (st, c[st]) for st in STATUSES if c[st])
            valid = c["killed"] + c["survived"] + c["no-coverage"]
            shares[lvl] = "%.0f%%" % (100.0 * valid / n)
            sc = r["score"].get(lvl, {})
            scores[lvl] = "%.0f%% (%.0f%%)" % (100 * sc.get("score", 0), 100 * sc.get("covered_score", 0))
        print("| %s | %d of %d | -sample %s -benchtime %s -max-samples %s -alpha %s | %s | %s | %s | %s | %s / %s | %s / %s |" % (
            name, len(r["mutants"]), sum(per_op.get(name, {}).values()), s.get("sample", 0), s["benchtime"], s["max_samples"], s["alpha"],
            wall, meas, cells["opt"], cells["noopt"], shares["opt"], shares["noopt"], scores["opt"], scores["noopt"]))
    for lvl in ("opt", "noopt"):
        c = allcount[lvl]
        n = sum(c.values())
        if n:
            valid = c["killed"] + c["survived"] + c["no-coverage"]
            print("\nAll modules, %s: %d mutants, valid %d (%.1f%%; the paper: 76.6%%): %s" % (
                lvl, n, valid, 100.0 * valid / n, ", ".join("%s %d" % (st, c[st]) for st in STATUSES if c[st])))

    print("\n## Scores per operator, level and alpha (Fig. 4)\n")
    print("killed/valid at alpha 0.01 | 0.05 | 0.1 (valid = killed + survived + no-coverage), all sampled modules together and per module.\n")
    agg = collections.defaultdict(lambda: [0, 0])
    rows_by_mod = collections.defaultdict(dict)
    alphas = set()
    for name, r in reports.items():
        for row in (r.get("summary") or {}).get("rows", []):
            if row["dimension"] != "operator":
                continue
            a = row["alpha"]
            alphas.add(a)
            k = (row["key"], row["level"], a)
            agg[k][0] += row["killed"]
            agg[k][1] += row["valid"]
            rows_by_mod[name][k] = (row["killed"], row["valid"])
    alphas = [a for a in (0.01, 0.05, 0.1) if a in alphas]
    opkeys = sorted({k[0] for k in agg})
    hdr = "| operator | level | " + " | ".join("a=%g" % a for a in alphas) + " | " + " | ".join(names) + " (a=0.05) |"
    print(hdr)
    print("|---|---|" + "---|" * (len(alphas) + len(names)))
    for op in opkeys:
        for lvl in ("opt", "noopt"):
            if not any((op, lvl, a) in agg for a in alphas):
                continue
            cells = []
            for a in alphas:
                k, v = agg.get((op, lvl, a), (0, 0))
                cells.append("%d/%d" % (k, v) + (" (%.0f%%)" % (100.0 * k / v) if v else ""))
            mods = []
            for n in names:
                kv = rows_by_mod[n].get((op, lvl, 0.05))
                mods.append("%d/%d" % kv if kv else "-")
            print("| %s | %s | %s | %s |" % (op, lvl, " | ".join(cells), " | ".join(mods)))

    print("\n## Build time per mutant (by hand: scratch copy, patch, go test -c, warm cache)\n")
    print("| module | level | mutants | unmutated (cached) median | mutant build median | max |")
    print("|---|---|---|---|---|---|")
    for name in names:
        rows = [l.split() for l in read(meta(name, "builds")).splitlines() if l.strip()]
        for lvl in ("opt", "noopt"):
            xs = [(float(a), float(b)) for _, l, a, b in rows if l == lvl]
            if xs:
                print("| %s | %s | %d | %.2fs | %.2fs | %.2fs |" % (name, lvl, len(xs), statistics.median(a for a, _ in xs),
                                                            statistics.median(b for _, b in xs), max(b for _, b in xs)))
    q3 = read(os.path.join(ev, "meta", "q3overhead.txt"))
    if q3:
        print("\n## Q3 overhead (bench/q3overhead.sh)\n")
        print(q3.strip())
    cal = read(os.path.join(ev, "meta", "calibrate.out"))
    if cal:
        print("\n## Calibration (perfmut calibrate)\n")
        print("```\n" + cal.strip() + "\n" + read(os.path.join(ev, "meta", "calibrate.err")).strip()[-3000:] + "\n```")


if __name__ == "__main__":
    main()
