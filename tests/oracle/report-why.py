#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Why each wait for a CPU lasted: who held the CPU, and whether the trace
contradicts it, from `trace-cmd report` text.

An independent oracle for the tests: it never reads the .dat file itself.
The runs and the waits that ended as they began come from
report-stats.py --runs (which applies doc/design.md's "Exact semantics"
to `trace-cmd report -N -t -l`); the placements and the idle records come
from that report's text, read here:

  * antagonists: for a wait of pid P from S to E that ended on CPU c,
    every run of another task on c overlapping [S, E), each counted for
    its overlap; pid 0 (idle) is not an antagonist;
  * contradicted (doc/design.md "Contradicted waits"): P was placed, at
    S, on the CPU its wakeup record names (target_cpu; that record's CPU
    when none) or, for a wait that began with a switch-out, on the CPU it
    ran on before; each sched_migrate_task of P after S and before E
    places it on its dest_cpu from then.  The wait is contradicted when a
    CPU it was placed on at p has a record with common_pid 0 later than
    p + 1 ms and before the next placement (or E).

  * sleeps (--sleeps): a task's sleep runs from the end of a run that a
    sched_switch ended in a state other than R or R+ to the start of the
    wait before its next run (or that run), the runs taken in the order of
    their ends; its state is that prev_state (S, D, or another: I, T,
    ...), its waker the waker of that wait.  With --places, also where it
    blocked: the kernel stack the stacktrace trigger recorded right after
    that sched_switch (the kernel_stack record of the same pid on the same
    CPU, at or after the switch and before the next run began), read from
    the full stack `trace-cmd report` prints with its own handler: its
    first function that is neither tracing nor scheduling (NOT_PLACES
    below, the kernel's .sched.text), or "-" when none.

  * the chain (--chain): each task's time from the start of the wait or
    sleep before its first run to the end of its last, in pieces: each
    run ("ran"); the gap from a run's end to the start of the wait before
    the next run (or that run): a sleep in the state the switch gave (S,
    D, other), or "unknown" after a run a repair (or a runnable switch)
    ended, each "until woken by" the waker of that wait; the wait, split
    among the tasks that ran on the CPU the task then ran on, as above,
    and "-1" for the rest (the CPU ran no other task).  With --window T0
    T1 each piece is cut to [T0, T1].

  * lost time (--lost SCOPE, doc/design.md "Lost time", after SchedViz): at
    each moment a CPU is idle when it runs pid 0 and no task waits for
    it, overloaded when it runs another task and some task waits for it
    (a wait is for the CPU of the run it ended in); with I idle CPUs, O
    overloaded ones and W tasks waiting for those, "wall" is the time
    with I > 0 and O > 0, "per CPU" the integral of min(I, O), "per
    thread" that of min(I, W).  Each elementary interval between two
    changes is judged from every CPU's state afresh.  Each SCOPE,
    "T0:T1:CPUS:PIDS", cuts it to the window [T0, T1], counts only the
    CPUs C,C... (and the waits for them) and only the waits of the tasks
    P,P...; an empty part leaves that out.

Usage: report-why.py [--trace-cmd PROG] [--sleeps [--places] | --chain [--window T0 T1] |
                     --lost SCOPE [--lost SCOPE...]] FILE
Prints one line per wait that ended: "START PID CPU DUR CONTRADICTED
PLACED ANTAGONISTS", START and DUR in ns, CONTRADICTED 0 or 1, PLACED the
CPU of its first placement, ANTAGONISTS "pid:ns,pid:ns..." sorted by time
held, longest first (ties: lower pid), or "-" when none.  With --sleeps,
one line per sleep that ended instead: "START PID STATE DUR WAKER" (STATE
S, D or other; WAKER a pid, irq, softirq, or -1 for none), with --places
"START PID STATE DUR WAKER PLACE".  With --chain,
one line per task and cause: "PID KIND WHO PIECES NS" (KIND ran, cpu, S,
D, other or unknown; WHO the antagonist or the waker, -1 for none), and
"PID total - - NS" for its time followed.  With --lost, one line per
SCOPE: "WALL PER_CPU PER_THREAD", in ns.
"""

import argparse
import bisect
import importlib.util
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("report_stats", os.path.join(HERE, "report-stats.py"))
rs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rs)

TARGET_RE = re.compile(r"\btarget_cpu=(\d+)")
PID_RE = re.compile(r"\bpid=(\d+)")
CONTRADICT_NS = 1000000
STACK_RE = re.compile(r"^\s*\S.*?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}): kernel_stack:")
FRAME_RE = re.compile(r"^=> (\S+)")

# The functions a stack passes through that are not where the task blocked:
# the tracing that recorded it and the kernel's scheduling code (names
# ending in "*" are prefixes).
NOT_PLACES = set('''
__schedule schedule schedule_idle schedule_user schedule_rtlock schedule_preempt_disabled
preempt_schedule preempt_schedule_common preempt_schedule_notrace preempt_schedule_irq
__cond_resched _cond_resched io_schedule io_schedule_timeout yield yield_to
schedule_timeout schedule_timeout_interruptible schedule_timeout_killable
schedule_timeout_uninterruptible schedule_timeout_idle schedule_hrtimeout
schedule_hrtimeout_range schedule_hrtimeout_range_clock do_nanosleep
__wait_on_bit __wait_on_bit_lock out_of_line_wait_on_bit out_of_line_wait_on_bit_timeout
out_of_line_wait_on_bit_lock bit_wait bit_wait_io bit_wait_timeout bit_wait_io_timeout
__wait_for_common wait_for_common wait_for_common_io do_wait_for_common
down down_interruptible down_killable down_timeout rwsem_down_read_slowpath
rwsem_down_write_slowpath percpu_rwsem_wait __percpu_down_read
__ftrace_trace_stack event_triggers_call stacktrace_trigger
'''.split())
NOT_PLACE_PREFIXES = ("trace_event_raw_event_", "__traceiter_", "perf_trace_", "__bpf_trace_",
                      "wait_for_completion", "mutex_lock", "__mutex_lock", "ww_mutex_lock",
                      "__ww_mutex_lock", "__down", "down_read", "down_write", "rt_mutex_slowlock",
                      "__rt_mutex_slowlock", "rt_mutex_lock", "rtlock_slowlock")


def stacks(args):
    """pid -> sorted [(ts, cpu, place)] of the kernel_stack records."""
    text = tracecmd_report.lines(args.trace_cmd, ["-t", "-i", args.file], rs.die)
    out = {}
    cur = None
    for line in text:
        m = STACK_RE.match(line)
        if m:
            cur = [int(m.group(1)), int(m.group(2)),
                   int(m.group(3)) * 1000000000 + int(m.group(4)), None]
            out.setdefault(cur[0], []).append(cur)
            continue
        f = FRAME_RE.match(line)
        if not f:
            cur = None
            continue
        name = f.group(1)
        if cur and cur[3] is None and name not in NOT_PLACES and \
                not name.startswith(NOT_PLACE_PREFIXES):
            cur[3] = name
    for v in out.values():
        v.sort(key=lambda k: k[2])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--sleeps", action="store_true")
    ap.add_argument("--places", action="store_true")
    ap.add_argument("--chain", action="store_true")
    ap.add_argument("--window", nargs=2, type=int, default=[0, 2 ** 64 - 1])
    ap.add_argument("--lost", action="append", metavar="SCOPE")
    ap.add_argument("file")
    args = ap.parse_args()
    args.text = False

    p = subprocess.run([sys.executable, os.path.join(HERE, "report-stats.py"), "--trace-cmd",
                        args.trace_cmd, "--runs", args.file], stdout=subprocess.PIPE)
    if p.returncode:
        rs.die("%s: report-stats.py --runs failed" % args.file)
    runs = []           # (cpu, pid, begin, end, wait, prev_cpu)
    ends = []           # (how it ended, waker)
    for line in p.stdout.decode().splitlines():
        f = line.split()
        if f[0] == "open":
            continue
        runs.append((int(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[5]), int(f[7])))
        ends.append((f[4], f[6]))
    if args.sleeps:
        by_pid = {}
        for (cpu, pid, begin, end, wait, _), (how, waker) in zip(runs, ends):
            if pid != 0:
                by_pid.setdefault(pid, []).append((begin, end, wait, how, waker, cpu))
        st = stacks(args) if args.places else {}
        out = []
        for pid, lst in by_pid.items():
            # by their ends: the run before is the one that ended last (runs
            # a repair left overlapping end in the order the task left them)
            lst.sort(key=lambda r: (r[1], r[0]))
            for a, b in zip(lst, lst[1:]):
                how = a[3]
                if how in ("repair", "end", "R", "R+"):
                    continue
                state = how[0] if how[0] in "SD" else "other"
                woke = b[0] - b[2]
                if woke >= a[1]:
                    place = next((k[3] for k in st.get(pid, ()) if k[1] == a[5] and
                                  a[1] <= k[2] <= b[0] and k[3]), "-")
                    out.append((a[1], pid, state, woke - a[1], b[4], place))
        out.sort()
        fmt = "%d %d %s %d %s %s\n" if args.places else "%d %d %s %d %s\n"
        sys.stdout.write("".join(fmt % (o if args.places else o[:5]) for o in out))
        return

    if args.chain:
        chain(runs, ends, args.window)
        return

    if args.lost:
        for scope in args.lost:
            t0, t1, cpus, pids = scope.split(":")
            window = (int(t0) if t0 else 0, int(t1) if t1 else 2 ** 64 - 1)
            cpus = {int(c) for c in cpus.split(",")} if cpus else None
            pids = {int(p) for p in pids.split(",")} if pids else None
            print("%d %d %d" % lost_time(runs, window, cpus, pids))
        return

    _, per_cpu, _, _, _ = rs.parse(rs.read_report(args))
    has_wakeup = any(r.event == "sched_wakeup" for lst in per_cpu.values() for r in lst)
    wakeup_events = {"sched_wakeup_new", "sched_wakeup" if has_wakeup else "sched_waking"}
    idle = {}           # cpu -> sorted timestamps of its records with common_pid 0
    wakeups = {}        # (pid, ts) -> the CPU the wakeup placed it on
    migrations = {}     # pid -> [(ts, dest_cpu)]
    for cpu, lst in per_cpu.items():
        for r in lst:
            if r.pid == 0:
                idle.setdefault(cpu, []).append(r.ts)
            if r.event in wakeup_events:
                m, t = PID_RE.search(r.body), TARGET_RE.search(r.body)
                if m:
                    wakeups[(int(m.group(1)), r.ts)] = int(t.group(1)) if t else cpu
            elif r.event == "sched_migrate_task":
                m, d = PID_RE.search(r.body), rs.MIGRATE_RE.search(r.body)
                if m and d:
                    migrations.setdefault(int(m.group(1)), []).append((r.ts, int(d.group(2))))
    for v in idle.values():
        v.sort()
    for v in migrations.values():
        v.sort()

    by_cpu = {}         # cpu -> its runs by begin (pid, begin, end)
    for cpu, pid, begin, end, _, _ in runs:
        by_cpu.setdefault(cpu, []).append((begin, end, pid))
    for v in by_cpu.values():
        v.sort()
    begins = {cpu: [r[0] for r in v] for cpu, v in by_cpu.items()}

    def idle_between(cpu, lo, hi):
        ts = idle.get(cpu, [])
        i = bisect.bisect_right(ts, lo)
        return i < len(ts) and ts[i] < hi

    out = []
    for cpu, pid, begin, end, wait, prev_cpu in runs:
        if not wait or pid == 0:
            continue
        start = begin - wait
        place = wakeups.get((pid, start), prev_cpu)
        places = [(start, place)] + [(ts, d) for ts, d in migrations.get(pid, [])
                                     if start < ts < begin]
        contra = 0
        for i, (ts, c) in enumerate(places):
            until = places[i + 1][0] if i + 1 < len(places) else begin
            if idle_between(c, ts + CONTRADICT_NS, until):
                contra = 1
        held = held_on(by_cpu, begins, cpu, pid, start, begin)
        ants = sorted(held.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append("%d %d %d %d %d %d %s" % (start, pid, cpu, wait, contra, place,
                                              ",".join("%d:%d" % a for a in ants) or "-"))
    out.sort(key=lambda l: (int(l.split()[0]), int(l.split()[1])))
    sys.stdout.write("".join(l + "\n" for l in out))


def lost_time(runs, window, cpus, pids):
    t0, t1 = window
    changes = {}        # ts -> [(cpu, kind, +1 or -1)]

    def add(cpu, kind, begin, end):
        begin, end = max(begin, t0), min(end, t1)
        if begin < end:
            changes.setdefault(begin, []).append((cpu, kind, 1))
            changes.setdefault(end, []).append((cpu, kind, -1))

    for cpu, pid, begin, end, wait, _ in runs:
        if cpus is not None and cpu not in cpus:
            continue
        add(cpu, "idle" if pid == 0 else "busy", begin, end)
        if pid != 0 and wait > 0 and (pids is None or pid in pids):
            add(cpu, "waiting", begin - wait, begin)
    state = {}          # cpu -> {kind: count}
    wall = per_cpu = per_thread = 0
    prev = None
    for ts in sorted(changes):
        if prev is not None:
            idle = over = waiting = 0
            for k in state.values():
                if k["busy"] > 0 and k["waiting"] > 0:
                    over += 1
                    waiting += k["waiting"]
                elif k["busy"] == 0 and k["idle"] > 0 and k["waiting"] == 0:
                    idle += 1
            if idle and over:
                wall += ts - prev
                per_cpu += (ts - prev) * min(idle, over)
                per_thread += (ts - prev) * min(idle, waiting)
        for cpu, kind, delta in changes[ts]:
            state.setdefault(cpu, {"idle": 0, "busy": 0, "waiting": 0})[kind] += delta
        prev = ts
    return wall, per_cpu, per_thread


def held_on(by_cpu, begins, cpu, pid, start, stop):
    """Who ran on cpu over [start, stop), other than pid and idle: {pid: ns}.

    A CPU's runs do not overlap: walk back from the last that began before
    stop."""
    held = {}
    lst = by_cpu.get(cpu, [])
    i = bisect.bisect_left(begins.get(cpu, []), stop) - 1
    while i >= 0 and lst[i][1] > start:
        b, e, other = lst[i]
        lo, hi = max(b, start), min(e, stop)
        if other != 0 and other != pid and hi > lo:
            held[other] = held.get(other, 0) + hi - lo
        i -= 1
    return held


def chain(runs, ends, window):
    t0, t1 = window
    by_cpu = {}
    for cpu, pid, begin, end, _, _ in runs:
        by_cpu.setdefault(cpu, []).append((begin, end, pid))
    for v in by_cpu.values():
        v.sort()
    begins = {cpu: [r[0] for r in v] for cpu, v in by_cpu.items()}
    by_pid = {}
    for (cpu, pid, begin, end, wait, _), (how, waker) in zip(runs, ends):
        if pid != 0:
            by_pid.setdefault(pid, []).append((end, begin, cpu, wait, how, waker))
    sums = {}           # (pid, kind, who) -> [pieces, ns]

    def add(pid, kind, who, ns):
        s = sums.setdefault((pid, kind, str(who)), [0, 0])
        s[0] += 1
        s[1] += ns
        t = sums.setdefault((pid, "total", "-"), [0, 0])
        t[1] += ns

    for pid, lst in by_pid.items():
        lst.sort()
        last = None     # (end, kind of the gap after it)
        for end, begin, cpu, wait, how, waker in lst:
            woke = begin - min(wait, begin)
            if last is not None:
                lo, hi = max(last[0], t0), min(woke, t1)
                if hi > lo:
                    add(pid, last[1], waker, hi - lo)
            lo, hi = max(woke, t0), min(begin, t1)
            if hi > lo:
                held = held_on(by_cpu, begins, cpu, pid, lo, hi)
                for other, ns in held.items():
                    add(pid, "cpu", other, ns)
                rest = hi - lo - sum(held.values())
                if rest:
                    add(pid, "cpu", -1, rest)
            lo, hi = max(begin, t0), min(end, t1)
            if hi > lo:
                add(pid, "ran", -1, hi - lo)
            if last is not None and end < last[0]:
                continue
            if how in ("repair", "end", "R", "R+"):
                kind = "unknown"
            else:
                kind = how[0] if how[0] in "SD" else "other"
            last = (end, kind)
    for (pid, kind, who), (n, ns) in sorted(sums.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        if kind == "total":
            sys.stdout.write("%d total - - %d\n" % (pid, ns))
        else:
            sys.stdout.write("%d %s %s %d %d\n" % (pid, kind, who, n, ns))


if __name__ == "__main__":
    main()
