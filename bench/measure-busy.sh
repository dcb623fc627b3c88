#!/bin/sh
# measure-busy.sh: run one perfmut command quietly or beside two busy loops
# (one per core), printing uptime and wall time at start and end.
# Usage: bench/measure-busy.sh quiet|busy PERFMUT ARGS...
# The busy loops are killed by a trap on every exit.
set -u
mode=$1; shift
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; }
trap cleanup EXIT INT TERM
if [ "$mode" = busy ]; then
	sh -c 'while :; do :; done' & pids="$pids $!"
	sh -c 'while :; do :; done' & pids="$pids $!"
fi
echo "start $(date -u +%H:%M:%S) $(uptime)"
s=$(date +%s)
"$@"
rc=$?
e=$(date +%s)
echo "end $(date -u +%H:%M:%S) $(uptime) wall=$((e - s))s rc=$rc"
exit $rc
