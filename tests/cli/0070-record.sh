#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot record on this machine, when it can trace: the file has the
# sched events and the topology, our reader and trace-cmd report read it,
# the command's exit status comes back and the private instance is gone.
. "$(dirname "$0")/../lib/lib.sh"

tracefs=/sys/kernel/tracing
if [ "$(id -u)" != 0 ]; then
	skip "not root: schedplot record not tried"
	run "$SCHEDPLOT" record -o "$TMP/r.dat" -- true
	expect_status 1 "record as a normal user"
	expect_stderr_line "needs root" "record as a normal user"
	exit 0
fi
if [ ! -e "$tracefs/instances" ]; then
	skip "tracefs not mounted at $tracefs (mount -t tracefs nodev $tracefs): record not tried"
	exit 0
fi

tracefs_alone
f=$TMP/r.dat
run "$SCHEDPLOT" record -o "$f" -- sh -c 'sleep 0.2; for i in 1 2 3; do :; done; exit 3'
expect_status 3 "record -- COMMAND: the command's exit status is ours"
cp "$ERR" "$TMP/record.err"
check "record wrote $f" test -s "$f"
check "no instance is left behind" test -z "$(ls "$tracefs/instances" | grep '^schedplot-')"

run "$SCHEDPLOT" stats -q --json "$f"
expect_status 0 "stats on the recording"
expect_grep "$OUT" '"sched_records": [1-9]' "the recording has sched records"
expect_grep "$OUT" '"nr_cpus": '"$(nproc --all)"',' "the recording has every CPU"

if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report "$f" >"$TMP/report" 2>"$TMP/report.err"
	if [ $? = 0 ] && [ ! -s "$TMP/report.err" ]; then
		ok "trace-cmd report reads the recording silently"
	else
		not_ok "trace-cmd report: $(head -c 300 "$TMP/report.err")"
	fi
	expect_grep "$TMP/report" ': sched_switch: ' "trace-cmd report shows sched_switch records"
	expect_grep "$TMP/report" 'sched_process_exec: .*filename=/(usr/)?bin/sleep' \
		"the command's exec is in the trace"
	expect_grep "$TMP/report" 'print: .*schedplot-topology v1 0:[-0-9]+:[-0-9]+:[-0-9]+:[-0-9]+:[-0-9]+' \
		"the topology is in the trace as a print record"
	last=$(( $(nproc --all) - 1 ))
	expect_grep "$TMP/report" "schedplot-topology v1 .* $last:[-0-9:]+\$" \
		"the topology lists the last CPU ($last)"
	ours=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["records"])' "$OUT")
	theirs=$(grep -Ec '^ +.+ \[[0-9]+\] +[0-9]+\.[0-9]+: ' "$TMP/report")
	if [ "$ours" = "$theirs" ]; then
		ok "stats and trace-cmd report count the same $ours records"
	else
		not_ok "stats counts $ours records, trace-cmd report $theirs"
	fi
	# the summary counts records, and event types as such
	said=$(sed -n 's/^schedplot: .*: \([0-9]*\) records of [0-9]* event types on [0-9]* CPUs, [0-9]* pages$/\1/p' \
		"$TMP/record.err")
	if [ "$said" = "$theirs" ]; then
		ok "record's summary says the $theirs records trace-cmd report counts"
	else
		not_ok "record's summary says '${said:-$(head -c 200 "$TMP/record.err")}', trace-cmd report counts $theirs records"
	fi
else
	skip "trace-cmd not installed: recording not checked with trace-cmd report"
fi

# the power events: recorded where the kernel has them, skipped silently
# where it does not (named with -v)
run "$SCHEDPLOT" record -o "$TMP/p.dat" --duration 0.1
expect_status 0 "record --duration 0.1"
check "no word of power events without -v" test -z "$(grep -i power "$ERR")"
run "$SCHEDPLOT" record -v -o "$TMP/p.dat" --duration 0.1
expect_status 0 "record -v --duration 0.1"
for e in cpu_frequency cpu_idle; do
	if [ -e "$tracefs/events/power/$e" ]; then
		run "$SCHEDPLOT" datagraph -o "$TMP/p.png" --freq --idle-states "$TMP/p.dat"
		if grep -q "no power:$e events" "$ERR"; then
			not_ok "this kernel has power:$e but the recording lacks it"
		else
			ok "this kernel has power:$e: the recording holds it"
		fi
	else
		expect_grep "$ERR" "this kernel has no .*power:$e" \
			"this kernel lacks power:$e: record -v says it was left out"
	fi
done
# a kernel with the event but no cpufreq driver records none: --freq says so
if [ -e "$tracefs/events/power/cpu_frequency" ] && command -v trace-cmd >/dev/null 2>&1 &&
	! trace-cmd report "$TMP/p.dat" 2>/dev/null | grep -q ': cpu_frequency: '; then
	run "$SCHEDPLOT" datagraph -o "$TMP/p.png" --freq "$TMP/p.dat"
	expect_status 0 "--freq on a recording without cpu_frequency records"
	expect_grep "$ERR" "holds no power:cpu_frequency record: the frequency is unknown everywhere" \
		"--freq on a recording without cpu_frequency records: warns"
else
	skip "this kernel records power:cpu_frequency: its absence not tried here"
fi

# version 6, system-wide for a while
run "$SCHEDPLOT" record -q --file-version 6 --duration 0.2 -o "$TMP/r6.dat"
expect_status 0 "record --file-version 6 --duration 0.2"
run "$SCHEDPLOT" stats -q "$TMP/r6.dat"
expect_status 0 "stats on the version 6 recording"

# errors
run "$SCHEDPLOT" record -q -o "$TMP/bad.dat" -e sched:sched_swich -- true
expect_status 1 "an unknown event"
expect_stderr_line "unknown event 'sched:sched_swich' \(did you mean .*sched:sched_switch" \
	"an unknown event names close matches"
check "no file after an unknown event" test ! -e "$TMP/bad.dat"
run "$SCHEDPLOT" record -q -o "$TMP/nodir/x.dat" --duration 0.1
expect_status 1 "an output directory that does not exist"
run "$SCHEDPLOT" record -q -o "$TMP/bad.dat" -- /nonexistent/command
expect_status 1 "a command that does not exist"
expect_stderr_line "cannot run '/nonexistent/command'" "a command that does not exist"
check "no instance is left behind after errors" \
	test -z "$(ls "$tracefs/instances" | grep '^schedplot-')"
run "$SCHEDPLOT" record --duration x
expect_status 2 "a bad --duration"
run "$SCHEDPLOT" record --file-version 6 --compression zstd
expect_status 2 "--file-version 6 --compression zstd"

# -e as trace-cmd record takes it: a system, an event of any system, globs;
# the command writes ftrace:print through $SCHEDPLOT_TRACE_MARKER
if command -v trace-cmd >/dev/null 2>&1 && [ -e "$tracefs/events/irq/irq_handler_exit" ] &&
   [ -e "$tracefs/events/syscalls/sys_enter_futex" ]; then
	run "$SCHEDPLOT" record -q -o "$TMP/e.dat" -e sched -e 'irq:irq_handler_*' \
		-e sys_enter_futex -e ftrace:print -- \
		sh -c 'echo "phase one" > "$SCHEDPLOT_TRACE_MARKER"'
	expect_status 0 "record -e sched -e 'irq:irq_handler_*' -e sys_enter_futex"
	trace-cmd report -E "$TMP/e.dat" 2>/dev/null >"$TMP/e.events"
	for e in sched:sched_stat_runtime sched:sched_process_wait irq:irq_handler_entry \
		 irq:irq_handler_exit syscalls:sys_enter_futex; do
		expect_grep "$TMP/e.events" "^$e\$" "record -e: $e is in the file"
	done
	check "record -e sys_enter_futex: not its exit" \
		test -z "$(grep 'sys_exit_futex$' "$TMP/e.events")"
	run trace-cmd report "$TMP/e.dat"
	expect_grep "$OUT" "print: .*phase one" \
		"record: what the command wrote to \$SCHEDPLOT_TRACE_MARKER is in the trace"
	run "$SCHEDPLOT" record -q -o "$TMP/bad.dat" -e 'nosuchsystem:*' -- true
	expect_status 1 "record -e with a glob that matches nothing"
else
	skip "trace-cmd, irq or syscalls events missing: record -e forms not tried"
fi
