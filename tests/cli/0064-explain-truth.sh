#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot explain finds the misplaced wakeups a generated trace holds
# (gen-trace --misplace: the truth lists every wakeup that left an idle
# previous CPU, some of them scripted as in the talk: a kworker runs on the
# task's idle CPU, then a task on another CPU wakes it onto its own), in
# the truth's order (longest wait first, ties by the earlier wakeup), each
# with the truth's waker, CPUs and wait; and --at explains each scripted one
# with the kworker that ran before it.  With sched_wakeup and with
# sched_waking as the wakeup.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/build/tests/gen-trace}
if [ ! -x "$GEN" ] || ! command -v python3 >/dev/null; then
	skip "gen-trace or python3 missing"
	exit 0
fi

for kind in wakeup waking; do
	t=$TMP/$kind.dat
	extra=
	[ $kind = waking ] && extra=--waking
	# shellcheck disable=SC2086
	run "$GEN" --cpus 16 --sockets 2 --seconds 0.3 --events 60000 --misplace 8 $extra -o "$t"
	expect_status 0 "gen-trace --misplace 8 $extra"
	run "$SCHEDPLOT" explain -q --json --top 64 "$t"
	expect_status 0 "$kind: explain --json --top 64"
	cp "$OUT" "$TMP/explain.json"
	if msg=$(python3 - "$t.json" "$TMP/explain.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
x = json.load(open(sys.argv[2]))
want = sorted(t["misplacements"], key=lambda m: (-m["wait_ns"], m["wake_ns"], m["pid"]))
bad = []
if x["candidates"] != len(want):
    bad.append("%d candidates, the truth has %d" % (x["candidates"], len(want)))
if len(x["decisions"]) != min(64, len(want)):
    bad.append("%d decisions" % len(x["decisions"]))
for i, d in enumerate(x["decisions"]):
    m = want[i]
    got = (d["start_ns"], d["pid"], d["latency_ns"], d["prev_cpu"], d["waker"],
           d["waker_cpu"], d["target_cpu"], d["cpu"], d["placement"])
    exp = (m["wake_ns"], m["pid"], m["wait_ns"], m["prev_cpu"], m["waker"],
           m["waker_cpu"], m["target_cpu"], m["cpu"], "moved_prev_idle")
    if got != exp:
        bad.append("#%d: %s, the truth says %s" % (i + 1, got, exp))
if bad:
    print("; ".join(bad[:3]))
    sys.exit(1)
print(len(x["decisions"]), len(want), sum(m["scripted"] for m in want))
PY
	); then
		set -- $msg
		ok "$kind: the $1 worst of $2 misplaced wakeups ($3 scripted) in the truth's order, with its wakers, CPUs and waits"
		check "$kind: scripted misplacements are among them" test "$3" -gt 0
	else
		not_ok "$kind: explain differs from the truth: $msg"
	fi

	# each scripted one, by --at: the kworker that made its idle CPU look busy
	n=0
	while read -r at pid kw start end; do
		run "$SCHEDPLOT" explain -q --json --at "$at" --task "$pid" "$t"
		if python3 - "$OUT" "$at" "$pid" "$kw" "$start" "$end" <<'PY'
import json, sys
out, at, pid, kw, start, end = sys.argv[1:]
d = json.load(open(out))["decisions"][0]
sec, frac = at.split(".")
k = d["prev_last_other"]
ok = (d["start_ns"] == int(sec) * 10**9 + int(frac) and d["pid"] == int(pid) and
      k and (k["pid"], k["start_ns"], k["end_ns"]) == (int(kw), int(start), int(end)) and
      "kworker/" in d["words"][1] and d["placement"] == "moved_prev_idle")
sys.exit(0 if ok else 1)
PY
		then
			n=$((n + 1))
		else
			not_ok "$kind: explain --at $at --task $pid: $(head -c 400 "$OUT")"
		fi
	done < <(python3 -c '
import json, sys
for m in json.load(open(sys.argv[1]))["misplacements"]:
    if m["scripted"] and m["kworker"]:
        k = m["kworker"]
        print("%d.%09d %d %d %d %d" % (m["wake_ns"] // 10**9, m["wake_ns"] % 10**9, m["pid"],
                                       k["pid"], k["start_ns"], k["end_ns"]))' "$t.json")
	check "$kind: --at explains $n scripted misplacements with the kworker that ran before" \
		test "$n" -gt 0
done
