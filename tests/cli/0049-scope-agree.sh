#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One scope, one count: for the same --target, --cpus and window, stats,
# latency, runs and the datagraph's marks count the same waits and
# migrations (doc/design.md, "Scope").  stats --target counts the wakeup
# latency of the targets only, as it counts their placement.
. "$(dirname "$0")/../lib/lib.sh"

# scope_agree NAME TRACE SCOPE...: the counts of every command agree
scope_agree() {
	local name=$1 trace=$2 verdict min=0 a
	shift 2
	for a; do
		[ "$a" = --min ] && min=next && continue
		[ "$min" = next ] && min=$a
	done
	run "$SCHEDPLOT" stats -q --json "$@" "$trace"
	expect_status 0 "$name: stats $*"
	cp "$OUT" "$TMP/stats.json"
	run "$SCHEDPLOT" latency -q --json --csv "$TMP/lat.csv" -o "$TMP/lat.png" "$@" "$trace"
	expect_status 0 "$name: latency $*"
	cp "$OUT" "$TMP/lat.json"
	run "$SCHEDPLOT" runs -q --json "$@" "$trace"
	expect_status 0 "$name: runs $*"
	cp "$OUT" "$TMP/runs.json"
	verdict=$(python3 - "$TMP" "$min" <<'EOF'
import csv, json, sys
d, min_s = sys.argv[1], float(sys.argv[2])
stats = json.load(open(d + "/stats.json"))
lat = json.load(open(d + "/lat.json"))
bad = []
# stats and latency: the wakeup waits, their count and quantiles
s, l = stats["wakeup_latency_ns"], lat["classes"]["wakeup"]
for k in ("count", "p50", "p90", "p99", "max"):
    if s[k] != l[k]:
        bad.append("wakeup latency %s: stats %s, latency %s" % (k, s[k], l[k]))
# stats' placement counts the wakeup waits of tasks that ran before
rows = list(csv.DictReader(l for l in open(d + "/lat.csv") if not l.startswith("#")))
moved = {"stayed": 0, "moved_prev_idle": 0, "moved_prev_busy": 0}
for r in rows:
    if r["class"] == "wakeup" and r["placement"] in moved:
        moved[r["placement"]] += 1
for k, n in moved.items():
    if stats["placement"][k]["count"] != n:
        bad.append("placement %s: stats %d, latency's waits %d" % (k, stats["placement"][k]["count"], n))
# runs: each wait ends as a run begins; with the window open to the end
# of the trace, the runs whose wait began inside it are the waits
lines = open(d + "/runs.json").read().splitlines()
origin = json.loads(lines[0])["start_ns"]
# the window from --min to the end of the trace (stats' starts no earlier
# than the complete window, the others' at the trace's start)
t0, t1 = origin + round(min_s * 1e9), stats["end_ns"]
if "scope" in stats:
    t1 = stats["scope"]["window_ns"][1]
waits = sorted((r["start_ns"] + origin - r["wait_ns"], r["wait_ns"])
               for r in map(json.loads, lines[1:])
               if r["wait_ns"] and r["start_ns"] + origin - r["wait_ns"] >= t0)
if t1 >= stats["end_ns"]:
    mine = [int(r["latency_ns"]) for r in rows if int(r["latency_ns"])]
    if len(mine) != len(waits) or sum(mine) != sum(w for _, w in waits):
        bad.append("runs: %d waits of %d ns in all, latency: %d of %d ns"
                   % (len(waits), sum(w for _, w in waits), len(mine), sum(mine)))
print("; ".join(bad) if bad else "ok %d wakeup waits, %d runs after a wait" % (s["count"], len(waits)))
EOF
)
	case $verdict in
	ok*) ok "$name: stats, latency and runs agree (${verdict#ok })" ;;
	*) not_ok "$name: $verdict" ;;
	esac
}

# marks_agree NAME TRACE SCOPE...: the datagraph's migration marks are stats' migrations
marks_agree() {
	local name=$1 trace=$2 want got
	shift 2
	run "$SCHEDPLOT" stats -q --json "$@" "$trace"
	want=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["migration_classes"]
print(m["wakeup"], m["balance"])' "$OUT")
	run "$SCHEDPLOT" datagraph -v --migrations -o "$TMP/dg.png" "$@" "$trace"
	expect_status 0 "$name: datagraph --migrations $*"
	got="$(sed -n 's/.*marks: migr\. at wakeup: \([0-9]*\).*/\1/p' "$ERR" | head -1)"
	got="${got:-0} $(sed -n 's/.*marks: migr\. balance: \([0-9]*\).*/\1/p' "$ERR" | head -1)"
	got=${got% }
	[ "${got#* }" != "$got" ] || got="$got 0"
	if [ "$want" = "$got" ]; then
		ok "$name: datagraph's migration marks are stats' ($got)"
	else
		not_ok "$name: stats counts migrations '$want', the datagraph's marks '$got'"
	fi
}

# the command that ran longest in a trace: a target every trace has
top_command() {
	"$SCHEDPLOT" stats -q --by command --top 1 "$1" | awk '/^comm / { getline; print $1; exit }'
}

for trace in "$TRACES"/*.dat; do
	base=$(basename "$trace" .dat)
	target=$(top_command "$trace")
	if [ -z "$target" ]; then
		not_ok "$base: no command to target"
		continue
	fi
	scope_agree "$base whole" "$trace"
	scope_agree "$base --target $target" "$trace" --target "$target"
	scope_agree "$base --cpus 1 --min 0.1" "$trace" --cpus 1 --min 0.1
	scope_agree "$base --target $target --cpus 0 --min 0.2" "$trace" --target "$target" \
		--cpus 0 --min 0.2
	scope_agree "$base --min 0.1 --max 0.4" "$trace" --min 0.1 --max 0.4
	marks_agree "$base --cpus 1 --min 0.1 --max 0.4" "$trace" --cpus 1 --min 0.1 --max 0.4
done

# stats --target: the latency of the targets, not of the whole trace
run "$SCHEDPLOT" stats -q --json "$TRACES/overload.dat"
all=$(sed -n 's/.*"wakeup_latency_ns": {"count": \([0-9]*\),.*/\1/p' "$OUT")
run "$SCHEDPLOT" stats -q --json --target rcu_preempt "$TRACES/overload.dat"
one=$(sed -n 's/.*"wakeup_latency_ns": {"count": \([0-9]*\),.*/\1/p' "$OUT")
if [ -n "$one" ] && [ -n "$all" ] && [ "$one" -gt 0 ] && [ "$one" -lt "$all" ]; then
	ok "stats --target rcu_preempt counts its own $one wakeup waits, of $all"
else
	not_ok "stats --target rcu_preempt counts '$one' wakeup waits, the whole trace '$all'"
fi
