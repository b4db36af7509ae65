#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compute schedplot's statistics from `trace-cmd report` text.

This is an independent oracle for the tests: it never reads the .dat file
itself, only what `trace-cmd report -N -t -l` prints, and it follows the
"Exact semantics" section of doc/design.md step by step:

  * -t prints timestamps with all nine digits of nanoseconds;
  * -N loads no plugins, so every event is printed with the kernel's own
    print format (prev_state decoded by the kernel's __print_flags rather
    than by the sched_switch plugin's fixed bit table);
  * -l prints each record's latency flags after its CPU, among them the
    context it fired in: 'h' (also 'H', 'Z') a hard interrupt, 's' a
    softirq, which makes the interrupt a wakeup's waker.

Which CPUs lost nothing (doc/design.md: complete from the trace's start)
comes from the ring-buffer statistics `trace-cmd report --stat` prints
and from the lost-events lines of the report.

Usage: report-stats.py [--trace-cmd PROG] [--text [--stat-text STAT]] [--runs | --power-steps] FILE
With --text, FILE is saved output of `trace-cmd report -N -t [-l]` and STAT
that of `trace-cmd report --stat` (without it, no CPU counts as lossless).
The JSON object goes to stdout; diagnostics go to stderr.  With --runs,
stdout gets every run instead (also those of no length), one line each:
"CPU PID START END HOW WAIT WAKER PREV_CPU" (absolute ns; HOW is the prev_state of
the switch that ended it, "repair" or "end"; WAIT the wait that ended as
it began, 0 if none, WAKER the waker of the wakeup that began it (the
sched_waking of the task since its last wakeup record, else the wakeup
record: its common_pid, or "irq" / "softirq" for a record written in an
interrupt), -1 if none, PREV_CPU the CPU the task last ran on, -1 if none), then "open PID" for each wait still open at the end.  With
--power-steps, stdout gets "span T0 END" and then every power:cpu_frequency
and power:cpu_idle record in trace order, "freq CPU TS KHZ" and "idle CPU
TS STATE" (CPU the cpu_id it is about; STATE -1 for 4294967295, leaving
idle).

Frequencies (power:cpu_frequency, state in kHz, about CPU cpu_id, wherever
the record fired): a CPU's frequency is unknown before its first such
record, then the last one's holds until the end.  cpu_freq_mean_khz is the
time-weighted mean over the complete window of the time it is known there,
cpu_freq_known_ns that time; both only when the report has such records.
"""

import argparse
import fnmatch
import heapq
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402

SCHED_EVENTS = {
    "sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking",
    "sched_migrate_task", "sched_process_fork", "sched_process_exec",
    "sched_process_exit",
}

# "<comm>-<pid> [<cpu>] <sec>.<nsec>: <event>: <fields>", or with -l
# "<comm>-<pid> <cpu><flags> <sec>.<nsec>: ...", the flags beginning with
# 'd', 'X' or '.'.  The comm may hold spaces, dashes and digits, so the
# line is anchored on the CPU column.
RECORD_RE = re.compile(r"^(.*?)-(\d+)\s+(?:\[(\d+)\]|(\d+)([^\d\s]\S*))\s+(\d+)\.(\d+):"
                       r"\s+([^\s:]+):\s*(.*)$")
# The third latency flag: the context a record was written in
IRQ_FLAGS = {"h": "irq", "H": "irq", "Z": "irq", "s": "softirq"}
DROPPED_RE = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]$")
CPUS_RE = re.compile(r"^cpus=(\d+)$")

SWITCH_RE = re.compile(r"^prev_comm=(.*) prev_pid=(-?\d+) prev_prio=(-?\d+) "
                       r"prev_state=(\S+) ==> next_comm=(.*) next_pid=(-?\d+) "
                       r"next_prio=(-?\d+)$")
COMM_PID_RE = re.compile(r"^comm=(.*) pid=(-?\d+) prio=")
FORK_RE = re.compile(r"^comm=(.*) pid=(-?\d+) child_comm=(.*) child_pid=(-?\d+)$")
POWER_RE = re.compile(r"^state=(\d+) cpu_id=(\d+)$")
EXEC_RE = re.compile(r"^filename=(.*) pid=(-?\d+) old_pid=(-?\d+)$")

MIGRATE_RE = re.compile(r"\borig_cpu=(-?\d+) dest_cpu=(-?\d+)")

RUNNABLE_STATES = {"R", "R+"}


class Record:
    __slots__ = ("cpu", "ts", "pid", "comm", "event", "body", "flags")

    def __init__(self, cpu, ts, pid, comm, event, body, flags=""):
        self.cpu = cpu
        self.ts = ts
        self.pid = pid
        self.comm = comm
        self.event = event
        self.body = body
        self.flags = flags

    def waker(self):
        """Who wrote it: the interrupt it fired in, else its common_pid."""
        ctx = self.flags[2:3]
        return IRQ_FLAGS.get(ctx, self.pid)


def die(msg):
    print("report-stats: " + msg, file=sys.stderr)
    sys.exit(1)


def read_sockets(path):
    """CPU -> socket from `lscpu -p` output (CPU,Core,Socket,...)."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.strip().split(",")
            if len(cols) >= 3 and cols[0].isdigit() and cols[2].isdigit():
                out[int(cols[0])] = int(cols[2])
    return out


def read_report(args):
    if args.text:
        with open(args.file, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    return tracecmd_report.lines(args.trace_cmd, ["-N", "-t", "-l", "-i", args.file], die)


def read_stat(args):
    """The text of `trace-cmd report --stat`, or None when there is none."""
    if args.text:
        if not args.stat_text:
            return None
        with open(args.stat_text, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    cmd = [args.trace_cmd, "report", "--stat", "-i", args.file]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        die("cannot run %s: %s" % (args.trace_cmd, e))
    if p.returncode != 0:
        return None
    return p.stdout.decode("utf-8", "replace").splitlines()


STAT_NUM_RE = re.compile(r"^\s*(\d+)\s*$")


def parse_cpustats(lines):
    """Per CPU of the top buffer: (overrun, dropped events or 0).

    A CPU is left out when its block is missing, has no readable overrun
    line, has an unreadable number, or appears twice.
    """
    if lines is None:
        return {}
    blocks = {}                 # cpu -> list of dicts (one per block)
    cur = None
    top = True
    for line in lines:
        if re.match(r"^CPU\d+ data recorded at", line):
            break
        if line.startswith("Buffer:"):
            cur = None
            top = not line[len("Buffer:"):].strip()
            continue
        if line.startswith("CPU:"):
            cur = None
            m = STAT_NUM_RE.match(line[4:])
            if top and m:
                cur = {"bad": False}
                blocks.setdefault(int(m.group(1)), []).append(cur)
            continue
        if cur is None:
            continue
        for key, word in (("overrun", "overrun:"), ("dropped", "dropped events:")):
            if line.startswith(word):
                m = STAT_NUM_RE.match(line[len(word):])
                if m:
                    cur[key] = int(m.group(1))
                else:
                    cur["bad"] = True
    stats = {}
    for cpu, lst in blocks.items():
        if len(lst) != 1 or lst[0]["bad"] or "overrun" not in lst[0]:
            continue
        stats[cpu] = (lst[0]["overrun"], lst[0].get("dropped", 0))
    return stats


def parse(lines):
    """Split report text into per-CPU record lists, in each CPU's own order."""
    nr_cpus = None
    per_cpu = {}
    report_order = []           # (cpu, index in that CPU's list), as printed
    dropped = []                # [cpu, count or None, index of next record]
    unparsed = 0
    for line in lines:
        m = RECORD_RE.match(line)
        if m:
            comm, pid, cpu, lat_cpu, flags, sec, frac, event, body = m.groups()
            cpu = int(cpu if cpu is not None else lat_cpu)
            # Nine digits with -t; pad in case a shorter fraction is printed.
            ts = int(sec) * 1000000000 + int((frac + "000000000")[:9])
            lst = per_cpu.setdefault(cpu, [])
            report_order.append((cpu, len(lst)))
            lst.append(Record(cpu, ts, int(pid), comm.lstrip(), event, body, flags or ""))
            continue
        m = DROPPED_RE.match(line.strip())
        if m:
            cpu = int(m.group(1))
            count = int(m.group(2)) if m.group(2) else None
            dropped.append([cpu, count, len(per_cpu.get(cpu, []))])
            continue
        m = CPUS_RE.match(line.strip())
        if m and nr_cpus is None:
            nr_cpus = int(m.group(1))
            continue
        if line.strip():
            unparsed += 1
    return nr_cpus, per_cpu, report_order, dropped, unparsed


def merge(per_cpu):
    """Timestamp order, ties to the lower CPU, each CPU's own order kept."""
    heap = [(lst[0].ts, cpu, 0) for cpu, lst in per_cpu.items() if lst]
    heapq.heapify(heap)
    order = []
    while heap:
        ts, cpu, i = heapq.heappop(heap)
        order.append((cpu, i))
        lst = per_cpu[cpu]
        if i + 1 < len(lst):
            heapq.heappush(heap, (lst[i + 1].ts, cpu, i + 1))
    return order


class Model:
    """Current task per CPU, task states, and the intervals they produce."""

    def __init__(self, start):
        self.start = start
        self.cur = {}           # cpu -> current pid (absent: unknown)
        self.run_start = {}     # cpu -> when cur[cpu] became current
        self.last_sched = {}    # cpu -> timestamp of the last sched record
        self.state = {}         # pid -> ("run", cpu) | "wait" | "other"
        self.wait_start = {}    # pid -> when it entered the waiting state
        self.runs = []          # (cpu, pid, begin, end or None)
        self.run_info = []      # per run: (how it ended, the wait before it)
        self.run_wait = {}      # cpu -> (the wait that ended as cur[cpu] began, its waker,
                                #         the CPU cur[cpu] ran on before)
        self.waits = []         # (pid, begin, end or None)
        self.woken = {}         # pid -> the wakeup that made it wait
        self.waker = {}         # pid -> the waker of that wakeup (a pid, "irq", "softirq")
        self.last_cpu = {}      # pid -> the CPU it last became current on
        self.latencies = []     # wakeup to next becoming current, ns
        self.class_waits = {"wakeup": [], "preempt": []}   # every wait that ended
        self.ended_waits = []   # (pid, begin, length, cpu it then ran on, class)
        self.prev_idle = {}     # pid -> its last CPU ran the idle task at its wakeup
        # wakeup waits of tasks that ran before, by where they then ran: [count, wait ns]
        self.placement = {k: [0, 0] for k in ("stayed", "moved_prev_idle", "moved_prev_busy")}
        self.repairs = 0
        self.repair_list = []   # [cpu, ts, pid made current], in the order made
        # (pid, cpu) -> whether placement counts it (--cpus, --target)
        self.in_scope = lambda pid, cpu: True

    def set_state(self, pid, new, ts):
        if pid == 0:
            return
        old = self.state.get(pid, "other")
        if old == "wait" and new != "wait":
            begin = self.wait_start.pop(pid)
            # A repair may end a wait retroactively, before it began.
            self.waits.append((pid, begin, max(ts, begin)))
        elif new == "wait" and old != "wait":
            self.wait_start[pid] = ts
        self.state[pid] = new

    def run_begin(self, cpu, pid, ts):
        prev_cpu = self.last_cpu.get(pid, -1) if pid != 0 else -1
        if pid != 0:
            self.last_cpu[pid] = cpu
        self.run_wait[cpu] = (0, -1, prev_cpu)
        if pid != 0 and self.state.get(pid) == "wait":
            kind = "wakeup" if pid in self.woken else "preempt"
            self.class_waits[kind].append(max(0, ts - self.wait_start[pid]))
            self.ended_waits.append((pid, self.wait_start[pid], max(0, ts - self.wait_start[pid]),
                                     cpu, kind))
            if kind == "wakeup" and prev_cpu >= 0 and self.in_scope(pid, cpu):
                place = ("stayed" if cpu == prev_cpu else
                         "moved_prev_idle" if self.prev_idle[pid] else "moved_prev_busy")
                self.placement[place][0] += 1
                self.placement[place][1] += max(0, ts - self.wait_start[pid])
            self.run_wait[cpu] = (max(0, ts - self.wait_start[pid]),
                                  self.waker.get(pid, -1) if pid in self.woken else -1,
                                  prev_cpu)
        if pid in self.woken:
            self.latencies.append(max(0, ts - self.woken.pop(pid)))
        self.cur[cpu] = pid
        self.run_start[cpu] = ts
        self.set_state(pid, ("run", cpu), ts)

    def run_end(self, cpu, ts, new_state, how="repair"):
        pid = self.cur[cpu]
        self.runs.append((cpu, pid, self.run_start[cpu], ts))
        self.run_info.append((how, self.run_wait[cpu]))
        st = self.state.get(pid, "other")
        if isinstance(st, tuple) and st[1] != cpu:
            return          # already running on another CPU: left alone
        self.set_state(pid, new_state, ts)

    def sched_record(self, rec):
        """The common_pid rule, applied to every sched record before its event."""
        cpu = rec.cpu
        if cpu not in self.cur:
            self.run_begin(cpu, rec.pid, self.start[cpu])
        elif self.cur[cpu] != rec.pid:
            t = self.last_sched[cpu]
            self.run_end(cpu, t, "other")
            self.run_begin(cpu, rec.pid, t)
            self.repairs += 1
            self.repair_list.append([cpu, t, rec.pid])
        self.last_sched[cpu] = rec.ts

    def repair(self, cpu, ts, pid):
        """A missed switch on cpu, placed at its sched record at ts."""
        self.run_end(cpu, ts, "other")
        self.run_begin(cpu, pid, ts)
        self.repairs += 1
        self.repair_list.append([cpu, ts, pid])

    def switch(self, cpu, ts, runnable, next_pid, prev_state="?"):
        self.run_end(cpu, ts, "wait" if runnable else "other", prev_state)
        self.run_begin(cpu, next_pid, ts)

    def wakeup(self, pid, ts, waker=-1):
        if pid != 0 and self.state.get(pid, "other") == "other":
            self.woken[pid] = ts
            self.waker[pid] = waker
            last = self.last_cpu.get(pid, -1)
            self.prev_idle[pid] = last >= 0 and self.cur.get(last) == 0
            self.set_state(pid, "wait", ts)

    def migration_class(self, pid, waking_is_wakeup):
        """Asleep, or woken by sched_waking and not run since: placement at wakeup."""
        st = self.state.get(pid, "other")
        if st == "other" or (st == "wait" and pid in self.woken and waking_is_wakeup):
            return "wakeup"
        return "balance"

    def finish(self):
        for cpu, pid in self.cur.items():
            self.runs.append((cpu, pid, self.run_start[cpu], None))
            self.run_info.append(("end", self.run_wait[cpu]))
        for pid, begin in self.wait_start.items():
            self.waits.append((pid, begin, None))


def power_steps(per_cpu, order, nr_cpus, event):
    """Every record of a power event in trace order: (cpu_id, ts, state)."""
    steps = []
    for cpu, i in order:
        rec = per_cpu[cpu][i]
        if rec.event != event:
            continue
        m = POWER_RE.match(rec.body)
        if not m:
            die("cannot parse %s: %s" % (event, rec.body))
        state, about = int(m.group(1)), int(m.group(2))
        if event == "cpu_idle" and state == 4294967295:
            state = -1
        if about < nr_cpus:
            steps.append((about, rec.ts, state))
    return steps


def frequency_means(steps, lo, end):
    """Per CPU: (mean kHz, known ns) over [lo, end], from its first step on."""
    segs = {}
    last = {}
    for cpu, ts, khz in steps:
        if cpu in last:
            t0, f = last[cpu]
            segs.setdefault(cpu, []).append((t0, max(ts, t0), f))
            ts = max(ts, t0)
        last[cpu] = (ts, khz)
    for cpu, (t0, f) in last.items():
        segs.setdefault(cpu, []).append((t0, max(end, t0), f))
    out = {}
    for cpu, lst in segs.items():
        area = known = 0
        for a, b, f in lst:
            a, b = max(a, lo), min(b, end)
            if b > a:
                area += f * (b - a)
                known += b - a
        if known:
            out[cpu] = (area / known, known)
    return out


def nearest_rank(sorted_values, num, den):
    """The p = num/den quantile: the value at rank ceil(p * n), 1-based."""
    n = len(sorted_values)
    return sorted_values[max(1, (num * n + den - 1) // den) - 1] if n else 0


def latency_summary(values, full=False):
    """Count and statistics; no samples have none (null), not 0."""
    v = sorted(values)
    if not v:
        keys = ["mean", "p50", "p90", "p99", "max"] + (["min", "p999"] if full else [])
        return {"count": 0, **{k: None for k in keys}}
    out = {
        "count": len(v),
        "mean": sum(v) // len(v) if v else 0,
        "p50": nearest_rank(v, 1, 2),
        "p90": nearest_rank(v, 9, 10),
        "p99": nearest_rank(v, 99, 100),
        "max": v[-1] if v else 0,
    }
    if full:
        out["min"] = v[0] if v else 0
        out["p999"] = nearest_rank(v, 999, 1000)
    return out


def step_deltas(intervals):
    """+1/-1 changes of a step function; open intervals never close."""
    out = []
    for begin, end in intervals:
        out.append((begin, 1))
        if end is not None:
            out.append((end, -1))
    return out


def window_stats(run_deltas, wait_deltas, lo, hi, nr_cpus):
    """Integrals and maximum of running(t) and waiting(t) over [lo, hi].

    Also the lost capacity: the integral of min(waiting, N - running), the
    CPUs that could have run a waiting task and did not, in CPU*ns.

    Where several changes share a timestamp only the value after all of
    them counts, so changes are applied a timestamp at a time.
    """
    changes = {}
    for t, d in run_deltas:
        changes.setdefault(t, [0, 0])[0] += d
    for t, d in wait_deltas:
        changes.setdefault(t, [0, 0])[1] += d
    times = sorted(changes)
    running = waiting = 0
    i = 0
    while i < len(times) and times[i] <= lo:
        running += changes[times[i]][0]
        waiting += changes[times[i]][1]
        i += 1
    run_area = wait_area = idle_waiting = lost = 0
    wait_max = waiting
    prev = lo
    stretches = []          # [begin, end] of idle while waiting, merged when adjacent

    def iww(a, b):
        if b <= a:
            return
        if stretches and stretches[-1][1] == a:
            stretches[-1][1] = b
        else:
            stretches.append([a, b])
    while i < len(times) and times[i] <= hi:
        t = times[i]
        run_area += running * (t - prev)
        wait_area += waiting * (t - prev)
        if waiting >= 1 and running < nr_cpus:
            idle_waiting += t - prev
            iww(prev, t)
        lost += max(0, min(waiting, nr_cpus - running)) * (t - prev)
        running += changes[t][0]
        waiting += changes[t][1]
        wait_max = max(wait_max, waiting)
        prev = t
        i += 1
    run_area += running * (hi - prev)
    wait_area += waiting * (hi - prev)
    if waiting >= 1 and running < nr_cpus:
        idle_waiting += hi - prev
        iww(prev, hi)
    lost += max(0, min(waiting, nr_cpus - running)) * (hi - prev)
    window_stats.stretches = stretches
    return run_area, wait_area, wait_max, idle_waiting, lost


def parse_cpu_list(text):
    """A CPU list as --cpus takes it: 0-3,8."""
    cpus = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def main():
    ap = argparse.ArgumentParser(description="schedplot statistics from trace-cmd report text")
    ap.add_argument("file", help="trace-cmd .dat file (or report text with --text)")
    ap.add_argument("--trace-cmd", default="trace-cmd", help="trace-cmd program to run")
    ap.add_argument("--text", action="store_true",
                    help="FILE is the output of `trace-cmd report -N -t`")
    ap.add_argument("--stat-text", help="with --text: output of `trace-cmd report --stat`")
    ap.add_argument("--power-steps", action="store_true",
                    help="print the cpu_frequency and cpu_idle records instead")
    ap.add_argument("--runs", action="store_true",
                    help="print every run, one line each, instead of the statistics")
    ap.add_argument("--latencies", action="store_true",
                    help="also every wakeup latency, sorted, as wakeup_latencies_ns")
    ap.add_argument("--topology", help="`lscpu -p` output: sockets for cross_socket")
    ap.add_argument("--count-event", action="append", default=[], metavar="EVENT",
                    help="count the records of EVENT (e.g. print) in event_counts")
    ap.add_argument("--cpus", metavar="LIST",
                    help="migration_classes and placement count only these CPUs (0-3,8)")
    ap.add_argument("--target", metavar="COMM|PID",
                    help="migration_classes and placement count only these tasks")
    args = ap.parse_args()

    nr_cpus, per_cpu, report_order, dropped, unparsed = parse(read_report(args))
    if nr_cpus is None:
        die("%s: no 'cpus=N' line in the report" % args.file)
    if unparsed:
        print("report-stats: %s: %d lines that are not records were skipped"
              % (args.file, unparsed), file=sys.stderr)
    order = merge(per_cpu)
    if order != report_order:
        print("report-stats: %s: trace-cmd report prints records in another order "
              "than (timestamp, cpu); using (timestamp, cpu)" % args.file, file=sys.stderr)

    start = {cpu: lst[0].ts for cpu, lst in per_cpu.items() if lst}
    if not start:
        die("%s: the trace holds no records" % args.file)
    # A CPU that lost nothing (statistics show no overrun and no dropped
    # events, no lost-events line in the report) is complete from t0.
    cpustats = parse_cpustats(read_stat(args))
    marked = {cpu for cpu, _, _ in dropped}
    t0 = min(start.values())
    lossless = sorted(c for c in start
                      if c in cpustats and cpustats[c] == (0, 0) and c not in marked)
    for c in lossless:
        start[c] = t0
    backwards = sum(1 for lst in per_cpu.values()
                    for a, b in zip(lst, lst[1:]) if b.ts < a.ts)
    if backwards:
        print("report-stats: %s: %d timestamps go backwards within a CPU"
              % (args.file, backwards), file=sys.stderr)
    end = max(r.ts for lst in per_cpu.values() for r in lst)
    lo = max(start.values())
    first = min(start.values())

    freq_steps = power_steps(per_cpu, order, nr_cpus, "cpu_frequency")
    if args.power_steps:
        print("span %d %d" % (first, end))
        for cpu, ts, khz in freq_steps:
            print("freq %d %d %d" % (cpu, ts, khz))
        for cpu, ts, state in power_steps(per_cpu, order, nr_cpus, "cpu_idle"):
            print("idle %d %d %d" % (cpu, ts, state))
        return

    has_wakeup = any(r.event == "sched_wakeup" for lst in per_cpu.values() for r in lst)
    wakeup_events = {"sched_wakeup_new", "sched_wakeup" if has_wakeup else "sched_waking"}

    # A repair acts at its time for every CPU: the common_pid of each sched
    # record's successor on its CPU tells, as soon as that record is
    # handled, whether a switch was missed after it.
    next_sched = {}
    for cpu, lst in per_cpu.items():
        nxt = None
        for i in range(len(lst) - 1, -1, -1):
            next_sched[(cpu, i)] = nxt
            if lst[i].event in SCHED_EVENTS:
                nxt = lst[i].pid

    model = Model(start)
    switches = {cpu: 0 for cpu in start}
    migrations = 0
    task_wakeups = {}
    task_migrations = {}
    comm = {}               # pid -> latest name seen in an event's fields
    cmdline_comm = {}       # pid -> name in the report's first column
    mismatched_prev = 0
    waking = {}             # pid -> the waker of its sched_waking since its last wakeup

    def seen(pid, name):
        if pid != 0:
            comm[pid] = name

    def in_scope(pid, cpu):
        """Whether --cpus and --target count pid on cpu (migrations, placement)."""
        if scope_cpus is not None and cpu not in scope_cpus:
            return False
        if not scope_targets:
            return True
        name = comm.get(pid) or cmdline_comm.get(pid) or ""
        return any(str(pid) == t if t.isdigit() else fnmatch.fnmatchcase(name, t)
                   for t in scope_targets)

    scope_cpus = parse_cpu_list(args.cpus) if args.cpus else None
    scope_targets = args.target.split(",") if args.target else []
    model.in_scope = in_scope
    mig_classes = {"wakeup": 0, "balance": 0, "numa": 0, "cross_socket": 0}
    numa_pending = []
    socket = read_sockets(args.topology) if args.topology else {}
    event_counts = {name: 0 for name in args.count_event}

    for cpu, i in order:
        rec = per_cpu[cpu][i]
        if rec.event in event_counts:
            event_counts[rec.event] += 1
        if rec.event in ("sched_move_numa", "sched_swap_numa"):
            for key in ("pid", "src_pid", "dst_pid"):
                m = re.search(r"\b%s=(-?\d+)" % key, rec.body)
                if m and int(m.group(1)) not in numa_pending:
                    numa_pending.append(int(m.group(1)))
        if rec.event not in SCHED_EVENTS:
            continue
        if rec.pid != 0:
            cmdline_comm.setdefault(rec.pid, rec.comm)
        model.sched_record(rec)
        ev = rec.event
        if ev == "sched_switch":
            m = SWITCH_RE.match(rec.body)
            if not m:
                die("%s: cannot parse sched_switch: %s" % (args.file, rec.body))
            prev_comm, prev_pid, _, prev_state, next_comm, next_pid, _ = m.groups()
            prev_pid, next_pid = int(prev_pid), int(next_pid)
            seen(prev_pid, prev_comm)
            seen(next_pid, next_comm)
            if prev_pid != model.cur[cpu]:
                mismatched_prev += 1
            switches[cpu] += 1
            model.switch(cpu, rec.ts, prev_state in RUNNABLE_STATES, next_pid, prev_state)
        elif ev in ("sched_wakeup", "sched_wakeup_new", "sched_waking",
                    "sched_migrate_task", "sched_process_exit"):
            m = COMM_PID_RE.match(rec.body)
            if not m:
                die("%s: cannot parse %s: %s" % (args.file, ev, rec.body))
            pid = int(m.group(2))
            seen(pid, m.group(1))
            if ev in wakeup_events:
                task_wakeups[pid] = task_wakeups.get(pid, 0) + 1
                # the sched_waking that began it, else the record itself
                waker = waking.pop(pid, None) if ev != "sched_waking" else None
                waking.pop(pid, None)
                model.wakeup(pid, rec.ts, rec.waker() if waker is None else waker)
            elif ev == "sched_waking":
                waking[pid] = rec.waker()
            elif ev == "sched_migrate_task":
                migrations += 1
                task_migrations[pid] = task_migrations.get(pid, 0) + 1
                m = MIGRATE_RE.search(rec.body)
                if not m:
                    die("%s: cannot parse sched_migrate_task: %s" % (args.file, rec.body))
                orig, dest = int(m.group(1)), int(m.group(2))
                # --cpus, --target: a target's migration to or from a CPU counted
                counted = (in_scope(pid, orig) or in_scope(pid, dest))
                if pid in numa_pending:
                    numa_pending.remove(pid)
                    mig_classes["numa"] += counted
                else:
                    mig_classes[model.migration_class(pid, not has_wakeup)] += counted
                src, dst = socket.get(orig, -1), socket.get(dest, -1)
                if src >= 0 and dst >= 0 and src != dst:
                    mig_classes["cross_socket"] += counted
        elif ev == "sched_process_fork":
            m = FORK_RE.match(rec.body)
            if not m:
                die("%s: cannot parse sched_process_fork: %s" % (args.file, rec.body))
            seen(int(m.group(2)), m.group(1))
            seen(int(m.group(4)), m.group(3))
        elif ev == "sched_process_exec":
            m = EXEC_RE.match(rec.body)
            if not m:
                die("%s: cannot parse sched_process_exec: %s" % (args.file, rec.body))
            comm.setdefault(int(m.group(2)), None)
        nxt = next_sched[(cpu, i)]
        if nxt is not None and nxt != model.cur[cpu]:
            model.repair(cpu, rec.ts, nxt)
    waits_open = len(model.wait_start)
    open_pids = sorted(model.wait_start)
    model.finish()
    if args.runs:
        for (cpu, pid, begin, stop), (how, (wait, waker, prev_cpu)) in zip(model.runs,
                                                                          model.run_info):
            stop_t = end if stop is None else stop
            print("%d %d %d %d %s %d %s %d" % (cpu, pid, begin, stop_t, how, wait, waker,
                                               prev_cpu))
        for pid in open_pids:
            print("open %d" % pid)
        return
    if mismatched_prev:
        print("report-stats: %s: %d sched_switch records whose prev_pid is not the "
              "tracked current task" % (args.file, mismatched_prev), file=sys.stderr)

    busy = {cpu: 0 for cpu in start}
    run_ns = {}
    run_intervals = []
    for cpu, pid, begin, stop in model.runs:
        stop_t = end if stop is None else stop
        if pid != 0:
            busy[cpu] += stop_t - begin
            run_ns[pid] = run_ns.get(pid, 0) + stop_t - begin
            run_intervals.append((begin, stop))
    wait_ns = {}
    wait_intervals = []
    for pid, begin, stop in model.waits:
        stop_t = end if stop is None else stop
        wait_ns[pid] = wait_ns.get(pid, 0) + max(0, min(stop_t, end) - max(begin, first))
        wait_intervals.append((begin, stop))

    run_area, wait_area, wait_max, idle_waiting, lost_cpu = window_stats(
        step_deltas(run_intervals), step_deltas(wait_intervals), lo, end, nr_cpus)
    span = end - lo

    pids = set(comm) | set(cmdline_comm) | set(run_ns) | set(wait_ns)
    pids |= set(task_wakeups) | set(task_migrations)
    pids.discard(0)
    tasks = [{
        "pid": pid,
        "comm": comm.get(pid) or cmdline_comm.get(pid, ""),
        "run_ns": run_ns.get(pid, 0),
        "wait_ns": wait_ns.get(pid, 0),
        "wakeups": task_wakeups.get(pid, 0),
        "migrations": task_migrations.get(pid, 0),
    } for pid in pids]
    tasks.sort(key=lambda t: (-t["run_ns"], t["pid"]))

    lost = []
    for cpu, count, idx in dropped:
        lst = per_cpu.get(cpu, [])
        lost.append({"cpu": cpu, "events": count,
                     "before_ts_ns": lst[idx].ts if idx < len(lst) else None})

    out = {
        "cpus": list(range(nr_cpus)),
        "start_ns": {str(c): start[c] for c in sorted(start)},
        "lossless_cpus": lossless,
        "end_ns": end,
        "window_ns": [lo, end],
        "records": sum(len(lst) for lst in per_cpu.values()),
        "cpu_busy_ns": {str(c): busy[c] for c in sorted(busy)},
        "cpu_switches": {str(c): switches[c] for c in sorted(switches)},
        "migrations": migrations,
        "tasks": tasks,
        "running_avg": run_area / span if span > 0 else 0.0,
        "waiting_avg": wait_area / span if span > 0 else 0.0,
        "waiting_max": wait_max,
        "idle_while_waiting_ns": idle_waiting,
        "lost_cpu_ns": lost_cpu,
        "lost_fraction": lost_cpu / (nr_cpus * span) if span > 0 and nr_cpus > 0 else 0.0,
        "repairs": {"missed_switch": model.repairs},
        "repair_list": model.repair_list,
        "wakeup_latency_ns": latency_summary(model.latencies),
        "waits": {k: latency_summary(v, True) for k, v in model.class_waits.items()},
        "waits_open_at_end": waits_open,
        "migration_classes": mig_classes,
        "placement": {k: {"count": v[0], "wait_ns": v[1]} for k, v in model.placement.items()},
        "event_counts": event_counts,
        "lost_events": lost,
        # where to look: the five longest of each, longest first, earlier first on ties
        "look_at": {
            "idle_while_waiting": [{"start_ns": a, "dur_ns": b - a} for a, b in
                                   sorted(window_stats.stretches,
                                          key=lambda x: (x[0] - x[1], x[0]))[:5]],
            "waits": [{"pid": p, "start_ns": b, "dur_ns": d, "cpu": c,
                       "class": "wakeup" if k == "wakeup" else "preempted"}
                      for p, b, d, c, k in sorted(model.ended_waits,
                                                  key=lambda w: (-w[2], w[1]))[:5]],
        },
    }
    if args.latencies:
        out["wakeup_latencies_ns"] = sorted(model.latencies)
    if freq_steps:
        means = frequency_means(freq_steps, lo, end)
        out["cpu_freq_mean_khz"] = {str(c): means[c][0] for c in sorted(means)}
        out["cpu_freq_known_ns"] = {str(c): means[c][1] for c in sorted(means)}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
