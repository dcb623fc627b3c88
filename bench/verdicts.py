#!/usr/bin/env python3
"""Reads perfmut report.json files for bench/oracle.sh and bench/stability.sh.

  verdicts.py borderline REPORT [RATIO]
      one line per borderline verdict: ID LEVEL STATUS RATIO OPERATOR POSITION
      (a measured kill whose sec/op rejecting tests all have a median ratio
      below RATIO, default 1.3; every measured survivor; every undecided)
  verdicts.py stability REF RUN... [--busy BUSY]
      agreement of the decided verdicts (killed, survived) of REF and the
      RUNs (among those decided in one run at least, and among those decided
      in every run), flips by kind against REF, and the flips of BUSY
      against REF
"""
import collections
import json
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


def kill_ratio(lr):
    """The largest median ratio among the rejecting sec/op tests, or None."""
    rs = [t["ratio"] for t in lr.get("benchmarks") or [] if t.get("reject") and t["metric"] == "sec/op"]
    return max(rs) if rs else None


def best_ratio(lr):
    rs = [t["ratio"] for t in lr.get("benchmarks") or [] if t["metric"] == "sec/op"]
    return max(rs) if rs else float("nan")


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
        print(mid, level, st, "%.3f" % r, m["operator"], "%s:%d" % (m["file"], m["line"]))


def flips(ref, run):
    kinds = collections.Counter()
    for k, (_, lr) in ref.items():
        if k in run:
            a, b = lr["status"], run[k][1]["status"]
            if a != b and (a in DECIDED or b in DECIDED):
                kinds["%s->%s" % (a, b)] += 1
    return kinds


def stability(ref_path, run_paths, busy_path=None):
    reps = [load(p) for p in [ref_path] + run_paths]
    keys = set(reps[0])
    for r in reps[1:]:
        keys &= set(r)
    decided = [k for k in keys if any(r[k][1]["status"] in DECIDED for r in reps)]
    same = [k for k in decided if len({r[k][1]["status"] for r in reps}) == 1]
    print("runs: %d; mutant-levels in every run: %d; decided (killed or survived) in at least one: %d"
          % (len(reps), len(keys), len(decided)))
    if decided:
        print("identical in every run: %d of %d (%.1f %%)" % (len(same), len(decided), 100.0 * len(same) / len(decided)))
    always = [k for k in keys if all(r[k][1]["status"] in DECIDED for r in reps)]
    if always:
        agree = [k for k in always if len({r[k][1]["status"] for r in reps}) == 1]
        print("decided in every run: %d; the same verdict in every run: %d (%.1f %%); killed in one, survived in another: %d"
              % (len(always), len(agree), 100.0 * len(agree) / len(always), len(always) - len(agree)))
    for i, r in enumerate(reps[1:], 2):
        f = flips(reps[0], r)
        print("run %d against run 1: %s" % (i, ", ".join("%s %d" % kv for kv in sorted(f.items())) or "no flips"))
    for k in sorted(set(decided) - set(same)):
        print("  flipped: %s %s: %s" % (k[0], k[1], " ".join(r[k][1]["status"] for r in reps)))
    if busy_path:
        busy = load(busy_path)
        f = flips(reps[0], busy)
        print("beside busy loops against run 1: %s" % (", ".join("%s %d" % kv for kv in sorted(f.items())) or "no flips"))
        lost = [k for k in keys if reps[0][k][1]["status"] == "killed" and k in busy and busy[k][1]["status"] == "survived"]
        print("killed in run 1, plain survived beside busy loops: %d" % len(lost))
        for k in sorted(lost):
            print("  %s %s" % k)


def main(argv):
    if len(argv) >= 2 and argv[0] == "borderline":
        borderline(argv[1], float(argv[2]) if len(argv) > 2 else 1.3)
    elif len(argv) >= 2 and argv[0] == "stability":
        args, busy = argv[1:], None
        if "--busy" in args:
            i = args.index("--busy")
            busy, args = args[i + 1], args[:i] + args[i + 2:]
        stability(args[0], args[1:], busy)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
