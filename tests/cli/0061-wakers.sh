#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The waker of every wakeup wait (latency --csv: waker, waker_cpu) equals
# an independent reading of `trace-cmd report -l`
# (tests/oracle/report-wakers.py: the sched_waking that began the wakeup,
# else the wakeup record; an interrupt's waker is the interrupt) on every
# bundled and shared trace, cross-CPU and interrupt wakeups included.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
oracle=$SRCDIR/tests/oracle/report-wakers.py
traces=("$TRACES"/*.dat "$TRACES"/compare/*.dat)
for f in "$SHARED"/*.dat; do
	[ -f "$f" ] && traces+=("$f")
done

for f in "${traces[@]}"; do
	name=$(basename "$f")
	case $name in *zlib*)
		skip "$name: this trace-cmd cannot read zlib version 7 files"
		continue ;;
	esac
	run "$SCHEDPLOT" latency -q --text --csv "$TMP/waits.csv" "$f"
	expect_status 0 "$name: latency --csv"
	if ! python3 "$oracle" "$f" >"$TMP/oracle" 2>"$TMP/oracle.err"; then
		not_ok "$name: report-wakers.py failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	# "N M X I": waits compared, whose waker's CPU is not the wakeup record's,
	# whose waker is not the wakeup record's common_pid, woken by an interrupt
	if counts=$(python3 - "$TMP/waits.csv" "$TMP/oracle" "$name" <<'PY'
import csv, re, sys
waits, oracle, name = sys.argv[1:]
lines = open(waits).read().splitlines()
m = re.search(r"counts from (\d+)\.(\d{9}) s", lines[0])
origin = int(m.group(1)) * 1000000000 + int(m.group(2))
want = {}
for l in open(oracle):
    ts, pid, waker, waker_cpu, common, cpu = l.split()
    want.setdefault((int(ts), int(pid)), []).append((waker, int(waker_cpu), common, int(cpu)))
n = cross = changed = irq = 0
bad = []
for r in csv.DictReader(lines[1:]):
    if r["class"] != "wakeup":
        continue
    sec, frac = r["start_s"].split(".")
    key = (origin + int(sec) * 1000000000 + int(frac), int(r["pid"]))
    got = (r["waker"], int(r["waker_cpu"]))
    cands = want.get(key, [])
    if not any(got == c[:2] for c in cands):
        bad.append("pid %d at %d: waker %s on CPU %d, report says %s" %
                   (key[1], key[0], got[0], got[1],
                    " or ".join("%s on CPU %d" % c[:2] for c in cands) or "no wakeup"))
        continue
    c = next(c for c in cands if got == c[:2])
    n += 1
    cross += c[1] != c[3]
    changed += c[0] != c[2]
    irq += c[0] in ("irq", "softirq")
if bad:
    print("%d wakers differ: %s" % (len(bad), "; ".join(bad[:3])), file=sys.stderr)
    sys.exit(1)
print(n, cross, changed, irq)
PY
	); then
		set -- $counts
		ok "$name: the wakers of $1 wakeup waits equal trace-cmd report's ($2 from another CPU, $3 not the wakeup record's common_pid, $4 interrupts)"
		case $name in
		messaging.dat|x86_64-8cpu-v7-zstd.dat)
			check "$name: wakers on other CPUs and interrupts are among them" \
				test "$2" -gt 0 -a "$4" -gt 0 ;;
		i686-4cpu-v6.dat)
			check "$name: interrupts are among them" test "$4" -gt 0 ;;
		esac
	else
		not_ok "$name: wakers differ from trace-cmd report's"
	fi
done
