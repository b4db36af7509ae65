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

# A trace of sched_switch alone (trace-cmd report: 851 sched_switch, no
# other record): waiting misses every woken task; say so, and give the
# wakeup latency no numbers rather than zeros
p=$TRACES/partial/switch-only.dat
run "$SCHEDPLOT" stats "$p"
expect_status 0 "stats of a trace without wakeups"
expect_grep "$ERR" 'switch-only\.dat: no wakeup events .*waiting is undercounted' \
	"stats of a trace without wakeups: warns that waiting is undercounted"
expect_grep "$OUT" '^records +851, 851 of them sched events: 851 switches, 0 wakeup events' \
	"stats of a trace without wakeups: 851 switches, as trace-cmd report counts"
expect_grep "$OUT" '^wakeup latency +no samples' "stats of a trace without wakeups: no samples, not 0 ns"
run "$SCHEDPLOT" stats -q --json "$p"
check "stats --json of a trace without wakeups: null statistics of no samples" python3 -c '
import json, sys
l = json.load(open(sys.argv[1]))["wakeup_latency_ns"]
sys.exit(not (l["count"] == 0 and all(l[k] is None for k in ("mean", "p50", "p90", "p99", "max"))))
' "$OUT"
run "$SCHEDPLOT" latency -o "$TMP/sw.png" "$p"
expect_grep "$ERR" 'no wakeup events' "latency of a trace without wakeups: warns"
expect_grep "$OUT" '^wakeup +0 +no samples$' "latency of a trace without wakeups: a row of no samples"
if grep -q '^wakeup .* 0 ns' "$OUT"; then
	not_ok "latency of a trace without wakeups: 0 ns for no samples"
else
	ok "latency of a trace without wakeups: no 0 ns for no samples"
fi
run "$SCHEDPLOT" latency -q --json -o "$TMP/sw.png" "$p"
check "latency --json of a trace without wakeups: null statistics of no samples" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
w, p = r["classes"]["wakeup"], r["classes"]["preempt"]
sys.exit(not (w["count"] == 0 and all(w[k] is None for k in ("min", "p50", "p90", "p99", "p999", "max", "mean"))
	      and p["count"] > 0 and isinstance(p["p50"], int)))
' "$OUT"
run "$SCHEDPLOT" stats "$f"
if grep -q 'no wakeup events' "$ERR"; then
	not_ok "stats of a trace with wakeups: warns of none"
else
	ok "stats of a trace with wakeups: no warning of missing wakeups"
fi

# compare -j is jobs, as for make and perf; --json is spelled out
c=$TRACES/compare
run "$SCHEDPLOT" compare -q -j 2 "$c"/t2-*.dat --vs "$c"/t3-*.dat
expect_status 0 "compare -j 2: jobs"
expect_grep "$OUT" '^duration ' "compare -j 2: the table, not JSON"
run "$SCHEDPLOT" compare -q --json -j 1 "$c"/t2-*.dat --vs "$c"/t3-*.dat
check "compare --json -j 1: JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUT"
run "$SCHEDPLOT" compare -j "$c"/t2-1.dat --vs "$c"/t3-1.dat
expect_status 2 "compare -j FILE: -j wants a count"
check "compare --help: -j is --jobs" grep -q -- '-j, --jobs N' <("$SCHEDPLOT" compare --help)

# -o DIR/ says it is a directory, not that the format is unknown
mkdir "$TMP/out"
for o in "$TMP/out/" "$TMP/out" "$TMP/none/"; do
	run "$SCHEDPLOT" datagraph -o "$o" "$f"
	expect_status 2 "datagraph -o ${o#$TMP/}"
	expect_grep "$ERR" "'${o//./\\.}' is a directory: give -o a file name in it" \
		"datagraph -o ${o#$TMP/}: says it is a directory"
done
run "$SCHEDPLOT" compare -o "$TMP/out/" "$c"/t2-1.dat --vs "$c"/t3-1.dat
expect_status 2 "compare -o DIR/"
expect_grep "$ERR" "is a directory: give -o a file name in it" "compare -o DIR/: says it is a directory"
check "nothing written into the directory" test -z "$(ls -A "$TMP/out")"

# a window inside the trace but under a nanosecond is said to be so, not
# to lie outside the trace
for cmd in datagraph stats; do
	o=()
	[ $cmd = datagraph ] && o=(-o "$TMP/w.png")
	run "$SCHEDPLOT" $cmd "${o[@]}" --min 100.1255ms --max 100.1255001ms "$f"
	expect_status 2 "$cmd, a window under a nanosecond"
	expect_stderr_line "shorter than a nanosecond.*436\.225065984 s" \
		"$cmd, a window under a nanosecond: says so, and where"
done
run "$SCHEDPLOT" datagraph -o "$TMP/w.png" --min 1000s --max 1001s "$f"
expect_grep "$ERR" "lies outside the trace" "a window past the end still lies outside the trace"
check "no image of a refused window" test ! -e "$TMP/w.png"

# lost capacity of a workload bound to CPU 0 (taskset -c 0): the trace
# cannot say that CPU 1 was out of bounds, but it shows every run on CPU 0
p=$TRACES/partial/taskset.dat
if command -v trace-cmd >/dev/null 2>&1; then
	cpus=$(trace-cmd report "$p" 2>/dev/null | grep -E 'sched_switch: .*barrier:[0-9]+ ' |
		sed -E 's/^[^[]*\[([0-9]+)\].*/\1/' | sort -u | tr '\n' ' ')
	if [ "$cpus" = "000 " ]; then
		ok "taskset.dat: trace-cmd report shows every switch of barrier on CPU 0"
	else
		not_ok "taskset.dat: trace-cmd report shows barrier's switches on CPUs $cpus"
	fi
else
	skip "trace-cmd not installed: taskset.dat not checked with trace-cmd report"
fi
run "$SCHEDPLOT" stats -q --target barrier "$p"
expect_status 0 "stats --target of a bound workload"
expect_grep "$OUT" '^ +all runs of the tasks counted were on CPU 0: .*affinity is not in the trace' \
	"stats --target of a bound workload: says every run was on CPU 0"
run "$SCHEDPLOT" stats -q --target barrier "$f"
if grep -q 'all runs of the tasks counted' "$OUT"; then
	not_ok "stats --target of threads on both CPUs: says they were on one"
else
	ok "stats --target of threads on both CPUs: no word of one CPU"
fi
check "schedplot-stats(1): affinity is not in the trace" \
	grep -q '^Affinity is not in the trace' "$SRCDIR/man/schedplot-stats.1"

# --target-tree follows children, exec or not (trace-cmd record -c): in
# overload.dat record.sh (6856) forked 6867, which ran exec (barrier) and
# forked the threads 6868-6873 (trace-cmd report's sched_process_fork)
if command -v trace-cmd >/dev/null 2>&1; then
	tree=$(trace-cmd report "$f" 2>/dev/null | python3 -c '
import re, sys
kids = {}
for l in sys.stdin:
    m = re.search(r"sched_process_fork: +comm=\S+ pid=(\d+) child_comm=\S+ child_pid=(\d+)", l)
    if m:
        kids.setdefault(int(m.group(1)), []).append(int(m.group(2)))
todo, seen = [6856], []
while todo:
    p = todo.pop()
    seen.append(p)
    todo += kids.get(p, [])
print(" ".join(map(str, sorted(seen))))')
else
	tree="6856 6867 6868 6869 6870 6871 6872 6873"
fi
run "$SCHEDPLOT" stats -q --json --target-tree record.sh "$f"
expect_status 0 "stats --target-tree record.sh"
got=$(python3 -c 'import json, sys; print(" ".join(str(t["pid"]) for t in sorted(json.load(open(sys.argv[1]))["tasks"], key=lambda t: t["pid"])))' "$OUT")
if [ "$got" = "$tree" ]; then
	ok "stats --target-tree record.sh: the tasks of its fork tree in trace-cmd report ($tree)"
else
	not_ok "stats --target-tree record.sh: tasks $got, trace-cmd report's tree $tree"
fi
run "$SCHEDPLOT" stats -q --json --target-process record.sh "$f"
got=$(python3 -c 'import json, sys; print(" ".join(str(t["pid"]) for t in json.load(open(sys.argv[1]))["tasks"]))' "$OUT")
check "stats --target-process record.sh: record.sh alone (barrier ran exec)" test "$got" = 6856
run "$SCHEDPLOT" runs --target-tree 6867 "$f"
got=$(awk -F, 'NR > 2 { print $4 }' "$OUT" | sort -u | tr '\n' ' ')
check "runs --target-tree 6867: the runs of 6867 and its threads" \
	test "$got" = "6867 6868 6869 6870 6871 6872 6873 "
run "$SCHEDPLOT" datagraph -q --target-tree record.sh -o "$TMP/tree.png" "$f"
expect_status 0 "datagraph --target-tree record.sh"
run "$SCHEDPLOT" compare -q --target-tree barrier "$c"/t2-1.dat --vs "$c"/t3-1.dat
expect_status 0 "compare --target-tree barrier"
run "$SCHEDPLOT" stats -q --target-tree nosuch "$f"
expect_status 1 "stats --target-tree of no task"
expect_stderr_line "no task of the trace matches --target-tree 'nosuch'" \
	"stats --target-tree of no task: says which option"
for cmd in datagraph overview running-waiting tasks latency stats runs compare; do
	check "$cmd --help lists --target-tree" grep -q -- '--target-tree PID|COMM' \
		<("$SCHEDPLOT" $cmd --help)
done

# --freq on a trace that describes power:cpu_frequency but holds no record
# of it (a kernel without cpufreq; trace-cmd keeps every event's format)
z=$SHARED/x86_64-1cpu-v7-zlib.dat
if [ -f "$z" ]; then
	run "$SCHEDPLOT" datagraph --freq merged -o "$TMP/freq.png" "$z"
	expect_status 0 "datagraph --freq on a trace without frequency records"
	expect_grep "$ERR" "holds no power:cpu_frequency record: the frequency is unknown everywhere" \
		"datagraph --freq on a trace without frequency records: warns"
	run "$SCHEDPLOT" datagraph -o "$TMP/nofreq.png" "$z"
	if grep -q 'power:cpu_frequency' "$ERR"; then
		not_ok "datagraph without --freq: a word of frequency records"
	else
		ok "datagraph without --freq: no word of frequency records"
	fi
else
	skip "the shared traces are not here: --freq without records not tried"
fi

# ... and running-waiting says it in the note above the graph
run "$SCHEDPLOT" running-waiting -q --target barrier --width 1600 -o "$TMP/bound.svg" "$p"
expect_status 0 "running-waiting --target of a bound workload"
expect_grep "$TMP/bound.svg" '>lost, counting barrier only: .* of capacity \(every run on CPU 0: affinity is not in the trace\)<' \
	"running-waiting --target of a bound workload: the note says every run was on CPU 0"
run "$SCHEDPLOT" running-waiting -q --target barrier --width 1600 -o "$TMP/free.svg" "$f"
if grep -q 'every run on CPU' "$TMP/free.svg"; then
	not_ok "running-waiting --target of threads on both CPUs: the note says one CPU"
else
	ok "running-waiting --target of threads on both CPUs: no word of one CPU"
fi
