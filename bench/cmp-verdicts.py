#!/usr/bin/env python3
"""cmp-verdicts.py A.json B.json [level]: compare two perfmut report.json per mutant
(status, metric, ratio of the deciding benchmark) and say whether every verdict
measured on instructions/op in both is the same."""
import json, sys

def load(path, level):
    out = {}
    for m in json.load(open(path))['mutants']:
        r = m['results'].get(level)
        if not r:
            continue
        bs = r.get('benchmarks') or []
        dec = next((x for x in bs if x.get('reject')), bs[0] if bs else None)
        ratio = '%s x%.4f' % (dec['name'], dec['ratio']) if dec and dec.get('ratio') else '-'
        out[m['id']] = dict(op=m['operator'], pos='%s:%d' % (m['file'], m['line']),
                            status=r['status'], metric=r.get('metric', ''), ratio=ratio,
                            n=max([x.get('n_mutant', 0) for x in bs] or [0]))
    return out

a, b = load(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else 'opt'), load(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else 'opt')
print('| id | operator | position | A status, metric, n, ratio | B status, metric, n, ratio | same |')
print('|---|---|---|---|---|---|')
diff = 0; instr = 0
for k in sorted(set(a) | set(b), key=lambda k: (a.get(k) or b.get(k))['pos']):
    x, y = a.get(k), b.get(k)
    if not x or not y:
        print('| %s | only in %s |' % (k, 'A' if x else 'B')); continue
    both = x['metric'] == 'instructions/op' and y['metric'] == 'instructions/op'
    same = x['status'] == y['status'] and x['metric'] == y['metric']
    instr += both
    if not same:
        diff += 1
    f = lambda v: '%s, %s, n=%d, %s' % (v['status'], v['metric'] or '-', v['n'], v['ratio'])
    print('| %s | %s | %s | %s | %s | %s |' % (k, x['op'], x['pos'], f(x), f(y), 'yes' if same else '**NO**'))
print()
print('%d mutants, %d instruction-measured in both, %d differing (status or metric)' % (len(set(a) & set(b)), instr, diff))
