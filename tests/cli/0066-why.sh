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
# which some tasks are woken onto an idle CPU and never seen to run there;
# and the chain of every task (stats --target): its runs, its waits by who
# held the CPU, its sleeps by state and waker.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
oracle=$SRCDIR/tests/oracle/report-why.py
traces=("$TRACES"/*.dat "$TRACES"/ink/duty.dat "$TRACES"/why/pingpong.dat)
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
		# each task's sleeps by state and who woke them (stats --json)
		if python3 "$oracle" --sleeps "$f" >"$TMP/sleeps" 2>"$TMP/oracle.err" &&
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
		# the chain of every task (--target all of them), and of every task in
		# a window of half a second on messaging.dat
		windows=("")
		[ "$name" = messaging.dat ] && windows+=("1 1.5")
		for win in "${windows[@]}"; do
			run "$SCHEDPLOT" runs -q -o "$TMP/runs.csv" "$f"
			origin=$(sed -n '1s/.*=//p' "$TMP/runs.csv")
			set -- $win
			if [ -n "$win" ]; then
				wargs=(--window "$(python3 -c "print($origin + int($1 * 1e9))")" \
					"$(python3 -c "print($origin + int($2 * 1e9))")")
				sargs=(--min "$1" --max "$2")
			else
				wargs=()
				sargs=()
			fi
			if ! python3 "$oracle" --chain "${wargs[@]}" "$f" >"$TMP/chain" 2>"$TMP/oracle.err"; then
				not_ok "$name: report-why.py --chain failed: $(head -c 300 "$TMP/oracle.err")"
				continue
			fi
			pids=$(awk '{print $1}' "$TMP/chain" | sort -un | paste -sd,)
			run "$SCHEDPLOT" stats -q --json "${sargs[@]}" --target "$pids" "$f"
			expect_status 0 "$name: stats --json --target every task ${win:+(--min $1 --max $2)}"
			if chained=$(python3 - "$OUT" "$TMP/chain" <<'PY'
import json, sys
stats, oracle = sys.argv[1:]
want = {}
for l in open(oracle):
    pid, kind, who, n, ns = l.split()
    want.setdefault(int(pid), {})[(kind, who)] = (0 if n == "-" else int(n), int(ns))
bad, tasks, causes, ns = [], 0, 0, 0
for t in json.load(open(stats))["tasks"]:
    c = t["chain"]
    got = {(x["kind"], "-1" if x["who"] is None else str(x["who"])): (x["pieces"], x["ns"])
           for x in c["causes"]}
    got[("total", "-")] = (0, c["ns"])
    w = want.pop(t["pid"], {})
    if got != w and (c["ns"] or w):
        diff = sorted(set(got.items()) ^ set(w.items()))
        bad.append("task %d: %s" % (t["pid"], diff[:4]))
    tasks += c["ns"] > 0
    causes += len(c["causes"])
    ns += c["ns"]
bad += ["task %d: not in stats" % p for p in want]
if bad:
    print("%d differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(tasks, causes, ns)
PY
			); then
				set -- $chained
				ok "$name: the chains of $1 tasks, $2 causes, $3 ns in all, equal trace-cmd report's${win:+ (window)}"
			else
				not_ok "$name: chains differ from trace-cmd report's${win:+ (window)}"
			fi
		done
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

# The chain of the barrier threads on overload.dat: the main thread,
# barrier-6867, slept nearly all the time until barrier-6868 woke it;
# every target's causes add up to its time followed, its runs to its run
# time; tasks --long-pole marks each row's long pole with a dark bar.
f=$TRACES/overload.dat
run "$SCHEDPLOT" stats -q --target barrier "$f"
expect_status 0 "overload.dat: stats --target barrier"
expect_grep "$OUT" "^barrier-6867  739.611 ms followed; long pole: slept \(S\) until woken by barrier-6868, 9[0-9]\.[0-9]%$" \
	"overload.dat: stats names the main thread's long pole"
expect_grep "$OUT" "^  ran 33.1%, waited for a CPU 32.0%, slept 34.9%$" \
	"overload.dat: stats gives a target's shares of running, waiting and sleeping"
run "$SCHEDPLOT" stats -q --json --target barrier "$f"
check "overload.dat: each chain's causes add up to its time, its runs to the run time" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["tasks"]) == 7
for t in d["tasks"]:
    c = t["chain"]
    assert sum(x["ns"] for x in c["causes"]) == c["ns"], t["pid"]
    assert [x["ns"] for x in c["causes"] if x["kind"] == "ran"] == [t["run_ns"]], t["pid"]
' "$OUT"
bars() {
	python3 -c '
import sys
sys.path.insert(0, sys.argv[2])
import png
w, h, px = png.read(sys.argv[1])
print(max(sum(px(x, y) == (30, 30, 30) for x in range(w)) for y in range(h)))
' "$1" "$SRCDIR/tests/lib"
}
run "$SCHEDPLOT" tasks -q --target barrier --long-pole -o "$TMP/poles.png" "$f"
expect_status 0 "overload.dat: tasks --target barrier --long-pole"
check "overload.dat: the main thread's long pole is a bar across its row" \
	test "$(bars "$TMP/poles.png")" -ge 1200
run "$SCHEDPLOT" tasks -q --target barrier -o "$TMP/nopoles.png" "$f"
check "overload.dat: without --long-pole no row is marked" test "$(bars "$TMP/nopoles.png")" -lt 20
run "$SCHEDPLOT" tasks -q --long-pole -o "$TMP/nopoles.png" "$f"
expect_status 2 "overload.dat: tasks --long-pole without --target"
expect_grep "$ERR" "^schedplot: --long-pole needs --target or --target-process" \
	"overload.dat: --long-pole says it needs --target"

