#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stats --by command: the tasks merged by command name, as perf sched
# latency merges threads: run, wait, wakeups and migrations summed, the
# threads counted; longest run first.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/messaging.dat

# tasks_merged: "comm threads run wait wakeups migrations" from the tasks of a
# stats JSON (on stdin), merged here, sorted by name
tasks_merged() {
	sed -n 's/^    {"pid": [0-9]*, "comm": "\(.*\)", "ppid": [0-9-]*, "run_ns": \([0-9]*\), "wait_ns": \([0-9]*\), "wakeups": \([0-9]*\), "migrations": \([0-9]*\)[,}].*/\1\t\2\t\3\t\4\t\5/p' |
		awk -F'\t' '{ n[$1]++; r[$1] += $2; w[$1] += $3; k[$1] += $4; m[$1] += $5 }
			END { for (c in n) printf "%s %d %.0f %.0f %d %d\n", c, n[c], r[c], w[c], k[c], m[c] }' |
		LC_ALL=C sort
}

# commands: the same from the commands of a stats --by command JSON
commands() {
	sed -n 's/^    {"comm": "\(.*\)", "threads": \([0-9]*\), "run_ns": \([0-9]*\), "wait_ns": \([0-9]*\), "wakeups": \([0-9]*\), "migrations": \([0-9]*\)[,}].*/\1 \2 \3 \4 \5 \6/p'
}

for trace in "$f" "$TRACES/overload.dat"; do
	name=$(basename "$trace")
	"$SCHEDPLOT" stats -q --json "$trace" | tasks_merged >"$TMP/want"
	run "$SCHEDPLOT" stats -q --json --by command "$trace"
	expect_status 0 "$name: stats --json --by command"
	commands <"$OUT" >"$TMP/got"
	check "$name: some commands listed" test -s "$TMP/got"
	check "$name: the commands are the tasks merged by name" \
		cmp -s "$TMP/want" <(LC_ALL=C sort "$TMP/got")
	check "$name: longest run first" \
		cmp -s "$TMP/got" <(LC_ALL=C sort -k3,3nr -k1,1 "$TMP/got")
	check "$name: no tasks array with --by command" test -z "$(grep '"tasks"' "$OUT")"
	check "$name: the rest of the JSON unchanged" \
		cmp -s <("$SCHEDPLOT" stats -q --json "$trace" | sed '/"tasks"/,$d') \
		<(sed '/"commands"/,$d' "$OUT")
done

# 401 sched-messaging threads are one line of the text
run "$SCHEDPLOT" stats -q --by command "$f"
expect_status 0 "stats --by command"
expect_grep "$OUT" "^top 13 of 13 commands by run time, threads merged by name$" \
	"stats --by command: the table's title"
expect_grep "$OUT" "^sched-messaging +401 +5\.681 s +721\.759 s +2798 +918$" \
	"stats --by command: sched-messaging merged"
run "$SCHEDPLOT" stats -q --by command --top 3 "$f"
check "stats --by command --top 3: three rows" \
	test "$(sed -n '/^comm  *threads/,/^$/p' "$OUT" | grep -c .)" = 4
run "$SCHEDPLOT" stats -q --by command --target 'kworker*' --json "$f"
check "stats --by command --target: only those commands" \
	test "$(commands <"$OUT" | cut -d' ' -f1 | tr '\n' ' ')" = "kworker/1:0 kworker/0:1 kworker/u8:2 kworker/1:1H "
run "$SCHEDPLOT" stats -q --by task "$f"
check "stats --by task: the default" cmp -s "$OUT" <("$SCHEDPLOT" stats -q "$f")

run "$SCHEDPLOT" stats --by thread "$f"
expect_status 2 "stats --by thread"
expect_grep "$ERR" "^schedplot: --by must be task or command, not 'thread'$" "stats --by thread: says so"
