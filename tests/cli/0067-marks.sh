#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Migration classes, the placement of wakeups and the marks of any event:
# stats --json and datagraph -v's marks against the generator's truth
# (traces with a known number of each case), against an independent
# reading of `trace-cmd report` (the bundled and shared traces are in
# 0010-stats-oracle), and the event ticks and --min-at against the records
# trace-cmd report prints.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check"
	exit 0
fi
export SOURCE_DATE_EPOCH=1700000000
have_oracle=1
command -v trace-cmd >/dev/null && command -v python3 >/dev/null || have_oracle=0

# the migration classes and the placement of stats --json equal gen-trace's truth
i=0
for args in "--cpus 8" "--cpus 8 --waking" "--cpus 8 --sockets 2 --overload" \
	    "--workload messaging --cpus 4 --sockets 2 --events 200000" "--cpus 16 --sockets 4 --seed 3"; do
	i=$((i + 1))
	f=$TMP/gen-$i.dat
	# shellcheck disable=SC2086
	run "$GEN" --events 60000 $args --topology-markers -o "$f"
	expect_status 0 "gen-trace $args"
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "gen-trace $args: stats --json"
	check "gen-trace $args: migration classes (wakeup, balance, cross-socket) and placement (count, wait) equal the truth" \
		python3 -c 'import json, sys
ours, truth = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in ("migration_classes", "placement"):
    if ours[k] != truth[k]:
        print(k, ours[k], truth[k], file=sys.stderr); sys.exit(1)
m, p = truth["migration_classes"], truth["placement"]
# every case the generator makes is there, so every class is checked
need = [m["wakeup"], m["balance"], p["stayed"]["count"], p["moved_prev_idle"]["count"],
        p["moved_prev_busy"]["count"]]
if "sockets" in sys.argv[3]:
    need.append(m["cross_socket"])
sys.exit(not all(need))' "$OUT" "$f.json" "$args"
done

# the oracle reads the same classes from trace-cmd report, sockets from lscpu -p
if [ "$have_oracle" = 1 ]; then
	f=$TMP/gen-3.dat
	run "$SCHEDPLOT" stats -q --json "$f"
	cp "$OUT" "$TMP/ours.json"
	python3 "$SRCDIR/tests/oracle/report-stats.py" --topology "$f.lscpu" "$f" \
		>"$TMP/oracle.json" 2>"$TMP/oracle.err"
	check "gen-trace --sockets 2: report-stats.py agrees on migration classes and placement" \
		python3 -c 'import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(not (a["migration_classes"] == b["migration_classes"] and
              a["placement"] == b["placement"] and b["migration_classes"]["cross_socket"] > 0))' \
		"$TMP/ours.json" "$TMP/oracle.json"
	# --cpus and --target narrow them: a target's migrations to or from a
	# CPU counted, its wakeup waits that ended on one
	for scope in "--cpus 0-3" "--target hpc-1*" "--cpus 2,5 --target hpc-3*,hpc-4*" \
		     "--target 1002"; do
		# shellcheck disable=SC2086
		run "$SCHEDPLOT" stats -q --json $scope "$f"
		cp "$OUT" "$TMP/ours.json"
		# shellcheck disable=SC2086
		python3 "$SRCDIR/tests/oracle/report-stats.py" --topology "$f.lscpu" $scope "$f" \
			>"$TMP/oracle.json" 2>"$TMP/oracle.err"
		check "stats $scope: migration classes and placement equal report-stats.py's" \
			python3 -c 'import json, sys
a, b, whole = (json.load(open(f)) for f in sys.argv[1:4])
ok = a["migration_classes"] == b["migration_classes"] and a["placement"] == b["placement"]
# narrower than the whole trace, and not empty
n = lambda d: sum(v for k, v in d["migration_classes"].items() if k != "cross_socket")
ok = ok and 0 < n(a) < n(whole) and \
    0 < a["placement"]["stayed"]["count"] < whole["placement"]["stayed"]["count"]
if not ok:
    print(a["migration_classes"], b["migration_classes"], a["placement"], b["placement"],
          file=sys.stderr)
sys.exit(not ok)' "$TMP/ours.json" "$TMP/oracle.json" "$f.json"
	done
else
	skip "trace-cmd or python3 missing: no oracle for the generated trace"
fi

# datagraph -v says the counts its legend shows: those of the truth
f=$TMP/gen-3.dat
run "$SCHEDPLOT" datagraph -v --migrations --placement --wakeups --events ftrace:print \
	-o "$TMP/marks.png" "$f"
expect_status 0 "datagraph with every mark"
python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))
m, p = t["migration_classes"], t["placement"]
print("marks: migr. at wakeup: %d" % m["wakeup"])
print("marks: migr. balance: %d" % m["balance"])
print("marks: migr. across sockets: %d" % m["cross_socket"])
print("marks: left idle CPU: %d" % p["moved_prev_idle"]["count"])
print("marks: ftrace:print: 1")
print("marks: wakeup arrows not drawn: too many for the width")' "$f.json" >"$TMP/want"
sed -n "s|^schedplot: $f: \\(marks: .*\\)|\\1|p" "$ERR" | grep -v 'wakeup arrows: ' >"$TMP/got"
if cmp -s "$TMP/want" "$TMP/got"; then
	ok "datagraph --migrations --placement --events: legend counts equal the truth"
else
	not_ok "datagraph marks: $(diff "$TMP/want" "$TMP/got" | tr '\n' ' ')"
fi

# zoomed in, the wakeup arrows are drawn; the marks change the picture
t=$TRACES/overload.dat
run "$SCHEDPLOT" datagraph -v --wakeups --min 8ms --max 20ms -o "$TMP/zoom.png" "$t"
expect_grep "$ERR" "marks: wakeup arrows drawn" "overload 8-20 ms: wakeup arrows drawn"
run "$SCHEDPLOT" datagraph -q --min 8ms --max 20ms -o "$TMP/plain.png" "$t"
for opt in --migrations --wakeups --placement; do
	run "$SCHEDPLOT" datagraph -q $opt --min 8ms --max 20ms -o "$TMP/opt.png" "$t"
	check "overload 8-20 ms: $opt draws something" test "$(cksum <"$TMP/opt.png")" != \
		"$(cksum <"$TMP/plain.png")"
done

# a lone mark on its row is drawn: a window with one migration
lone=$TMP/lone.dat
run "$GEN" --cpus 8 --sockets 2 --events 20000 --seed 3 -o "$lone"
run "$SCHEDPLOT" stats -q --json --min 0.1030 --max 0.1040 "$lone"
expect_grep "$OUT" '"migration_classes": {"wakeup": 0, "balance": 1, "numa": 0' \
	"gen-trace --seed 3, 103-104 ms: one migration"
run "$SCHEDPLOT" datagraph -q --no-legend --min 0.1030 --max 0.1040 -o "$TMP/lone0.png" "$lone"
run "$SCHEDPLOT" datagraph -q --no-legend --migrations --min 0.1030 --max 0.1040 \
	-o "$TMP/lone1.png" "$lone"
check "a window with one migration: its line is drawn" \
	test "$(cksum <"$TMP/lone0.png")" != "$(cksum <"$TMP/lone1.png")"
# and a window with none: nothing to draw, the same picture
run "$SCHEDPLOT" stats -q --json --min 0.1000 --max 0.1001 "$lone"
expect_grep "$OUT" '"migration_classes": {"wakeup": 0, "balance": 0, "numa": 0' \
	"gen-trace --seed 3, 100-100.1 ms: no migration"
run "$SCHEDPLOT" datagraph -q --no-legend --min 0.1000 --max 0.1001 -o "$TMP/none0.png" "$lone"
run "$SCHEDPLOT" datagraph -q --no-legend --migrations --min 0.1000 --max 0.1001 \
	-o "$TMP/none1.png" "$lone"
expect_status 0 "a window without migrations, --migrations"
check "a window without migrations: the same picture as without --migrations" \
	cmp -s "$TMP/none0.png" "$TMP/none1.png"

# --events: as many ticks as trace-cmd report prints records; --min-at
shared=$SHARED/aarch64-6cpu-v6.dat
if [ "$have_oracle" = 1 ] && [ -f "$shared" ]; then
	trace-cmd report -t "$shared" >"$TMP/report" 2>/dev/null
	run "$SCHEDPLOT" datagraph -v --events power:cpu_idle,ftrace:print,sched:sched_load_se \
		-o "$TMP/ev.png" "$shared"
	expect_status 0 "aarch64 trace: --events"
	for e in power:cpu_idle ftrace:print sched:sched_load_se; do
		n=$(grep -c " ${e#*:}: " "$TMP/report")
		expect_grep "$ERR" "marks: $e: $n\$" "aarch64 trace: $n $e records, as trace-cmd report"
	done
	# an event both marked and read by a layer: one request serves both
	n=$(grep -c " cpu_idle: " "$TMP/report")
	run "$SCHEDPLOT" datagraph -v --events power:cpu_idle --idle-states -o "$TMP/both.png" \
		"$shared"
	expect_status 0 "aarch64 trace: --events power:cpu_idle --idle-states"
	expect_grep "$ERR" "marks: power:cpu_idle: $n\$" \
		"--events power:cpu_idle --idle-states: still $n cpu_idle marks"
	run "$SCHEDPLOT" datagraph -q --events power:cpu_idle -o "$TMP/marked.png" "$shared"
	run "$SCHEDPLOT" datagraph -q --idle-states -o "$TMP/idle.png" "$shared"
	check "--events power:cpu_idle --idle-states: the idle states are drawn" \
		test "$(cksum <"$TMP/both.png")" != "$(cksum <"$TMP/marked.png")"
	check "--events power:cpu_idle --idle-states: the marks are drawn" \
		test "$(cksum <"$TMP/both.png")" != "$(cksum <"$TMP/idle.png")"
	first=$(grep -m1 ' print: ' "$TMP/report" | sed 's/.*\] *\([0-9.]*\): .*/\1/')
	run "$SCHEDPLOT" datagraph -v --min-at ftrace:print -o "$TMP/at.png" "$shared"
	expect_grep "$ERR" "--min-at ftrace:print: the window starts at its first record, $first s" \
		"--min-at ftrace:print starts at $first s, the first print record"
else
	skip "aarch64-6cpu-v6.dat or trace-cmd missing: no --events oracle"
fi

# mistakes
run "$SCHEDPLOT" datagraph --events bogus "$t" -o "$TMP/x.png"
expect_status 2 "--events bogus"
expect_grep "$ERR" "^schedplot: --events needs SYSTEM:EVENT names" "--events bogus: says what it needs"
run "$SCHEDPLOT" datagraph --events nosuch:event "$t" -o "$TMP/x.png"
expect_status 1 "--events nosuch:event"
expect_stderr_line "--events .nosuch:event.: the trace has no nosuch:event events" "--events nosuch:event"
run "$SCHEDPLOT" datagraph --min-at nosuch:event "$t" -o "$TMP/x.png"
expect_status 1 "--min-at nosuch:event"
check "no image is left behind" test ! -e "$TMP/x.png"

# overview draws the same marks over its datagraph, with the same counts
run "$SCHEDPLOT" overview -v --migrations --placement --wakeups --events ftrace:print \
	-o "$TMP/marks-ov.png" "$f"
expect_status 0 "overview with every mark"
sed -n "s|^schedplot: $f: \\(marks: .*\\)|\\1|p" "$ERR" | grep -v 'wakeup arrows: ' >"$TMP/got-ov"
check "overview: the same counts as datagraph" cmp -s "$TMP/got" "$TMP/got-ov"
run "$SCHEDPLOT" datagraph --min-at ftrace:print --min 1ms "$t" -o "$TMP/x.png"
expect_status 2 "--min-at with --min"
expect_grep "$ERR" "^schedplot: --min-at starts the window at an event" "--min-at with --min: says why"
