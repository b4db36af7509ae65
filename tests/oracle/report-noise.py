#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Interrupt time and other tasks' time per CPU from `trace-cmd report` text.

An independent oracle for the noise `schedplot compare --target` gives
each run (its "interrupts" and "other_tasks"): it never reads the .dat
file itself.
It reads `trace-cmd report -t` (timestamps to the ns) and, per CPU in record
order:

  * irq_handler_entry opens a hard interrupt named by its name= field
    (an entry with one open replaces it, which counts nothing), and
    irq_handler_exit closes it: exit - entry is that handler's time;
  * softirq_entry opens a softirq of its action (the [action=NAME] that
    trace-cmd prints), softirq_exit closes it; a hard interrupt that
    came and went inside an open softirq is taken out of the softirq's
    time, so that the sources add up to the time spent in interrupts;
  * an exit with nothing open counts nothing; what is open at the end
    counts nothing;
  * a CPU's frequency is that of the last cpu_frequency record about it
    (cpu_id=) from that record on, unknown before its first; over the
    CPUs of LIST and the window, the time-weighted mean and population
    standard deviation of the known frequency give a line "frequency
    MEAN_KHZ SPREAD" (SPREAD = deviation / mean), when it was known;
  * a task's time runs from a sched_switch to it (next_comm) to the next
    sched_switch on that CPU; the idle task (pid 0) is no task.  (Where
    the kernel missed a switch, schedplot repairs it and may differ
    slightly: compare with a tolerance.)

Only the part of each interval inside the window counts: from the first
record of the trace (the recordings it is used on lost no event: it
refuses a trace where trace-cmd reports dropped events) to the last one,
or with --target COMM the time tasks of that name ran: from the first
sched_switch to one (next_comm) to the last switch from one (prev_comm),
the names the switches give (the name before "-pid" at the start of
trace-cmd's line is the last one the task had, not the one it had then),
or with --window T0,T1 (ns) that window.

Usage: report-noise.py [--trace-cmd PROG] [--cpus LIST] [--target COMM | --window T0,T1] FILE
Prints one line per source with time: "KIND NAME CPU NS" (KIND irq,
softirq or task), sorted, CPUs limited to LIST (comma-separated) when
given.
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402

RECORD_RE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+([^\s:]+):\s*(.*)$")
DROP_RE = re.compile(r"EVENTS DROPPED")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--cpus", default=None)
    ap.add_argument("--target", default=None)
    ap.add_argument("--window", default=None)
    ap.add_argument("file")
    a = ap.parse_args()
    cpus = None if a.cpus is None else {int(c) for c in a.cpus.split(",")}

    text = tracecmd_report.lines(a.trace_cmd, ["-t", a.file],
                                 lambda m: sys.exit("report-noise.py: " + m))
    recs = []
    for line in text:
        if DROP_RE.search(line):
            sys.exit("report-noise.py: %s: trace-cmd reports dropped events" % a.file)
        m = RECORD_RE.match(line)
        if m:
            ts = int(m.group(4)) * 1000000000 + int(m.group(5))
            recs.append((ts, int(m.group(3)), m.group(6), m.group(7), m.group(1)))
    if not recs:
        sys.exit("report-noise.py: %s: no records" % a.file)
    # record order: by timestamp, the lower CPU first, a CPU's own in order
    recs = [r for _, r in sorted(enumerate(recs), key=lambda x: (x[1][0], x[1][1], x[0]))]
    w0, w1 = recs[0][0], recs[-1][0]
    if a.target:
        name = re.escape(a.target)
        times = [r[0] for r in recs if r[2] == "sched_switch" and
                 re.search(r"(^%s:\d+ .*==>|==> %s:)" % (name, name), r[3])]
        if not times:
            sys.exit("report-noise.py: %s: no record of %s" % (a.file, a.target))
        w0, w1 = times[0], times[-1]
    if a.window:
        w0, w1 = (int(x) for x in a.window.split(","))

    def clip(t0, t1):
        return max(0, min(t1, w1) - max(t0, w0))

    hard = {}   # cpu -> (name, entry ts)
    soft = {}   # cpu -> [action, entry ts, nested hard ns]
    total = {}
    current = {}  # cpu -> (comm, since) of the task switched to
    freq = {}     # cpu_id -> (kHz, since)
    fsum = [0, 0, 0]  # ns, kHz * ns, kHz^2 * ns

    def freq_account(cpu_id, t1):
        if cpu_id in freq and (cpus is None or cpu_id in cpus):
            khz, t0 = freq[cpu_id]
            ns = clip(t0, t1)
            fsum[0] += ns
            fsum[1] += khz * ns
            fsum[2] += khz * khz * ns

    def account(kind, name, cpu, ns):
        if ns > 0:
            total[(kind, name, cpu)] = total.get((kind, name, cpu), 0) + ns

    for ts, cpu, ev, rest, _ in recs:
        if ev == "irq_handler_entry":
            hard[cpu] = (re.search(r"name=(\S+)", rest).group(1), ts)
        elif ev == "irq_handler_exit":
            if cpu in hard:
                name, t0 = hard.pop(cpu)
                ns = clip(t0, ts)
                account("irq", name, cpu, ns)
                if cpu in soft and soft[cpu][1] <= t0:
                    soft[cpu][2] += ns
        elif ev == "softirq_entry":
            soft[cpu] = [re.search(r"action=(\w+)", rest).group(1), ts, 0]
        elif ev == "cpu_frequency":
            khz, cpu_id = (int(re.search(k + r"=(\d+)", rest).group(1))
                           for k in ("state", "cpu_id"))
            t = max(ts, freq[cpu_id][1]) if cpu_id in freq else ts
            freq_account(cpu_id, t)
            freq[cpu_id] = (khz, t)
        elif ev == "sched_switch":
            m = re.search(r"==> (.*):(\d+) \[", rest)
            if cpu in current:
                account("task", current[cpu][0], cpu, clip(current[cpu][1], ts))
            current[cpu] = (m.group(1), ts) if m and m.group(2) != "0" else None
            if current[cpu] is None:
                del current[cpu]
        elif ev == "softirq_exit":
            if cpu in soft:
                name, t0, nested = soft.pop(cpu)
                account("softirq", name, cpu, clip(t0, ts) - nested)
    for cpu, (comm, t0) in current.items():
        account("task", comm, cpu, clip(t0, w1))
    for cpu_id in list(freq):
        freq_account(cpu_id, recs[-1][0])
    for (kind, name, cpu), ns in sorted(total.items()):
        if cpus is None or cpu in cpus:
            print(kind, name, cpu, ns)
    if fsum[0]:
        mean = fsum[1] / fsum[0]
        var = fsum[2] / fsum[0] - mean * mean
        print("frequency %.6f %.12f" % (mean, math.sqrt(max(var, 0)) / mean))


if __name__ == "__main__":
    main()
