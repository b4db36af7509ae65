#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The waker of every wakeup, from `trace-cmd report` text.

An independent oracle for the tests: it never reads the .dat file itself,
only what `trace-cmd report -N -t -l` prints, and applies the rule of
doc/design.md ("The waker") record by record, with no model of who runs:

  * the wakeup records are sched_wakeup and sched_wakeup_new, or
    sched_waking and sched_wakeup_new when the trace has no sched_wakeup;
  * the waker of one is the sched_waking of its pid since the pid's last
    wakeup record (on any CPU), else the wakeup record itself;
  * that record's waker is the interrupt it was written in, when its
    third latency flag (-l) says 'h', 'H' or 'Z' ("irq") or 's'
    ("softirq"), else its common_pid; the waker's CPU is its CPU.

Records are taken by timestamp, ties to the lower CPU, each CPU's own
order kept (doc/design.md "Record order").

Usage: report-wakers.py [--trace-cmd PROG] [--text] FILE
With --text, FILE is saved output of `trace-cmd report -N -t -l`.  Prints
one line per wakeup record, in that order: "TS PID WAKER WAKER_CPU
COMMON_PID CPU" (TS in ns; COMMON_PID and CPU those of the wakeup record
itself).  Diagnostics go to stderr.
"""

import argparse
import heapq
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402

# "<comm>-<pid> <cpu><flags> <sec>.<nsec>: <event>: <fields>"; the flags
# begin with 'd', 'X' or '.', and the comm may hold spaces, dashes and
# digits, so the line is anchored on the CPU column.
RECORD_RE = re.compile(r"^(.*?)-(\d+)\s+(\d+)([^\d\s]\S*)\s+(\d+)\.(\d+):\s+([^\s:]+):\s*(.*)$")
PID_RE = re.compile(r"\bpid=(\d+)")
IRQ_FLAGS = {"h": "irq", "H": "irq", "Z": "irq", "s": "softirq"}


def die(msg):
    print("report-wakers: " + msg, file=sys.stderr)
    sys.exit(1)


def read_report(args):
    if args.text:
        with open(args.file, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    return tracecmd_report.lines(args.trace_cmd, ["-N", "-t", "-l", "-i", args.file], die)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--text", action="store_true")
    ap.add_argument("file")
    args = ap.parse_args()

    # per CPU, in its own order: (ts, common_pid, waker, event, woken pid)
    per_cpu = {}
    for line in read_report(args):
        m = RECORD_RE.match(line)
        if not m:
            continue
        _, common, cpu, flags, sec, frac, event, body = m.groups()
        if event not in ("sched_wakeup", "sched_wakeup_new", "sched_waking"):
            continue
        p = PID_RE.search(body)
        if not p:
            die("%s: cannot parse %s: %s" % (args.file, event, body))
        ts = int(sec) * 1000000000 + int((frac + "000000000")[:9])
        waker = IRQ_FLAGS.get(flags[2:3], int(common))
        per_cpu.setdefault(int(cpu), []).append((ts, int(common), waker, event, int(p.group(1))))

    has_wakeup = any(r[3] == "sched_wakeup" for lst in per_cpu.values() for r in lst)
    wakeups = {"sched_wakeup_new", "sched_wakeup" if has_wakeup else "sched_waking"}
    heap = [(lst[0][0], cpu, 0) for cpu, lst in per_cpu.items()]
    heapq.heapify(heap)
    waking = {}             # pid -> (waker, CPU) of its sched_waking since its last wakeup
    out = []
    while heap:
        ts, cpu, i = heapq.heappop(heap)
        lst = per_cpu[cpu]
        if i + 1 < len(lst):
            heapq.heappush(heap, (lst[i + 1][0], cpu, i + 1))
        _, common, waker, event, pid = lst[i]
        if event in wakeups:
            began = waking.pop(pid, None) if event != "sched_waking" else None
            waking.pop(pid, None)
            w, wcpu = began if began else (waker, cpu)
            out.append("%d %d %s %d %d %d" % (ts, pid, w, wcpu, common, cpu))
        elif event == "sched_waking":
            waking[pid] = (waker, cpu)
    sys.stdout.write("".join(l + "\n" for l in out))


if __name__ == "__main__":
    main()
