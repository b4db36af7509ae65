#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Ink in proportion to time, on traces/ink/duty.dat (tasks pinned to CPU 0
# and CPU 1, busy 10% and 50% of every 10 ms for 30 s, so that a column of
# the whole trace holds about two periods): zoomed out, each CPU row of the
# datagraph and each duty task's row of the tasks chart is inked within
# 30% of its busy share times the ink of its color, read from a zoomed-in
# picture of the same row (tests/oracle/check-ink.py); --aggregate longest,
# the old rule, misses on CPU 0.  The colors go through --colors-out and
# --colors unchanged.  On a generated 256-CPU trace no CPU row with busy
# time reads blank.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/ink/duty.dat
ink="python3 $SRCDIR/tests/oracle/check-ink.py"

run "$SCHEDPLOT" runs -q "$f"
expect_status 0 "runs"
cp "$OUT" "$TMP/runs.csv"
# zoom_of CPU: a window inside a run of at least 1 ms of the duty task on CPU
zoom_of() {
	awk -F, -v cpu="$1" 'NR > 2 && $5 == "duty" && $1 == cpu && $3 - $2 >= 1000000 {
		printf "--min %dns --max %dns\n", $2 + 100000, $2 + 600000; exit }' "$TMP/runs.csv"
}
pid_on() {
	awk -F, -v cpu="$1" 'NR > 2 && $5 == "duty" && $1 == cpu { print $4; exit }' "$TMP/runs.csv"
}
# verdict WHAT: the oracle's verdict in $OUT as one check, its rows as comments
verdict() {
	sed -n 's/^# /    # /p' "$OUT"
	if grep -q '^ok' "$OUT"; then
		ok "$1: $(grep -c '^# row' "$OUT") rows"
	else
		not_ok "$1: $(cat "$OUT" "$ERR" | grep -v '^#' | tail -1)"
	fi
}

run "$SCHEDPLOT" datagraph -q --no-legend --colors-out "$TMP/all.json" -o "$TMP/all.png" "$f"
expect_status 0 "datagraph of the whole trace, --colors-out"
for cpu in 0 1; do
	pid=$(pid_on "$cpu")
	zoom=$(zoom_of "$cpu")
	check "a run of duty-$pid of 1 ms on CPU $cpu to zoom into" test -n "$zoom"
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q --no-legend --cpus "$cpu" $zoom \
		--colors-out "$TMP/zoom$cpu.json" -o "$TMP/plain$cpu.png" "$f"
	expect_status 0 "datagraph of CPU $cpu, zoomed in"
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q --no-legend --cpus "$cpu" --colors "$TMP/all.json" $zoom \
		--colors-out "$TMP/kept$cpu.json" -o "$TMP/z$cpu.png" "$f"
	expect_status 0 "datagraph of CPU $cpu, zoomed in, --colors"
	# the zoom's own choice need not agree; with --colors it does, and so does the file
	check "--colors: duty-$pid has the whole trace's color zoomed in" test \
		"$(grep "\"duty-$pid\"" "$TMP/all.json")" = "$(grep "\"duty-$pid\"" "$TMP/kept$cpu.json")"
	check "--colors-out after --colors: the file read, written back whole" \
		cmp -s "$TMP/all.json" "$TMP/kept$cpu.json"
	run "$SCHEDPLOT" datagraph -q --no-legend --cpus "$cpu" --colors "$TMP/all.json" \
		-o "$TMP/one$cpu.png" "$f"
	run $ink datagraph "$TMP/runs.csv" "$TMP/one$cpu.png" "$TMP/z$cpu.png" "$cpu"
	verdict "datagraph, CPU $cpu zoomed out: ink in proportion to its busy share"
	run "$SCHEDPLOT" datagraph -q --no-legend --aggregate longest --cpus "$cpu" \
		--colors "$TMP/all.json" -o "$TMP/long$cpu.png" "$f"
	expect_status 0 "datagraph --aggregate longest, CPU $cpu"
done
run $ink datagraph "$TMP/runs.csv" "$TMP/long0.png" "$TMP/z0.png" 0 --expect-fail
verdict "--aggregate longest, CPU 0: the old rule is not in proportion"

# ---- the tasks chart: one row per duty task, colored by the CPU it ran on ----
for cpu in 0 1; do
	pid=$(pid_on "$cpu")
	# shellcheck disable=SC2046
	run "$SCHEDPLOT" tasks -q --no-legend --target "$pid" $(zoom_of "$cpu") \
		-o "$TMP/tz$cpu.png" "$f"
	expect_status 0 "tasks of duty-$pid, zoomed in"
	run "$SCHEDPLOT" tasks -q --no-legend --target "$pid" -o "$TMP/t$cpu.png" "$f"
	expect_status 0 "tasks of duty-$pid"
	run $ink tasks "$TMP/runs.csv" "$TMP/t$cpu.png" "$TMP/tz$cpu.png" "$pid"
	verdict "tasks, duty-$pid zoomed out: ink in proportion to its running share"
done
run "$SCHEDPLOT" tasks -q --no-legend --aggregate longest --target "$(pid_on 0)" \
	-o "$TMP/tl.png" "$f"
run $ink tasks "$TMP/runs.csv" "$TMP/tl.png" "$TMP/tz0.png" "$(pid_on 0)" --expect-fail
verdict "tasks --aggregate longest: the 10% task is not in proportion"

# ---- compare's datagraph panels take a study's colors ----
# (by command: the file of a datagraph --color-by command, duty's color
# changed to one no palette gives, so that only --colors can draw it)
run "$SCHEDPLOT" datagraph -q --color-by command --colors-out "$TMP/cmd.json" -o "$TMP/cmd.png" "$f"
expect_status 0 "datagraph --color-by command --colors-out"
sed 's/"duty": "#[0-9a-f]*"/"duty": "#123456"/' "$TMP/cmd.json" >"$TMP/study.json"
check "the study's file names duty" grep -q '"duty": "#123456"' "$TMP/study.json"
run "$SCHEDPLOT" compare -q --view datagraph --colors "$TMP/study.json" -o "$TMP/cmp.svg" "$f" --vs "$f"
expect_status 0 "compare --view datagraph --colors"
# #123456 is rgb(7.058824%, 20.392157%, 33.72549%); drawn in both panels
n=$(grep -c 'fill:rgb(7.058824%,20.392157%,33.72549%)' "$TMP/cmp.svg" || true)
check "compare --colors: duty drawn in the study's color in the panels ($n)" test "$n" -ge 1
run "$SCHEDPLOT" compare -q --view datagraph -o "$TMP/cmp0.svg" "$f" --vs "$f"
n=$(grep -c 'fill:rgb(7.058824%,20.392157%,33.72549%)' "$TMP/cmp0.svg" || true)
check "compare without --colors: not that color ($n)" test "$n" -eq 0

# ---- the overview and compare take the same options ----
run "$SCHEDPLOT" overview -q --colors-out "$TMP/ov.json" -o "$TMP/ov.png" "$f"
expect_status 0 "overview --colors-out"
check "overview --colors-out: the datagraph's colors, the same bytes" cmp -s "$TMP/ov.json" "$TMP/all.json"
run "$SCHEDPLOT" overview -q --aggregate longest -o "$TMP/ovl.png" "$f"
expect_status 0 "overview --aggregate longest"
check "overview --aggregate longest draws other cells than the default" \
	test "$(cmp -s "$TMP/ov.png" "$TMP/ovl.png"; echo $?)" = 1
run "$SCHEDPLOT" compare -q --view datagraph --aggregate longest -o "$TMP/cmpl.svg" "$f" --vs "$f"
expect_status 0 "compare --aggregate longest"
check "compare --aggregate longest draws other cells than the default" \
	test "$(cmp -s "$TMP/cmp0.svg" "$TMP/cmpl.svg"; echo $?)" = 1
run "$SCHEDPLOT" compare -q --aggregate most -o "$TMP/cmpx.svg" "$f" --vs "$f"
expect_status 2 "compare --aggregate most"

# ---- a bad color file ----
printf '{"colors": {}}\n' >"$TMP/bad.json"
run "$SCHEDPLOT" datagraph --colors "$TMP/bad.json" -o "$TMP/bad.png" "$f"
expect_status 1 "--colors with a file that is not a color file"
expect_grep "$ERR" "bad.json: offset 0xf: not a color file: no \"schedplot_colors\": 1 member" \
	"--colors: the error names the file, the offset and what is missing"
check "--colors with a bad file: no image" test ! -e "$TMP/bad.png"
run "$SCHEDPLOT" datagraph --aggregate most -o "$TMP/bad.png" "$f"
expect_status 2 "--aggregate most"
expect_grep "$ERR" "--aggregate must be share or longest, not 'most'" "--aggregate: the choices"

# ---- 256 CPUs zoomed out: a row that ran is never blank ----
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ -x "$GEN" ]; then
	"$GEN" --cpus 256 --workload messaging --seconds 30 -o "$TMP/g.dat" >/dev/null 2>&1
	run "$SCHEDPLOT" datagraph -q --no-legend -o "$TMP/g.png" "$TMP/g.dat"
	expect_status 0 "datagraph of a generated 256-CPU trace"
	run "$SCHEDPLOT" stats -q --json "$TMP/g.dat"
	cp "$OUT" "$TMP/g.json"
	PYTHONPATH=$SRCDIR/tests/lib python3 - "$TMP/g.json" "$TMP/g.png" <<'PY'
import json, sys
import png
d = json.load(open(sys.argv[1]))
w, h, px = png.read(sys.argv[2])
axis = (38, 38, 38)
frames = [y for y in range(h) if sum(px(x, y) == axis for x in range(0, w, 2)) > w // 4]
top = max(y for y in frames if y < frames[0] + 4) + 1
bottom = min(y for y in frames if y > frames[-1] - 4)
xs = [x for x in range(w) if px(x, frames[0]) == axis]
x0, x1 = xs[0] + 1, xs[-1]
n = d["nr_cpus"]
blank = []
for cpu, busy in enumerate(d["cpu_busy_ns"]):
    # rows bottom first; the pixel rows whose middle falls in the CPU's band
    ys = [y for y in range(top, bottom) if int((bottom - y - 0.5) * n / (bottom - top)) == cpu]
    inked = sum(1 for y in ys for x in range(x0, x1) if px(x, y) != (255, 255, 255))
    if busy and not inked:
        blank.append(cpu)
if blank:
    sys.exit("not ok - CPUs with busy time drawn blank: %s" % blank[:10])
print("ok - 256 CPUs zoomed out: every CPU with busy time has ink in its row")
PY
	[ $? -eq 0 ] || not_ok "256 CPUs: a busy row reads blank"
else
	skip "gen-trace not built ($GEN): no 256-CPU trace"
fi
