#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doc/design.md: a CPU that lost nothing (the file's cpustats show no overrun
# and no dropped events, its pages no lost-events marker) is complete from
# the trace's start t0; any other CPU only from its first record.
#   overload.dat: cpustats all zero, CPU 1 idle for its first 4.3 ms: the
#     complete window now starts at t0, and the numbers hang together
#   overflow.dat: overruns on both CPUs: the old rule, window from CPU 0's
#     first record, 15 ms after t0
#   x86_64-8cpu-v7-zstd.dat (shared): cpustats all zero: the window starts
#     at t0 (CPU 5's first record) rather than 43 ms later at CPU 1's
#   aarch64-6cpu-v6.dat (shared): no cpustats at all: the old rule
. "$(dirname "$0")/../lib/lib.sh"

# json_check FILE WHAT PYTHON: PYTHON (with d, the JSON) is true
json_check() {
	check "$2" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not eval(sys.argv[2]))' "$1" "$3"
}

f=$TRACES/overload.dat
run "$SCHEDPLOT" stats -q --json "$f"
expect_status 0 "overload.dat: stats --json"
cp "$OUT" "$TMP/overload.json"
j=$TMP/overload.json
json_check "$j" "overload.dat: both CPUs start at t0 (436124940484)" \
	'd["start_ns"] == {"0": 436124940484, "1": 436124940484}'
json_check "$j" "overload.dat: the complete window is the whole span" \
	'd["window_ns"] == [436124940484, d["end_ns"]]'
json_check "$j" "overload.dat: busy time fits [start, end] on every CPU" \
	'all(0 < b <= d["end_ns"] - d["start_ns"][c] for c, b in d["cpu_busy_ns"].items())'
json_check "$j" "overload.dat: the tasks' run time is the CPUs' busy time" \
	'sum(t["run_ns"] for t in d["tasks"]) == sum(d["cpu_busy_ns"].values())'
json_check "$j" "overload.dat: running_avg is the busy time over the window" \
	'abs(d["running_avg"] * (d["window_ns"][1] - d["window_ns"][0]) - sum(d["cpu_busy_ns"].values())) < 1e-6 * sum(d["cpu_busy_ns"].values())'
json_check "$j" "overload.dat: no lost events" 'not any(d["lost_events"].values())'
run "$SCHEDPLOT" stats -q "$f"
expect_status 0 "overload.dat: stats"
expect_grep "$OUT" '^window      739\.616 ms complete \(all CPUs recording\), from \+0\.000000 s$' \
	"overload.dat: the text's window starts at +0"
expect_grep "$OUT" '^from start  CPU 1: lost nothing \(no overrun, drop or lost-events marker\), complete from \+0$' \
	"overload.dat: the text names CPU 1, complete from the start before its first record"
expect_grep "$OUT" '^    1  \+0\.000000 ' "overload.dat: CPU 1 starts at +0"

f=$TRACES/overflow.dat
run "$SCHEDPLOT" stats -q --json "$f"
expect_status 0 "overflow.dat: stats --json"
cp "$OUT" "$TMP/overflow.json"
j=$TMP/overflow.json
json_check "$j" "overflow.dat: each CPU starts at its first record" \
	'd["start_ns"] == {"0": 440687454821, "1": 440672382334}'
json_check "$j" "overflow.dat: the window starts at CPU 0's first record" \
	'd["window_ns"][0] == 440687454821'
run "$SCHEDPLOT" stats -q "$f"
expect_status 0 "overflow.dat: stats"
check "overflow.dat: no CPU taken as complete from the start" \
	bash -c '! grep -q "^from start" "$1"' _ "$OUT"
expect_grep "$OUT" '^window      311\.250 ms complete \(all CPUs recording\), from \+0\.015072 s$' \
	"overflow.dat: the text's window starts 15 ms in"

f=$SHARED/x86_64-8cpu-v7-zstd.dat
if [ -f "$f" ]; then
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "x86_64-8cpu: stats --json"
	cp "$OUT" "$TMP/x86.json"
	json_check "$TMP/x86.json" "x86_64-8cpu: all 8 CPUs and the window start at t0" \
		'set(d["start_ns"].values()) == {926697930144507} and len(d["start_ns"]) == 8 and d["window_ns"][0] == 926697930144507'
	json_check "$TMP/x86.json" "x86_64-8cpu: busy time fits [start, end] on every CPU" \
		'all(0 < b <= d["end_ns"] - d["start_ns"][c] for c, b in d["cpu_busy_ns"].items())'
else
	skip "x86_64-8cpu-v7-zstd.dat: ../shared/traces not here"
fi

f=$SHARED/aarch64-6cpu-v6.dat
if [ -f "$f" ]; then
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "aarch64: stats --json"
	cp "$OUT" "$TMP/aarch64.json"
	json_check "$TMP/aarch64.json" "aarch64 (no cpustats): the window starts at CPU 4's first record" \
		'd["window_ns"][0] == d["start_ns"]["4"] == 2084203320300 and min(d["start_ns"].values()) == 2084021442860'
	run "$SCHEDPLOT" stats -q "$f"
	check "aarch64: no CPU taken as complete from the start" \
		bash -c '! grep -q "^from start" "$1"' _ "$OUT"
else
	skip "aarch64-6cpu-v6.dat: ../shared/traces not here"
fi

# Damaged statistics are unknown: the old rule.  CPU 1's "overrun: 0" made
# unreadable in a copy of overload.dat (same length, so the file stays sound).
python3 - "$TRACES/overload.dat" "$TMP/damaged.dat" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
at = data.index(b"CPU: 1\n")
at = data.index(b"overrun: 0\n", at)
open(sys.argv[2], "wb").write(data[:at] + b"overrun: ?\n" + data[at + 11:])
PY
run "$SCHEDPLOT" stats -q --json "$TMP/damaged.dat"
expect_status 0 "overload.dat with CPU 1's cpustats damaged: stats --json"
cp "$OUT" "$TMP/damaged.json"
json_check "$TMP/damaged.json" "damaged cpustats: CPU 1 starts at its first record again" \
	'd["start_ns"] == {"0": 436124940484, "1": 436129272585} and d["window_ns"][0] == 436129272585'

# Statistics and pages that disagree: a compressed file's late CPU is taken
# as lossless from its statistics before its pages are read (reading them
# would decompress its data twice); when the pass finds a flagged page, the
# command starts over without presuming.  The answer must be the rule's,
# and nothing may show the first try.
#   overflow.dat with its overrun counts made 0 (same length): CPU 0 starts
#     15 ms after t0 and its first page carries the flag.  Every output is
#     that of overflow.dat itself, run under the same name.
mkdir -p "$TMP/real" "$TMP/hidden"
cp "$TRACES/overflow.dat" "$TMP/real/t.dat"
python3 - "$TRACES/overflow.dat" "$TMP/hidden/t.dat" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
hidden, n = re.subn(rb"(?<=\n)overrun: (\d+)\n", lambda m: b"overrun: " + b"0" * len(m.group(1)) + b"\n", data)
assert n == 2 and b"overrun: 0000\n" in hidden
open(sys.argv[2], "wb").write(hidden)
PY
# same_in_both WHAT ARGS...: in each directory, `schedplot ARGS t.dat`;
# stdout, stderr, status and the files written are the same
same_in_both() {
	what=$1
	shift
	for d in real hidden; do
		(set +e; cd "$TMP/$d" && rm -f out.*; "$SCHEDPLOT" "$@" t.dat >stdout 2>stderr
		 echo "exit $?" >>stderr)
	done
	for f in stdout stderr out.png out.svg out.csv; do
		if [ -f "$TMP/real/$f" ] && ! cmp -s "$TMP/real/$f" "$TMP/hidden/$f"; then
			not_ok "hidden loss: $what: $f differs from overflow.dat's"
			return
		fi
	done
	ok "hidden loss: $what: the same as overflow.dat's"
}
same_in_both "stats --json" stats -q --json
same_in_both "stats" stats
same_in_both "stats -v (notes once)" stats -v
same_in_both "datagraph -v" datagraph -v -o out.png
check "hidden loss: the first try leaves no file behind" \
	bash -c '[ "$(ls "$1" | tr "\n" " ")" = "out.png stderr stdout t.dat " ]' _ "$TMP/hidden"
same_in_both "datagraph, SVG (not presumed)" datagraph -q -o out.svg
same_in_both "running-waiting --csv" running-waiting -q -o out.png --csv out.csv
same_in_both "running-waiting --csv - (not presumed)" running-waiting -q -o out.png --csv -
same_in_both "overview --time past the end (its note once)" overview --time 440.9,500 -o out.png
same_in_both "latency --json" latency -q --json
same_in_both "explain --text" explain -q --text
same_in_both "runs --json" runs -q --json

#   overload.dat with the flag set on a page in the middle of CPU 1's data
#     (through the uncompressed copy, compressed again by trace-cmd): CPU 1
#     is then complete only from its first record, the old rule.
if command -v trace-cmd >/dev/null; then
	python3 - "$TRACES/overload-v6.dat" "$TMP/mid-v6.dat" <<'PY'
import struct, subprocess, sys
out = subprocess.run(["trace-cmd", "dump", "--flyrecord", "-i", sys.argv[1]],
		     capture_output=True, text=True, check=True).stdout
off, size = [l.split()[:2] for l in out.splitlines() if "size of cpu 1" in l][0]
data = bytearray(open(sys.argv[1], "rb").read())
at = int(off) + int(size) // 4096 // 2 * 4096 + 8
struct.pack_into("<Q", data, at, struct.unpack_from("<Q", data, at)[0] | 1 << 31)
open(sys.argv[2], "wb").write(data)
PY
	trace-cmd convert -i "$TMP/mid-v6.dat" -o "$TMP/mid.dat" --file-version 7 \
		--compression zstd >/dev/null 2>&1
	run "$SCHEDPLOT" stats -q --json "$TMP/mid.dat"
	expect_status 0 "overload.dat, a page of CPU 1 flagged: stats --json"
	cp "$OUT" "$TMP/mid.json"
	json_check "$TMP/mid.json" "a page of CPU 1 flagged: CPU 1 starts at its first record" \
		'd["start_ns"] == {"0": 436124940484, "1": 436129272585} and d["window_ns"][0] == 436129272585'
	run "$SCHEDPLOT" stats -q "$TMP/mid.dat"
	check "a page of CPU 1 flagged: no CPU taken as complete from the start" \
		bash -c '! grep -q "^from start" "$1"' _ "$OUT"
	# started over, -v is still one -v: the first repairs and a count of the rest
	run "$SCHEDPLOT" datagraph -v -o "$TMP/mid.png" "$TMP/mid.dat"
	expect_status 0 "a page of CPU 1 flagged: datagraph -v"
	expect_grep "$ERR" "mid\.dat: [0-9]+ more repairs \(-vv lists them all\)$" \
		"a page of CPU 1 flagged: -v lists some repairs, not all"
else
	skip "a page of CPU 1 flagged: trace-cmd is not installed"
fi
