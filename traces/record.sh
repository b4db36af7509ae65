#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Re-record the test traces in this directory: overload.dat, messaging.dat,
# overflow.dat and overload-v6.dat (see README for what each one shows),
# the ten runs of compare/ for "schedplot compare", and ink/duty.dat.
#
# "trace-cmd record" needs to write /proc/sys/kernel/ftrace_enabled, which
# some virtual machines refuse, so this script drives tracefs directly:
# it enables the sched events, runs the workload, stops tracing and saves
# the ring buffers with "trace-cmd extract" (see stop_and_extract for how
# the files are kept small).
#
# Usage: sudo traces/record.sh [--compare | --duty | --views | --sleeps] [OUTDIR]
#   OUTDIR defaults to this directory; --compare records only compare/,
#   --duty only ink/duty.dat, --views only views/ (with schedplot record,
#   built in ../build/schedplot), --sleeps only why/sleeps.dat.
# Needs: root, tracefs, trace-cmd >= 3.0, perf (for "perf bench"), cc,
# unshare and mount from util-linux.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
only_compare=
only_duty=
only_views=
only_sleeps=
if [ "${1:-}" = --compare ]; then
	only_compare=1
	shift
elif [ "${1:-}" = --duty ]; then
	only_duty=1
	shift
elif [ "${1:-}" = --views ]; then
	only_views=1
	shift
elif [ "${1:-}" = --sleeps ]; then
	only_sleeps=1
	shift
fi
outdir=${1:-$here}
workloads=$here/../tests/workloads

events="sched_switch sched_wakeup sched_wakeup_new sched_waking sched_migrate_task
	sched_process_fork sched_process_exec sched_process_exit"

die()
{
	echo "record.sh: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] ||
	die "must run as root (tracefs and the ring buffers are root-only); try: sudo $0"
for tool in trace-cmd perf cc unshare mount taskset; do
	command -v "$tool" >/dev/null ||
		die "'$tool' not found (Debian packages: trace-cmd linux-perf gcc util-linux mount)"
done

tracefs=/sys/kernel/tracing
if [ ! -e "$tracefs/tracing_on" ]; then
	mount -t tracefs nodev "$tracefs" 2>/dev/null ||
		die "tracefs is not mounted at $tracefs and mounting it failed; is CONFIG_FTRACE enabled?"
fi
for e in $events; do
	[ -e "$tracefs/events/sched/$e/enable" ] ||
		die "this kernel has no sched/$e event; cannot record the test traces"
done

tmp=$(mktemp -d)
# An unused buffer reads as "7 (expanded: 1408)": keep the size it will have.
saved_size=$(sed 's/.*expanded: *\([0-9]*\).*/\1/; s/ .*//' "$tracefs/buffer_size_kb")
saved_on=$(cat "$tracefs/tracing_on")

cleanup()
{
	echo 0 > "$tracefs/tracing_on"
	for e in $events; do
		echo 0 > "$tracefs/events/sched/$e/enable"
	done
	echo 0 > "$tracefs/events/timer/hrtimer_start/enable"
	echo "!stacktrace if prev_state & 3" > "$tracefs/events/sched/sched_switch/trigger" \
		2>/dev/null || true
	echo "$saved_size" > "$tracefs/buffer_size_kb"
	echo > "$tracefs/trace"
	echo "$saved_on" > "$tracefs/tracing_on"
	rm -rf "$tmp"
}
trap cleanup EXIT

cc -O2 -Wall -pthread -o "$tmp/barrier" "$workloads/barrier.c"
cc -O2 -Wall -o "$tmp/duty" "$workloads/duty.c"
cc -O2 -Wall -pthread -o "$tmp/phases" "$workloads/phases.c"
: > "$tmp/empty"
: > "$tmp/kallsyms"

# start_tracing BUFFER_KB: empty the buffers and start recording the events.
start_tracing()
{
	echo 0 > "$tracefs/tracing_on"
	echo "$1" > "$tracefs/buffer_size_kb"
	for e in $events; do
		echo 1 > "$tracefs/events/sched/$e/enable"
	done
	echo > "$tracefs/trace"
	echo 1 > "$tracefs/tracing_on"
}

# stop_and_extract FILE [EXTRACT OPTIONS]: stop recording and save the buffers.
#
# trace-cmd stores the format of every event the kernel has (about 2 MB of
# text) and /proc/kallsyms (several MB).  In a private mount namespace it is
# shown an events directory with only the sched, ftrace and timer systems and an
# empty kallsyms, so the files stay small; the ring-buffer data is untouched.
stop_and_extract()
{
	local out=$1

	shift
	echo 0 > "$tracefs/tracing_on"
	mkdir -p "$tmp/events"
	# extract may leave temporary files in its working directory: use $tmp.
	(cd "$tmp" && unshare --mount --propagation private sh -c '
		set -e
		ev=$1/events
		tmp=$2
		shift 2
		mount -t tmpfs schedplot-events "$tmp/events"
		cp "$ev/header_page" "$ev/header_event" "$tmp/events/"
		for sys in sched ftrace timer; do
			mkdir "$tmp/events/$sys"
			mount --bind "$ev/$sys" "$tmp/events/$sys"
		done
		mount --rbind "$tmp/events" "$ev"
		mount --bind "$tmp/kallsyms" /proc/kallsyms
		exec trace-cmd extract -o "$tmp/out.dat" "$@"
	' sh "$tracefs" "$tmp" "$@" >/dev/null)
	mv "$tmp/out.dat" "$outdir/$out"
	echo "$out: $(stat -c %s "$outdir/$out") bytes"
}

# The same arithmetic split among 2 and among 3 threads per CPU, five runs
# each, alternating so that whatever else the machine does falls on both.
# Threads per CPU are counted on this machine's online CPUs.
record_compare()
{
	local cpus run

	cpus=$(nproc)
	mkdir -p "$outdir/compare"
	for run in 1 2 3 4 5; do
		start_tracing 2048
		"$tmp/barrier" --threads $((2 * cpus)) --rounds 200 --work 300000
		stop_and_extract "compare/t2-$run.dat"
		start_tracing 2048
		"$tmp/barrier" --threads $((3 * cpus)) --rounds 200 --work 200000
		stop_and_extract "compare/t3-$run.dat"
	done
}

# Two pinned tasks on a 10 ms period, busy 10% of it on CPU 0 and 50% on
# CPU 1, for 30 s: a pattern far finer than a pixel column of the whole
# trace, with known busy shares.
record_duty()
{
	start_tracing 8192
	taskset -c 0 "$tmp/duty" --percent 10 --period-ms 10 --seconds 30 &
	taskset -c 1 "$tmp/duty" --percent 50 --period-ms 10 --seconds 30
	wait
	mkdir -p "$outdir/ink"
	stop_and_extract ink/duty.dat
}

# Sleeps with the kernel stack of the switch that began them: the
# stacktrace trigger on sched_switch for switches out in S or D.  dd with
# O_DIRECT sleeps in D on each write; a shell loop writes to a pipe every
# 5 ms (cat sleeps in S in pipe_read, the loop in S in its nanosleep).
# The file keeps of /proc/kallsyms only the functions its stacks name and
# the symbol after each (where the one before ends), read from the
# buffer's text before extract consumes it.
record_sleeps()
{
	local trigger=$tracefs/events/sched/sched_switch/trigger

	start_tracing 1024
	echo 0 > "$tracefs/tracing_on"
	echo "stacktrace if prev_state & 3" > "$trigger"
	echo 1 > "$tracefs/tracing_on"
	dd if=/dev/zero of=/var/tmp/schedplot-sleeps.tmp bs=4k count=40 oflag=direct 2>/dev/null
	for i in $(seq 20); do echo "$i"; sleep 0.005; done | cat >/dev/null
	echo 0 > "$tracefs/tracing_on"
	echo "!stacktrace if prev_state & 3" > "$trigger"
	rm -f /var/tmp/schedplot-sleeps.tmp
	sed -n 's/^ => \([^ +]*\).*/\1/p' "$tracefs/trace" | sort -u > "$tmp/names"
	sort /proc/kallsyms | awk 'NR == FNR { want[$1] = 1; next }
		keep { print; keep = 0 }
		($3 in want) { print; keep = 1 }' "$tmp/names" - > "$tmp/kallsyms"
	mkdir -p "$outdir/why"
	stop_and_extract why/sleeps.dat
	: > "$tmp/kallsyms"
}

# The events the views of contrib/views draw, with schedplot record (its
# own instance, so the sched events above are left alone): interrupts,
# futex calls, block requests and the phases the workload writes to
# trace_marker; once with buffers large enough, once with 8 KiB buffers
# that overflow (lost events).
record_views()
{
	local sp=$here/../build/schedplot dir=$outdir/views
	local ev="-e irq:irq_handler_* -e syscalls:sys_*_futex -e block:block_rq_issue
		  -e block:block_rq_complete"

	[ -x "$sp" ] || die "build schedplot first (make build/schedplot)"
	mkdir -p "$dir"
	# the block requests need a file on a disk, not on tmpfs
	$sp record -q -o "$dir/phases.dat" $ev -- "$tmp/phases" /var/tmp/schedplot-phases.tmp
	$sp record -q -b 8 -o "$dir/phases-lost.dat" $ev -- \
		"$tmp/phases" --threads 8 --rounds 400 /var/tmp/schedplot-phases.tmp
}

if [ -n "$only_sleeps" ]; then
	record_sleeps
	exit 0
fi
if [ -n "$only_views" ]; then
	record_views
	exit 0
fi
if [ -n "$only_compare" ]; then
	record_compare
	exit 0
fi
if [ -n "$only_duty" ]; then
	record_duty
	exit 0
fi

# 1. 6 threads on a 2-CPU machine, synchronising at a barrier 1000 times.
start_tracing 4096
"$tmp/barrier" --threads 6 --rounds 1000 --work 200000
stop_and_extract overload.dat

# 2. perf's hackbench clone: 10 groups of 20 senders and 20 receivers (400 tasks).
start_tracing 4096
perf bench sched messaging --group 10 --nr_loops 40 >/dev/null
stop_and_extract messaging.dat --compression none

# 3. A small ring buffer that overflows during a longer busy run, so the
#    oldest pages are overwritten and each CPU's data starts at another time.
start_tracing 96
perf bench sched messaging --group 2 --nr_loops 200 >/dev/null
stop_and_extract overflow.dat

# 4. overload.dat again, as a version 6 file without compression.
trace-cmd convert -i "$outdir/overload.dat" -o "$outdir/overload-v6.dat" \
	--file-version 6 --compression none >/dev/null
echo "overload-v6.dat: $(stat -c %s "$outdir/overload-v6.dat") bytes"

# 5. No sched events at all, only timer events: schedplot must say so.
echo 0 > "$tracefs/tracing_on"
echo 1024 > "$tracefs/buffer_size_kb"
echo 1 > "$tracefs/events/timer/hrtimer_start/enable"
echo > "$tracefs/trace"
echo 1 > "$tracefs/tracing_on"
sleep 0.2
echo 0 > "$tracefs/events/timer/hrtimer_start/enable"
mkdir -p "$outdir/unusable"
stop_and_extract unusable/no-sched.dat

# 6. Only sched_switch, no wakeup events: waiting is undercounted, and
#    schedplot must say so.
echo 0 > "$tracefs/tracing_on"
echo 1024 > "$tracefs/buffer_size_kb"
echo 1 > "$tracefs/events/sched/sched_switch/enable"
echo > "$tracefs/trace"
echo 1 > "$tracefs/tracing_on"
"$tmp/barrier" --threads 4 --rounds 200 --work 200000
echo 0 > "$tracefs/events/sched/sched_switch/enable"
mkdir -p "$outdir/partial"
stop_and_extract partial/switch-only.dat

# 7. A workload bound to CPU 0: its lost capacity counts CPUs it could
#    not use, and the trace does not say why.
start_tracing 1024
taskset -c 0 "$tmp/barrier" --threads 3 --rounds 200 --work 200000
stop_and_extract partial/taskset.dat

# 8. Two groups of five runs for schedplot compare.
record_compare

# 7. Known busy shares finer than a pixel column.
record_duty

# 9. Interrupts, futex waits, block I/O and phases, for contrib/views.
record_views
