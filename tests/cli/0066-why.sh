#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Why a wait lasted, against an independent reading of `trace-cmd report`
# (tests/oracle/report-why.py): who ran on the CPU a task waited for and
# for how long (runs' longest antagonist of each wait, stats' "waited
# behind" of each task), each task's sleeps by state (S, D, other) and
# who woke them, and which waits the trace contradicts (the CPU
# the task was placed on ran its idle task more than 1 ms after the
# placement while it waited), wait by wait, on the bundled and shared
# traces and on ink/duty.dat, a recording of this machine's kernel in
# which some tasks are woken onto an idle CPU and never seen to run there.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
oracle=$SRCDIR/tests/oracle/report-why.py
traces=("$TRACES"/*.dat "$TRACES"/ink/duty.dat)
for f in "$SHARED"/*.dat; do
	[ -f "$f" ] && traces+=("$f")
done

for f in "${traces[@]}"; do
	name=$(basename "$f")
	case $name in *zlib*)
		skip "$name: this trace-cmd cannot read zlib version 7 files"
		continue ;;
	esac
	run "$SCHEDPLOT" latency -q --text --csv "$TMP/waits.csv" "$f"
	expect_status 0 "$name: latency --csv"
	if ! python3 "$oracle" "$f" >"$TMP/oracle" 2>"$TMP/oracle.err"; then
		not_ok "$name: report-why.py failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	# "N C": waits of non-zero length compared, contradicted ones
	if counts=$(python3 - "$TMP/waits.csv" "$TMP/oracle" <<'PY'
import csv, re, sys
waits, oracle = sys.argv[1:]
lines = open(waits).read().splitlines()
m = re.search(r"counts from (\d+)\.(\d{9}) s", lines[0])
origin = int(m.group(1)) * 1000000000 + int(m.group(2))
want = {}
for l in open(oracle):
    start, pid, cpu, dur, contra, placed, ants = l.split()
    want[(int(start), int(pid))] = (int(cpu), int(dur), int(contra))
n = nc = 0
bad = []
for r in csv.DictReader(lines[1:]):
    if r["latency_ns"] == "0":
        continue        # the oracle cannot tell a wait of no length from none
    sec, frac = r["start_s"].split(".")
    key = (origin + int(sec) * 1000000000 + int(frac), int(r["pid"]))
    got = (int(r["cpu"]), int(r["latency_ns"]), int(r["contradicted"]))
    if want.get(key) != got:
        bad.append("pid %d at %d: cpu, length, contradicted %s, report says %s" %
                   (key[1], key[0], got, want.get(key)))
        continue
    n += 1
    nc += got[2]
if bad:
    print("%d waits differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(n, nc)
PY
	); then
		set -- $counts
		nr_contradicted=$2
		ok "$name: $1 waits and the $2 the trace contradicts equal trace-cmd report's"
		# the longest antagonist of each wait (runs), and who each task waited
		# behind over all its waits (stats --json), against the oracle's
		run "$SCHEDPLOT" runs -q -o "$TMP/runs.csv" "$f"
		expect_status 0 "$name: runs"
		run "$SCHEDPLOT" stats -q --json "$f"
		expect_status 0 "$name: stats --json"
		if behind=$(python3 - "$TMP/runs.csv" "$OUT" "$TMP/oracle" <<'PY'
import csv, json, sys
runs, stats, oracle = sys.argv[1:]
lines = open(runs).read().splitlines()
origin = int(lines[0].split("=")[1])
want, per_task = {}, {}
for l in open(oracle):
    start, pid, cpu, dur, contra, placed, ants = l.split()
    ants = [] if ants == "-" else [tuple(map(int, a.split(":"))) for a in ants.split(",")]
    want[(int(start), int(pid))] = ants[0] if ants else (-1, 0)
    t = per_task.setdefault(int(pid), [0, {}])
    t[0] += int(dur)
    for a, ns in ants:
        t[1][a] = t[1].get(a, 0) + ns
n = held = 0
bad = []
for r in csv.DictReader(lines[1:]):
    if r["wait_ns"] == "0" or r["pid"] == "0":
        continue
    key = (origin + int(r["start_ns"]) - int(r["wait_ns"]), int(r["pid"]))
    got = (int(r["behind"]), int(r["behind_ns"]))
    if want.get(key) != got:
        bad.append("pid %d at %d: behind %s, report says %s" % (key[1], key[0], got,
                                                                want.get(key)))
    n += 1
    held += got[0] >= 0
tasks = 0
for t in json.load(open(stats))["tasks"]:
    wb = t["waited_behind"]
    w = per_task.get(t["pid"], [0, {}])
    top = sorted(w[1].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    got = [(a["pid"], a["ns"]) for a in wb["top"]]
    if wb["waits_ns"] != w[0] or got != top:
        bad.append("task %d: waited %d behind %s, report says %d behind %s" %
                   (t["pid"], wb["waits_ns"], got, w[0], top))
    tasks += wb["waits_ns"] > 0
if bad:
    print("%d differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(n, held, tasks)
PY
		); then
			set -- $behind
			ok "$name: the longest antagonist of $1 waits ($2 behind a task) and who $3 tasks waited behind equal trace-cmd report's"
		else
			not_ok "$name: antagonists differ from trace-cmd report's"
		fi
		# each task's sleeps by state and who woke them (stats --json); not on
		# duty.dat, whose chained repairs report-stats.py reads otherwise
		# (traces/README): there 9 tasks differ by a sleep after such a chain
		if [ "$name" = duty.dat ]; then
			:
		elif python3 "$oracle" --sleeps "$f" >"$TMP/sleeps" 2>"$TMP/oracle.err" &&
			run "$SCHEDPLOT" stats -q --json "$f" &&
			slept=$(python3 - "$OUT" "$TMP/sleeps" <<'PY'
import json, sys
stats, oracle = sys.argv[1:]
want = {}
for l in open(oracle):
    start, pid, state, dur, waker = l.split()
    t = want.setdefault(int(pid), {"S": [0, 0], "D": [0, 0], "other": [0, 0], "w": {}})
    t[state][0] += 1
    t[state][1] += int(dur)
    if waker != "-1":
        t["w"][waker] = t["w"].get(waker, 0) + 1
key = lambda w: {"irq": -2, "softirq": -3}.get(w, None) if not w.lstrip("-").isdigit() else int(w)
bad, n = [], [0, 0, 0]
for t in json.load(open(stats))["tasks"]:
    s = t["sleeps"]
    w = want.get(t["pid"], {"S": [0, 0], "D": [0, 0], "other": [0, 0], "w": {}})
    got = {k: [s[k]["count"], s[k]["ns"]] for k in ("S", "D", "other")}
    top = sorted(w["w"].items(), key=lambda kv: (-kv[1], key(kv[0])))[:3]
    wakers = [(str(x["waker"]), x["count"]) for x in s["woken_by"]]
    if got != {k: w[k] for k in ("S", "D", "other")} or wakers != top:
        bad.append("task %d: %s woken by %s, report says %s woken by %s" %
                   (t["pid"], got, wakers, {k: w[k] for k in ("S", "D", "other")}, top))
    for i, k in enumerate(("S", "D", "other")):
        n[i] += got[k][0]
if bad:
    print("%d differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(*n)
PY
			); then
			set -- $slept
			ok "$name: $1 sleeps in S, $2 in D, $3 in other states and their wakers equal trace-cmd report's"
		else
			not_ok "$name: sleeps differ from trace-cmd report's: $(head -c 300 "$TMP/oracle.err")"
		fi
		run "$SCHEDPLOT" latency -q --json --by antagonist "$f"
		expect_status 0 "$name: latency --by antagonist"
		if python3 - "$OUT" "$TMP/oracle" <<'PY'
import json, sys
out, oracle = sys.argv[1:]
want = {}
for l in open(oracle):
    ants = l.split()[6]
    if ants != "-":
        pid = int(ants.split(",")[0].split(":")[0])
        want[pid] = want.get(pid, 0) + 1
got = {int(g["key"].rsplit("-", 1)[1]): g["count"] for g in json.load(open(out))["groups"]
       if not g["key"].startswith("none")}
if got != want:
    print("groups %s, report says %s" % (sorted(got.items())[:5], sorted(want.items())[:5]),
          file=sys.stderr)
    sys.exit(1)
PY
		then
			ok "$name: latency --by antagonist groups the waits by their longest antagonist as trace-cmd report does"
		else
			not_ok "$name: latency --by antagonist differs from trace-cmd report"
		fi
		if [ "$name" = duty.dat ]; then
			check "$name: 12 waits are contradicted" test "$nr_contradicted" -eq 12
			run "$SCHEDPLOT" stats --json "$f"
			expect_status 0 "$name: stats --json"
			expect_grep "$OUT" '"contradicted_waits": \{"count": 12, "wait_ns": 4543' \
				"$name: stats --json counts them"
			expect_grep "$ERR" "^schedplot: warning: .*duty.dat: 12 waits the trace contradicts .*, the longest 2.628 s \(tokio-rt-worker-68 from 416.720800 s\)" \
				"$name: stats warns with the count and the longest"
			run "$SCHEDPLOT" stats -q "$f"
			expect_grep "$OUT" "^contradicted 12 waits \(4.544 s\) while the CPU it was placed on ran its idle task" \
				"$name: stats says how many and how long"
			expect_grep "$OUT" "2.628 s  tokio-rt-worker-68 from 416.720800 s, then ran on CPU 0 \(wakeup\), contradicted" \
				"$name: where to look marks the contradicted wait"
			run "$SCHEDPLOT" latency --text -q "$f"
			expect_grep "$OUT" "^wakeup +10261 .* +12$" \
				"$name: the latency table counts them in a column of their own"
		fi
	else
		not_ok "$name: waits differ from trace-cmd report's"
	fi
done
