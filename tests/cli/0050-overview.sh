#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot overview: the datagraph above the running/waiting graph, one
# time axis.  Valid, reproducible outputs; both parts present, the plot
# frames aligned; the CSV the same as running-waiting's; errors as for the
# other views.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
export SOURCE_DATE_EPOCH=1700000000

for ext in png pdf svg; do
	run "$SCHEDPLOT" overview -q -o "$TMP/a.$ext" "$f"
	expect_status 0 "$ext output"
	run "$SCHEDPLOT" overview -q -o "$TMP/b.$ext" "$f"
	check "$ext: byte-identical on a second run" cmp -s "$TMP/a.$ext" "$TMP/b.$ext"
done
check "PNG signature" cmp -s -n 8 "$TMP/a.png" <(printf '\211PNG\r\n\032\n')
if command -v pdftoppm >/dev/null; then
	check "pdftoppm renders the PDF" pdftoppm -r 20 -png "$TMP/a.pdf" "$TMP/pdfpage"
else
	skip "pdftoppm missing (poppler-utils): PDF not rendered"
fi
if command -v xmllint >/dev/null; then
	check "xmllint parses the SVG" xmllint --noout "$TMP/a.svg"
else
	skip "xmllint missing (libxml2-utils): SVG not parsed"
fi

# both parts in the PNG, and the two plot frames start and end at the same x
python3 - "$TMP/a.png" <<'EOF' && ok "PNG: datagraph above running/waiting, frames aligned" || not_ok "PNG: parts or alignment wrong"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4}[ctype]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
rows, prev = [], bytearray(stride)
for y in range(h):
    ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if ft == 1: line[i] = (line[i] + a) & 255
        elif ft == 2: line[i] = (line[i] + b) & 255
        elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
px = lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])
# frame lines: long horizontal runs of the axis color
frames = []
for y in range(h):
    xs = [x for x in range(w) if px(x, y) == (38, 38, 38)]
    if len(xs) > w // 2:
        frames.append((y, xs[0], xs[-1]))
green = [y for y in range(h) for x in range(0, w, 3) if px(x, y) == (0, 97, 33)]
if len(frames) < 4:
    sys.exit("found %d frame lines" % len(frames))
if len({(a, b) for _, a, b in frames}) != 1:
    sys.exit("frames not aligned: %s" % frames)
if not green:
    sys.exit("no running line")
top = frames[0][0]
# the datagraph: colored (not grey, not white) pixels between the first frame line and the green
colored = 0
for y in range(top + 1, min(green)):
    for x in range(frames[0][1] + 1, frames[0][2], 5):
        r, g, b = px(x, y)
        colored += max(r, g, b) - min(r, g, b) > 60
if colored < 100:
    sys.exit("no datagraph colors above the running/waiting graph")
EOF

# the same running/waiting numbers as running-waiting, from the same pass
run "$SCHEDPLOT" overview -q --csv "$TMP/ov.csv" -o "$TMP/ov.png" "$f"
expect_status 0 "--csv"
run "$SCHEDPLOT" running-waiting -q --csv "$TMP/rw.csv" -o "$TMP/rw.png" "$f"
check "--csv: the same file as running-waiting's" cmp -s "$TMP/ov.csv" "$TMP/rw.csv"

# every option of both views
run "$SCHEDPLOT" overview -q --min 0.1 --max 0.12 --cpus 0-1 --target 'barrier*' \
	--color-by command --palette grey --width 900 --height 700 --title zoom \
	--font-size 9 --no-shade --no-legend -o "$TMP/z.svg" "$f"
expect_status 0 "zoomed with the options of both views"
check "zoomed SVG parses" xmllint --noout "$TMP/z.svg"

# ---- errors ----

run "$SCHEDPLOT" overview --bogus "$f"
expect_status 2 "unknown option"
run "$SCHEDPLOT" overview --socket-order "$f"
expect_status 2 "--socket-order without --topology"
mkdir "$TMP/empty"
run "$SCHEDPLOT" overview --min 1000 -o "$TMP/empty/x.png" "$f"
expect_status 2 "window outside the trace"
run "$SCHEDPLOT" overview -o "$TMP/missing/x.png" "$f"
expect_status 1 "directory that does not exist"
run "$SCHEDPLOT" overview -o "$TMP/empty/x.png" --csv "$TMP/missing/x.csv" "$f"
expect_status 1 "CSV in a directory that does not exist"
run "$SCHEDPLOT" overview -o "$TMP/empty/x.png" "$TRACES/unusable/no-sched.dat"
expect_status 1 "trace without sched events"
expect_grep "$ERR" "no-sched.dat: no scheduler events" "trace without sched events: says so"
check "errors left no file behind" test -z "$(ls -A "$TMP/empty")"

run "$SCHEDPLOT" overview --help
expect_status 0 "--help"
expect_grep "$OUT" "^usage: schedplot overview" "--help prints usage on stdout"

# 400 tasks waiting for 2 CPUs: waiting gets a panel of its own, so the
# running line is not flattened under its scale; a calmer trace keeps one
run "$SCHEDPLOT" overview -q -o "$TMP/split.svg" "$TRACES/messaging.dat"
expect_status 0 "overview of messaging.dat"
check "messaging.dat: running and waiting in panels of their own" \
	test "$(grep -o '>running<\|>waiting<' "$TMP/split.svg" | sort | tr '\n' ' ')" = ">running< >waiting< "
run "$SCHEDPLOT" overview -q -o "$TMP/one.svg" "$TRACES/overload.dat"
check "overload.dat: one panel of tasks" \
	test "$(grep -c '>running<\|>waiting<' "$TMP/one.svg")" = 0
