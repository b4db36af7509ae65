#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare `schedplot stats --json` with the truth gen-trace wrote.

usage: compare-truth.py TRUTH.json STATS.json
Prints one "ok - ..." or "not ok - ..." line per check (tests/lib/lib.sh style).
Counts and times must be equal; averages within 1e-6.
"""
import json
import sys


def main():
    truth = json.load(open(sys.argv[1]))
    stats = json.load(open(sys.argv[2]))
    name = truth["trace"].rsplit("/", 1)[-1]
    checks = []

    def exact(what, want, got):
        checks.append((want == got, "%s: %s = %s" % (name, what, want),
                       "%s: %s is %s, truth %s" % (name, what, got, want)))

    def close(what, want, got):
        checks.append((abs(want - got) <= 1e-6, "%s: %s = %.9f" % (name, what, want),
                       "%s: %s is %.9f, truth %.9f" % (name, what, got, want)))

    exact("nr_cpus", truth["nr_cpus"], stats["nr_cpus"])
    exact("records", truth["records"], stats["records"])
    exact("sched_records", truth["sched_records"], stats["sched_records"])
    exact("end_ns", truth["end_ns"], stats["end_ns"])
    exact("window start", truth["start_ns"], stats["window_ns"][0])
    exact("cpu_busy_ns", truth["cpu_busy_ns"], stats["cpu_busy_ns"])
    exact("cpu_switches", truth["cpu_switches"], stats["cpu_switches"])
    exact("migrations", truth["migrations"], stats["migrations"])
    exact("idle_while_waiting_ns", truth["idle_while_waiting_ns"],
          stats["idle_while_waiting_ns"])
    exact("lost_cpu_ns", truth["lost_cpu_ns"], stats.get("lost_cpu_ns"))
    close("running_avg", truth["running_avg"], stats["running_avg"])
    close("waiting_avg", truth["waiting_avg"], stats["waiting_avg"])
    exact("repairs", 0, sum(stats["repairs"].values()))
    failed = 0
    for good, ok, bad in checks:
        print(("ok - " + ok) if good else ("not ok - " + bad))
        failed += not good
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
