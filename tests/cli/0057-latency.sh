#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot latency: every wait's class and length equal an independent
# reading of trace-cmd report (tests/oracle/report-stats.py) on every
# bundled and shared trace; groups add up; the CSV holds every wait; the
# table names the longest wait with a zoom command; several traces give
# one result each; usage errors exit 2 and leave nothing behind.
. "$(dirname "$0")/../lib/lib.sh"

oracle=$SRCDIR/tests/oracle/report-stats.py
traces=("$TRACES"/messaging.dat "$TRACES"/overflow.dat "$TRACES"/overload.dat)
for f in "$SHARED"/*.dat; do
	[ -f "$f" ] && traces+=("$f")
done

for f in "${traces[@]}"; do
	name=$(basename "$f")
	if ! command -v trace-cmd >/dev/null; then
		skip "$name: trace-cmd not installed"
		continue
	fi
	case $name in *zlib*)
		skip "$name: this trace-cmd cannot read zlib version 7 files"
		continue ;;
	esac
	run "$SCHEDPLOT" latency -q --json "$f"
	expect_status 0 "$name: latency --json"
	cp "$OUT" "$TMP/ours.json"
	if ! python3 "$oracle" "$f" >"$TMP/want.json" 2>"$TMP/oracle.err"; then
		not_ok "$name: report-stats.py failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	if python3 - "$TMP/ours.json" "$TMP/want.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
bad = []
for k in ("wakeup", "preempt"):
    for key, v in want["waits"][k].items():
        if ours["classes"][k][key] != v:
            bad.append(f"{k}.{key}: schedplot {ours['classes'][k][key]}, report {v}")
if ours["open_at_end"] != want["waits_open_at_end"]:
    bad.append(f"open_at_end: {ours['open_at_end']} vs {want['waits_open_at_end']}")
# one group without --by, holding every wait
n = ours["classes"]["wakeup"]["count"] + ours["classes"]["preempt"]["count"]
if len(ours["groups"]) > 1 or (ours["groups"] and ours["groups"][0]["count"] != n):
    bad.append("the one group does not hold every wait")
if bad:
    print("; ".join(bad[:6]))
sys.exit(1 if bad else 0)
PY
	then
		ok "$name: wakeup and preemption waits equal trace-cmd report (count, min, p50..p99.9, max, mean)"
	else
		not_ok "$name: latency differs from trace-cmd report"
	fi
done

f=$TRACES/overload.dat
# --by placement: the groups add up to the classes
run "$SCHEDPLOT" latency -q --json --by placement "$f"
expect_status 0 "--by placement"
check "--by placement: groups add up to every wait" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = d["classes"]["wakeup"]["count"] + d["classes"]["preempt"]["count"]
keys = {g["key"] for g in d["groups"]}
sys.exit(0 if sum(g["count"] for g in d["groups"]) == n and keys <= {"stayed",
    "moved_prev_idle", "moved_prev_busy", "first_run", "preempted"} else 1)' "$OUT"

# the table, the longest wait and its zoom command, the CSV of every wait
cd "$TMP"
run "$SCHEDPLOT" latency -q --slowest 2 --csv waits.csv -o lat.png "$f"
expect_status 0 "latency with --csv and -o"
expect_grep "$OUT" '^wakeup +4924 ' "the table counts 4924 wakeup waits"
expect_grep "$OUT" 'schedplot datagraph --time 436\.[0-9]{6},436\.[0-9]{6} ' "a zoom command"
expect_grep "$OUT" '^the 2 longest waits' "--slowest 2"
if [ "$(head -c 8 lat.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
	ok "the image is a PNG"
else
	not_ok "lat.png is not a PNG"
fi
check "the CSV has a row per wait" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(l for l in open("waits.csv") if not l.startswith("#"))]
sys.exit(0 if len(rows) == 4924 + 638 and {r["class"] for r in rows} == {"wakeup", "preempt"}
         and max(int(r["latency_ns"]) for r in rows) == 1395091 else 1)'

# several traces: one result each
run "$SCHEDPLOT" latency -q --json "$TRACES"/overload.dat "$TRACES"/overload-v6.dat
expect_status 0 "two traces"
check "two traces give two equal results" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d) == 2 and d[0]["classes"] == d[1]["classes"] else 1)' "$OUT"
run "$SCHEDPLOT" latency -q -o two.svg "$TRACES"/overload.dat "$TRACES"/overload-v6.dat
expect_status 0 "two traces drawn"
check "the SVG is XML" grep -q '</svg>' two.svg

# usage errors
run "$SCHEDPLOT" latency --by socket "$TRACES"/overload.dat "$TRACES"/overload-v6.dat
expect_status 2 "--by with two traces"
expect_grep "$ERR" '^schedplot: --by splits one trace' "--by with two traces: says why"
run "$SCHEDPLOT" latency --class sleepy "$f"
expect_status 2 "--class sleepy"
run "$SCHEDPLOT" latency --text -o x.png "$f"
expect_status 2 "--text with -o"
check "--text with -o writes nothing" test ! -e x.png
run "$SCHEDPLOT" latency --slowest -3 "$f"
expect_status 2 "--slowest -3"
run "$SCHEDPLOT" latency -q --text --target nosuchcommand "$f"
expect_status 1 "a target matching nothing: an error (no wait to show)"
expect_grep "$ERR" "no task of the trace matches --target 'nosuchcommand'" \
	"a target matching nothing: named"

# the heat map over time and the other plots
for p in --over-time --ccdf --hist; do
	run "$SCHEDPLOT" latency -q $p -o "$TMP/p$p.png" "$TRACES/messaging.dat"
	expect_status 0 "latency $p"
done
check "the heat map differs from the CDF" bash -c "! cmp -s '$TMP/p--over-time.png' '$TMP/p--ccdf.png'"
run "$SCHEDPLOT" latency --over-time "$TRACES"/overload.dat "$TRACES"/overload-v6.dat
expect_status 2 "--over-time with two traces"
