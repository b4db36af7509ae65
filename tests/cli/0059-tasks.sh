#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot tasks: a task's row shows its CPU's color exactly over its runs,
# red (hatched) over its waits and white while it sleeps, all read from
# `schedplot runs` of the same trace; rows picked by --top/--target, ordered
# by --sort, filtered by --cpus; the socket hue families of a generated
# 64-CPU trace; the errors.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
if ! command -v python3 >/dev/null 2>&1; then
	skip "tasks: no python3 to read the images"
	exit 0
fi

run "$SCHEDPLOT" tasks --help
expect_status 0 "--help"
expect_grep "$OUT" "^usage: schedplot tasks" "--help prints usage on stdout"

run "$SCHEDPLOT" runs "$f"
expect_status 0 "runs of the whole trace"
cp "$OUT" "$TMP/runs.csv"

# pixels CHECK PNG MIN_NS MAX_NS [CPUS]: the rows of the barrier tasks
# (--target barrier --sort pid) against the runs
pixels() {
	PYTHONPATH=$SRCDIR/tests/lib python3 - "$TMP/runs.csv" "$@" <<'EOF'
import csv, sys
import png
runs_csv, what, path, lo, hi = sys.argv[1:6]
cpus = set(int(c) for c in sys.argv[6].split(",")) if len(sys.argv) > 6 else None
lo, hi = int(lo), int(hi)
lines = open(runs_csv).read().splitlines()
runs, waits, pids = [], [], set()
for r in csv.DictReader(lines[1:]):
    if r["comm"] != "barrier":
        continue
    pid, cpu, s, e, w = int(r["pid"]), int(r["cpu"]), int(r["start_ns"]), int(r["end_ns"]), int(r["wait_ns"])
    if (cpus is None or cpu in cpus) and min(e, hi) > max(s, lo):
        runs.append((pid, cpu, max(s, lo), min(e, hi)))
        pids.add(pid)
    if w and min(s, hi) > max(s - w, lo):
        waits.append((pid, max(s - w, lo), min(s, hi)))
        pids.add(pid)
rows = sorted(pids)
w, h, px = png.read(path)
axis = (38, 38, 38)
frames = [y for y in range(h) if sum(px(x, y) == axis for x in range(0, w, 2)) > w // 4]
top = max(y for y in frames if y < frames[0] + 4) + 1
bottom = min(y for y in frames if y > frames[-1] - 4)
xs = [x for x in range(w) if px(x, frames[0]) == axis]
x0, x1 = xs[0], xs[-1] + 1
X = lambda t: x0 + (t - lo) * (x1 - x0) / (hi - lo)
Y = lambda pid: int(top + (rows.index(pid) + 0.5) * (bottom - top) / len(rows))
red = lambda c: c[0] > 200 and c[0] - c[1] > 40 and abs(c[1] - c[2]) < 30
color, errors, probed = {}, [], [0, 0, 0]
for pid, cpu, s, e in runs:
    if X(e) - X(s) < 8:
        continue
    c = px(int((X(s) + X(e)) / 2), Y(pid))
    color.setdefault(cpu, c)
    probed[0] += 1
    if c != color[cpu]:
        errors.append("run of %d on CPU %d at %d: %s, CPU %d is %s" % (pid, cpu, s, c, cpu, color[cpu]))
for pid, s, e in waits:
    if X(e) - X(s) < 8:
        continue
    mid = int((X(s) + X(e)) / 2)
    probed[1] += 1
    for x in range(mid - 2, mid + 3):
        if not red(px(x, Y(pid))):
            errors.append("wait of %d at %d: %s is not red" % (pid, s, px(x, Y(pid))))
for pid in rows:
    busy = sorted([(s, e) for p, _, s, e in runs if p == pid] + [(s, e) for p, s, e in waits if p == pid])
    t = lo
    for s, e in busy + [(hi, hi)]:
        if X(s) - X(t) >= 8:
            probed[2] += 1
            c = px(int((X(t) + X(s)) / 2), Y(pid))
            if c != (255, 255, 255):
                errors.append("%d sleeps at %d..%d but is %s" % (pid, t, s, c))
        t = max(t, e)
legend = set(px(x, y) for y in range(bottom + 30, h) for x in range(0, w))
for cpu, c in color.items():
    if red(c) or c == (255, 255, 255) or c not in legend:
        errors.append("CPU %d's color %s is red, white or not in the key" % (cpu, c))
if len(set(color.values())) != len(color):
    errors.append("CPUs share a color: %s" % color)
if cpus is not None and set(color) - cpus:
    errors.append("runs drawn on CPUs outside --cpus")
if probed[0] < 10 or probed[1] < 5 or probed[2] < 5:
    errors.append("too few spans probed: %s" % probed)
if errors:
    sys.exit("%s: %d wrong, e.g. %s" % (what, len(errors), "; ".join(errors[:3])))
print("ok - %s: %d runs, %d waits, %d sleeps probed on %d rows" % (what, probed[0], probed[1], probed[2], len(rows)))
EOF
}

run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.11 --target barrier --sort pid --width 1000 \
	-o "$TMP/z.png" "$f"
expect_status 0 "zoomed PNG"
pixels "zoomed PNG: CPU colors over runs, red over waits, white over sleep" "$TMP/z.png" \
	100000000 110000000 || not_ok "zoomed PNG pixels"

run "$SCHEDPLOT" tasks -q --time 436.2351,436.2451 --target barrier --sort pid --width 1400 \
	--palette colorblind -o "$TMP/t.png" "$f"
expect_status 0 "--time, --palette colorblind"
pixels "--time window, colorblind palette" "$TMP/t.png" 110160000 120160000 ||
	not_ok "--time window pixels"

run "$SCHEDPLOT" tasks -q --min 0.3 --max 0.31 --target barrier --sort pid --cpus 1 \
	--width 1000 -o "$TMP/c.png" "$f"
expect_status 0 "--cpus 1"
pixels "--cpus 1: only the runs on CPU 1 drawn, waits kept" "$TMP/c.png" 300000000 310000000 1 ||
	not_ok "--cpus 1 pixels"

# the rows, read from the SVG's text: labels top to bottom
labels() {
	grep -o '<text [^>]*>[a-zA-Z/:0-9._-]*-[0-9]*</text>' "$1" |
		sed 's/.* y="\([0-9.]*\)".*>\(.*\)<\/text>/\1 \2/' | sort -g | awk '{ print $2 }'
}
# expected NAME SORT MIN_NS MAX_NS TOP: the rows the runs say, in order
expected() {
	python3 - "$TMP/runs.csv" "$@" <<'EOF'
import csv, sys
runs_csv, comm, key, lo, hi, top = sys.argv[1:7]
lo, hi, top = int(lo), int(hi), int(top)
lines = open(runs_csv).read().splitlines()
run, wait, first, name = {}, {}, {}, {}
for r in csv.DictReader(lines[1:]):
    pid, s, e, w = int(r["pid"]), int(r["start_ns"]), int(r["end_ns"]), int(r["wait_ns"])
    if pid == 0 or (comm != "*" and r["comm"] != comm):
        continue
    for a, b, d in ((s, e, run), (s - w, s, wait)):
        if min(b, hi) > max(a, lo):
            d[pid] = d.get(pid, 0) + min(b, hi) - max(a, lo)
            first[pid] = min(first.get(pid, hi), max(a, lo))
            name[pid] = r["comm"]
pids = sorted(first, key=lambda p: (-run.get(p, 0), p))[:top or None]
order = {"run": lambda p: (-run.get(p, 0), p), "wait": lambda p: (-wait.get(p, 0), p),
         "pid": lambda p: p, "start": lambda p: (first[p], p)}[key]
for p in sorted(pids, key=order):
    print("%s-%d" % (name[p], p))
EOF
}
for sort in run wait pid start; do
	run "$SCHEDPLOT" tasks -q --min 0.2 --max 0.25 --sort $sort -o "$TMP/s-$sort.svg" "$f"
	expect_status 0 "--sort $sort"
	labels "$TMP/s-$sort.svg" >"$TMP/got"
	expected '*' $sort 200000000 250000000 32 >"$TMP/want"
	check "--sort $sort: the rows and their order the runs give ($(wc -l <"$TMP/want") rows)" \
		cmp -s "$TMP/got" "$TMP/want"
done
run "$SCHEDPLOT" tasks -q --top 3 -o "$TMP/top.svg" "$f"
labels "$TMP/top.svg" >"$TMP/got"
expected '*' run 0 10000000000 3 >"$TMP/want"
check "--top 3: the three tasks that ran most ($(tr '\n' ' ' <"$TMP/want"))" cmp -s "$TMP/got" "$TMP/want"
run "$SCHEDPLOT" tasks -q --target 'barr*' --sort pid -o "$TMP/tg.svg" "$f"
labels "$TMP/tg.svg" >"$TMP/got"
expected barrier pid 0 10000000000 0 >"$TMP/want"
check "--target: every barrier task, no other ($(wc -l <"$TMP/want") rows)" cmp -s "$TMP/got" "$TMP/want"
run "$SCHEDPLOT" tasks -q --target-process barrier --sort pid -o "$TMP/tp.svg" "$f"
expect_status 0 "--target-process barrier"
labels "$TMP/tp.svg" >"$TMP/got"
check "--target-process barrier: the barrier process's threads, as --target barrier" \
	cmp -s "$TMP/got" "$TMP/want"
run "$SCHEDPLOT" tasks -q --target 6871 -o "$TMP/tpid.svg" "$f"
labels "$TMP/tpid.svg" >"$TMP/got"
check "--target 6871: that thread's row alone" test "$(cat "$TMP/got")" = barrier-6871

# a generated 64-CPU trace on two sockets: CPUs of a socket share a hue family
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ -x "$GEN" ] && "$GEN" --cpus 64 --sockets 2 --topology-markers --events 100000 \
	-o "$TMP/g64.dat" >/dev/null 2>"$ERR"; then
	run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.15 -o "$TMP/g64.png" "$TMP/g64.dat"
	expect_status 0 "64 CPUs"
	run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.15 --width 1200 -o "$TMP/g64.svg" "$TMP/g64.dat"
	check "64 CPUs: the default top 32 rows" test "$(labels "$TMP/g64.svg" | wc -l)" = 32
	expect_grep "$TMP/g64.svg" '<text [^>]*>ran on \(sN: socket N, a hue per socket\)</text>' \
		"64 CPUs: the trace's topology gives socket hues"
	expect_grep "$TMP/g64.svg" '<text [^>]*>CPU [0-9]+ \(s1\)</text>' \
		"64 CPUs, 1200 pt wide: the key names the second socket too"
	PYTHONPATH=$SRCDIR/tests/lib python3 - "$TMP/g64.png" "$TMP/g64.dat.lscpu" <<'EOF' &&
import colorsys, sys
import png
w, h, px = png.read(sys.argv[1])
axis = (38, 38, 38)
frames = [y for y in range(h) if sum(px(x, y) == axis for x in range(0, w, 2)) > w // 4]
xs = [x for x in range(w) if px(x, frames[0]) == axis]
colors = {}
for y in range(frames[0] + 3, frames[-1] - 2, 2):
    for x in range(xs[0] + 2, xs[-1] - 2, 4):
        c = px(x, y)
        colors[c] = colors.get(c, 0) + 1
plain = [c for c, n in colors.items() if n >= 20 and max(c) - min(c) > 40 and not (c[0] > 200 and c[0] - c[1] > 40 and abs(c[1] - c[2]) < 30)]
if len(plain) < 30:
    sys.exit("only %d CPU colors in the plot" % len(plain))
print("ok - 64 CPUs: %d CPU colors in the plot" % len(plain))
EOF
	true || not_ok "64 CPUs: too few colors"
else
	not_ok "gen-trace --cpus 64 failed: $(head -c 300 "$ERR")"
fi

# ---- errors ----
run "$SCHEDPLOT" tasks --sort bogus "$f"
expect_status 2 "--sort bogus"
expect_grep "$ERR" "^schedplot: --sort must be run, wait, pid or start, not 'bogus'" "--sort bogus: says what it takes"
run "$SCHEDPLOT" tasks --top -1 "$f"
expect_status 2 "--top -1"
run "$SCHEDPLOT" tasks --color-by command "$f"
expect_status 2 "an option of another view"
run "$SCHEDPLOT" tasks --min 1000 -o "$TMP/x.png" "$f"
expect_status 2 "window outside the trace"
check "nothing written on error" test ! -e "$TMP/x.png"
