#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot explain: the decisions it ranks are the waits latency --csv
# writes, in the order asked for (longest first, ties by the earlier
# wakeup), with the same waker, CPUs and wait; the run that ended each wait
# is the one runs writes (its wait, waker and previous CPU); the figures
# are drawn (the wait in red on the rows), one page each in a PDF; bad
# command lines are refused.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v python3 >/dev/null; then
	skip "python3 missing: cannot compare explain with latency and runs"
	exit 0
fi

traces=("$TRACES/overload.dat" "$TRACES/messaging.dat")
for f in "$SHARED"/x86_64-8cpu-v7-zstd.dat; do
	[ -f "$f" ] && traces+=("$f")
done

for f in "${traces[@]}"; do
	name=$(basename "$f")
	run "$SCHEDPLOT" latency -q --text --csv "$TMP/waits.csv" "$f"
	expect_status 0 "$name: latency --csv"
	run "$SCHEDPLOT" runs -q --json -o "$TMP/runs.json" "$f"
	expect_status 0 "$name: runs --json"
	for what in placement wait migration idle-while-waiting; do
		run "$SCHEDPLOT" explain -q --json --top 6 --what "$what" "$f"
		expect_status 0 "$name: explain --what $what --json"
		cp "$OUT" "$TMP/explain.json"
		if msg=$(python3 - "$TMP/explain.json" "$TMP/waits.csv" "$TMP/runs.json" "$what" <<'PY'
import csv, json, re, sys
ex, waits, runs, what = sys.argv[1:]
x = json.load(open(ex))
lines = open(waits).read().splitlines()
m = re.search(r"counts from (\d+)\.(\d{9}) s", lines[0])
origin = int(m.group(1)) * 1000000000 + int(m.group(2))
rows = []
for r in csv.DictReader(lines[1:]):
    sec, frac = r["start_s"].split(".")
    r["start_ns"] = origin + int(sec) * 1000000000 + int(frac)
    rows.append(r)
by_key = {(r["start_ns"], int(r["pid"])): r for r in rows}
rl = open(runs).read().splitlines()
rorigin = json.loads(rl[0])["start_ns"]
run_at = {}
for l in rl[1:]:
    r = json.loads(l)
    run_at[(r["cpu"], r["start_ns"] + rorigin, r["pid"])] = r
bad = []
if what != "idle-while-waiting":
    keep = {"placement": lambda r: r["placement"] == "moved_prev_idle",
            "wait": lambda r: True,
            "migration": lambda r: int(r["prev_cpu"]) >= 0 and r["prev_cpu"] != r["cpu"]}[what]
    cand = [r for r in rows if keep(r)]
    cand.sort(key=lambda r: (-int(r["latency_ns"]), r["start_ns"], int(r["pid"])))
    want = [(r["start_ns"], int(r["pid"])) for r in cand[:6]]
    got = [(d["start_ns"], d["pid"]) for d in x["decisions"]]
    if got != want:
        bad.append("order %s, latency says %s" % (got[:3], want[:3]))
    if x["candidates"] != len(cand):
        bad.append("%d candidates, latency has %d" % (x["candidates"], len(cand)))
for d in x["decisions"]:
    r = by_key.get((d["start_ns"], d["pid"]))
    if r is None:
        bad.append("no wait of %d at %d in latency --csv" % (d["pid"], d["start_ns"]))
        continue
    for k in ("latency_ns", "cpu", "prev_cpu", "target_cpu", "waker_cpu"):
        if str(d[k]) != r[k]:
            bad.append("%s %s, latency says %s" % (k, d[k], r[k]))
    for k in ("comm", "class", "placement"):
        if d[k] != r[k]:
            bad.append("%s %s, latency says %s" % (k, d[k], r[k]))
    if str(d["waker"]) != r["waker"] or int(d["prev_idle"]) != int(r["prev_idle"]):
        bad.append("waker %s prev_idle %s, latency says %s %s" %
                   (d["waker"], d["prev_idle"], r["waker"], r["prev_idle"]))
    if what == "idle-while-waiting" and not 0 < d["score_ns"] <= d["latency_ns"]:
        bad.append("idle time %d of a wait of %d" % (d["score_ns"], d["latency_ns"]))
    end = d["start_ns"] + d["latency_ns"]
    n = run_at.get((d["cpu"], end, d["pid"]))
    if n is None:
        bad.append("no run of %d on CPU %d at %d in runs" % (d["pid"], d["cpu"], end))
        continue
    if (n["wait_ns"], str(n["woken_by"]), n["prev_cpu"]) != \
       (d["latency_ns"], str(d["waker"]), d["prev_cpu"]):
        bad.append("run: wait %s woken_by %s prev_cpu %s" %
                   (n["wait_ns"], n["woken_by"], n["prev_cpu"]))
    if d["next_run_end_ns"] != n["end_ns"] + rorigin:
        bad.append("next run ends %s, runs says %d" % (d["next_run_end_ns"], n["end_ns"] + rorigin))
    if not d["window"]["start_ns"] <= d["start_ns"] <= end <= d["window"]["end_ns"]:
        bad.append("window %s leaves out the wait" % d["window"])
    cpus = {c["cpu"] for c in d["cpus"]}
    if not {d["cpu"], d["target_cpu"]} <= cpus or (d["prev_cpu"] >= 0 and d["prev_cpu"] not in cpus):
        bad.append("CPUs %s leave out one of its" % sorted(cpus))
if bad:
    print("; ".join(bad[:4]))
    sys.exit(1)
print(len(x["decisions"]), x["candidates"])
PY
		); then
			set -- $msg
			ok "$name: explain --what $what: $1 decisions of $2 equal latency's and runs'"
		else
			not_ok "$name: explain --what $what: $msg"
		fi
	done
done

# the text says what the JSON says, and gives a datagraph command that runs
f=$TRACES/overload.dat
run "$SCHEDPLOT" explain -q --text --top 2 "$f"
expect_status 0 "explain --text"
cp "$OUT" "$TMP/text"
expect_grep "$TMP/text" "^1\. barrier \(6870\) at 436\.142111 s" "the text names the worst first"
expect_grep "$TMP/text" "woken by barrier \(6872\) on CPU 1" "the text names the waker and its CPU"
expect_grep "$TMP/text" "waited 486 µs behind barrier \(6871\)" "the text names what it waited behind"
run "$SCHEDPLOT" explain -q --json --top 2 "$f"
cp "$OUT" "$TMP/json"
if python3 - "$TMP/text" "$TMP/json" <<'PY'
import json, sys
text = open(sys.argv[1]).read().split("\n\n")[1:]
x = json.load(open(sys.argv[2]))["decisions"]
want = ["%d. %s\n" % (d["rank"], d["title"]) + "".join("   %s\n" % l for l in d["words"]) +
        "   context: %s" % d["context"] for d in x]
sys.exit(0 if [t.strip("\n") for t in text] == want else 1)
PY
then
	ok "the text says, decision by decision, what the JSON's title, words and context say"
else
	not_ok "the text and the JSON differ"
fi
cmd=$(sed -n 's/^ *context: schedplot //p' "$TMP/text" | head -1)
# shellcheck disable=SC2086
run "$SCHEDPLOT" $cmd -q -o "$TMP/context.png"
expect_status 0 "the context command runs: schedplot $cmd"

# the figure: PNG with the wait in red; several one page each in a PDF
run "$SCHEDPLOT" explain -q -o "$TMP/one.png" "$f"
expect_status 0 "explain -o one.png"
if python3 - "$SRCDIR/tests/lib" "$TMP/one.png" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import png
w, h, px = png.read(sys.argv[2])
red = sum(1 for y in range(0, h, 2) for x in range(0, w, 2)
          if px(x, y)[0] > 180 and px(x, y)[1] < 80 and px(x, y)[2] < 80)
sys.exit(0 if w == 1600 and red > 100 else 1)
PY
then
	ok "the PNG is 1600 px wide and shows the wait in red"
else
	not_ok "the PNG is not 1600 px wide or shows no red wait"
fi
run "$SCHEDPLOT" explain -q --what wait --top 3 -o "$TMP/three.pdf" "$f"
expect_status 0 "explain --top 3 -o three.pdf"
if command -v pdfinfo >/dev/null; then
	pages=$(pdfinfo "$TMP/three.pdf" | awk '/^Pages:/ { print $2 }')
	width=$(pdfinfo "$TMP/three.pdf" | awk '/^Page size:/ { print $3 }')
	check "the PDF has a page per decision (3: $pages), one column wide (252 pt: $width)" \
		test "$pages" = 3 -a "$width" = 252
fi
run "$SCHEDPLOT" explain -q --what wait --top 3 -o "$TMP/three.svg" "$f"
expect_status 0 "explain --top 3 -o three.svg (a grid)"
expect_grep "$TMP/three.svg" "<svg" "the grid is an SVG"

# one chosen wait: --at inside a wait of --task
run "$SCHEDPLOT" explain -q --json --at 436.1424 --task 6870 "$f"
expect_status 0 "explain --at --task"
expect_grep "$OUT" '"start_ns": 436142111569, "latency_ns": 485923, "pid": 6870' \
	"--at inside a wait explains that wait"

# bad command lines
for args in "--at 1" "--task 1" "--what nothing" "--top 0" "--top 65" "--text -o x.png" \
	"--text --json" "--at 1 --task 1 --what wait"; do
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" explain $args "$f"
	expect_status 2 "explain $args"
done
run "$SCHEDPLOT" explain -q --cpus 0 --target nothing-runs-so "$f"
expect_status 1 "explain of no task"
