#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Several traces at once: compare and latency read their traces on worker
# threads (--jobs N, default one per CPU) and print, draw and write exactly
# what one worker does, messages included and in the same order, also when
# a trace in the middle fails.
. "$(dirname "$0")/../lib/lib.sh"

a=$TRACES/messaging.dat
b=$TRACES/overload.dat
c=$TRACES/overflow.dat
d=$TRACES/overload-v6.dat

# same WHAT CMD...: the command with --jobs 1 and --jobs 2 gives the same
# status, stdout and stderr (CMD holds JOBS where --jobs N goes, OUTDIR in
# file names: those files must be the same too)
same() {
	local what=$1 j arg args files=() f
	shift
	for j in 1 2; do
		mkdir -p "$TMP/j$j"
		args=()
		for arg in "$@"; do
			arg=${arg//JOBS/--jobs=$j}
			args+=("${arg//OUTDIR/$TMP/j$j}")
		done
		run "${args[@]}"
		cp "$OUT" "$TMP/j$j.out"
		cp "$ERR" "$TMP/j$j.err"
		echo "$STATUS" >"$TMP/j$j.status"
	done
	for f in "$TMP"/j1/*; do
		[ -e "$f" ] && files+=("$(basename "$f")")
	done
	if cmp -s "$TMP/j1.out" "$TMP/j2.out" && cmp -s "$TMP/j1.err" "$TMP/j2.err" &&
		cmp -s "$TMP/j1.status" "$TMP/j2.status"; then
		ok "$what: --jobs 1 and 2: the same status, output and messages"
	else
		not_ok "$what: --jobs 1 and 2 differ: $(diff "$TMP/j1.err" "$TMP/j2.err" | head -5)" \
			"$(diff "$TMP/j1.out" "$TMP/j2.out" | head -5)"
	fi
	for f in "${files[@]}"; do
		if cmp -s "$TMP/j1/$f" "$TMP/j2/$f"; then
			ok "$what: --jobs 1 and 2 write the same $f"
		else
			not_ok "$what: --jobs 1 and 2 write different $f"
		fi
	done
	rm -rf "$TMP/j1" "$TMP/j2"
}

same "latency --text" "$SCHEDPLOT" latency --text JOBS "$a" "$b" "$c" "$d"
same "latency --json" "$SCHEDPLOT" latency --json --slowest 5 JOBS "$a" "$b" "$c" "$d"
same "latency image and --csv" "$SCHEDPLOT" latency JOBS -o OUTDIR/lat.png \
	--csv OUTDIR/lat.csv "$a" "$b" "$c" "$d"
same "latency -v --ccdf SVG" "$SCHEDPLOT" latency -v --ccdf JOBS -o OUTDIR/lat.svg "$a" "$d" "$b"
same "latency, a missing third trace" "$SCHEDPLOT" latency --text JOBS "$a" "$b" \
	"$TMP/missing.dat" "$c" "$d"
expect_status 1 "latency, a missing third trace: fails"
expect_grep "$TMP/j2.err" "missing.dat" "latency, a missing third trace: says which"
same "latency, a trace without sched events second" "$SCHEDPLOT" latency --text JOBS "$a" \
	"$TRACES/unusable/no-sched.dat" "$c"
expect_status 1 "latency, a trace without sched events second: fails"
same "compare" "$SCHEDPLOT" compare JOBS "$a" "$b" --vs "$c" "$d"
same "compare --json -o" "$SCHEDPLOT" compare --json JOBS -o OUTDIR/cmp.png "$a" "$b" "$a" \
	--vs "$c" "$d" "$b"
same "compare --target" "$SCHEDPLOT" compare -q --target 'hackbench*' JOBS "$b" "$d" \
	--vs "$b" "$d"

# the traces are read at once: two workers start two more threads
if command -v strace >/dev/null; then
	traced=true
	for j in 1 2; do
		strace -f -qq -e trace=clone,clone3 -o "$TMP/strace$j" "$SCHEDPLOT" compare -q \
			--jobs $j "$a" "$b" --vs "$c" "$d" >/dev/null 2>&1 || traced=false
		threads[$j]=$(grep -c 'clone' "$TMP/strace$j" 2>/dev/null || true)
	done
	if ! $traced || [ -z "${threads[1]}" ]; then
		skip "strace could not follow compare here: the worker threads are not counted"
	elif [ "${threads[2]}" -ge $((threads[1] + 2)) ]; then
		ok "compare --jobs 2 reads on two more threads (${threads[1]} -> ${threads[2]} clones)"
	else
		not_ok "compare --jobs 2: ${threads[2]} clones, --jobs 1: ${threads[1]}"
	fi
else
	skip "no strace: the worker threads are not counted"
fi

for cmd in "latency --text" "compare"; do
	for bad in 0 -1 x 1025; do
		run "$SCHEDPLOT" $cmd --jobs "$bad" "$a" "$b"
		expect_status 2 "$cmd --jobs $bad: a usage error"
		expect_grep "$ERR" "^schedplot: --jobs needs a count from 1 to 1024, not '$bad'$" \
			"$cmd --jobs $bad: says what it takes"
	done
done
