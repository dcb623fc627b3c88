#!/usr/bin/env bash
# screenshot-report.sh renders a perfmut report.html in headless Chromium:
# a PNG screenshot, the DOM after the page's script ran, and Chromium's log
# (console messages included), so a person can look at the page and a test
# can check that it loaded without errors. Nothing is fetched from the
# network; Chromium gets a fresh, temporary profile that is removed after.
#
# Usage: scripts/screenshot-report.sh [-w WIDTH] [-h HEIGHT] REPORT.html OUT.png
# Writes OUT.png, OUT.dom.html and OUT.log. Exits non-zero when Chromium is
# missing (3; apt-get install chromium), fails, the page wrote to the console,
# or it did not set its data-perfmut-ready marker (1); bad usage exits 2.
set -euo pipefail

width=1280
height=2400
while getopts "w:h:" opt; do
	case $opt in
	w) width=$OPTARG ;;
	h) height=$OPTARG ;;
	*) echo "usage: $0 [-w WIDTH] [-h HEIGHT] REPORT.html OUT.png" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
	echo "usage: $0 [-w WIDTH] [-h HEIGHT] REPORT.html OUT.png" >&2
	exit 2
fi
html=$(realpath "$1")
out=$(realpath -m "$2")
if [ ! -f "$html" ]; then
	echo "$0: $1: no such file" >&2
	exit 2
fi
chrome=""
for c in chromium chromium-browser google-chrome; do
	if command -v "$c" >/dev/null 2>&1; then chrome=$c; break; fi
done
if [ -z "$chrome" ]; then
	echo "$0: no chromium found; install it with: apt-get install -y chromium" >&2
	exit 3
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run
	--disable-component-update --disable-sync --user-data-dir="$profile"
	--enable-logging=stderr --v=0 --hide-scrollbars)

timeout -k 5 90 "$chrome" "${flags[@]}" --dump-dom "file://$html" >"${out%.png}.dom.html" 2>"${out%.png}.log"
timeout -k 5 90 "$chrome" "${flags[@]}" --window-size="$width,$height" --screenshot="$out" "file://$html" >>"${out%.png}.log" 2>&1

# The page logs nothing to the console; anything there is an error.
if grep -q ':CONSOLE' "${out%.png}.log"; then
	echo "$0: the page wrote to the browser console:" >&2
	grep ':CONSOLE' "${out%.png}.log" | sed 's/^[^]]*] /  /' | sort -u >&2
	exit 1
fi
if ! grep -q 'data-perfmut-ready="ok"' "${out%.png}.dom.html"; then
	echo "$0: the page did not finish its script (no data-perfmut-ready marker); see ${out%.png}.log" >&2
	exit 1
fi
if grep -q 'data-perfmut-errors=' "${out%.png}.dom.html"; then
	echo "$0: the page reported script errors; see ${out%.png}.dom.html" >&2
	exit 1
fi
echo "wrote $out"
