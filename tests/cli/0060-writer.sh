#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Traces written by the writer (through tests/gen/gen-trace): trace-cmd
# reads them without a word on stderr and counts the records we wrote;
# stats --json finds exactly the ground truth the generator computed; the
# same seed gives the same bytes.  Big-endian files (as s390x or ppc64 would
# write them) read as their little-endian twins do, by trace-cmd and by us.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check"
	exit 0
fi

# gen NAME ARGS...: write $TMP/NAME.dat, its .json truth and .lscpu topology
gen() {
	local name=$1
	shift
	run "$GEN" "$@" -o "$TMP/$name.dat"
	expect_status 0 "gen-trace $*"
}

# truth FILE KEY: a number from a truth file
truth() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

gen hpc64 --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7
gen hpc64-v6 --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7 \
	--file-version 6
gen msg16 --cpus 16 --workload messaging --events 100000 --seed 3 --compression none
gen two --cpus 2 --events 3000 --seconds 0.5 --seed 11
gen wide --cpus 512 --sockets 4 --events 150000 --seconds 0.5 --seed 5
gen hpc64-be --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7 \
	--big-endian --topology-markers
gen hpc64-v6-be --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7 \
	--file-version 6 --big-endian
gen hpc64-le --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7 \
	--topology-markers

for name in hpc64 hpc64-v6 msg16 two wide hpc64-be hpc64-v6-be; do
	f=$TMP/$name.dat
	[ -f "$f" ] || continue
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "$name: stats --json"
	cp "$OUT" "$TMP/$name.stats.json"
	python3 "$SRCDIR/tests/gen/compare-truth.py" "$f.json" "$TMP/$name.stats.json"
done

# trace-cmd reads every file silently and sees every record
if command -v trace-cmd >/dev/null 2>&1; then
	# (hpc64-be holds the topology markers too: its report is compared below)
	for name in hpc64 hpc64-v6 msg16 two wide hpc64-v6-be; do
		f=$TMP/$name.dat
		[ -f "$f" ] || continue
		trace-cmd report "$f" >"$TMP/report" 2>"$TMP/report.err"
		status=$?
		if [ "$status" = 0 ] && [ ! -s "$TMP/report.err" ]; then
			ok "$name: trace-cmd report exits 0 with nothing on stderr"
		else
			not_ok "$name: trace-cmd report exit $status, stderr: $(head -c 300 "$TMP/report.err")"
		fi
		want=$(truth "$f.json" records)
		got=$(grep -c ': sched_' "$TMP/report")
		if [ "$got" = "$want" ]; then
			ok "$name: trace-cmd report shows all $want records"
		else
			not_ok "$name: trace-cmd report shows $got records, we wrote $want"
		fi
		want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["by_type"]["sched_switch"])' "$f.json")
		got=$(grep -c ': sched_switch:' "$TMP/report")
		if [ "$got" = "$want" ]; then
			ok "$name: trace-cmd report shows all $want sched_switch records"
		else
			not_ok "$name: trace-cmd report shows $got sched_switch records, we wrote $want"
		fi
		if trace-cmd dump -v -i "$f" 2>&1 | grep -q 'is a valid trace-cmd file'; then
			ok "$name: trace-cmd dump -v finds the file valid"
		else
			not_ok "$name: trace-cmd dump -v: $(trace-cmd dump -v -i "$f" 2>&1 | tail -3)"
		fi
	done
	if trace-cmd dump --summary -i "$TMP/hpc64.dat" 2>&1 | grep -q 'zstd'; then
		ok "version 7 files are zstd-compressed by default"
	else
		not_ok "hpc64.dat is not zstd-compressed: $(trace-cmd dump --summary -i "$TMP/hpc64.dat" 2>&1 | head -8)"
	fi
else
	skip "trace-cmd not installed: written files not checked with trace-cmd report"
fi

# a big-endian file and its little-endian twin: the same numbers, the same
# topology from the markers, the same report
same_as() { # same_as BE LE: stats --json alike but for the file name (also in zoom commands)
	check "$1: stats --json as for $2" \
		cmp -s <(grep -v '"file"' "$TMP/$1.stats.json" | sed "s|[^ \"]*$1\\.dat||g") \
		<(grep -v '"file"' "$TMP/$2.stats.json" | sed "s|[^ \"]*$2\\.dat||g")
}
run "$SCHEDPLOT" stats -q --json "$TMP/hpc64-le.dat"
cp "$OUT" "$TMP/hpc64-le.stats.json"
same_as hpc64-be hpc64-le
same_as hpc64-v6-be hpc64-v6
# the same picture, CPUs grouped by socket from the topology markers
for e in le be; do
	run "$SCHEDPLOT" datagraph -q --title hpc64 "$TMP/hpc64-$e.dat" -o "$TMP/hpc64-$e.png"
	expect_status 0 "hpc64-$e: datagraph"
done
check "hpc64-be: the datagraph of hpc64-le, byte for byte" \
	cmp -s "$TMP/hpc64-be.png" "$TMP/hpc64-le.png"
if command -v trace-cmd >/dev/null 2>&1; then
	check "hpc64-be: trace-cmd report prints what it prints for hpc64-le" \
		cmp -s <(trace-cmd report "$TMP/hpc64-be.dat" 2>&1) <(trace-cmd report "$TMP/hpc64-le.dat" 2>&1)
fi

# deterministic: the same seed, the same bytes
run "$GEN" --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 7 \
	-o "$TMP/again.dat"
check "the same seed gives the same trace" cmp -s "$TMP/hpc64.dat" "$TMP/again.dat"
check "the same seed gives the same truth" \
	cmp -s <(grep -v '"trace"' "$TMP/hpc64.dat.json") <(grep -v '"trace"' "$TMP/again.dat.json")
run "$GEN" --cpus 64 --sockets 2 --events 200000 --seconds 2 --overload --seed 8 \
	-o "$TMP/other.dat"
if cmp -s "$TMP/hpc64.dat" "$TMP/other.dat"; then
	not_ok "another seed gives the same trace"
else
	ok "another seed gives another trace"
fi

# the topology: lscpu -p form, CPUs round-robin over the sockets
topo=$TMP/hpc64.dat.lscpu
if [ "$(grep -vc '^#' "$topo")" = 64 ] && grep -q '^# CPU,Core,Socket,Node' "$topo" &&
   grep -q '^0,0,0,0,' "$topo" && grep -q '^1,1,1,1,' "$topo" && grep -q '^63,63,1,1,' "$topo"
then
	ok "hpc64.dat.lscpu: 64 CPUs, numbered round-robin over 2 sockets"
else
	not_ok "hpc64.dat.lscpu is not the expected topology: $(head -c 300 "$topo")"
fi

# the workload has what the views need to show
for key in migrations idle_while_waiting_ns lost_cpu_ns; do
	v=$(truth "$TMP/hpc64.dat.json" $key)
	if [ "${v:-0}" -gt 0 ]; then
		ok "hpc64: the workload has $key ($v)"
	else
		not_ok "hpc64: the workload has no $key"
	fi
done

# bad usage
run "$GEN" --cpus 1 -o "$TMP/x.dat"
expect_status 2 "gen-trace --cpus 1"
run "$GEN" --cpus 600 -o "$TMP/x.dat"
expect_status 2 "gen-trace --cpus 600"
run "$GEN" --cpus 8 --file-version 6 --compression zstd -o "$TMP/x.dat"
expect_status 1 "gen-trace --file-version 6 --compression zstd"
check "no file is left after a failure" test ! -e "$TMP/x.dat"
