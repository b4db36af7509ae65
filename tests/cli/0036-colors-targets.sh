#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Colors told apart, processes by tgid, and targets by command, pid or
# process: the README's zooms of traces/overload.dat keep every two colors
# of the chart at least OKLab 0.10 apart, 0.18 when there are at most four
# (read back from the SVG);
# --color-by process gives the benchmark's threads one color and not the
# shell's; --target 6871 and --target-process select what they name in
# every command that takes --target; a target that matches nothing is a
# warning naming it, or an error when nothing at all matches; the
# running-waiting note says which tasks it counts.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
ov6=$TRACES/overload-v6.dat

# task colors of an SVG (text and white left out), one "r g b" in 0..1 a line
fills() {
	grep -o 'fill:rgb([^)]*)' "$1" | sort -u | sed 's/fill:rgb(//; s/)//; s/%//g; s/,/ /g' |
		awk '{ printf "%.6f %.6f %.6f\n", $1 / 100, $2 / 100, $3 / 100 }' |
		grep -v '^0.100000 0.100000 0.100000$' | grep -v '^1.000000 1.000000 1.000000$' || true
}

# the least OKLab distance between two of the colors on stdin (and white, with "white")
min_distance() {
	python3 -c '
import sys
def lin(x): return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
def oklab(r, g, b):
    r, g, b = lin(r), lin(g), lin(b)
    l = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
c = [oklab(*map(float, x.split())) for x in sys.stdin if x.strip()]
if sys.argv[1:] == ["white"]:
    c.append(oklab(1, 1, 1))
print(min(sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5
          for i, a in enumerate(c) for b in c[:i]) if len(c) > 1 else 9)' "$@"
}

# ---- colors told apart ----
# The keys' own colors: --aggregate longest draws every cell in its key's
# full color (the default mixes partly busy cells with white, 0030 checks
# those tints).

for args in "--min 0.1 --max 0.12" "--min 0.1075 --max 0.1077" \
	    "--color-by command --min 0.0995 --max 0.1005" "--color-by command --min 0.1 --max 0.12" \
	    "--palette colorblind --min 0.1 --max 0.12"; do
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q --aggregate longest $args -o "$TMP/c.svg" "$f"
	expect_status 0 "datagraph $args"
	n=$(fills "$TMP/c.svg" | wc -l)
	d=$(fills "$TMP/c.svg" | min_distance white)
	if awk -v d="$d" 'BEGIN { exit !(d >= 0.0995) }'; then
		ok "datagraph $args: $n colors and white, at least $d apart"
	else
		not_ok "datagraph $args: two of $n colors and white only $d apart (want 0.10)"
	fi
	# the busiest four keep 0.18 from each other (the colorblind palette's three)
	case $n,$args in
	[1-4],*colorblind*) continue ;;
	[1-4],*) ;;
	*) continue ;;
	esac
	d=$(fills "$TMP/c.svg" | min_distance)
	if awk -v d="$d" 'BEGIN { exit !(d >= 0.1795) }'; then
		ok "datagraph $args: the $n colors at least $d apart from each other"
	else
		not_ok "datagraph $args: two of $n colors only $d apart (want 0.18)"
	fi
done

# ---- processes ----

run "$SCHEDPLOT" datagraph -q --aggregate longest --no-legend --cpus 0 --min 0.1 --max 0.12 \
	--color-by pid \
	-o "$TMP/pid.svg" "$f"
expect_status 0 "--color-by pid"
n=$(fills "$TMP/pid.svg" | wc -l)
check "--color-by pid: the barrier threads on CPU 0 in several colors ($n)" test "$n" -ge 3
run "$SCHEDPLOT" datagraph -q --aggregate longest --no-legend --cpus 0 --min 0.1 --max 0.12 \
	--color-by process \
	-o "$TMP/proc.svg" "$f"
expect_status 0 "--color-by process"
n=$(fills "$TMP/proc.svg" | wc -l)
check "--color-by process: the barrier threads in one color ($n)" test "$n" -eq 1
run "$SCHEDPLOT" datagraph -q --color-by process -o "$TMP/proc-all.svg" "$f"
run "$SCHEDPLOT" datagraph -q --color-by parent -o "$TMP/parent-all.svg" "$f"
expect_status 0 "--color-by parent"
check "--color-by parent is --color-by process" cmp -s "$TMP/proc-all.svg" "$TMP/parent-all.svg"
# the shell that started the benchmark (record.sh, 6856) is a process of its own
run "$SCHEDPLOT" datagraph -q --aggregate longest --no-legend --color-by process \
	--target-process 6856 \
	-o "$TMP/shell.svg" "$f"
expect_status 0 "--target-process 6856 (the shell)"
n=$(fills "$TMP/shell.svg" | grep -vc '^0.000000 0.000000 0.000000$' || true)
check "--target-process 6856: only the shell in color, not the benchmark ($n)" test "$n" -eq 1

# ---- targets: stats ----

tasks() { awk '/^ +pid +comm/ { on = 1; next } on && !NF { exit } on { print $1 }' "$OUT" | sort | tr '\n' ' '; }

run "$SCHEDPLOT" stats -q --target 6871 "$f"
expect_status 0 "stats --target 6871"
check "stats --target 6871: that thread only" test "$(tasks)" = "6871 "
run "$SCHEDPLOT" stats -q --target-process 6867 "$f"
expect_status 0 "stats --target-process 6867"
check "stats --target-process 6867: the process's 7 threads" \
	test "$(tasks)" = "6867 6868 6869 6870 6871 6872 6873 "
run "$SCHEDPLOT" stats -q --target-process barrier "$f"
check "stats --target-process barrier: the same by the leader's command" \
	test "$(tasks)" = "6867 6868 6869 6870 6871 6872 6873 "
run "$SCHEDPLOT" stats -q --json --target 6871 --target-process 6856 "$f"
check "stats --json: the scope names the targets" \
	grep -q '"targets": \["6871"\], "target_processes": \["6856"\]' "$OUT"

# ---- targets: runs, against trace-cmd report ----

run "$SCHEDPLOT" runs -q --target 6871 "$f"
expect_status 0 "runs --target 6871"
check "runs --target 6871: only pid 6871" awk -F, 'NR > 2 && $4 != 6871 { exit 1 }' "$OUT"
n=$(awk 'NR > 2' "$OUT" | wc -l)
check "runs --target 6871: some runs ($n)" test "$n" -gt 100
if command -v trace-cmd >/dev/null; then
	want=$(trace-cmd report "$f" 2>/dev/null | grep -c 'sched_switch:.*==> barrier:6871 ' || true)
	check "runs --target 6871: one run per switch to it in trace-cmd report ($want), +-repairs" \
		test "$n" -ge "$want"
fi

# ---- a target that matches nothing ----

for cmd in datagraph running-waiting overview latency; do
	run "$SCHEDPLOT" "$cmd" -q --target no-such-task -o "$TMP/none-$cmd.png" "$f"
	expect_status 1 "$cmd --target no-such-task"
	expect_grep "$ERR" "no task of the trace matches --target 'no-such-task'" \
		"$cmd --target no-such-task: named"
	check "$cmd --target no-such-task: no image" test ! -e "$TMP/none-$cmd.png"
	run "$SCHEDPLOT" "$cmd" --target no-such-task,barrier -o "$TMP/some-$cmd.png" "$f"
	expect_status 0 "$cmd --target no-such-task,barrier: barrier is still drawn"
	expect_grep "$ERR" "warning: .*no task matches --target 'no-such-task'" \
		"$cmd --target no-such-task,barrier: warns naming it"
done
run "$SCHEDPLOT" datagraph --target-process 99999 -o "$TMP/none-proc.png" "$f"
expect_status 1 "datagraph --target-process 99999"
expect_grep "$ERR" "matches --target-process '99999'" "--target-process 99999: named"
run "$SCHEDPLOT" stats --target no-such-task "$f"
expect_status 1 "stats --target no-such-task"
run "$SCHEDPLOT" runs --target no-such-task -o "$TMP/none.csv" "$f"
expect_status 1 "runs --target no-such-task"
check "runs --target no-such-task: no CSV" test ! -e "$TMP/none.csv"
if [ -f "$ov6" ]; then
	run "$SCHEDPLOT" compare --target-process barrier --target no-such-task "$f" --vs "$ov6"
	expect_status 0 "compare --target-process barrier"
	expect_grep "$ERR" "warning: .*no task matches --target 'no-such-task'" \
		"compare: warns about the target that matches nothing"
	run "$SCHEDPLOT" compare -q --target 6871 "$f" --vs "$ov6"
	expect_status 0 "compare --target 6871"
fi

# ---- the note says what running-waiting counts ----

if command -v pdftotext >/dev/null; then
	run "$SCHEDPLOT" running-waiting -q --target barrier -o "$TMP/rw.pdf" "$f"
	expect_status 0 "running-waiting --target barrier"
	pdftotext "$TMP/rw.pdf" "$TMP/rw.txt"
	expect_grep "$TMP/rw.txt" "lost, counting barrier only: " "the note: counting barrier only"
	run "$SCHEDPLOT" running-waiting -q --target barrier --shade columns -o "$TMP/rw2.pdf" "$f"
	pdftotext "$TMP/rw2.pdf" "$TMP/rw2.txt"
	expect_grep "$TMP/rw2.txt" "idle while waiting, counting barrier only: " \
		"--shade columns: idle while waiting, counting barrier only"
	run "$SCHEDPLOT" overview -q --target-process 6867 -o "$TMP/ov.pdf" "$f"
	pdftotext "$TMP/ov.pdf" "$TMP/ov.txt"
	expect_grep "$TMP/ov.txt" "counting process 6867 only" "overview: counting process 6867 only"
	run "$SCHEDPLOT" running-waiting -q -o "$TMP/rw3.pdf" "$f"
	pdftotext "$TMP/rw3.pdf" "$TMP/rw3.txt"
	check "without --target the note says nothing of counting" \
		sh -c "! grep -q counting '$TMP/rw3.txt'"
else
	skip "pdftotext is not installed: the note is not read"
fi

# ---- too many threads to color one by one ----
# messaging.dat: 400 hackbench threads in one process; by default the
# chart is colored by process and says why, zoomed in to fewer threads it
# is by thread again, and --color-by pid keeps threads
m=$TRACES/messaging.dat
run "$SCHEDPLOT" datagraph -q -o "$TMP/many.svg" "$m"
expect_status 0 "datagraph of 400 threads"
expect_grep "$TMP/many.svg" "process, named by its leader: 4[0-9][0-9] threads are too many to tell apart" \
	"400 threads: colored by process, and the legend says why"
n=$(grep -c '>sched-messaging-[0-9]*<' "$TMP/many.svg" || true)
check "400 threads: one legend entry for the benchmark, not one per thread ($n)" test "$n" -le 1
run "$SCHEDPLOT" datagraph -q --color-by pid -o "$TMP/many-pid.svg" "$m"
check "--color-by pid: threads one by one whatever their number" \
	grep -q 'task-pid (most CPU time first)' "$TMP/many-pid.svg"
run "$SCHEDPLOT" datagraph -q --min 0.9 --max 0.9005 -o "$TMP/few.svg" "$m"
check "zoomed in to fewer threads: colored by thread again" \
	grep -q 'task-pid (most CPU time first)' "$TMP/few.svg"
