#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# datagraph --color-by FIELD and EVENT/FIELD: the time each value colors
# (-v) equals an independent reading of trace-cmd report
# (tests/oracle/report-colorby.py: the runs of report-stats.py, the values
# of trace-cmd report -F), per switch-in, per CPU, per task and over the
# trace, numbers and strings, on real recordings, one with lost events;
# few values are a legend, many a color bar; bad definitions are one line,
# exit 2.
. "$(dirname "$0")/../lib/lib.sh"
# full stacks for LeakSanitizer: libtraceevent has no frame pointers, and
# tests/tools/lsan.supp names its function that loses memory on a bad filter
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}fast_unwind_on_malloc=0

views=$TRACES/views
defs=(next_prio
      'sched:sched_switch/next_prio'
      'sched:sched_switch/prev_pid per=cpu'
      'sched:sched_waking/prio per=pid'
      'syscalls:sys_enter_futex/op per=task'
      'ftrace:print/buf ~ "phase*"/buf per=trace')

# "colors: LABEL: N ns" as "LABEL<TAB>N", the time of no value as "-"
colors() {
	sed -n 's/^schedplot: [^:]*: colors: \(.*\): \([0-9]*\) ns$/\1\t\2/p' "$1" |
		sed 's/^no switch-in record\t/-\t/; s/^before any [a-z_0-9]*\t/-\t/' | sort
}

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: no oracle for --color-by"
else
	for f in "$views/phases.dat" "$views/phases-lost.dat"; do
		name=views/$(basename "$f")
		for d in "${defs[@]}"; do
			run "$SCHEDPLOT" datagraph -v --color-by "$d" -o "$TMP/c.png" "$f"
			if [ "$STATUS" != 0 ]; then
				not_ok "$name: --color-by '$d': exit $STATUS: $(head -c 300 "$ERR")"
				continue
			fi
			colors "$ERR" >"$TMP/mine"
			if ! python3 "$SRCDIR/tests/oracle/report-colorby.py" "$f" "$d" 2>"$TMP/o.err" |
				sort >"$TMP/oracle"; then
				not_ok "$name: report-colorby.py '$d' failed: $(head -c 300 "$TMP/o.err")"
				continue
			fi
			if [ -s "$TMP/oracle" ] && cmp -s "$TMP/mine" "$TMP/oracle"; then
				ok "$name: --color-by '$d': the time of each of $(wc -l <"$TMP/oracle") values equals trace-cmd report's runs"
			else
				not_ok "$name: --color-by '$d': $(diff "$TMP/mine" "$TMP/oracle" | head -c 400)"
			fi
		done
	done
fi

f=$views/phases.dat
# the phases a program wrote color what ran after them, by their text
run "$SCHEDPLOT" datagraph -v --color-by 'ftrace:print/buf ~ "phase*"/buf per=trace' \
	-o "$TMP/p.svg" "$f"
expect_status 0 "--color-by a string of ftrace:print"
expect_grep "$ERR" "colors: phase 2: block: [0-9]+ ns" "--color-by ftrace:print/buf: a phase by its text"
expect_grep "$ERR" "colors: before any print: [0-9]+ ns" "--color-by ftrace:print/buf: the time before the first"
expect_grep "$TMP/p.svg" "phase 1: futex" "--color-by ftrace:print/buf: the legend names the phases"

# few values: legend entries; many: one color bar (a gradient) instead
run "$SCHEDPLOT" datagraph --color-by next_prio -o "$TMP/few.svg" "$f"
expect_status 0 "--color-by next_prio to SVG"
check "--color-by next_prio (few values): legend entries, no color bar" \
	test "$(grep -c linearGradient "$TMP/few.svg")" = 0
expect_grep "$TMP/few.svg" "next_prio 120" "--color-by next_prio: the legend names a value"
run "$SCHEDPLOT" datagraph --color-by 'sched:sched_switch/prev_pid per=cpu' -o "$TMP/many.svg" "$f"
expect_status 0 "--color-by prev_pid per=cpu to SVG"
check "--color-by prev_pid per=cpu (many values): a color bar" \
	grep -q linearGradient "$TMP/many.svg"
expect_grep "$TMP/many.svg" "prev_pid of the CPU's latest sched_switch" \
	"--color-by prev_pid per=cpu: the bar's title says what colors"

# a string field of the switch-in is a color too
run "$SCHEDPLOT" datagraph -v --color-by next_comm -o "$TMP/x.png" "$f"
expect_status 0 "--color-by next_comm (a string)"
expect_grep "$ERR" "colors: phases: [0-9]+ ns" "--color-by next_comm: the command's name is a value"

# bad definitions: one line, exit 2; an event the trace lacks, exit 1
run "$SCHEDPLOT" datagraph --color-by 'irq:irq_handler_entry/irqq' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by EVENT/FIELD of a field the event lacks"
expect_stderr_line "irq:irq_handler_entry has no field 'irqq'" "--color-by EVENT/FIELD lacking: names it"
run "$SCHEDPLOT" datagraph --color-by 'irq:irq_handler_entry/irq per=cpus' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by per= of a field the event lacks"
run "$SCHEDPLOT" datagraph --color-by 'irq:irq_handler_entry/irq per=name' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by per= a string field"
expect_stderr_line "name is a string, not a task's pid" "--color-by per= a string: says so"
run "$SCHEDPLOT" datagraph --color-by 'irq:irq_handler_entry/irq per=all' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by per= of no field"
run "$SCHEDPLOT" datagraph --color-by 'irq:irq_handler_entry/irq/irq' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by EVENT/FILTER/FIELD with a bad filter"
expect_stderr_line "bad filter 'irq'" "--color-by with a bad filter: names it"
run "$SCHEDPLOT" datagraph --color-by 'kvm:kvm_exit/reason' -o "$TMP/x.png" "$f"
expect_status 1 "--color-by of an event the trace lacks"
expect_stderr_line "the trace has no kvm:kvm_exit events" "--color-by of an event the trace lacks: says so"
run "$SCHEDPLOT" datagraph --color-by 'irq/irq' -o "$TMP/x.png" "$f"
expect_status 2 "--color-by of no event"
