#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The view driver: every view runs the same steps, takes the options of its
# own table and one trace, and reports a failure by what went wrong, never
# as "out of memory" when memory was not what ran out.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
views="datagraph running-waiting overview tasks"

# A window of 1 ns at the trace's start, before every CPU records: the
# "not all CPUs recording" band reaches far right of the plot.  It used to
# be hatched all the way, a path too long for cairo, reported as "cannot
# draw the png image: out of memory".
for v in $views; do
	for ext in png pdf svg; do
		run "$SCHEDPLOT" $v -q --min 0 --max 0.000000001 -o "$TMP/short-$v.$ext" "$f"
		expect_status 0 "$v: 1 ns window before the complete window, $ext"
		if grep -q "out of memory" "$ERR"; then
			not_ok "$v: 1 ns window, $ext: reported as out of memory"
		fi
		check "$v: 1 ns window, $ext: written" test -s "$TMP/short-$v.$ext"
	done
	if command -v xmllint >/dev/null; then
		check "$v: 1 ns window: the SVG parses" xmllint --noout "$TMP/short-$v.svg"
	fi
done

for v in $views; do
	# one trace at a time, said as a usage error
	run "$SCHEDPLOT" $v -o "$TMP/two.png" "$f" "$f"
	expect_status 2 "$v: two traces"
	expect_grep "$ERR" "^schedplot: one trace file at a time \('.*overload.dat' is extra\)$" \
		"$v: two traces: one at a time"
	check "$v: two traces: nothing written" test ! -e "$TMP/two.png"

	run "$SCHEDPLOT" $v --help
	expect_status 0 "$v: --help"
	expect_grep "$OUT" "^usage: schedplot $v \[OPTIONS\] \[TRACE.dat\]" "$v: --help on stdout"
	run "$SCHEDPLOT" help $v
	expect_status 0 "help $v"
	expect_grep "$OUT" "^usage: schedplot $v " "help $v: the same text"
done

# an option of another view does not apply, and says so
run "$SCHEDPLOT" datagraph --csv "$TMP/x.csv" "$f"
expect_status 2 "datagraph --csv"
expect_grep "$ERR" "^schedplot: --csv does not apply to datagraph$" "datagraph --csv: does not apply"
run "$SCHEDPLOT" datagraph --no-shade "$f"
expect_status 2 "datagraph --no-shade"
run "$SCHEDPLOT" running-waiting --palette grey "$f"
expect_status 2 "running-waiting --palette"
expect_grep "$ERR" "^schedplot: --palette does not apply to running-waiting$" \
	"running-waiting --palette: does not apply"
run "$SCHEDPLOT" running-waiting --topology "$TMP/x" "$f"
expect_status 2 "running-waiting --topology"

# the output is checked before the pass: a missing directory fails at once,
# and the --csv file of a failed run is not left behind
mkdir "$TMP/out"
for v in running-waiting overview; do
	run "$SCHEDPLOT" $v -q --csv "$TMP/out/x.csv" -o "$TMP/missing/x.png" "$f"
	expect_status 1 "$v: image in a missing directory"
	expect_stderr_line "^schedplot: .*missing/x.png: cannot create output" \
		"$v: image in a missing directory: says so"
	run "$SCHEDPLOT" $v -q --csv "$TMP/out/x.csv" -o "$TMP/out/x.png" --height 64 "$f"
	expect_status 2 "$v: --height too small"
done
check "failed runs left no file behind" test -z "$(ls -A "$TMP/out")"

# The time-axis views share one default width, so one window's pictures line up.
for v in datagraph running-waiting overview; do
	run "$SCHEDPLOT" $v -q -o "$TMP/width-$v.png" "$f"
	w=$(python3 -c 'import struct, sys; print(struct.unpack(">I", open(sys.argv[1], "rb").read(20)[16:20])[0])' \
		"$TMP/width-$v.png" 2>/dev/null)
	check "$v: default PNG width 1600 (got $w)" test "$w" = 1600
	run "$SCHEDPLOT" $v -q -o "$TMP/width-$v.svg" "$f"
	check "$v: default SVG width 720pt" grep -q 'width="720pt"' "$TMP/width-$v.svg"
done
