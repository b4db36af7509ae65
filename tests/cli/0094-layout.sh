#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Layout a reader sees whole: no text leaves the image (the legend of a
# narrow overview, the rightmost tick label of absolute timestamps), axis
# labels carry the decimals that name their ticks and no more, the grey
# palette hatches waits in greys, and compare's PDF is as wide as the
# other views'.  Text is found in the SVG overlay (one <text> per line
# drawn, with its position and length), never compared as pixels.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat

# inside FILE.svg WHAT: every unrotated line of text lies inside the image
inside() {
	if python3 - "$1" >"$TMP/outside" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
w = float(re.search(r'viewBox="0 0 ([\d.]+) ', s).group(1))
bad = []
for m in re.finditer(r'<text transform="matrix\(([^)]*)\)" x="([-\d.]+)" y="[-\d.]+" '
                     r'font-size="[\d.]+" textLength="([\d.]+)"[^>]*>([^<]*)', s):
    a, b, c, d, e, f = (float(v) for v in m.group(1).split())
    if b or c:
        continue
    x0 = a * float(m.group(2)) + e
    x1 = x0 + a * float(m.group(3))
    if x0 < -0.5 or x1 > w + 0.5:
        bad.append(f"'{m.group(4)}' from {x0:.1f} to {x1:.1f} of {w:g}")
print("; ".join(bad[:4]))
sys.exit(1 if bad else 0)
PY
	then
		ok "$2: every line of text inside the image"
	else
		not_ok "$2: text outside the image: $(cat "$TMP/outside")"
	fi
}

# the legend of a narrow overview: "not all CPUs recording" on a row of its own
run "$SCHEDPLOT" overview -q --width 600 -o "$TMP/ov.svg" "$TRACES/overflow.dat"
expect_status 0 "overview --width 600"
expect_grep "$TMP/ov.svg" '>not all CPUs recording<' "overview --width 600: the legend has 'not all CPUs recording'"
inside "$TMP/ov.svg" "overview --width 600"
for w in 400 500; do
	run "$SCHEDPLOT" overview -q --width $w -o "$TMP/ov$w.svg" "$TRACES/overflow.dat"
	inside "$TMP/ov$w.svg" "overview --width $w"
done

# the rightmost tick label of absolute timestamps stays in the image
for view in datagraph overview tasks running-waiting; do
	for win in 436.2,436.3 436.5,436.6; do
		run "$SCHEDPLOT" $view -q --time $win -o "$TMP/t.svg" "$f"
		inside "$TMP/t.svg" "$view --time $win"
		run "$SCHEDPLOT" $view -q --width 500 --time $win -o "$TMP/t.svg" "$f"
		inside "$TMP/t.svg" "$view --width 500 --time $win"
	done
done
run "$SCHEDPLOT" datagraph -q --time 436.12494,436.1249401 -o "$TMP/t.svg" "$f"
inside "$TMP/t.svg" "datagraph of 100 ns: labels of nine decimals"

# decimals that name the ticks: 0.05, not 0.050000
run "$SCHEDPLOT" datagraph -q --min 0 --max 0.3 -o "$TMP/d.svg" "$f"
expect_grep "$TMP/d.svg" '>0\.05<' "datagraph --max 0.3: ticks every 50 ms read 0.05"
if grep -q '>0\.050000<' "$TMP/d.svg"; then
	not_ok "datagraph --max 0.3: six decimals where two name the ticks"
else
	ok "datagraph --max 0.3: no six decimals"
fi
run "$SCHEDPLOT" running-waiting -q --time 436.3,436.5 -o "$TMP/r.svg" "$f"
expect_grep "$TMP/r.svg" '>436\.35<' "running-waiting --time 436.3,436.5: ticks read 436.35"

# the grey palette: no red left in the tasks chart
run "$SCHEDPLOT" tasks -q --palette grey --min 0.1 --max 0.11 -o "$TMP/g.png" "$f"
expect_status 0 "tasks --palette grey"
if python3 - "$TMP/g.png" "$SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import png
w, h, px = png.read(sys.argv[1])
red = sum(1 for y in range(0, h, 2) for x in range(0, w, 2)
          if (lambda c: c[0] - max(c[1], c[2]) > 40)(px(x, y)))
sys.exit(1 if red else 0)
PY
then
	ok "tasks --palette grey: no red pixel (waits hatched in greys)"
else
	not_ok "tasks --palette grey: red pixels left"
fi
run "$SCHEDPLOT" tasks -q --min 0.1 --max 0.11 -o "$TMP/c.png" "$f"
if python3 - "$TMP/c.png" "$SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import png
w, h, px = png.read(sys.argv[1])
sys.exit(0 if any(px(x, y)[0] - max(px(x, y)[1], px(x, y)[2]) > 40
                  for y in range(0, h, 2) for x in range(0, w, 2)) else 1)
PY
then
	ok "tasks: waits hatched red with the default palette"
else
	not_ok "tasks: no red with the default palette"
fi

# compare's PDF as wide as the other views' (720 pt), its PNG 900 px
c=$TRACES/compare
run "$SCHEDPLOT" compare -q -o "$TMP/c.pdf" "$c"/t2-*.dat --vs "$c"/t3-*.dat
expect_grep "$TMP/c.pdf" 'MediaBox \[ ?0 0 720 720 ?\]' "compare's PDF: 720 x 720 pt"
run "$SCHEDPLOT" datagraph -q -o "$TMP/d.pdf" "$f"
expect_grep "$TMP/d.pdf" 'MediaBox \[ ?0 0 720 ' "datagraph's PDF: 720 pt wide"
run "$SCHEDPLOT" compare -q -o "$TMP/c.png" "$c"/t2-*.dat --vs "$c"/t3-*.dat
check "compare's PNG: 900 x 900 px" python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(24)
sys.exit(struct.unpack(">II", d[16:24]) != (900, 900))' "$TMP/c.png"
run "$SCHEDPLOT" compare -q -o "$TMP/c.svg" "$c"/t2-*.dat --vs "$c"/t3-*.dat
inside "$TMP/c.svg" "compare's page"
