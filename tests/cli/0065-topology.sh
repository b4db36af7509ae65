#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The CPU topology recorded inside a trace (schedplot record's
# schedplot-topology markers, here written by gen-trace --topology-markers):
# datagraph and overview order rows by socket by themselves, exactly as
# with --topology FILE; --cpu-order numeric overrides it; --socket-order
# without any topology is a usage error that says how to record one.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check"
	exit 0
fi
export SOURCE_DATE_EPOCH=1700000000

# 96 CPUs on 2 sockets, numbered round-robin: two markers of up to 64 CPUs
f=$TMP/topo.dat
run "$GEN" --cpus 96 --sockets 2 --events 30000 --seconds 0.2 --seed 3 --topology-markers -o "$f"
expect_status 0 "gen-trace --topology-markers"
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report "$f" >"$TMP/report" 2>"$TMP/report.err"
	check "trace-cmd report reads the markers silently" test ! -s "$TMP/report.err"
	n=$(grep -c 'print: .*schedplot-topology v1 ' "$TMP/report")
	if [ "$n" = 2 ]; then
		ok "the 96-CPU topology is in two print records"
	else
		not_ok "$n topology print records, expected 2"
	fi
fi
run "$GEN" --cpus 96 --sockets 2 --events 30000 --seconds 0.2 --seed 3 -o "$TMP/plain.dat"
expect_status 0 "gen-trace without markers"

cd "$TMP"
for view in datagraph overview; do
	run "$SCHEDPLOT" $view -v "$f" -o "$TMP/$view-auto.png"
	expect_status 0 "$view: the trace's topology"
	expect_grep "$ERR" "^schedplot: $f: rows ordered by socket from the topology recorded in the trace\$" \
		"$view -v says the rows follow the topology recorded in the trace"

	run "$SCHEDPLOT" $view -q --topology "$f.lscpu" "$f" -o "$TMP/$view-file.png"
	expect_status 0 "$view --topology FILE"
	check "$view: the trace's topology draws what --topology FILE draws" \
		cmp -s "$TMP/$view-auto.png" "$TMP/$view-file.png"

	run "$SCHEDPLOT" $view -q --socket-order "$f" -o "$TMP/$view-sock.png"
	expect_status 0 "$view --socket-order with the trace's topology"
	check "$view --socket-order: the same picture" \
		cmp -s "$TMP/$view-auto.png" "$TMP/$view-sock.png"

	run "$SCHEDPLOT" $view -v --cpu-order numeric "$f" -o "$TMP/$view-num.png"
	expect_status 0 "$view --cpu-order numeric"
	if grep -q "rows ordered by socket" "$ERR"; then
		not_ok "$view --cpu-order numeric still says socket order"
	else
		ok "$view --cpu-order numeric: no socket order"
	fi
	if cmp -s "$TMP/$view-auto.png" "$TMP/$view-num.png"; then
		not_ok "$view --cpu-order numeric draws the socket order"
	else
		ok "$view --cpu-order numeric draws another picture"
	fi
	run "$SCHEDPLOT" $view -q --cpu-order numeric --topology "$f.lscpu" "$f" \
		-o "$TMP/$view-num2.png"
	expect_status 0 "$view --cpu-order numeric --topology FILE"
	check "$view --cpu-order numeric wins over --topology FILE" \
		cmp -s "$TMP/$view-num.png" "$TMP/$view-num2.png"

	run "$SCHEDPLOT" $view -v "$TMP/plain.dat" -o "$TMP/$view-plain.png"
	expect_status 0 "$view on a trace without a topology"
	if grep -q "rows ordered by socket" "$ERR"; then
		not_ok "$view: socket order without a topology"
	else
		ok "$view: numeric order without a topology"
	fi

	run "$SCHEDPLOT" $view --socket-order "$TMP/plain.dat" -o "$TMP/$view-e.png"
	expect_status 2 "$view --socket-order without any topology"
	if [ "$(wc -l <"$ERR")" = 2 ] &&
	   grep -q "^schedplot: socket order needs a topology: .*'schedplot record'.*--topology FILE" "$ERR" &&
	   grep -q "^Try 'schedplot $view --help'.\$" "$ERR"; then
		ok "$view --socket-order without any topology: says how to get one"
	else
		not_ok "$view --socket-order without any topology: $(head -c 300 "$ERR")"
	fi
	check "$view --socket-order without any topology: no file" test ! -e "$TMP/$view-e.png"
done

# the real thing, when this machine can trace
tracefs=/sys/kernel/tracing
if [ "$(id -u)" != 0 ]; then
	skip "not root: schedplot record not tried"
elif [ ! -e "$tracefs/instances" ]; then
	skip "tracefs not mounted at $tracefs (mount -t tracefs nodev $tracefs): record not tried"
else
	tracefs_alone
	run "$SCHEDPLOT" record -q --duration 0.2 -o "$TMP/rec.dat"
	expect_status 0 "schedplot record --duration 0.2"
	run "$SCHEDPLOT" datagraph -v "$TMP/rec.dat" -o "$TMP/rec.png"
	expect_status 0 "datagraph on the recording"
	expect_grep "$ERR" "rows ordered by socket from the topology recorded in the trace" \
		"datagraph finds the topology schedplot record saved"
fi
