#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input and bad usage: exit 1 or 2 with one clear line naming the file.
. "$(dirname "$0")/../lib/lib.sh"

: >"$TMP/empty.dat"
head -c 65536 /dev/urandom >"$TMP/random.dat"
printf 'this is a text file\nnot a trace\n' >"$TMP/text.dat"
mkdir "$TMP/dir.dat"

run "$SCHEDPLOT" stats "$TMP/empty.dat"
expect_status 1 "empty file"
expect_stderr_line "^schedplot: .*empty.dat: .*empty" "empty file"

run "$SCHEDPLOT" stats "$TMP/random.dat"
expect_status 1 "random bytes"
expect_stderr_line "^schedplot: .*random.dat: .*not a trace-cmd" "random bytes"

run "$SCHEDPLOT" stats "$TMP/text.dat"
expect_status 1 "text file"
expect_stderr_line "^schedplot: .*text.dat: .*not a trace-cmd" "text file"

run "$SCHEDPLOT" stats "$TMP/missing.dat"
expect_status 1 "missing file"
expect_stderr_line "^schedplot: .*missing.dat: cannot open: No such file" "missing file"

run "$SCHEDPLOT" stats "$TMP/dir.dat"
expect_status 1 "directory"
expect_stderr_line "^schedplot: .*dir.dat: .*directory" "directory"

# truncated copies of a real trace, cut at several offsets
src=$TRACES/overload.dat
size=$(stat -c %s "$src")
for cut in 8 100 1000 10000 $((size / 4)) $((size / 2)) $((size * 3 / 4)) $((size - 1000)) $((size - 1))
do
	head -c "$cut" "$src" >"$TMP/cut.dat"
	run "$SCHEDPLOT" stats "$TMP/cut.dat"
	expect_status 1 "overload.dat cut at $cut bytes"
	expect_stderr_line "^schedplot: .*cut.dat: (offset 0x[0-9a-f]+: )?.*truncated" \
		"overload.dat cut at $cut bytes"
done

# a real trace with no sched events (only other events)
f=$TRACES/unusable/no-sched.dat
if [ -f "$f" ]; then
	run "$SCHEDPLOT" stats "$f"
	expect_status 1 "trace without sched events"
	expect_stderr_line "^schedplot: .*no-sched.dat: no scheduler events" \
		"trace without sched events"
else
	not_ok "traces/unusable/no-sched.dat is missing"
fi

run "$SCHEDPLOT" stats
expect_status 2 "no trace given"
expect_grep "$ERR" "Try 'schedplot stats --help'" "no trace given: points to --help"

run "$SCHEDPLOT" stats --bogus "$src"
expect_status 2 "unknown option"

run "$SCHEDPLOT" stats --top x "$src"
expect_status 2 "bad --top"

run "$SCHEDPLOT" frobnicate
expect_status 2 "unknown command"

run "$SCHEDPLOT" stats --help
expect_status 0 "stats --help"
expect_grep "$OUT" "^usage: schedplot stats" "stats --help prints usage on stdout"
