#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot record --view FILE: the events the view's --mark, --span and
# --color-by need are recorded with the sched events, each once (-v names
# them; checked for every view of contrib/views without recording), and,
# where this machine can trace, a recording made so is drawn and counted
# by the same view as trace-cmd report reads it.
. "$(dirname "$0")/../lib/lib.sh"

views=$SRCDIR/contrib/views

# needs VIEW-OR-OPTION...: the events record -v says the options need, sorted;
# an invalid --duration stops it before anything is recorded
needs() {
	run "$SCHEDPLOT" record -v "$@" --duration 0 -o "$TMP/none.dat"
	sed -n "s/^schedplot: --[a-z-]* '.*' needs \([a-z_0-9:]*\)$/\1/p" "$ERR" | sort | tr '\n' ' '
}

for c in "interrupts:irq:irq_handler_entry irq:irq_handler_exit " \
	"futex:syscalls:sys_enter_futex syscalls:sys_exit_futex " \
	"block-io:block:block_rq_complete block:block_rq_issue " \
	"phases:ftrace:print "; do
	v=${c%%:*}
	want=${c#*:}
	got=$(needs --view "$views/$v.view")
	check "record --view $v.view records $want(got: $got)" test "$got" = "$want"
done
got=$(needs @"$views/futex.view" --view "$views/interrupts.view" \
	--color-by 'irq:irq_handler_entry/irq' --color-by command --mark 'sched:sched_waking/prio < 100/')
want="irq:irq_handler_entry irq:irq_handler_exit sched:sched_waking syscalls:sys_enter_futex syscalls:sys_exit_futex "
check "record with two views, --color-by and --mark: each event once ($got)" test "$got" = "$want"
run "$SCHEDPLOT" record --span 'irq:irq_handler_entry..irq:irq_handler_exit' -o "$TMP/none.dat"
expect_status 2 "record --span without a key"
expect_grep "$ERR" "add key=FIELD" "record --span without a key: says what is missing"
run "$SCHEDPLOT" record --color-by 'irq/irq' -o "$TMP/none.dat"
expect_status 2 "record --color-by of no event"

tracefs=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -e "$tracefs/instances" ]; then
	skip "not root or no tracefs at $tracefs: record --view not tried on this machine"
	exit 0
fi
if ! grep -q '^irq_handler_entry$' <(ls "$tracefs/events/irq" 2>/dev/null); then
	skip "this kernel has no irq:irq_handler_entry: record --view interrupts.view not tried"
	exit 0
fi

tracefs_alone
f=$TMP/v.dat
run "$SCHEDPLOT" record -q --view "$views/interrupts.view" --view "$views/phases.view" -o "$f" \
	-- sh -c 'for p in "1: one" "2: two" "3: three"; do
			echo "phase $p" >"$SCHEDPLOT_TRACE_MARKER"; sleep 0.1; done'
expect_status 0 "record --view interrupts.view --view phases.view -- COMMAND"
run "$SCHEDPLOT" stats -q --json --view "$views/interrupts.view" --view "$views/phases.view" "$f"
expect_status 0 "stats with the same views reads the recording"
cp "$OUT" "$TMP/stats.json"
expect_grep "$TMP/stats.json" '"name": "phases",[^}]*"count": 2,' "the recording's two phases the third does not end"
if command -v trace-cmd >/dev/null && command -v python3 >/dev/null; then
	python3 "$SRCDIR/tests/oracle/report-spans.py" "$f" \
		--span 'irq:irq_handler_entry..irq:irq_handler_exit key=irq' \
		--mark 'ftrace:print/buf ~ "phase*"/' >"$TMP/oracle" 2>"$TMP/oracle.err"
	want=$(awk '$1 == "span" { print $3 }' "$TMP/oracle")
	got=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print(next(k["count"] for k in s["spans"] if k["name"] == "irq handlers"))' "$TMP/stats.json")
	check "the recording's interrupt handlers: $got, as trace-cmd report (${want:-?})" \
		test -n "$want" -a "$got" = "$want"
else
	skip "trace-cmd or python3 missing: the recording not compared with trace-cmd report"
fi
run "$SCHEDPLOT" datagraph --view "$views/interrupts.view" --view "$views/phases.view" \
	--color-by 'ftrace:print/buf ~ "phase*"/buf per=trace' -o "$TMP/v.png" "$f"
expect_status 0 "datagraph with the views and --color-by the phases draws the recording"
