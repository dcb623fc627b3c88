# fixture.py generates report.json, the hand-made fixture of the report tests:
# a realistic campaign (every status, both levels, several operators, seeded
# samples) whose p-values are exact one-sided KS p-values (equal sample sizes:
# P(D+ >= k/n) = C(2n, n-k) / C(2n, n)) with Holm over each mutant's tests.
# Regenerate: python3 internal/report/testdata/fixture.py > internal/report/testdata/report.json
# then go test ./internal/report -update (the goldens change with it).
import json, random, math
from math import comb
random.seed(7)
def ks(base, mut):
    n, m = len(base), len(mut)
    assert n == m
    xs = sorted(set(base+mut))
    d = 0.0
    for x in xs:
        fb = sum(1 for v in base if v <= x)/n
        fm = sum(1 for v in mut if v <= x)/m
        d = max(d, fb-fm)
    k = round(d*n)
    p = comb(2*n, n-k)/comb(2*n, n) if k > 0 else 1.0
    return k/n, p
def med(a):
    s = sorted(a); n = len(s)
    return s[n//2] if n % 2 else (s[n//2-1]+s[n//2])/2
def boot(base, mut, rng):
    rs = []
    for _ in range(1000):
        b = [rng.choice(base) for _ in base]; m = [rng.choice(mut) for _ in mut]
        rs.append(med(m)/med(b))
    rs.sort()
    return rs[25], rs[974]
def samples(center, noise, n, rng, integer=False):
    out = []
    for _ in range(n):
        v = center*(1+rng.gauss(0, noise))
        if integer: v = float(round(center))
        out.append(float('%.4g' % v))
    return out
alpha = 0.05
levels = ["opt", "noopt"]
base_ns = {"Lower": 1.52e-6, "IndexByte": 4.1e-8, "Split": 3.2e-7, "Next": 2.05e-7, "Parse": 8.7e-6}
noopt_factor = 2.7
mutants = []
def M(id, op, q, params, pkg, file, line, col, fn, desc, diff, results):
    mutants.append(dict(id=id, operator=op, quadrant=q, params=params, package=pkg, file=file, line=line, column=col,
                        function=fn, description=desc, diff=diff, results=results))
def meas(mid, level, specs, seed, minEffect=0):
    # specs: list of (bench, metric, basecenter, ratio, noise, n, integer)
    rng = random.Random(seed)
    tests, sets = [], []
    for (b, metric, c, ratio, noise, n, integer) in specs:
        base = samples(c, noise, n, rng, integer)
        mut = samples(c*ratio, noise, n, rng, integer)
        d, p = ks(base, mut)
        r = med(mut)/med(base)
        lo, hi = boot(base, mut, rng) if not integer else (r, r)
        tests.append(dict(name=b, metric=metric, d=round(d, 6), p=float('%.6g' % p), p_adj=0.0, ratio=round(r, 4), ratio_lo=round(lo, 4), ratio_hi=round(hi, 4),
                          n_baseline=n, n_mutant=n, reject=False))
        sets.append(dict(name=b, metric=metric, baseline=base, mutant=mut,
                         files=["samples/%s/%s/base.txt" % (mid, level), "samples/%s/%s/mut.txt" % (mid, level)]))
    # holm
    order = sorted(range(len(tests)), key=lambda i: tests[i]["p"])
    k = len(tests); running = 0
    for rank, i in enumerate(order):
        adj = min(1.0, (k-rank)*tests[i]["p"]); running = max(running, adj)
        tests[i]["p_adj"] = float('%.6g' % running)
    for t in tests:
        t["reject"] = t["p_adj"] <= alpha and t["ratio"] > 1
    st = "killed" if any(t["reject"] for t in tests) else "survived"
    return st, tests, sets

def res(status, reason=None, tests=None, sets=None, secs=0.0):
    r = dict(status=status)
    if reason: r["reason"] = reason
    r["benchmarks"] = tests or []
    if sets: r["samples"] = sets
    r["seconds"] = secs
    return r

def both(mid, specs_by_level, seed, secs):
    out = {}
    for i, lv in enumerate(levels):
        st, t, s = meas(mid, lv, specs_by_level[lv], seed+i)
        out[lv] = res(st, None, t, s, secs[i])
    return out

def spec(level, items):
    f = 1 if level == "opt" else noopt_factor
    return [(b, metric, (c*f if metric == "sec/op" else c), r, noise, n, integer) for (b, metric, c, r, noise, n, integer) in items]

D_SPIN = """--- a/textutil/lower.go
+++ b/textutil/lower.go
@@ -11,6 +11,7 @@
 func Lower(s string) string {
 	var b strings.Builder
 	for i := 0; i < len(s); i++ {
+		perfmut_spin(100000)
 		c := s[i]
 		if 'A' <= c && c <= 'Z' {
 			c += 'a' - 'A'
"""
M("3f9c2a1b7d04", "spin-loop", "Q3", {"iterations": 100000}, "example.com/demo/textutil", "textutil/lower.go", 14, 3, "Lower",
  "spin 100000 iterations at the start of the loop body", D_SPIN,
  {lv: None for lv in levels})
mutants[-1]["results"] = both("3f9c2a1b7d04", {lv: spec(lv, [("BenchmarkLower", "sec/op", 1.52e-6, 3.4, 0.02, 8, False)]) for lv in levels}, 11, [4.8, 6.1])

D_SLEEP = D_SPIN.replace("perfmut_spin(100000)", "time.Sleep(1 * time.Millisecond)")
M("9a0be51c33f2", "sleep", "Q3", {"duration": "1ms"}, "example.com/demo/textutil", "textutil/lower.go", 14, 3, "Lower",
  "sleep 1ms at the start of the loop body", D_SLEEP, None)
mutants[-1]["results"] = both("9a0be51c33f2", {lv: spec(lv, [("BenchmarkLower", "sec/op", 1.52e-6, 1200.0, 0.02, 5, False)]) for lv in levels}, 21, [2.2, 2.4])

D_UNB = """--- a/textutil/index.go
+++ b/textutil/index.go
@@ -20,9 +20,8 @@
 	idx := -1
 	for i := 0; i < len(s); i++ {
-		if s[i] == c {
+		if s[i] == c && idx < 0 {
 			idx = i
-			break
 		}
 	}
 	return idx
"""
M("c17e04d2a9b8", "loop-unbreaker", "Q4", None, "example.com/demo/textutil", "textutil/index.go", 22, 3, "IndexByte",
  "remove break at line 24 so the loop runs to the end", D_UNB, None)
mutants[-1]["results"] = both("c17e04d2a9b8", {"opt": spec("opt", [("BenchmarkIndexByte", "sec/op", 4.1e-8, 1.012, 0.03, 30, False)]),
                                               "noopt": spec("noopt", [("BenchmarkIndexByte", "sec/op", 4.1e-8, 1.09, 0.02, 14, False)])}, 31, [41.0, 23.5])

D_CAP = """--- a/textutil/split.go
+++ b/textutil/split.go
@@ -7,7 +7,7 @@
 func Split(s string, sep byte) []string {
 	n := strings.Count(s, string(sep)) + 1
-	out := make([]string, 0, n)
+	out := make([]string, 0)
 	start := 0
 	for i := 0; i < len(s); i++ {
 		if s[i] == sep {
"""
M("5be2d8f0a611", "cap-hint-drop", "Q4", None, "example.com/demo/textutil", "textutil/split.go", 9, 9, "Split",
  "drop capacity hint n from make([]string, 0, n)", D_CAP, None)
mutants[-1]["results"] = both("5be2d8f0a611", {lv: spec(lv, [("BenchmarkSplit", "sec/op", 3.2e-7, 1.004, 0.025, 30, False),
                                                             ("BenchmarkSplit", "B/op", 256, 1.0, 0, 30, True),
                                                             ("BenchmarkSplit", "allocs/op", 1, 1.0, 0, 30, True),
                                                             ("BenchmarkSplit/sep=comma", "sec/op", 9.1e-7, 1.006, 0.02, 30, False)]) for lv in levels}, 41, [52.3, 60.8])

D_OBL = """--- a/textutil/fields.go
+++ b/textutil/fields.go
@@ -29,7 +29,7 @@
 	n := countFields(s)
 	out := make([]string, 0, n)
-	for len(out) < n {
+	for len(out) < perfmut_oblivion(n, func() int { return countFields(s) }) {
 		out = append(out, next(&s))
 	}
 	return out
"""
M("0d4471be9c2e", "oblivion", "Q4", None, "example.com/demo/textutil", "textutil/fields.go", 31, 17, "Fields",
  "recompute n := countFields(s) at every read", D_OBL, {lv: res("no-coverage", "no benchmark reaches Fields", secs=0.0) for lv in levels})
D_ALLOC = """--- a/textutil/fields.go
+++ b/textutil/fields.go
@@ -31,6 +31,7 @@
 	for len(out) < n {
+		perfmut_sink = make([]byte, 1024)
 		out = append(out, next(&s))
 	}
 	return out
"""
M("8e21f7c05ad3", "alloc-churn", "Q3", {"bytes": 1024}, "example.com/demo/textutil", "textutil/fields.go", 32, 3, "Fields",
  "allocate 1024 bytes at the start of the loop body", D_ALLOC, {lv: res("no-coverage", "no benchmark reaches Fields", secs=0.0) for lv in levels})
D_GOBL = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -44,7 +44,7 @@
 func New(src string) *Parser {
-	if !identRE.MatchString(src) {
+	if !regexp.MustCompile(`^[a-z][a-z0-9_]*`).MatchString(src) {
 		return nil
 	}
 	return &Parser{src: src}
"""
M("71a3c9e0f5b2", "global-oblivion", "Q4", None, "example.com/demo/parse", "parse/parse.go", 45, 6, "New",
  "recompile identRE at every read", D_GOBL, {lv: res("no-coverage", "reached only in benchmark setup (outside the timed loop) by BenchmarkNext", secs=0.0) for lv in levels})
D_LOCK = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -58,6 +58,7 @@
 func (p *Parser) Next() (Token, bool) {
 	for p.pos < len(p.src) {
+		perfmut_mu.Lock(); perfmut_mu.Unlock()
 		c := p.src[p.pos]
 		switch {
 		case c == ' ':
"""
M("e4c90b6a1f27", "lock-contention", "Q3", None, "example.com/demo/parse", "parse/parse.go", 60, 3, "(*Parser).Next",
  "lock and unlock a shared mutex at the start of the loop body", D_LOCK, None)
mutants[-1]["results"] = both("e4c90b6a1f27", {lv: spec(lv, [("BenchmarkNext", "sec/op", 2.05e-7, 1.31, 0.02, 8, False),
                                                            ("BenchmarkParse", "sec/op", 8.7e-6, 1.12, 0.03, 8, False)]) for lv in levels}, 51, [9.7, 12.4])
D_CALL = """--- a/textutil/lower.go
+++ b/textutil/lower.go
@@ -8,7 +8,7 @@
 // Lower returns s with ASCII letters mapped to lower case.
 func Lower(s string) string {
-	if isASCII(s) {
+	if false {
 		return lowerASCII(s)
 	}
 	var b strings.Builder
"""
M("b2f5e8d4c019", "call-replace", "Q2", {"func": "example.com/demo/textutil.isASCII", "value": "false"}, "example.com/demo/textutil", "textutil/lower.go", 10, 5, "Lower",
  "replace call to isASCII with false", D_CALL,
  {lv: res("fne", "--- FAIL: TestLowerUnicode (0.00s)\n    lower_test.go:31: Lower(\"ÄB\") = \"Äb\", want \"äb\"", secs=1.9) for lv in levels})
D_SPIN6 = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -58,6 +58,7 @@
 func (p *Parser) Next() (Token, bool) {
 	for p.pos < len(p.src) {
+		perfmut_spin(1000000)
 		c := p.src[p.pos]
 		switch {
 		case c == ' ':
"""
M("2c8d0f9e4a73", "spin-loop", "Q3", {"iterations": 1000000}, "example.com/demo/parse", "parse/parse.go", 60, 3, "(*Parser).Next",
  "spin 1000000 iterations at the start of the loop body", D_SPIN6,
  {lv: res("timeout", "TestParseLarge ran past the 10s timeout (SIGQUIT, then SIGKILL)", secs=12.1) for lv in levels})
D_VAR = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -61,7 +61,7 @@
 		switch {
 		case c == ' ':
-			p.pos += width
+			p.pos += false
 			continue
 		case isDigit(c):
 			return p.number(), true
"""
M("6f1ab3e7d2c8", "var-replace", "Q2", {"var": "width", "value": "false"}, "example.com/demo/parse", "parse/parse.go", 63, 13, "(*Parser).Next",
  "replace reads of width with false", D_VAR,
  {lv: res("compile-error", "parse/parse.go:63:13: cannot use false (untyped bool constant) as int value in assignment", secs=0.8) for lv in levels})
D_UNB2 = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -79,9 +79,8 @@
 	start := p.pos
 	for p.pos < len(p.src) {
-		if !isDigit(p.src[p.pos]) {
-			break
-		}
 		p.pos++
 	}
 	return Token{Kind: Number, Text: p.src[start:p.pos]}
"""
M("d9e6a2b1c4f0", "loop-unbreaker", "Q4", None, "example.com/demo/parse", "parse/parse.go", 81, 3, "(*Parser).number",
  "remove if !isDigit(p.src[p.pos]) { break }", D_UNB2,
  {"opt": res("crash", "panic: runtime error: slice bounds out of range [:12] with length 11 (in TestParse)", secs=1.1),
   "noopt": res("fne", "--- FAIL: TestParseNumber (0.00s)\n    parse_test.go:18: token 1 = \"12ab\", want \"12\"", secs=1.3)})
D_CAP2 = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -92,7 +92,7 @@
 func (p *Parser) All() []Token {
-	toks := make([]Token, 0, len(p.src)/2)
+	toks := make([]Token, 0)
 	for {
 		t, ok := p.Next()
 		if !ok {
"""
M("a8b7c6d5e4f3", "cap-hint-drop", "Q4", None, "example.com/demo/parse", "parse/parse.go", 93, 10, "(*Parser).All",
  "drop capacity hint len(p.src)/2 from make([]Token, 0, len(p.src)/2)", D_CAP2, None)
mutants[-1]["results"] = both("a8b7c6d5e4f3", {"opt": spec("opt", [("BenchmarkParse", "sec/op", 8.7e-6, 1.015, 0.03, 8, False),
                                                            ("BenchmarkParse", "B/op", 4096, 2.3125, 0, 8, True),
                                                            ("BenchmarkParse", "allocs/op", 3, 2.3333334, 0, 8, True)]),
                                               "noopt": spec("noopt", [("BenchmarkParse", "sec/op", 8.7e-6, 1.01, 0.04, 8, False),
                                                            ("BenchmarkParse", "B/op", 4096, 2.3125, 0, 8, True),
                                                            ("BenchmarkParse", "allocs/op", 3, 2.3333334, 0, 8, True)])}, 61, [71.2, 88.0])
# a Q3 sleep not caught? also no-coverage in another function
D_SLP2 = """--- a/textutil/title.go
+++ b/textutil/title.go
@@ -12,6 +12,7 @@
 	up := true
 	for i, r := range s {
+		time.Sleep(1 * time.Millisecond)
 		if up && unicode.IsLetter(r) {
 			b.WriteRune(unicode.ToUpper(r))
 			up = false
"""
M("47e0c1d8b9a5", "sleep", "Q3", {"duration": "1ms"}, "example.com/demo/textutil", "textutil/title.go", 14, 3, "Title",
  "sleep 1ms at the start of the loop body", D_SLP2, {lv: res("no-coverage", "no benchmark reaches Title", secs=0.0) for lv in levels})

D_OBL2 = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -70,7 +70,7 @@
 func (p *Parser) word() Token {
 	start := p.pos
-	n := len(p.src)
+	n := perfmut_oblivion(len(p.src), func() int { return len(p.src) })
 	for p.pos < n && isLetter(p.src[p.pos]) {
 		p.pos++
 	}
"""
M("f3e1d7c9b5a2", "oblivion", "Q4", None, "example.com/demo/parse", "parse/parse.go", 72, 2, "(*Parser).word",
  "recompute n := len(p.src) at every read", D_OBL2, None)
mutants[-1]["results"] = both("f3e1d7c9b5a2", {"opt": spec("opt", [("BenchmarkNext", "sec/op", 2.05e-7, 1.027, 0.03, 30, False)]),
                                               "noopt": spec("noopt", [("BenchmarkNext", "sec/op", 2.05e-7, 1.06, 0.02, 14, False)])}, 71, [44.9, 19.8])

# undecided at both levels: measured to the budget (30 samples) on a
# benchmark whose samples vary 30 %, no kill, and the interval does not rule
# out a slowdown.
D_LOCK2 = """--- a/parse/parse.go
+++ b/parse/parse.go
@@ -94,6 +94,7 @@
 	for {
+		perfmut_mu.Lock(); perfmut_mu.Unlock()
 		t, ok := p.Next()
 		if !ok {
 			break
"""
M("5c0e9a7f3b18", "lock-contention", "Q3", None, "example.com/demo/parse", "parse/parse.go", 95, 3, "(*Parser).All",
  "lock and unlock a shared mutex at the start of the loop body", D_LOCK2, None)
mutants[-1]["results"] = both("5c0e9a7f3b18", {lv: spec(lv, [("BenchmarkParse", "sec/op", 8.7e-6, 1.04, 0.3, 30, False)]) for lv in levels}, 81, [95.5, 101.2])
for u in mutants[-1]["results"].values():
    assert u["status"] == "survived", u["status"]
    u["status"] = "undecided"

# The rule's bound of a survivor's or an undecided mutant's time tests
# (score.UpperRatio): the sign test's one-sided 95% upper bound of the
# median per-round ratio; the reason of an undecided one is the rule's.
def sign_k(n, tail=0.05):
    k, cdf = 0, 0.0
    while k < n:
        pmf = comb(n, k)/2**n
        if cdf+pmf > tail*(1+1e-12): break
        cdf += pmf; k += 1
    return k
def upper(base, mut):
    n = min(len(base), len(mut))
    rs = sorted(m/b for b, m in zip(base, mut))
    return rs[n-sign_k(n)]
for m in mutants:
    for u in m["results"].values():
        if u["status"] not in ("survived", "undecided"):
            continue
        for t, smp in zip(u["benchmarks"], u["samples"]):
            if t["metric"] not in ("B/op", "allocs/op"):
                t["ratio_upper"] = float('%.6g' % upper(smp["baseline"], smp["mutant"]))
        if u["status"] == "undecided":
            t = max((t for t in u["benchmarks"] if "ratio_upper" in t), key=lambda t: t["ratio_upper"])
            u["reason"] = ("the ratio could still be x%.3g (95%% upper bound of the per-round ratios) on %s %s after 30 samples; "
                           "a slowdown of x1.05 is not ruled out; more samples (-max-samples), a quieter machine or longer samples (-benchtime) would decide it") % (t["ratio_upper"], t["name"], t["metric"])

# scores
score = {}
summary_rows = []
def counts(ms, lv, a=None):
    c = dict(killed=0, survived=0, no_coverage=0, compile_error=0, fne=0, timeout=0, crash=0)
    for m in ms:
        r = m["results"][lv]; st = r["status"]
        if st == "undecided":
            continue  # outside the score, and not a column of the summary's counts
        if a is not None and st in ("killed", "survived"):
            st = "killed" if any(t["p_adj"] <= a and t["ratio"] > 1 for t in r["benchmarks"]) else "survived"
        c[st.replace("-", "_")] += 1
    c["valid"] = c["killed"]+c["survived"]+c["no_coverage"]
    c["score"] = round(c["killed"]/c["valid"], 6) if c["valid"] else 0
    kv = c["killed"]+c["survived"]
    c["covered_score"] = round(c["killed"]/kv, 6) if kv else 0
    return c
for lv in levels:
    c = counts(mutants, lv)
    score[lv] = dict(killed=c["killed"], valid=c["valid"], score=c["score"], covered_score=c["covered_score"],
                     undecided=sum(1 for m in mutants if m["results"][lv]["status"] == "undecided"))
alphas = [0.01, 0.05, 0.1]
for a in alphas:
    for lv in levels:
        summary_rows.append(dict(dimension="level", key=lv, level=lv, alpha=a, **counts(mutants, lv, a)))
        for op in sorted(set(m["operator"] for m in mutants)):
            summary_rows.append(dict(dimension="operator", key=op, level=lv, alpha=a, **counts([m for m in mutants if m["operator"] == op], lv, a)))
        for q in sorted(set(m["quadrant"] for m in mutants)):
            summary_rows.append(dict(dimension="quadrant", key=q, level=lv, alpha=a, **counts([m for m in mutants if m["quadrant"] == q], lv, a)))
        for p in sorted(set(m["package"] for m in mutants)):
            summary_rows.append(dict(dimension="package", key=p, level=lv, alpha=a, **counts([m for m in mutants if m["package"] == p], lv, a)))
rep = dict(schema="perfmut/report/v1", module="example.com/demo", go="go1.26.8",
           settings=dict(patterns=["./..."], opt="both", alpha=0.05, correction="holm", max_samples=30, min_effect=1.01, margin=1.05, benchtime="100ms", seed=1),
           score=score, mutants=mutants, started="2026-11-21T22:04:05Z", finished="2026-11-21T22:19:41Z",
           summary=dict(alpha=0.05, alphas=alphas, rows=summary_rows))
for m in mutants:
    if m["params"] is None: m["params"] = {}
print(json.dumps(rep, indent=2, ensure_ascii=False))
