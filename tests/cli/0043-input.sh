#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The input trace as trace-cmd takes it: -i FILE, or trace.dat in the
# current directory when no file is named (a clear usage error naming
# trace.dat when there is none), for every command that reads a trace.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/messaging.dat
mkdir "$TMP/empty" "$TMP/here"
cp "$f" "$TMP/here/trace.dat"

"$SCHEDPLOT" stats --json "$f" >"$TMP/want.json" 2>/dev/null
run "$SCHEDPLOT" stats --json -i "$f"
expect_status 0 "stats -i FILE"
check "stats -i FILE: the same numbers as the operand" cmp -s "$TMP/want.json" "$OUT"
run "$SCHEDPLOT" stats --json --input="$f"
check "stats --input=FILE: the same numbers" cmp -s "$TMP/want.json" "$OUT"

(cd "$TMP/here" && run "$SCHEDPLOT" stats --json && cp "$OUT" "$TMP/here.json" &&
	echo "$STATUS" >"$TMP/here.status")
check "stats in a directory with trace.dat: exit 0" test "$(cat "$TMP/here.status")" = 0
# (the file's name is in "file" and in the zoom commands of "look_at")
check "stats with no file reads ./trace.dat" \
	diff <(grep -v '"file"' "$TMP/want.json" | sed 's/"zoom": "[^"]*"//') \
	<(grep -v '"file"' "$TMP/here.json" | sed 's/"zoom": "[^"]*"//')
check "stats with no file: names trace.dat" grep -q '"file": "trace.dat"' "$TMP/here.json"

for cmd in stats datagraph running-waiting overview; do
	(cd "$TMP/empty" && run "$SCHEDPLOT" $cmd; echo "$STATUS" >"$TMP/st";
	 cp "$ERR" "$TMP/err")
	check "$cmd with no file and no trace.dat: exit 2" test "$(cat "$TMP/st")" = 2
	expect_grep "$TMP/err" "^schedplot: no trace file given, and no trace.dat in the current directory \(name one, or -i FILE\)$" \
		"$cmd with no file and no trace.dat: says so"
	check "$cmd with no file and no trace.dat: wrote nothing" test -z "$(ls -A "$TMP/empty")"

	run "$SCHEDPLOT" $cmd -i "$f" "$f"
	expect_status 2 "$cmd -i FILE FILE"
	expect_grep "$ERR" "one trace file at a time" "$cmd -i FILE FILE: one at a time"
done

for cmd in datagraph running-waiting overview; do
	run "$SCHEDPLOT" $cmd -q -o "$TMP/op-$cmd.svg" "$f"
	expect_status 0 "$cmd FILE"
	run "$SCHEDPLOT" $cmd -q -o "$TMP/i-$cmd.svg" -i "$f"
	expect_status 0 "$cmd -i FILE"
	check "$cmd -i FILE: the same image as the operand" \
		cmp -s "$TMP/op-$cmd.svg" "$TMP/i-$cmd.svg"
	(cd "$TMP/here" && "$SCHEDPLOT" $cmd -q >/dev/null 2>&1)
	check "$cmd in a directory with trace.dat: writes trace-$cmd.png" \
		test -s "$TMP/here/trace-$cmd.png"
done
