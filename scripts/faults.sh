#!/usr/bin/env bash
# faults.sh: fault injection. Replays bad input and faults against perfmut as
# a new user would meet them and prints one line per case:
#
#   case | exit code | perfmut's error line (else its last line) | module unchanged? | verdict
#
# The verdict is ok when the case went as expected (want below: its exit
# code, the module unchanged, and where needed a text in its line); the
# last line counts the cases and names those that did not, and the exit
# status is 0 only when every case went as expected.
#
# Usage: bash scripts/faults.sh [case-pattern]     (from the repository root;
# a pattern runs the cases whose names hold it, and the setup they need)
#
# Every case runs on a small module written into a private work directory
# (removed at the end); "module unchanged" compares a hash of the module's
# files before and after. A case that runs benchmarks takes a few seconds to
# a minute; the whole script takes a few minutes on 2 cores.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
only=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/perfmut-faults-XXXXXX")
trap 'rm -rf "$work"' EXIT
pm=$work/perfmut
(cd "$root" && go build -o "$pm" ./cmd/perfmut) || { echo "faults: cannot build perfmut"; exit 1; }
# perfmut's temporary directories go to a private TMPDIR, so that what the
# cases leave behind can be counted at the end.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
quick=(-opt on -max-samples 5)

# hash hashes a module's files, leaving out the results directories the
# cases ask perfmut to write inside it (-out perfmut-out, out*, res, ...).
hash() { (cd "$1" && find . \( -path ./perfmut-out -o -path './out*' -o -path './res*' -o -path ./trunc -o -path ./garbage -o -path ./badcorr -o -path './merged*' \) -prune -o -type f -print | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16); }

# mod NAME: a module with a lib package (a loop with a break, tests and a
# benchmark) and an app package whose test rejects the loop-unbreaker.
mod() {
	local d=$work/$1
	rm -rf "$d"; mkdir -p "$d/lib" "$d/app"
	cat >"$d/go.mod" <<'EOF'
module example.com/faults

go 1.22
EOF
	cat >"$d/lib/lib.go" <<'EOF'
// Package lib is a fault-injection module.
package lib

// First returns the index of the first x in s, or -1.
func First(s []int, x int) int {
	idx := -1
	for i, v := range s {
		if v == x {
			idx = i
			break
		}
	}
	return idx
}
EOF
	cat >"$d/lib/lib_test.go" <<'EOF'
package lib

import "testing"

func TestFirst(t *testing.T) {
	if got := First([]int{3, 1, 2}, 1); got != 1 {
		t.Fatalf("First = %d", got)
	}
}

var sink int

func BenchmarkFirst(b *testing.B) {
	s := make([]int, 1000)
	s[10] = 1
	for i := 0; i < b.N; i++ {
		sink += First(s, 1)
	}
}
EOF
	cat >"$d/app/app.go" <<'EOF'
// Package app uses lib.
package app

import "example.com/faults/lib"

// One is the position of the first 1.
func One(s []int) int { return lib.First(s, 1) }
EOF
	cat >"$d/app/app_test.go" <<'EOF'
package app

import "testing"

func TestFirstOfTwo(t *testing.T) {
	if got := One([]int{1, 1}); got != 0 {
		t.Fatalf("One = %d, want the first", got)
	}
}
EOF
	echo "$d"
}

# addfile DIR PATH: writes stdin to DIR/PATH.
addfile() { mkdir -p "$(dirname "$1/$2")"; cat >"$1/$2"; }

# The expected exit code of every case, with a text its line must hold
# after a "|" where the code alone does not say it went right.
declare -A want=(
	[not-a-module]=2 [yaml-syntax]=2 [yaml-unknown-key]=2 [yaml-wrong-type]=2 [yaml-unknown-operator]=2
	[yaml-dangling-symlink]=2 [flag-unknown-operator]=2 [unknown-id]=2 [short-id-mutants]=2 [upper-case-id]=0
	[bad-shard]=2 [bad-sample]=2 [bad-min-score]=2 [sensitivity-cannot-kill]=2 [pattern-matches-nothing]=2
	[C-names-a-file]=2 [out-is-a-pattern]=2 [out-too-long]=2 [tmpdir-missing]=2 [tmpdir-missing-counting]=2
	[tmpdir-is-a-file]=2 [unwritable-out]=2
	[failing-baseline]=1 [no-benchmarks]=1 [panicking-baseline-bench]=0 [hanging-baseline-bench]=0 [hanging-mutant-test]=0
	[judged-by-importers]=0 [excluded-importer-judges]=0
	[exit0-bench-run]=0 [exit0-sigkill-reproduce]=137 [exit0-sigint-reproduce]="1|left in TMPDIR: 0; 2 stderr line(s), the error: perfmut reproduce: interrupted"
	[exit0-bench-compare]="3|1 slower" [exit0-compare-nothing]=2 [exit0-bench-sensitivity]=0
	[run-into-existing]=0 [run-again-same-out]=0 [resume-other-module]=2 [merge-out-existing]=2 [merge-missing-dir]=2
	[merge-bad-correction]=2 [resume-truncated-journal]=0 [resume-garbage-journal]=1 [resume-bogus-status]="1|unknown status"
	[resume-without-settings]=2 [report-corrupt-report]=2 [reproduce-corrupt-report]=2 [merge-corrupt-report]=2
	[report-read-only]=0 [report-stdout-full]=1 [merge-stdout-full]=1 [list-stdout-full]=1 [show-stdout-full]=1
	[resume-auto-after-time]=0 [resume-missing-dir]=2
	[run-out-dot]=2 [run-out-user-dir]=2 [compare-out-dot]=2 [out-dot-git-status]="-|<clean>"
	[shard1-all-mutants]=0 [shard2-other-mutants]=0 [merge-other-mutants]=2 [resume-fewer-mutants]=2
	[second-run-same-out]=2 [merge-while-running]=2 [first-run-same-out]="0|report.json: yes"
	[killed-holder]="-|lock file left: yes" [killed-holder-lock-taken]=0
	[git-status-default-out]=0 [git-status-after]="-|<clean>"
	[sigint]="1|processes left: 0" [sigint-then-resume]=0 [sigkill]="137|processes left: 0" [sigkill-then-resume]=0
	[sigint-sensitivity-build]="1|left in TMPDIR: 0; 1 stderr line(s)" [sigterm-sensitivity-build]="1|left in TMPDIR: 0; 1 stderr line(s)"
	[sigint-map-step]="1|left in TMPDIR: 0" [merge-unfinished-map]=2 [report-unfinished-map]="0|warning" [resume-unfinished-map]=0
	[sigint-counting]="1|vgdb FIFOs left in TMPDIR: 0" [changed-since-shallow]="2|shallow clone"
	[build-darwin/arm64]=0 [build-windows/amd64]=0
)
cases=0
failed=()

# row NAME CODE TEXT MODULE: prints a case's line and whether it went as
# expected (want), and counts it.
row() {
	local name=$1 code=$2 text=$3 module=$4 w=${want[$1]-none} verdict=ok
	local wcode=${w%%|*} wtext=""
	[[ $w == *"|"* ]] && wtext=${w#*|}
	if [ "$w" = none ]; then
		verdict="FAIL: no expectation"
	elif [ "$code" != "$wcode" ]; then
		verdict="FAIL: want exit $wcode"
	elif [ "$module" = CHANGED ]; then
		verdict="FAIL: module changed"
	elif [ -n "$wtext" ] && [[ $text != *"$wtext"* ]]; then
		verdict="FAIL: want \"$wtext\""
	fi
	cases=$((cases + 1))
	[ "$verdict" = ok ] || failed+=("$name")
	printf '%-28s | exit %-3s | %-110.110s | module %-9s | %s\n' "$name" "$code" "$text" "$module" "$verdict"
}

# bad WHY: a fault a case left behind (counted as a failed case).
bad() { cases=$((cases + 1)); failed+=("$1"); echo "   FAIL: $1"; }

# case NAME DIR CMD...: runs perfmut CMD in DIR and prints the line
# (stdout goes to $CASE_STDOUT, default /dev/null).
case_() {
	local name=$1 dir=$2; shift 2
	[ -n "$only" ] && [[ $name != *$only* ]] && return
	local before after out code
	before=$(hash "$dir")
	out=$(cd "$dir" && timeout 600 "$pm" "$@" 2>&1 >"${CASE_STDOUT:-/dev/null}")
	code=$?
	after=$(hash "$dir")
	local first
	# the error line ("perfmut CMD: ..."), else the last line (the summary)
	first=$(printf '%s\n' "$out" | grep -m1 '^perfmut [a-z]*: ')
	[ -n "$first" ] || first=$(printf '%s\n' "$out" | grep -v '^\s*$' | tail -1)
	row "$name" "$code" "${first:-<no output>}" "$([ "$before" = "$after" ] && echo unchanged || echo CHANGED)"
}

# statuses DIR: the mutants' statuses in DIR's journal, counted.
statuses() { printf '   statuses: %s\n' "$(grep -o '"result":{"status":"[a-z-]*"' "$1/journal.jsonl" 2>/dev/null | cut -d'"' -f6 | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"; }

# sigcase NAME DIR SIG GLOB CMD...: starts perfmut CMD in DIR, sends SIG
# once a new path matches GLOB (up to 60 s), and prints the exit code,
# the line count and error line of stderr, and what the run left in TMPDIR.
sigcase() {
	local name=$1 dir=$2 sig=$3 glob=$4; shift 4
	[ -n "$only" ] && [[ $name != *$only* ]] && return
	local before old; before=$(hash "$dir"); old=$(compgen -G "$glob")
	(cd "$dir" && exec "$pm" "$@" >/dev/null 2>"$work/sig.err") &
	local pid=$! i
	for i in $(seq 600); do [ "$(compgen -G "$glob")" != "$old" ] && break; sleep 0.1; done
	kill -"$sig" "$pid"; wait "$pid"; local code=$?
	sleep 0.5
	local left; left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -newer "$work/sig.start" 2>/dev/null | wc -l)
	row "$name" "$code" "left in TMPDIR: $left; $(wc -l <"$work/sig.err") stderr line(s), the error: $(grep -m1 '^perfmut [a-z]*: ' "$work/sig.err")" "$([ "$before" = "$(hash "$dir")" ] && echo unchanged || echo CHANGED)"
}
printf '%-28s | %-8s | %-110s | %-16s | %s\n' case exit "first line" module verdict

# --- bad input ---
mkdir -p "$work/notmod"; echo 'package m' >"$work/notmod/m.go"
case_ not-a-module "$work/notmod" list
m=$(mod yaml1); printf 'operators: [loop-unbreaker\n' >"$m/perfmut.yaml"
case_ yaml-syntax "$m" list
printf 'operatorz: [loop-unbreaker]\n' >"$m/perfmut.yaml"
case_ yaml-unknown-key "$m" list
printf 'spin-loop:\n  iterations: lots\n' >"$m/perfmut.yaml"
case_ yaml-wrong-type "$m" list
printf 'operators: [loop-breaker]\n' >"$m/perfmut.yaml"
case_ yaml-unknown-operator "$m" list
rm "$m/perfmut.yaml"; ln -s shared/perfmut.yaml "$m/perfmut.yaml"
case_ yaml-dangling-symlink "$m" list
rm "$m/perfmut.yaml"
case_ flag-unknown-operator "$m" list -operators nope
case_ unknown-id "$m" show 0123456789ab
case_ short-id-mutants "$m" list -mutants 0e6 ./...
case_ upper-case-id "$m" show "$(cd "$m" && "$pm" list ./... 2>/dev/null | awk 'NR==2{print toupper($1)}')"
case_ bad-shard "$m" run -shard 3/2 ./...
case_ bad-sample "$m" run -sample -1 ./...
case_ bad-min-score "$m" run -min-score 150% ./...
case_ sensitivity-cannot-kill "$m" sensitivity -max-samples 1 ./...
case_ pattern-matches-nothing "$m" list ./nothing/...
case_ C-names-a-file "$m" list -C "$m/go.mod"
long=$(printf "%0200d/" $(seq 22) | tr 0 d)
case_ out-is-a-pattern "$m" run "${quick[@]}" -out ./...
[ -e "$m/..." ] && bad "leftover: -out ./... made a directory named ..."
case_ out-too-long "$m" run "${quick[@]}" -out "$long" ./...
[ -e "$m/${long%%/*}" ] && bad "leftover: a too long -out left directories"
TMPDIR=/nonexistent case_ tmpdir-missing "$m" list ./...
TMPDIR=/nonexistent case_ tmpdir-missing-counting "$m" run -measure instructions ./...
TMPDIR=$m/go.mod case_ tmpdir-is-a-file "$m" sensitivity ./...
[ -d "$m/perfmut-out" ] && bad "leftover: bad input left an empty perfmut-out/"
mkdir -p "$work/ro"; touch "$work/ro/file"
case_ unwritable-out "$m" run "${quick[@]}" -out "$work/ro/file/out" ./...

# --- the module itself ---
m=$(mod failing); addfile "$m" lib/fail_test.go <<'EOF'
package lib

import "testing"

func TestAlwaysFails(t *testing.T) { t.Fatal("broken on purpose") }
EOF
case_ failing-baseline "$m" run "${quick[@]}" ./...
m=$(mod nobench); rm "$m/lib/lib_test.go"
case_ no-benchmarks "$m" run "${quick[@]}" ./...
m=$(mod panicbench); addfile "$m" lib/panic_test.go <<'EOF'
package lib

import "testing"

func BenchmarkPanics(b *testing.B) { panic("benchmark broken on purpose") }
EOF
case_ panicking-baseline-bench "$m" run "${quick[@]}" -operators loop-unbreaker ./...
m=$(mod hangbench); addfile "$m" lib/hang_test.go <<'EOF'
package lib

import (
	"testing"
	"time"
)

func BenchmarkHangs(b *testing.B) {
	for {
		time.Sleep(time.Second)
	}
}
EOF
case_ hanging-baseline-bench "$m" run "${quick[@]}" -operators loop-unbreaker ./...
m=$(mod hangtest); addfile "$m" lib/wait.go <<'EOF'
package lib

// Count counts to n.
func Count(n int) int {
	i := 0
	for {
		i++
		if i >= n {
			break
		}
	}
	return i
}
EOF
addfile "$m" lib/wait_test.go <<'EOF'
package lib

import "testing"

func TestCount(t *testing.T) {
	if Count(3) != 3 {
		t.Fatal("Count")
	}
}
EOF
case_ hanging-mutant-test "$m" run "${quick[@]}" -operators loop-unbreaker -timeout 5s -out out ./...
grep -o '"status": *"[a-z-]*"' "$m/out/report.json" 2>/dev/null | sort | uniq -c | tr -s ' ' | sed 's/^/   statuses:/' | tr '\n' ' '; echo

# --- score integrity (issue: exclusion inflates the score) ---
m=$(mod exclude)
case_ judged-by-importers "$m" run "${quick[@]}" -operators loop-unbreaker -out out1 ./...
printf 'packages:\n  exclude: [./app]\n' >"$m/perfmut.yaml"
case_ excluded-importer-judges "$m" run "${quick[@]}" -operators loop-unbreaker -out out2 ./...
for o in out1 out2; do printf '   %s: %s\n' "$o" "$(grep -o '"status": *"[a-z-]*"' "$m/$o/report.json" 2>/dev/null | tr '\n' ' ')"; done

# --- a benchmark that calls os.Exit(0) ---
# It must be left out with a warning, not hide its package's other
# benchmarks: compare's gate fails on First made slower (exit 3),
# sensitivity maps First, run measures its mutant.
m=$(mod exitzero); addfile "$m" lib/exit_test.go <<'EOF'
package lib

import (
	"os"
	"testing"
)

func BenchmarkExit(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink++
	}
	os.Exit(0)
}
EOF
case_ exit0-bench-run "$m" run "${quick[@]}" -operators spin-loop -out out-exit ./...
[ -z "$only" ] || [[ exit0-bench-run == *$only* ]] && statuses "$m/out-exit"
# Killed and interrupted reproductions: no temporary sample files stay.
id=$(grep -o '"id":"[0-9a-f]*","level":"opt","result":{"status":"killed"' "$m/out-exit/journal.jsonl" 2>/dev/null | head -1 | cut -d'"' -f4)
touch "$work/sig.start"
sigcase exit0-sigkill-reproduce "$m" KILL "$m/out-exit/reproduce/*/opt/.base.txt.tmp-*" reproduce -out out-exit -count 50 "$id"
sigcase exit0-sigint-reproduce "$m" INT "$m/out-exit/reproduce/*/opt/.base.txt.tmp-*" reproduce -out out-exit -count 50 "$id"
if [ -z "$only" ] || [[ exit0-sigint-reproduce == *$only* ]]; then
	printf '   temporary sample files left: %s\n' "$(find "$m/out-exit" -name '.*.tmp-*' | wc -l)"
fi
(cd "$m" && git init -q && git add -A && git -c user.email=f@x -c user.name=f commit -qm one &&
	sed -i 's/\tidx := -1/\tidx := -1\n\tfor k := 0; k < 200; k++ {\n\t\tfor range s {\n\t\t\tsink2++\n\t\t}\n\t}/' lib/lib.go && echo 'var sink2 int' >>lib/lib.go)
case_ exit0-bench-compare "$m" compare -out out-compare HEAD WORKTREE ./...
case_ exit0-compare-nothing "$m" compare HEAD WORKTREE ./nothing/...
[ -e "$m/perfmut-compare" ] && bad "leftover: a failed compare left perfmut-compare/ in the module"
case_ exit0-bench-sensitivity "$m" sensitivity ./...
if [ -z "$only" ] || [[ exit0-bench-sensitivity == *$only* ]]; then
	printf '   %s\n' "$(cd "$m" && "$pm" sensitivity ./... 2>/dev/null | grep -c 'lib.First ') row(s) for lib.First in the map (want 1)"
fi

# --- results directories ---
m=$(mod results); m2=$(mod other); sed -i 's#example.com/faults#example.com/other#' "$m2/go.mod" "$m2/app/app.go"
case_ run-into-existing "$m" run "${quick[@]}" -operators loop-unbreaker -out res ./...
case_ run-again-same-out "$m" run "${quick[@]}" -operators loop-unbreaker -out res ./...
if [ -z "$only" ] || [[ run-again-same-out == *$only* ]]; then
	printf '   the first run kept in res/previous: %s\n' "$([ -s "$m/res/previous/report.json" ] && [ -s "$m/res/report.json" ] && echo yes || echo NO)"
fi
case_ resume-other-module "$m2" run "${quick[@]}" -operators loop-unbreaker -resume -out "$m/res" ./...
case_ merge-out-existing "$m" merge -out res res
case_ merge-missing-dir "$m" merge -out merged "$m/nope"
cp -r "$m/res" "$m/badcorr"; sed -i 's/"correction": *"[a-z]*"/"correction": "sidak"/' "$m/badcorr/report.json"
case_ merge-bad-correction "$m" merge -out merged2 badcorr
cp -r "$m/res" "$m/trunc"; head -c 40 "$m/res/journal.jsonl" >"$m/trunc/journal.jsonl"
case_ resume-truncated-journal "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out trunc ./...
cp -r "$m/res" "$m/garbage"; printf 'garbage' >"$m/garbage/journal.jsonl"
case_ resume-garbage-journal "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out garbage ./...
cp -r "$m/res" "$m/bogus"; sed -i '1s/"status":"[a-z-]*"/"status":"bogus"/' "$m/bogus/journal.jsonl"
case_ resume-bogus-status "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out bogus ./...
cp -r "$m/res" "$m/nosettings"; rm -f "$m/nosettings/settings.json"
case_ resume-without-settings "$m" run -opt on -max-samples 7 -alpha 0.2 -measure time -operators loop-unbreaker -resume -out nosettings ./...
cp -r "$m/res" "$m/corrupt"; echo '{"module": ' >"$m/corrupt/report.json"
case_ report-corrupt-report "$m" report corrupt
case_ reproduce-corrupt-report "$m" reproduce -out corrupt 0123456789ab
case_ merge-corrupt-report "$m" merge -out merged-corrupt corrupt
chmod -R a-w "$m/res" 2>/dev/null
case_ report-read-only "$m" report res
CASE_STDOUT=/dev/full case_ report-stdout-full "$m" report -format text res
CASE_STDOUT=/dev/full case_ merge-stdout-full "$m" merge -out merged-full res
CASE_STDOUT=/dev/full case_ list-stdout-full "$m" list ./...
CASE_STDOUT=/dev/full case_ show-stdout-full "$m" show "$(cd "$m" && "$pm" list ./... 2>/dev/null | awk 'NR==2{print $1}')"
chmod -R u+w "$m/res" 2>/dev/null
case_ resume-auto-after-time "$m" run "${quick[@]}" -operators loop-unbreaker -measure auto -resume -out res ./...
case_ resume-missing-dir "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out nothere ./...
[ -e "$m/nothere" ] && bad "leftover: -resume into a missing directory created it"

# --- -out names the user's own files ---
m=$(mod userfiles); echo notes >"$m/report.md"; mkdir -p "$m/notes"; echo notes >"$m/notes/report.md"; echo '{}' >"$m/notes/settings.json"
(cd "$m" && git init -q && git add -A && git -c user.email=f@x -c user.name=f commit -qm one)
case_ run-out-dot "$m" run "${quick[@]}" -operators loop-unbreaker -out . ./...
case_ run-out-user-dir "$m" run "${quick[@]}" -operators loop-unbreaker -out notes ./...
echo '# our notes' >"$m/compare.md"; (cd "$m" && git add -A && git -c user.email=f@x -c user.name=f commit -qm two)
case_ compare-out-dot "$m" compare -out . HEAD HEAD
if [ -z "$only" ] || [[ run-out-dot == *$only* ]]; then
	st=$(git -C "$m" status --porcelain | tr '\n' ' ')
	row out-dot-git-status "-" "git status --porcelain: ${st:-<clean>}" "-"
fi

# --- shards and -resume with other -mutants ---
m=$(mod mutants)
id=$(cd "$m" && "$pm" list -operators spin-loop ./... 2>/dev/null | awk 'NR==2{print $1}')
case_ shard1-all-mutants "$m" run "${quick[@]}" -operators spin-loop -shard 1/2 -out out-s1 ./...
case_ shard2-other-mutants "$m" run "${quick[@]}" -operators spin-loop -shard 2/2 -mutants "$id" -out out-s2 ./...
case_ merge-other-mutants "$m" merge -out merged-m out-s1 out-s2
case_ resume-fewer-mutants "$m" run "${quick[@]}" -operators spin-loop -shard 1/2 -mutants "$id" -resume -out out-s1 ./...

# --- one results directory, two runs ---
# waitlock DIR: waits (up to 60 s) until a run holds DIR's lock.
waitlock() { for _ in $(seq 600); do [ -s "$1/.perfmut.lock" ] && return 0; sleep 0.1; done; return 1; }
m=$(mod twice)
if [ -z "$only" ] || [[ second-run-same-out == *$only* ]]; then
	(cd "$m" && exec "$pm" run "${quick[@]}" -operators loop-unbreaker -out res2 ./... >"$work/first.out" 2>&1) &
	first=$!
	waitlock "$m/res2" || bad "the first run never locked res2"
	case_ second-run-same-out "$m" run "${quick[@]}" -operators loop-unbreaker -out res2 ./...
	case_ merge-while-running "$m" merge -out merged-busy res2
	wait "$first"; code=$?
	n=$(grep -c . "$m/res2/journal.jsonl" 2>/dev/null)
	row first-run-same-out "$code" "journal lines: ${n:-0}, report.json: $([ -s "$m/res2/report.json" ] && echo yes || echo no)" "-"
fi
if [ -z "$only" ] || [[ killed-holder-lock == *$only* ]]; then
	(cd "$m" && exec "$pm" run "${quick[@]}" -operators loop-unbreaker -out res3 ./... >/dev/null 2>&1) &
	pid=$!
	waitlock "$m/res3" || bad "the run never locked res3"
	kill -KILL "$pid"; wait "$pid"
	row killed-holder "-" "lock file left: $([ -e "$m/res3/.perfmut.lock" ] && echo yes || echo no)" "-"
	case_ killed-holder-lock-taken "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out res3 ./...
fi

# --- results inside a git repository ---
m=$(mod gitclean)
(cd "$m" && git init -q && git add -A && git -c user.email=f@x -c user.name=f commit -qm one)
case_ git-status-default-out "$m" run "${quick[@]}" -operators loop-unbreaker ./...
if [ -z "$only" ] || [[ git-status-default-out == *$only* ]]; then
	st=$(git -C "$m" status --porcelain | tr '\n' ' ')
	row git-status-after "-" "git status --porcelain: ${st:-<clean>}" "-"
fi

# --- signals ---
m=$(mod signals)
for sig in INT KILL; do
	[ -n "$only" ] && [[ sigint-resume != *$only* ]] && [[ sigkill-resume != *$only* ]] && continue
	before=$(hash "$m")
	(cd "$m" && exec "$pm" run "${quick[@]}" -out "$work/sig$sig" ./... >/dev/null 2>&1) &
	pid=$!
	sleep 8
	kill -"$sig" "$pid"; wait "$pid"; code=$?
	left=$(pgrep -f "$m" | wc -l)
	row "sig${sig,,}" "$code" "processes left: $left" "$([ "$before" = "$(hash "$m")" ] && echo unchanged || echo CHANGED)"
	case_ "sig${sig,,}-then-resume" "$m" run "${quick[@]}" -resume -out "$work/sig$sig" ./...
done

m=$(mod sigmap)
touch "$work/sig.start"
sigcase sigint-sensitivity-build "$m" INT "$TMPDIR/perfmut-run-*/gotmp/go-build*" sensitivity ./...
sigcase sigterm-sensitivity-build "$m" TERM "$TMPDIR/perfmut-run-*/gotmp/go-build*" sensitivity ./...
# Ctrl-C in a campaign's map step (its builds go to bin/ in the map's
# temporary directory): the report is kept but marked unfinished.
sigcase sigint-map-step "$m" INT "$TMPDIR/perfmut-run-*/bin/0/plain" run "${quick[@]}" -operators loop-unbreaker -out out-map ./...
case_ merge-unfinished-map "$m" merge -out merged-map out-map
case_ report-unfinished-map "$m" report out-map
case_ resume-unfinished-map "$m" run "${quick[@]}" -operators loop-unbreaker -resume -out out-map ./...
# Ctrl-C while valgrind counts: perfmut stops valgrind's process group,
# which leaves no vgdb FIFOs (3 per valgrind process without --vgdb=no).
if command -v valgrind >/dev/null && { [ -z "$only" ] || [[ sigint-counting == *$only* ]]; }; then
	(cd "$m" && exec "$pm" run -opt on -max-samples 5 -measure instructions -operators spin-loop -out out-vg ./... >/dev/null 2>&1) &
	pid=$!
	for _ in $(seq 1200); do compgen -G "$TMPDIR/perfmut-run-*/perfmut-instr-*" >/dev/null && break; sleep 0.1; done
	sleep 1; kill -INT "$pid"; wait "$pid"; code=$?
	row sigint-counting "$code" "vgdb FIFOs left in TMPDIR: $(find "$TMPDIR" -maxdepth 1 -name 'vgdb-pipe*' | wc -l)" "-"
fi

# --- shallow clone ---
m=$(mod shallow)
(cd "$m" && git init -q -b main && git add -A && git -c user.email=f@x -c user.name=f commit -qm one && git branch base &&
	sed -i 's/idx := -1/idx := -1 \/\/ changed/' lib/lib.go && git -c user.email=f@x -c user.name=f commit -qam two)
git clone -q --depth 1 --branch main "file://$m" "$work/shallow-clone" 2>/dev/null
git -C "$work/shallow-clone" fetch -q --depth 1 origin base:refs/remotes/origin/base 2>/dev/null
case_ changed-since-shallow "$work/shallow-clone" list -changed-since origin/base ./...

# --- portability ---
for p in darwin/arm64 windows/amd64; do
	[ -n "$only" ] && [[ build-$p != *$only* ]] && continue
	out=$(cd "$root" && GOOS=${p%/*} GOARCH=${p#*/} go build -o /dev/null ./cmd/perfmut 2>&1); code=$?
	row "build-$p" "$code" "${out%%$'\n'*}" "-"
done
leftover=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
echo "temporary files or directories left by the cases: $leftover"
[ "$leftover" = 0 ] || bad "temporary files or directories left in TMPDIR"
echo "faults: $cases cases, $((cases - ${#failed[@]})) as expected${failed:+; not as expected: ${failed[*]}}"
[ ${#failed[@]} = 0 ]
