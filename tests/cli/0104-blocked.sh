#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Where tasks blocked (doc/design.md "Sleeps"): on why/sleeps.dat, a
# recording of this machine with the kernel stack of each switch out in
# S or D (the stacktrace trigger), each task's blocking places in `stats
# --json` (sleeps, time and state per place, the longest three) against
# an independent reading of `trace-cmd report`'s full stacks
# (tests/oracle/report-why.py --sleeps --places), and its text table; a
# trace without stacks prints neither; and Android's sched_blocked_reason
# on a generated trace against the generator's truth.
. "$(dirname "$0")/../lib/lib.sh"

# sched_blocked_reason (Android kernels; not this machine's): a generated
# trace whose truth lists each task's sleeps and time per caller's function
# (tests/gen/gen-trace.c --blocked-reason), against stats --json.
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ -x "$GEN" ] && command -v python3 >/dev/null; then
	g=$TMP/reason.dat
	"$GEN" --cpus 4 --workload messaging --events 20000 --blocked-reason --seed 3 \
		-o "$g" >/dev/null
	run "$SCHEDPLOT" stats -q --json "$g"
	expect_status 0 "generated: stats --json"
	if got=$(python3 - "$OUT" "$g.json" <<'PY'
import json, sys
stats, truth = sys.argv[1:]
want = {}                       # pid -> {place: [count, ns]}
for r in json.load(open(truth))["blocked_reason"]:
    want.setdefault(r["pid"], {})[r["place"]] = [r["count"], r["ns"]]
bad, n, tasks = [], 0, 0
for t in json.load(open(stats))["tasks"]:
    w = want.pop(t["pid"], {})
    got = t["sleeps"].get("blocked_in", [])
    top = sorted(w.values(), key=lambda v: -v[1])[:3]
    if [g["ns"] for g in got] != [v[1] for v in top]:
        bad.append("pid %d: %s, truth %s" % (t["pid"], got, w))
    for g in got:
        if g["state"] != "S" or w.get(g["place"]) != [g["count"], g["ns"]]:
            bad.append("pid %d: %s, truth %s" % (t["pid"], g, w.get(g["place"])))
        n += 1
    tasks += bool(got)
if want:
    bad.append("tasks with reasons stats does not list: %s" % sorted(want)[:5])
if bad:
    print("%d differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(n, tasks)
PY
	); then
		set -- $got
		ok "generated: the $1 places of $2 tasks' sleeps from sched_blocked_reason equal the truth"
	else
		not_ok "generated: sched_blocked_reason places differ from the truth"
	fi
else
	skip "gen-trace not built ($GEN): no trace with sched_blocked_reason"
fi

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
f=$TRACES/why/sleeps.dat
if ! python3 "$SRCDIR/tests/oracle/report-why.py" --sleeps --places "$f" \
	>"$TMP/oracle" 2>"$TMP/oracle.err"; then
	not_ok "report-why.py --places failed: $(head -c 300 "$TMP/oracle.err")"
	exit 0
fi
run "$SCHEDPLOT" stats -q --json "$f"
expect_status 0 "sleeps.dat: stats --json"
if got=$(python3 - "$OUT" "$TMP/oracle" <<'PY'
import json, sys
stats, oracle = sys.argv[1:]
want = {}                       # pid -> {(place, state): [count, ns]}
for l in open(oracle):
    start, pid, state, dur, waker, place = l.split()
    if place != "-":
        e = want.setdefault(int(pid), {}).setdefault((place, state), [0, 0])
        e[0] += 1
        e[1] += int(dur)
bad, n, d = [], 0, 0
for t in json.load(open(stats))["tasks"]:
    got = t["sleeps"]["blocked_in"]
    w = want.get(t["pid"], {})
    top = sorted(w.values(), key=lambda v: -v[1])[:3]
    if len(got) != len(top) or [g["ns"] for g in got] != [v[1] for v in top]:
        bad.append("pid %d: %s, report says %s" % (t["pid"], got, sorted(w.items())[:3]))
    for g in got:
        if w.get((g["place"], g["state"])) != [g["count"], g["ns"]]:
            bad.append("pid %d: %s, report says %s" %
                       (t["pid"], g, w.get((g["place"], g["state"]))))
        n += 1
        d += g["state"] == "D"
if bad:
    print("%d differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(n, d)
PY
); then
	set -- $got
	if [ "$2" -gt 0 ]; then
		ok "sleeps.dat: $1 blocking places ($2 of D sleeps) equal trace-cmd report's stacks"
	else
		not_ok "sleeps.dat: no blocking place of a D sleep found (dd with O_DIRECT)"
	fi
else
	not_ok "sleeps.dat: blocking places differ from trace-cmd report's"
fi

# dd's writes with O_DIRECT wait for the device in __iomap_dio_rw: the
# text table names it (40 of its 41 D sleeps, as the oracle reads them)
pid=$(awk '$3 == "D" && $6 == "__iomap_dio_rw" { print $2; exit }' "$TMP/oracle")
nr=$(awk -v p="$pid" '$2 == p && $6 == "__iomap_dio_rw"' "$TMP/oracle" | wc -l)
run "$SCHEDPLOT" stats -q --target "$pid" "$f"
expect_status 0 "sleeps.dat: stats --target $pid"
if grep -Eq "^dd-$pid +D +$nr +[0-9.]+ [mu]?s +__iomap_dio_rw\$" "$OUT"; then
	ok "sleeps.dat: the text table names dd's $nr D sleeps in __iomap_dio_rw"
else
	not_ok "sleeps.dat: no 'dd-$pid D $nr ... __iomap_dio_rw' line: $(grep -A3 '^blocked in' "$OUT" | head -c 400)"
fi

# without stacks in the trace: no table, no "blocked_in"
run "$SCHEDPLOT" stats -q --json "$TRACES/overload.dat"
expect_status 0 "overload.dat: stats --json"
if grep -q blocked_in "$OUT"; then
	not_ok "overload.dat: blocked_in printed for a trace without stacks"
else
	ok "overload.dat: no blocked_in without stacks"
fi
run "$SCHEDPLOT" stats -q "$TRACES/overload.dat"
if grep -q "^blocked in" "$OUT"; then
	not_ok "overload.dat: a 'blocked in' table for a trace without stacks"
else
	ok "overload.dat: no 'blocked in' table without stacks"
fi
