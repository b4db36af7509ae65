#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# --mark and --span: the counts, totals, percentiles and unmatched ends of
# stats --json equal an independent reading of trace-cmd report with the
# same filters (tests/oracle/report-spans.py: trace-cmd's own -F), on real
# recordings of interrupts, futex calls and block requests, one of them
# with lost events; sched events take marks too; a bad filter or an
# unknown field is one line naming it, exit 2.
. "$(dirname "$0")/../lib/lib.sh"

views=$TRACES/views
defs=(--span 'irq:irq_handler_entry..irq:irq_handler_exit key=irq'
      --span 'syscalls:sys_enter_futex..syscalls:sys_exit_futex key=common_pid'
      --span 'block:block_rq_issue..block:block_rq_complete key=dev,sector'
      --mark 'sched:sched_waking/prio < 100/'
      --mark 'sched:sched_switch/prev_state == 1 && next_pid != 0/'
      --mark 'irq:irq_handler_entry/name ~ "virtio*" || irq < 2/')

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: no oracle for --mark and --span"
else
	for f in "$views/phases.dat" "$views/phases-lost.dat"; do
		name=views/$(basename "$f")
		run "$SCHEDPLOT" stats -q --json "${defs[@]}" "$f"
		expect_status 0 "$name: stats --json with --span and --mark"
		cp "$OUT" "$TMP/stats.json"
		if ! python3 "$SRCDIR/tests/oracle/report-spans.py" "$f" "${defs[@]}" \
			>"$TMP/oracle" 2>"$TMP/oracle.err"; then
			not_ok "$name: report-spans.py failed: $(head -c 300 "$TMP/oracle.err")"
			continue
		fi
		if msg=$(python3 - "$TMP/stats.json" "$TMP/oracle" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2])]
spans = [l for l in lines if l[0] == "span"]
marks = [l for l in lines if l[0] == "mark"]
assert len(spans) == len(s["spans"]) == 3 and len(marks) == len(s["marks"]) == 3
keys = ["count", "total_ns", "p50_ns", "p99_ns", "max_ns", "unmatched_start",
        "unmatched_end", "across_lost"]
for o, j in zip(spans, s["spans"]):
    mine = [j[k] if j[k] is not None else "-" for k in keys]
    if [str(v) for v in mine] != o[2:]:
        sys.exit("%s: schedplot %s, trace-cmd report %s" % (j["name"], mine, o[2:]))
for o, j in zip(marks, s["marks"]):
    if str(j["count"]) != o[2]:
        sys.exit("%s: schedplot %s, trace-cmd report %s" % (j["name"], j["count"], o[2]))
lost = sum(s["lost_events"].values())
print("%d spans, %d unmatched ends, %d across lost records (%d lost)" % (
    sum(j["count"] for j in s["spans"]), sum(j["unmatched_end"] for j in s["spans"]),
    sum(j["across_lost"] for j in s["spans"]), lost))
PY
		); then
			ok "$name: spans and marks equal trace-cmd report -F: $msg"
		else
			not_ok "$name: $msg"
		fi
	done
	# the edges and the losses are exercised, not only the easy middle
	run "$SCHEDPLOT" stats -q --json "${defs[@]}" "$views/phases-lost.dat"
	check "phases-lost.dat: records were lost and some spans lie across them" \
		python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
sys.exit(not (sum(s["lost_events"].values()) and sum(j["across_lost"] for j in s["spans"])
              and sum(j["unmatched_end"] for j in s["spans"])))' "$OUT"

	# the text of ftrace:print, which trace-cmd report -F cannot filter (its
	# "char buf[]" reads as empty in libtraceevent): counted from the text
	want=$(trace-cmd report -R "$views/phases.dat" 2>/dev/null | grep -c 'print: .*buf=phase [12]:')
	run "$SCHEDPLOT" stats -q --json --mark 'ftrace:print/buf ~ "phase [12]:*"/' \
		"$views/phases.dat"
	check "views/phases.dat: --mark ftrace:print/buf ~ GLOB/ counts the $want phases it names" \
		grep -q "\"count\": $want}" "$OUT"

	# the datagraph draws as many marks as it counts; sched events are marked too
	want=$(trace-cmd report -F 'sched_switch' "$views/phases.dat" 2>/dev/null |
	       grep -c 'sched_switch:')
	run "$SCHEDPLOT" datagraph -v --events sched:sched_switch \
		--mark 'ftrace:print/buf ~ "phase*"/' -o "$TMP/marks.png" "$views/phases.dat"
	expect_status 0 "datagraph --events sched:sched_switch --mark ftrace:print"
	expect_grep "$ERR" "marks: sched:sched_switch: $want\$" \
		"datagraph --events sched:sched_switch: $want marks, as trace-cmd report"
	expect_grep "$ERR" 'marks: print: buf ~ "phase\*": 3$' \
		"datagraph --mark ftrace:print: the three phases"
fi

t=$views/phases.dat
run "$SCHEDPLOT" stats --mark 'sched:sched_waking/prioo < 100/' "$t"
expect_status 2 "--mark with an unknown field"
expect_stderr_line "sched:sched_waking has no field 'prioo' \\(its fields: .*prio" \
	"--mark with an unknown field: names it and the fields there are"
run "$SCHEDPLOT" datagraph --mark 'sched:sched_waking/(prio < 100/' -o "$TMP/x.png" "$t"
expect_status 2 "--mark with a bad filter"
expect_stderr_line "bad filter '\\(prio < 100' for sched:sched_waking" \
	"--mark with a bad filter: says so in one line"
check "--mark with a bad filter: no image" test ! -e "$TMP/x.png"
run "$SCHEDPLOT" stats --span 'irq:irq_handler_entry..irq:irq_handler_exit' "$t"
expect_status 2 "--span without key="
expect_grep "$ERR" "add key=FIELD" "--span without key=: says what to add"
run "$SCHEDPLOT" stats --span 'irq:irq_handler_entry..irq:irq_handler_exit key=name' "$t"
expect_status 2 "--span with a key the end event lacks"
expect_stderr_line "irq:irq_handler_exit has no field 'name'" \
	"--span with a key the end event lacks: names the event and the field"
run "$SCHEDPLOT" stats --span 'irq:irq_handler_entry..irq key=irq' "$t"
expect_status 2 "--span with a bad end event"
run "$SCHEDPLOT" stats --mark 'kvm:kvm_exit' "$t"
expect_status 1 "--mark of an event the trace lacks"
expect_stderr_line "the trace has no kvm:kvm_exit events \\(record them with -e kvm:kvm_exit\\)" \
	"--mark of an event the trace lacks: says how to record it"

# --color-by FIELD: each run colored by a field of its switch-in record
run "$SCHEDPLOT" datagraph -v --color-by next_prio -o "$TMP/prio.png" "$t"
expect_status 0 "datagraph --color-by next_prio"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -F 'sched_switch: next_pid != 0' "$t" 2>/dev/null |
		sed -n 's/.*==> .*\[\([0-9]*\)\]$/\1/p' | sort -u >"$TMP/prios"
	sed -n 's/.*colors: next_prio \([0-9-]*\): .*/\1/p' "$ERR" | sort -u >"$TMP/drawn"
	check "--color-by next_prio: the values drawn ($(tr '\n' ' ' <"$TMP/drawn")) are values of switches to a task in trace-cmd report ($(tr '\n' ' ' <"$TMP/prios"))" \
		test -s "$TMP/drawn" -a -z "$(comm -23 "$TMP/drawn" "$TMP/prios")"
fi
expect_grep "$ERR" "colors: next_prio 120: [0-9]+ ns" "--color-by next_prio: the usual priority is drawn"
run "$SCHEDPLOT" datagraph --color-by next_prioo -o "$TMP/x.png" "$t"
expect_status 2 "--color-by with a field sched_switch lacks"
expect_stderr_line "sched:sched_switch has no field 'next_prioo'" \
	"--color-by with a field sched_switch lacks: names it"
run "$SCHEDPLOT" datagraph --color-by next_prio --colors-out "$TMP/c.json" -o "$TMP/x.png" "$t"
expect_status 2 "--color-by FIELD with --colors-out"
run "$SCHEDPLOT" tasks --color-by next_prio -o "$TMP/x.png" "$t"
expect_status 2 "tasks --color-by next_prio (the datagraph's only)"
