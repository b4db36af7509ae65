#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# SVG for the browser: a zoomed-in datagraph or tasks chart gives every run
# drawn a <title> (as many as `schedplot runs` lists for that window), the
# text of every image is there as <text>, the files stay valid XML and
# byte-identical from run to run, and a window of too many runs gets no
# titles at all.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
if ! command -v xmllint >/dev/null 2>&1; then
	skip "SVG: no xmllint (Debian package libxml2-utils)"
	exit 0
fi

# nr_runs [RUNS OPTIONS...]: runs of some length, idle left out
nr_runs() {
	"$SCHEDPLOT" runs -q "$@" "$f" | awk -F, 'NR > 2 && $3 > $2' | wc -l
}
titles() {
	grep -c '<title>' "$1" || true
}

run "$SCHEDPLOT" datagraph -q --min 0.1 --max 0.11 -o "$TMP/d.svg" "$f"
expect_status 0 "datagraph, zoomed"
check "datagraph: valid XML" xmllint --noout "$TMP/d.svg"
want=$(nr_runs --min 0.1 --max 0.11)
got=$(titles "$TMP/d.svg")
check "datagraph: a title per run in the window ($got, runs says $want)" \
	test "$got" = "$want" -a "$want" -gt 20
expect_grep "$TMP/d.svg" '<title>barrier-[0-9]+ on CPU [01] at 0\.1[0-9]+ s for [0-9.]+ ms</title>' \
	"datagraph: a title names task, CPU, start and duration"
expect_grep "$TMP/d.svg" '<text [^>]*>overload\.dat</text>' "datagraph: the title is text"
expect_grep "$TMP/d.svg" '<text [^>]*>CPU</text>' "datagraph: the axis title is text"
"$SCHEDPLOT" datagraph -q --min 0.1 --max 0.11 -o "$TMP/d2.svg" "$f"
check "datagraph: the same SVG twice" cmp -s "$TMP/d.svg" "$TMP/d2.svg"

run "$SCHEDPLOT" datagraph -q --min 0.1 --max 0.11 --cpus 1 -o "$TMP/d1.svg" "$f"
got=$(titles "$TMP/d1.svg")
want=$(nr_runs --min 0.1 --max 0.11 --cpus 1)
check "datagraph --cpus 1: the titles of CPU 1's runs ($got, runs says $want)" test "$got" = "$want"

run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.11 --target barrier -o "$TMP/t.svg" "$f"
expect_status 0 "tasks, zoomed"
check "tasks: valid XML" xmllint --noout "$TMP/t.svg"
want=$(nr_runs --min 0.1 --max 0.11 --target barrier)
got=$(titles "$TMP/t.svg")
check "tasks: a title per run in the window ($got, runs says $want)" \
	test "$got" = "$want" -a "$want" -gt 20
expect_grep "$TMP/t.svg" '<text [^>]*>barrier-6871</text>' "tasks: row labels are text"
expect_grep "$TMP/t.svg" '<text [^>]*>waiting for a CPU</text>' "tasks: the key is text"

# the titles sit on the runs: every title's rectangle inside the plot frame
python3 - "$TMP/t.svg" <<'EOF' && ok "tasks: title rectangles inside the plot, one row each" || not_ok "tasks: title rectangles"
import re, sys
svg = open(sys.argv[1]).read()
rects = [tuple(map(float, m)) for m in re.findall(
    r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)"><title>', svg)]
ys = sorted(set(r[1] for r in rects))
xs = [r[0] for r in rects] + [r[0] + r[2] for r in rects]
if len(ys) != 6:
    sys.exit("rows: %s" % ys)
if max(xs) - min(xs) < 400:
    sys.exit("runs do not span the plot: %s..%s" % (min(xs), max(xs)))
EOF

# PNG and PDF stay as they were: no overlay
run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.11 -o "$TMP/t.pdf" "$f"
expect_status 0 "tasks PDF"

# too many runs: no titles, the text still there
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ -x "$GEN" ] && "$GEN" --cpus 16 --events 200000 -o "$TMP/g.dat" >/dev/null 2>"$ERR"; then
	many=$("$SCHEDPLOT" runs -q "$TMP/g.dat" | awk -F, 'NR > 2 && $3 > $2 && $4 != 0' | wc -l)
	run "$SCHEDPLOT" datagraph -q -o "$TMP/g.svg" "$TMP/g.dat"
	check "datagraph of $many runs (more than 20000): no titles" \
		test "$many" -gt 20000 -a "$(titles "$TMP/g.svg")" = 0
	check "datagraph of $many runs: valid XML" xmllint --noout "$TMP/g.svg"
	expect_grep "$TMP/g.svg" '<text [^>]*>g\.dat</text>' "datagraph of many runs: text kept"
else
	not_ok "gen-trace failed: $(head -c 300 "$ERR")"
fi
