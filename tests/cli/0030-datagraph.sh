#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot datagraph: valid PNG, PDF and SVG for every bundled trace,
# identical bytes on a second run, and clean failures.
. "$(dirname "$0")/../lib/lib.sh"

png_ok() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$1")" -gt 1000 ]
}

# width and height from the IHDR chunk
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'
}

export SOURCE_DATE_EPOCH=1700000000
for f in "$TRACES"/overload.dat "$TRACES"/messaging.dat "$TRACES"/overflow.dat \
	 "$SHARED"/aarch64-6cpu-v6.dat "$SHARED"/x86_64-8cpu-v7-zstd.dat; do
	name=$(basename "$f")
	if [ ! -f "$f" ]; then
		skip "$name is not here"
		continue
	fi
	for ext in png pdf svg; do
		out=$TMP/${name%.dat}.$ext
		run "$SCHEDPLOT" datagraph -q "$f" -o "$out"
		expect_status 0 "$name to $ext"
		cp "$out" "$out.first"
		run "$SCHEDPLOT" datagraph -q "$f" -o "$out"
		check "$name to $ext: same bytes on a second run" cmp -s "$out" "$out.first"
	done
	check "$name: PNG signature" png_ok "$TMP/${name%.dat}.png"
	size=$(png_size "$TMP/${name%.dat}.png")
	case $size in
	1600x*) ok "$name: PNG is $size" ;;
	*) not_ok "$name: PNG is $size, expected 1600 wide" ;;
	esac
	check "$name: pdftoppm renders the PDF" pdftoppm -r 20 -png "$TMP/${name%.dat}.pdf" "$TMP/pp"
	check "$name: the SVG parses" xmllint --noout "$TMP/${name%.dat}.svg"
done

f=$TRACES/overload.dat
cd "$TMP"
run "$SCHEDPLOT" datagraph -q "$f"
expect_status 0 "default output name"
check "default output is overload-datagraph.png" png_ok "$TMP/overload-datagraph.png"

run "$SCHEDPLOT" datagraph -q --min 0.1 --max 0.12 --target barrier --color-by command \
	--width 800 --height 300 --title zoom "$f" -o "$TMP/zoom.png"
expect_status 0 "zoomed, targets, by command"
case $(png_size "$TMP/zoom.png") in
800x300) ok "--width/--height give an 800x300 PNG" ;;
*) not_ok "--width/--height: PNG is $(png_size "$TMP/zoom.png")" ;;
esac

run "$SCHEDPLOT" datagraph -q --cpus 1 --color-by parent --no-legend --font-size 14 "$f" \
	-o "$TMP/cpu1.svg"
expect_status 0 "one CPU, by parent, no legend"

printf '# CPU,Core,Socket,Node\n0,0,1,0\n1,1,0,0\n' >"$TMP/topo.txt"
run "$SCHEDPLOT" datagraph -q --socket-order --topology "$TMP/topo.txt" "$f" -o "$TMP/sock.png"
expect_status 0 "socket order with a topology"

run "$SCHEDPLOT" datagraph -q "$f" --time 0,1 -o "$TMP/abs.png"
expect_status 2 "--time before the trace"
check "--time before the trace: no file" test ! -e "$TMP/abs.png"

run "$SCHEDPLOT" datagraph --help
expect_status 0 "--help"
expect_grep "$OUT" "^usage: schedplot datagraph" "--help prints usage on stdout"

# errors: one line, the right status, no file left
run "$SCHEDPLOT" datagraph --bogus "$f" -o "$TMP/e1.png"
expect_status 2 "unknown option"
check "unknown option: no file" test ! -e "$TMP/e1.png"

run "$SCHEDPLOT" datagraph --cpus 0-x "$f" -o "$TMP/e2.png"
expect_status 2 "bad --cpus"
expect_grep "$ERR" "--cpus" "bad --cpus: names the option"

run "$SCHEDPLOT" datagraph --cpus 7 "$f" -o "$TMP/e2.png"
expect_status 2 "--cpus beyond the trace"
check "bad --cpus: no file" test ! -e "$TMP/e2.png"

run "$SCHEDPLOT" datagraph --min 100 --max 200 "$f" -o "$TMP/e3.png"
expect_status 2 "window outside the trace"
expect_stderr_line "^schedplot: .*overload.dat: the window .* outside the trace" \
	"window outside the trace"
check "window outside the trace: no file" test ! -e "$TMP/e3.png"

run "$SCHEDPLOT" datagraph --socket-order "$f" -o "$TMP/e4.png"
expect_status 2 "socket order without a topology"

printf '0,0,0,0\nzero,0,0,0\n' >"$TMP/badtopo.txt"
run "$SCHEDPLOT" datagraph --topology "$TMP/badtopo.txt" "$f" -o "$TMP/e5.png"
expect_status 1 "bad topology"
expect_stderr_line "^schedplot: .*badtopo.txt: line 2: " "bad topology: file and line"
check "bad topology: no file" test ! -e "$TMP/e5.png"

mkdir "$TMP/ro"
chmod 555 "$TMP/ro"
if [ -w "$TMP/ro" ]; then
	skip "unwritable directory (running as root)"
else
	run "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/ro/x.png"
	expect_status 1 "unwritable output directory"
	expect_stderr_line "^schedplot: .*ro/x.png: " "unwritable output directory"
	check "unwritable output directory: nothing left" test -z "$(ls -A "$TMP/ro")"
fi
: >"$TMP/plainfile"
run "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/plainfile/x.png"
expect_status 1 "output directory is a file"
expect_stderr_line "^schedplot: .*plainfile/x.png: " "output directory is a file"
run "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/missing/x.png"
expect_status 1 "missing output directory"
expect_stderr_line "^schedplot: .*missing/x.png: " "missing output directory"

cp "$f" "$TMP/input.png"
sum=$(cksum <"$TMP/input.png")
run "$SCHEDPLOT" datagraph -q "$TMP/input.png" -o "$TMP/input.png"
check "-o naming the input trace is refused" test "$STATUS" != 0
check "-o naming the input trace: the trace is untouched" \
	test "$(cksum <"$TMP/input.png")" = "$sum"
check "-o naming the input trace: no temporary file left" \
	test "$(ls "$TMP" | grep -c '^input')" = 1
