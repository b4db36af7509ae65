#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Times with units wherever a time is taken (--min, --max, --time): 100ms,
# 250us, 2s, 1.5ms, 300ns; a plain number counts seconds.  A window asked
# past the end of the trace is said on stderr.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/messaging.dat

# rw_csv NAME ARGS...: running-waiting's CSV of the window ARGS into $TMP/NAME.csv
rw_csv() {
	local name=$1
	shift
	run "$SCHEDPLOT" running-waiting -q "$@" -o "$TMP/$name.png" --csv "$TMP/$name.csv" "$f"
	expect_status 0 "running-waiting $*"
}

rw_csv plain --min 0.1 --max 0.15
rw_csv units --min 100ms --max 150000us
check "--min 100ms --max 150000us is --min 0.1 --max 0.15" cmp -s "$TMP/plain.csv" "$TMP/units.csv"
rw_csv plain2 --min 0.0015 --max 2
rw_csv units2 --min 1.5ms --max 2s
check "--min 1.5ms --max 2s is --min 0.0015 --max 2" cmp -s "$TMP/plain2.csv" "$TMP/units2.csv"
rw_csv plain3 --min 0.00025 --max 0.0003
rw_csv units3 --min 250us --max 300000ns
check "--min 250us --max 300000ns is --min 0.00025 --max 0.0003" \
	cmp -s "$TMP/plain3.csv" "$TMP/units3.csv"

start=$("$SCHEDPLOT" stats --json "$f" 2>/dev/null | sed -n 's/.*"start_ns": {"0": \([0-9]*\).*/\1/p')
start_s=$(awk -v n="$start" 'BEGIN { printf "%.9f", n / 1e9 }')
start_ms=$(awk -v n="$start" 'BEGIN { printf "%.6fms", n / 1e6 }')
rw_csv time_plain --time "$start_s,"
rw_csv time_units --time "$start_ms,"
check "--time START in ms is --time START in s" cmp -s "$TMP/time_plain.csv" "$TMP/time_units.csv"

for v in datagraph running-waiting overview; do
	for bad in 5m 1x 0x10 -1 inf ms "1.5 ms" " 1"; do
		run "$SCHEDPLOT" $v --max "$bad" -o "$TMP/bad.png" "$f"
		expect_status 2 "$v --max '$bad'"
	done
	run "$SCHEDPLOT" $v --min 10q -o "$TMP/bad.png" "$f"
	expect_grep "$ERR" "^schedplot: --min needs a time like 2.5, 100ms, 250us or 300ns" \
		"$v --min 10q: says what a time is"
	run "$SCHEDPLOT" $v --time 1ms,2hours -o "$TMP/bad.png" "$f"
	expect_status 2 "$v --time 1ms,2hours"
	check "$v: bad times wrote nothing" test ! -e "$TMP/bad.png"

	# past the end: a note, the image still made
	run "$SCHEDPLOT" $v --max 100s -o "$TMP/past-$v.png" "$f"
	expect_status 0 "$v --max 100s"
	expect_grep "$ERR" "^schedplot: .*messaging.dat: note: --max 100 s is past the end of the trace, which runs 2.970 s; the window ends there$" \
		"$v --max 100s: a note says the window ends at the trace's end"
	run "$SCHEDPLOT" $v --time ,1e6 -o "$TMP/past-$v.png" "$f"
	expect_grep "$ERR" "^schedplot: .*messaging.dat: note: --time's end 1000000 s is past the end of the trace" \
		"$v --time ,1e6: a note"
	run "$SCHEDPLOT" $v -q --max 100s -o "$TMP/past-$v.png" "$f"
	check "$v -q --max 100s: quiet" test ! -s "$ERR"
	run "$SCHEDPLOT" $v --max 1s -o "$TMP/past-$v.png" "$f"
	check "$v --max 1s: inside the trace, no note" test -z "$(grep note: "$ERR")"
done

# record --duration is a time too
for bad in 5m 0 0ms -1s; do
	run "$SCHEDPLOT" record --duration "$bad" -o "$TMP/r.dat"
	expect_status 2 "record --duration '$bad'"
	expect_grep "$ERR" "^schedplot: --duration needs a time above 0 like 10, 500ms or 2s" \
		"record --duration '$bad': says what a time is"
done
check "bad durations recorded nothing" test ! -e "$TMP/r.dat"
if [ "$(id -u)" = 0 ] && [ -e /sys/kernel/tracing/instances ]; then
	tracefs_alone
	start=$(date +%s%N)
	run "$SCHEDPLOT" record -q --duration 300ms -o "$TMP/r.dat"
	expect_status 0 "record --duration 300ms"
	took=$((($(date +%s%N) - start) / 1000000))
	check "record --duration 300ms: stopped after 300 ms, not 300 s (took $took ms)" \
		test "$took" -lt 30000
	check "record --duration 300ms: wrote the trace" test -s "$TMP/r.dat"
else
	skip "record --duration with a unit: needs root and tracefs"
fi
