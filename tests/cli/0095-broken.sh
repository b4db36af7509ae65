#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Broken and hostile traces, each made at test time from a bundled trace by
# tests/tools/broken.py: truncations at every section boundary and mid-page,
# empty and zero files, wrong magic, future versions, absurd page sizes and
# CPU counts, CPU data offsets past the end or backwards, zstd chunks that
# claim more than they hold, decompression bombs (zstd frames in a CPU data
# chunk, the event formats or the cmdlines that expand to 1 GiB while
# claiming their own size, or claim past the container's limits; also read
# through libtracecmd), formats missing the fields the views need,
# timestamps going backwards, huge pids and CPU numbers, and comm strings
# with control characters and invalid UTF-8.  stats, datagraph and
# running-waiting must draw (exit 0) or fail with one line (exit 1), never
# crash, hang or leave a file behind (tests/lib/hostile.sh); the bombs within
# 2 s and 200 MB.
. "$(dirname "$0")/../lib/lib.sh"
. "$SRCDIR/tests/lib/hostile.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "broken inputs: no python3 to make them"
	exit 0
fi
fix=$TMP/fixtures
if ! python3 "$SRCDIR/tests/tools/broken.py" "$TRACES/overload-v6.dat" "$TRACES/overload.dat" "$fix" \
	>"$TMP/list" 2>"$TMP/gen.err"; then
	not_ok "tests/tools/broken.py failed: $(tail -3 "$TMP/gen.err")"
	exit 0
fi
ok "tests/tools/broken.py made $(wc -l <"$TMP/list") fixtures"

while read -r name expect what; do
	hostile "$name" "$fix/$name.dat" "$expect"
done <"$TMP/list"

# the bundled trace with ring-buffer overruns: drawn, with a warning
hostile overflow "$TRACES/overflow.dat" 0
expect_grep "$ERR" "lost" "overflow.dat: running-waiting warns about lost events"

# a chunk that claims 256 MiB and the decompression bombs: every view
# (running-waiting too) refuses them with one line, within 2 s and 200 MB,
# before the memory is taken.  Time and memory are not checked under the
# sanitizers, which have their own.
if [ -x /usr/bin/time ]; then
	for name in zstd-claims-256m $(awk '$1 ~ /^zstd-bomb-/ { print $1 }' "$TMP/list"); do
		f=$fix/$name.dat
		for view in stats datagraph running-waiting; do
			d=$TMP/bomb-out
			rm -rf "$d"
			mkdir -p "$d"
			out=()
			[ $view = stats ] || out=(-o "$d/img.png")
			set +e
			/usr/bin/time -f '%e %M' -o "$TMP/usage" \
				timeout -k 5 "$HOSTILE_TIMEOUT" "$SCHEDPLOT" $view "$f" "${out[@]}" \
				>/dev/null 2>"$ERR"
			STATUS=$?
			set -e
			read -r secs rss <<<"$(tail -1 "$TMP/usage")"
			what="$name: $view: exit $STATUS in ${secs}s, ${rss} KiB resident"
			if [ "$STATUS" != 1 ] || [ "$(wc -l <"$ERR")" != 1 ] ||
			   ! grep -Fq "schedplot: $f: " "$ERR"; then
				not_ok "$what, expected exit 1 and one line: $(head -c 300 "$ERR")"
			elif [ -n "$(ls -A "$d")" ]; then
				not_ok "$what, left files behind: $(ls -A "$d" | tr '\n' ' ')"
			elif [ "${BUILD:-build}" != build-san ] &&
			     ! awk -v s="$secs" -v m="$rss" 'BEGIN { exit !(s < 2 && m < 200000) }'; then
				not_ok "$what, more than 2 s or 200000 KiB"
			else
				ok "$what"
			fi
		done
	done
else
	skip "decompression bombs: no /usr/bin/time to measure them (Debian package time)"
fi

# hostile comm strings reach the legends: SVG stays XML, PDF renders
f=$fix/nasty-comms.dat
run "$SCHEDPLOT" datagraph -q --color-by command "$f" -o "$TMP/nasty-bycmd.svg"
expect_status 0 "nasty comms: datagraph by command to SVG"
check "nasty comms: datagraph by command SVG parses (xmllint)" \
	xmllint --noout "$TMP/nasty-bycmd.svg"
for view in datagraph running-waiting; do
	run "$SCHEDPLOT" $view -q "$f" -o "$TMP/nasty-$view.svg"
	expect_status 0 "nasty comms: $view to SVG"
	check "nasty comms: $view SVG parses (xmllint)" xmllint --noout "$TMP/nasty-$view.svg"
	run "$SCHEDPLOT" $view -q "$f" -o "$TMP/nasty-$view.pdf"
	expect_status 0 "nasty comms: $view to PDF"
	check "nasty comms: $view PDF renders (pdftoppm)" \
		pdftoppm -r 20 -png "$TMP/nasty-$view.pdf" "$TMP/nasty-$view"
done
run "$SCHEDPLOT" stats --json "$f"
expect_status 0 "nasty comms: stats --json"
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" 2>/dev/null; then
	ok "nasty comms: stats --json is valid JSON"
else
	not_ok "nasty comms: stats --json is not valid JSON: $(head -c 300 "$OUT")"
fi
