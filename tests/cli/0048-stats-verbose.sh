#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stats -v lists the first 10 repairs and lost-event gaps with CPU and
# timestamp, -vv all of them, and they are those of an independent reading
# of `trace-cmd report` (tests/oracle/report-stats.py); a gap the kernel
# gave no size for reads "≥ 1" in text and lost_events_exact false in JSON;
# the pointers to where to look come with commands that run.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi

# same_lists NAME ERR ORACLE: the -vv lines of ERR are the oracle's repairs and gaps
same_lists() {
	python3 - "$2" "$3" <<'PY'
import json, re, sys
err = open(sys.argv[1], encoding="utf-8").read().splitlines()
d = json.load(open(sys.argv[2]))
rep = sorted((int(c), int(s) * 10**9 + int(f), int(p)) for c, s, f, p in
             (re.search(r": CPU (\d+): (\d+)\.(\d{9}): repair missed_switch, pid (\d+) made current$",
                        l).groups() for l in err if "repair missed_switch" in l))
want = sorted(tuple(r) for r in d["repair_list"])
if rep != want:
    sys.exit("repairs differ: %d listed, oracle %d; first listed %r, oracle %r"
             % (len(rep), len(want), rep[:2], want[:2]))
gaps = sorted((int(c), int(s) * 10**9 + int(f), None if ge else int(n)) for c, s, f, ge, n in
              (re.search(r": CPU (\d+): (\d+)\.(\d{9}): lost (\u2265 )?(\d+) events before", l).groups()
               for l in err if "events before this record" in l))
want = sorted((g["cpu"], g["before_ts_ns"], g["events"]) for g in d["lost_events"])
if gaps != want:
    sys.exit("gaps differ: listed %r, oracle %r" % (gaps[:3], want[:3]))
print(len(rep), len(gaps))
PY
}

for f in "$TRACES/overload.dat" "$TRACES/overflow.dat" "$TRACES/messaging.dat"; do
	name=$(basename "$f")
	if ! python3 "$SRCDIR/tests/oracle/report-stats.py" "$f" >"$TMP/oracle.json" 2>"$TMP/oracle.err"; then
		not_ok "$name: oracle failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	run "$SCHEDPLOT" stats -vv "$f"
	expect_status 0 "$name: stats -vv"
	if msg=$(same_lists "$name" "$ERR" "$TMP/oracle.json" 2>&1); then
		ok "$name: -vv lists the oracle's repairs and gaps (repairs, gaps: $msg)"
	else
		not_ok "$name: $msg"
	fi
	# -v: the first 10 of each, then how many more
	run "$SCHEDPLOT" stats -v "$f"
	n=$(grep -c ': repair ' "$ERR")
	total=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["repair_list"]))' \
		"$TMP/oracle.json")
	if [ "$total" -gt 10 ]; then
		check "$name: -v lists 10 of $total repairs" test "$n" = 10
		expect_grep "$ERR" ": $((total - 10)) more repairs \\(-vv lists them all\\)$" \
			"$name: -v says how many more"
	else
		check "$name: -v lists all $total repairs" test "$n" = "$total"
	fi
done

# overflow.dat: CPU 0 lost a page of unknown size, CPU 1 7422 events
f=$TRACES/overflow.dat
run "$SCHEDPLOT" stats -q "$f"
expect_grep "$OUT" '^    0  .*  ≥ 1$' "overflow: CPU 0's unknown loss reads ≥ 1"
expect_grep "$OUT" '^    1  .*  7422$' "overflow: CPU 1's known loss reads 7422"
run "$SCHEDPLOT" stats -q --json "$f"
expect_grep "$OUT" '"lost_events": {"0": 1, "1": 7422}' "overflow: JSON lost_events stay numbers"
expect_grep "$OUT" '"lost_events_exact": {"0": false, "1": true}' "overflow: JSON says which are exact"

# where to look: five of each kind, each with a ready command that runs and
# shows the stretch or wait (its window holds it); the numbers themselves
# are checked against trace-cmd report in 0010-stats-oracle.sh
f=$TRACES/overload.dat
run "$SCHEDPLOT" stats -q "$f"
cp "$OUT" "$TMP/look.txt"
check "where to look: 5 idle-while-waiting stretches" \
	test "$(grep -c '^  idle while waiting ' "$OUT")" = 5
check "where to look: 5 waits" test "$(grep -c '^  wait for a CPU ' "$OUT")" = 5
expect_grep "$OUT" '^  wait for a CPU +1\.395 ms  barrier-6868 from 436\.555353 s, then ran on CPU 0 \(wakeup\)$' \
	"where to look: the longest wait, with task, time and CPU"
cmd=$(grep -A1 '^  wait for a CPU ' "$OUT" | sed -n 2p)
set -- $cmd
if [ "$1 $2 $3" = "schedplot datagraph --time" ]; then
	run "$SCHEDPLOT" datagraph -q --time "$4" -o "$TMP/zoom.png" "$5"
	expect_status 0 "the zoom command of the longest wait runs: $cmd"
	check "its window holds the wait" awk -v w="$4" 'BEGIN { split(w, a, ",");
		exit !(a[1] <= 436.555353 && a[2] >= 436.555353 + 0.001395) }'
else
	not_ok "no zoom command under the longest wait: $cmd"
fi
cmd=$(grep -A1 '^  idle while waiting ' "$TMP/look.txt" | sed -n 2p)
set -- $cmd
run "$SCHEDPLOT" running-waiting -q --time "$4" -o "$TMP/zoom-rw.png" "$5"
expect_status 0 "the zoom command of the longest idle-while-waiting stretch runs: $cmd"
