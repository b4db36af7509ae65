#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The reader's threads under ThreadSanitizer (make check SANITIZE=thread):
# stats and a zoomed datagraph on every bundled trace (one CPU stream read ahead by
# a helper thread) and on generated traces of 64 CPUs (the merge in rounds
# sorted by a second thread, the spans of compressed streams found by two
# threads), zstd-compressed, uncompressed version 7 and version 6, and of
# 512 CPUs (more blocks wanted at once than are read ahead).  Each
# run exits 0 with no ThreadSanitizer report (tests/tools/tsan.supp says
# what is suppressed), and stats --json finds the generator's truth.
# Meant for the build-tsan/ binary; any other build runs it too, and then
# only checks the outputs.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check SANITIZE=thread"
	exit 0
fi

# clean WHAT: the last run exited 0 and wrote no sanitizer report
clean() {
	if grep -q 'ThreadSanitizer' "$ERR"; then
		not_ok "$1: ThreadSanitizer report (exit $STATUS):"
		grep -E '^(WARNING|SUMMARY|  (Read|Write|Atomic|Previous|Mutex|Thread)|    #[0-9]+ )' \
			"$ERR" | head -60 | sed 's/^/# /'
	elif [ "$STATUS" != 0 ]; then
		not_ok "$1: exit $STATUS: $(head -c 300 "$ERR")"
	else
		ok "$1: exit 0, no ThreadSanitizer report"
	fi
}

# The same workload three ways: zstd chunks (gen-trace's default), plain
# version 7 pages, version 6.
gen_args=(--cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7)
for v in zstd:"" none:"--compression none" v6:"--file-version 6"; do
	name=hpc64-${v%%:*}
	# shellcheck disable=SC2086
	run "$GEN" "${gen_args[@]}" ${v#*:} -o "$TMP/$name.dat"
	expect_status 0 "gen-trace ${gen_args[*]} ${v#*:}"
done
run "$GEN" --cpus 512 --sockets 4 --events 150000 --seconds 0.5 --seed 5 -o "$TMP/wide512.dat"
expect_status 0 "gen-trace --cpus 512"

for f in "$TRACES"/*.dat "$TMP"/hpc64-*.dat "$TMP"/wide512.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .dat)
	run "$SCHEDPLOT" stats -q --json "$f"
	clean "$name: stats --json"
	cp "$OUT" "$TMP/$name.json"
	if [ -f "$f.json" ]; then
		python3 "$SRCDIR/tests/gen/compare-truth.py" "$f.json" "$TMP/$name.json"
	fi
	run "$SCHEDPLOT" stats -v "$f"
	clean "$name: stats -v"
	# one view: each reads the trace as stats does, and draws on one thread
	run "$SCHEDPLOT" datagraph -q --min 0.1 --max 0.2 -o "$TMP/$name-zoom.svg" "$f"
	clean "$name: datagraph --min 0.1 --max 0.2 -o $name-zoom.svg"
done
