#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot running-waiting: the --csv step functions integrate to the
# averages of stats --json over the complete window (one code path, so to
# 1e-6) and its lost column to lost_cpu_ns (exactly), its times count from
# the trace's start given on its first line, the images are valid and the same on every run, and errors leave
# nothing behind.
. "$(dirname "$0")/../lib/lib.sh"

set -- "$TRACES"/*.dat
for f in aarch64-6cpu-v6.dat i686-4cpu-v6.dat x86_64-8cpu-v7-zstd.dat x86_64-1cpu-v7-zlib.dat; do
	[ -f "$SHARED/$f" ] && set -- "$@" "$SHARED/$f"
done

# integrate CSV JSON: compare the CSV's integrals over window_ns with the
# averages, and the lost column's with lost_cpu_ns (exactly: both are sums
# of whole CPU*ns)
integrate() {
	python3 - "$1" "$2" <<'EOF'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
ws, end = d["window_ns"]
n = d["nr_cpus"]
# the first line says where time_ns counts from: the trace's start
if len(rows[0]) != 1 or not rows[0][0].startswith("# start_ns="):
    sys.exit("no '# start_ns=' first line: %r" % rows[0])
origin = int(rows[0][0][len("# start_ns="):])
if origin != min(d["start_ns"].values()):
    sys.exit("start_ns=%d is not the trace's start %d" % (origin, min(d["start_ns"].values())))
if rows[1] != ["time_ns", "running", "waiting", "lost"]:
    sys.exit("bad header %r" % rows[1])
pts = [(origin + int(t), int(r), int(w), int(l)) for t, r, w, l in rows[2:]]
if any(b[0] <= a[0] for a, b in zip(pts, pts[1:])):
    sys.exit("times do not increase")
bad = [p for p in pts if p[3] != max(0, min(p[2], n - p[1]))]
if bad:
    sys.exit("lost is not min(waiting, N - running) at %r" % (bad[0],))
run = wait = lost = 0
for (t, r, w, l), (t2, _, _, _) in zip(pts, pts[1:]):
    a, b = max(t, ws), min(t2, end)
    if b > a:
        run += r * (b - a)
        wait += w * (b - a)
        lost += l * (b - a)
span = end - ws
for name, area in (("running", run), ("waiting", wait)):
    want = d[name + "_avg"] * span
    if abs(area - want) > 1e-6 * max(abs(want), 1) + 1e-9 * span:
        sys.exit("%s: integral %d, stats says %.9g x %d = %.1f" % (name, area, d[name + "_avg"], span, want))
if lost != d["lost_cpu_ns"]:
    sys.exit("lost: integral %d CPU*ns, stats says lost_cpu_ns %d" % (lost, d["lost_cpu_ns"]))
if pts[0][0] > ws or pts[-1][0] < end:
    sys.exit("the CSV does not cover the complete window")
EOF
}

for f in "$@"; do
	name=$(basename "$f")
	run "$SCHEDPLOT" stats -q --json "$f"
	if [ "$STATUS" != 0 ]; then
		not_ok "$name: stats --json failed: $(head -c 200 "$ERR")"
		continue
	fi
	cp "$OUT" "$TMP/stats.json"
	run "$SCHEDPLOT" running-waiting -q --csv "$TMP/rw.csv" -o "$TMP/rw.png" "$f"
	expect_status 0 "$name: running-waiting --csv"
	if msg=$(integrate "$TMP/rw.csv" "$TMP/stats.json" 2>&1); then
		ok "$name: CSV integrals equal running_avg and waiting_avg x window, lost equals lost_cpu_ns"
	else
		not_ok "$name: $msg"
	fi
	check "$name: PNG signature" \
		cmp -s -n 8 "$TMP/rw.png" <(printf '\211PNG\r\n\032\n')
done

# a generated 128-CPU overload: the CSV's lost column integrates to the
# generator's own lost_cpu_ns (and so does stats)
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ -x "$GEN" ]; then
	"$GEN" --cpus 128 --sockets 2 --events 60000 --seconds 0.5 --overload --seed 3 \
		-o "$TMP/g128.dat" >/dev/null
	run "$SCHEDPLOT" stats -q --json "$TMP/g128.dat"
	cp "$OUT" "$TMP/g128.json"
	run "$SCHEDPLOT" running-waiting -q --csv "$TMP/g128.csv" -o "$TMP/g128.png" "$TMP/g128.dat"
	expect_status 0 "gen 128 CPUs: running-waiting --csv"
	if msg=$(integrate "$TMP/g128.csv" "$TMP/g128.json" 2>&1); then
		ok "gen 128 CPUs: CSV lost column integrates to lost_cpu_ns"
	else
		not_ok "gen 128 CPUs: $msg"
	fi
	check "gen 128 CPUs: lost_cpu_ns is the generator's truth" python3 -c '
import json, sys
t, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(not (t["lost_cpu_ns"] == s["lost_cpu_ns"] > 0))' "$TMP/g128.dat.json" "$TMP/g128.json"
else
	skip "gen-trace not built: no generated trace"
fi

# ---- formats and determinism (overload.dat) ----

f=$TRACES/overload.dat
export SOURCE_DATE_EPOCH=1700000000
for ext in png pdf svg; do
	run "$SCHEDPLOT" running-waiting -q -o "$TMP/a.$ext" "$f"
	expect_status 0 "$ext output"
	run "$SCHEDPLOT" running-waiting -q -o "$TMP/b.$ext" "$f"
	check "$ext: byte-identical on a second run" cmp -s "$TMP/a.$ext" "$TMP/b.$ext"
	run "$SCHEDPLOT" running-waiting -q --min 0.1 --max 0.12 --no-shade --title zoom \
		-o "$TMP/z.$ext" "$f"
	expect_status 0 "$ext output, zoomed, --no-shade, --title"
done
check "PNG signature" cmp -s -n 8 "$TMP/a.png" <(printf '\211PNG\r\n\032\n')
if command -v pdftoppm >/dev/null; then
	check "pdftoppm renders the PDF" pdftoppm -r 20 -png "$TMP/a.pdf" "$TMP/pdfpage"
	check "pdftoppm renders the zoomed PDF" pdftoppm -r 20 -png "$TMP/z.pdf" "$TMP/pdfzoom"
else
	skip "pdftoppm missing (poppler-utils): PDF not rendered"
fi
if command -v xmllint >/dev/null; then
	check "xmllint parses the SVG" xmllint --noout "$TMP/a.svg"
	check "xmllint parses the zoomed SVG" xmllint --noout "$TMP/z.svg"
else
	skip "xmllint missing (libxml2-utils): SVG not parsed"
fi
# vector files stay small: the envelope, not the events
size=$(stat -c %s "$TMP/a.svg")
check "SVG of the whole trace is small ($size bytes)" test "$size" -lt 400000

# default name, beside nothing else: <trace>-running-waiting.png in the current directory
(cd "$TMP" && "$SCHEDPLOT" running-waiting -q "$f")
check "default output name" test -s "$TMP/overload-running-waiting.png"

# standard output
run "$SCHEDPLOT" running-waiting -q -o - --format svg "$f"
expect_status 0 "-o - --format svg"
check "-o -: SVG on stdout" xmllint --noout "$OUT"

# filters: --cpus counts only those CPUs, --target only matching tasks
run "$SCHEDPLOT" running-waiting -q --cpus 0 --csv "$TMP/cpu0.csv" -o "$TMP/cpu0.png" "$f"
expect_status 0 "--cpus 0"
check "--cpus 0: at most one task running" \
	awk -F, 'NR > 2 && $2 > 1 { exit 1 }' "$TMP/cpu0.csv"
run "$SCHEDPLOT" running-waiting -q --target no-such-command --csv "$TMP/none.csv" \
	-o "$TMP/none.png" "$f"
expect_status 1 "--target that matches nothing: an error (the graph would be empty)"
expect_grep "$ERR" "no task of the trace matches --target 'no-such-command'" \
	"--target that matches nothing: named"
check "--target that matches nothing: no image left" test ! -e "$TMP/none.png"
check "--target that matches nothing: no CSV left" test ! -e "$TMP/none.csv"

# ---- errors ----

run "$SCHEDPLOT" running-waiting --bogus "$f"
expect_status 2 "unknown option"
expect_grep "$ERR" "Try 'schedplot running-waiting --help'" "unknown option: points to --help"

run "$SCHEDPLOT" running-waiting --color-by pid "$f"
expect_status 2 "datagraph-only option"

run "$SCHEDPLOT" running-waiting -o "$TMP/x.gif" "$f"
expect_status 2 "unknown image format"

run "$SCHEDPLOT" running-waiting
expect_status 2 "no trace given"

mkdir "$TMP/win"
run "$SCHEDPLOT" running-waiting --min 1000 --max 1001 -o "$TMP/win/x.png" "$f"
expect_status 2 "window outside the trace"
expect_stderr_line "overload.dat: the window asked for lies outside the trace" \
	"window outside the trace"
check "window outside the trace: no file left" test -z "$(ls -A "$TMP/win")"

run "$SCHEDPLOT" running-waiting -o "$TMP/missing/x.png" "$f"
expect_status 1 "directory that does not exist"
expect_stderr_line "^schedplot: .*missing/x.png: cannot create output" \
	"directory that does not exist"

mkdir "$TMP/csvfail"
run "$SCHEDPLOT" running-waiting -o "$TMP/csvfail/x.png" --csv "$TMP/missing/x.csv" "$f"
expect_status 1 "CSV in a directory that does not exist"
check "CSV failed: no image left behind" test -z "$(ls -A "$TMP/csvfail")"

cp "$f" "$TMP/input.dat"
run "$SCHEDPLOT" running-waiting -o "$TMP/input.dat" --format png "$TMP/input.dat"
expect_status 2 "-o over the input trace"
check "-o over the input: trace unchanged" cmp -s "$f" "$TMP/input.dat"
run "$SCHEDPLOT" running-waiting -o "$TMP/csvfail/y.png" --csv "$TMP/input.dat" "$TMP/input.dat"
expect_status 2 "--csv over the input trace"
check "--csv over the input: trace unchanged" cmp -s "$f" "$TMP/input.dat"
check "--csv over the input: no image left behind" test -z "$(ls -A "$TMP/csvfail")"

run "$SCHEDPLOT" running-waiting -o "$TMP/csvfail/same.png" --csv "$TMP/csvfail/same.png" "$f"
expect_status 2 "--csv and -o the same file"
check "--csv and -o the same: nothing left" test -z "$(ls -A "$TMP/csvfail")"

run "$SCHEDPLOT" running-waiting --width 80 --height 64 -o "$TMP/csvfail/tiny.png" "$f"
expect_status 2 "image too small for its labels"
check "too small: nothing left" test -z "$(ls -A "$TMP/csvfail")"

run "$SCHEDPLOT" running-waiting -o "$TMP/csvfail/n.png" "$TRACES/unusable/no-sched.dat"
expect_status 1 "trace without sched events"
expect_stderr_line "no-sched.dat: no scheduler events" "trace without sched events"
check "trace without sched events: nothing left" test -z "$(ls -A "$TMP/csvfail")"

run "$SCHEDPLOT" running-waiting --help
expect_status 0 "--help"
expect_grep "$OUT" "^usage: schedplot running-waiting" "--help prints usage on stdout"

# --layout and --shade: each draws, differently; a bad value is a usage error
for l in single split auto; do
	run "$SCHEDPLOT" running-waiting -q --layout $l -o "$TMP/layout-$l.png" "$TRACES/messaging.dat"
	expect_status 0 "--layout $l"
done
check "--layout single and split draw different images" \
	bash -c "! cmp -s '$TMP/layout-single.png' '$TMP/layout-split.png'"
check "--layout auto splits messaging.dat (400 waiting on 2 CPUs)" \
	cmp -s "$TMP/layout-auto.png" "$TMP/layout-split.png"
run "$SCHEDPLOT" running-waiting -q --shade columns -o "$TMP/cols.png" "$TRACES/overload.dat"
expect_status 0 "--shade columns"
run "$SCHEDPLOT" running-waiting --layout sideways "$TRACES/overload.dat"
expect_status 2 "--layout sideways"
expect_grep "$ERR" "^schedplot: --layout must be auto, single or split" "--layout sideways: says what it takes"
run "$SCHEDPLOT" running-waiting --shade stripes "$TRACES/overload.dat"
expect_status 2 "--shade stripes"
