#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare `schedplot stats --json` with report-stats.py for one trace.

Usage: compare.py SCHEDPLOT.json ORACLE.json [NAME]
Prints one line per check, "ok - ..." or "not ok - ...", for tests/run.
"""
import json
import sys


def main():
    ours = json.load(open(sys.argv[1]))
    want = json.load(open(sys.argv[2]))
    name = sys.argv[3] if len(sys.argv) > 3 else ""
    bad = []

    def same(key, a, b):
        if a != b:
            bad.append(f"{key}: schedplot {a!r}, report {b!r}")

    for key in ("cpus", "start_ns", "end_ns", "window_ns", "records", "cpu_busy_ns",
                "cpu_switches", "migrations", "waiting_max", "idle_while_waiting_ns",
                "lost_cpu_ns"):
        same(key, ours.get(key), want.get(key))
    same("wakeup_latency_ns", ours.get("wakeup_latency_ns"), want.get("wakeup_latency_ns"))
    for key in ("running_avg", "waiting_avg", "lost_fraction"):
        a, b = ours.get(key), want.get(key)
        tol = 1e-6 * max(abs(b), 1e-9) if b is not None else 0
        if a is None or b is None or abs(a - b) > tol:
            bad.append(f"{key}: schedplot {a!r}, report {b!r} (1e-6 relative)")
    same("repairs.missed_switch", ours["repairs"].get("missed_switch"),
         want["repairs"].get("missed_switch"))
    # per-CPU mean frequency, when the report has cpu_frequency records
    freq = want.get("cpu_freq_known_ns")
    if freq is not None:
        same("cpu_freq_known_ns", ours.get("cpu_freq_known_ns"), freq)
        a, b = ours.get("cpu_freq_mean_khz") or {}, want["cpu_freq_mean_khz"]
        same("cpu_freq_mean_khz CPUs", sorted(a), sorted(b))
        for c in sorted(set(a) & set(b)):
            if abs(a[c] - b[c]) > 1e-3:
                bad.append(f"cpu_freq_mean_khz {c}: schedplot {a[c]!r}, report {b[c]!r}")
    elif ours.get("cpu_freq_known_ns"):
        bad.append("schedplot has frequencies the report has no cpu_frequency records for")
    # where to look: the longest stretches of idle while waiting, the longest waits
    look = ours.get("look_at", {})
    same("look_at.idle_while_waiting",
         [(v["start_ns"], v["dur_ns"]) for v in look.get("idle_while_waiting", [])],
         [(v["start_ns"], v["dur_ns"]) for v in want["look_at"]["idle_while_waiting"]])
    same("look_at.waits",
         [(v["pid"], v["start_ns"], v["dur_ns"], v["cpu"], v["class"])
          for v in look.get("waits", [])],
         [(v["pid"], v["start_ns"], v["dur_ns"], v["cpu"], v["class"])
          for v in want["look_at"]["waits"]])
    same("migration_classes", ours.get("migration_classes"), want.get("migration_classes"))
    op, wp = ours.get("placement", {}), want.get("placement", {})
    for k in ("stayed", "moved_prev_idle", "moved_prev_busy"):
        same("placement." + k, op.get(k), wp.get(k))
    theirs = {t["pid"]: t for t in want["tasks"]}
    mine = {t["pid"]: t for t in ours["tasks"]}
    same("task pids", sorted(mine), sorted(theirs))
    for pid in sorted(set(mine) & set(theirs)):
        for key in ("run_ns", "wait_ns", "wakeups", "migrations"):
            same(f"task {pid} {key}", mine[pid][key], theirs[pid][key])
    if bad:
        print(f"not ok - {name}: stats --json differs from trace-cmd report in "
              f"{len(bad)} values: " + "; ".join(bad[:8]))
        return 1
    print(f"ok - {name}: stats --json equals trace-cmd report on busy, switches, "
          f"averages, lost capacity ({ours.get('lost_cpu_ns')} CPU*ns), wakeup latency "
          f"quantiles, the longest idle-while-waiting stretches and waits, migration classes "
          f"{ours['migration_classes']}, placement "
          f"{[(k, v['count']) for k, v in ours['placement'].items()]} and {len(mine)} tasks"
          + (f", mean frequency of {len(freq)} CPUs" if freq else ""))
    return 0


sys.exit(main())
