#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a new user hit first: several traces of latency drawn into one
# image, whatever their number, under a title naming them all; and the
# smaller faults of words and layout the same trial found, each checked
# where it shows.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat

# latency of 3 + 3 runs (the README's before-*.dat after-*.dat) into an
# image: every input protected, none refused for their number
for i in 1 2 3; do
	cp "$f" "$TMP/before-$i.dat"
	cp "$f" "$TMP/after-$i.dat"
done
run "$SCHEDPLOT" latency -q -o "$TMP/l.svg" "$TMP"/before-*.dat "$TMP"/after-*.dat
expect_status 0 "latency of six traces into an image"
check "latency of six traces: the image is there" test -s "$TMP/l.svg"
expect_grep "$TMP/l.svg" '>before-1\.dat … after-3\.dat \(6 traces\)' \
	"latency of six traces: the title names the first and last and their number"
run "$SCHEDPLOT" latency -q --format png -o "$TMP/after-3.dat" "$TMP"/before-*.dat "$TMP"/after-*.dat
expect_status 2 "latency over the sixth input"
expect_stderr_line "refusing to write the image over the input file" \
	"latency over the sixth input: refused as an input"
check "latency over the sixth input: the trace is intact" cmp -s "$f" "$TMP/after-3.dat"
