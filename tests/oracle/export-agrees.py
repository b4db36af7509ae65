#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a database of schedplot export against stats --json and runs.

    export-agrees.py DB TRACE_ID STATS.json RUNS.csv [MARKS]

RUNS.csv is `schedplot runs` of the same trace (with --idle when the
database holds the idle task's runs, traces.idle_runs); MARKS, when given,
the number of ftrace:print records `trace-cmd report` shows.  Every number
is computed with SQL from the rows (sums, counts, nearest-rank quantiles)
and compared with what the other commands print; one "ok - ..." or
"not ok - ..." line per check, as tests/lib/lib.sh prints them.
"""
import csv
import json
import sqlite3
import sys

db_path, trace_id, stats_path, runs_path = sys.argv[1:5]
marks = int(sys.argv[5]) if len(sys.argv) > 5 else None
trace_id = int(trace_id)
db = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
st = json.load(open(stats_path))
name = st["file"].split("/")[-1]


def check(what, got, want):
    if got == want:
        print("ok - %s: %s: %s" % (name, what, short(got)))
    else:
        print("not ok - %s: %s: SQL gives %s, expected %s" % (name, what, short(got),
                                                              short(want)))


def short(v):
    s = repr(v)
    return s if len(s) < 200 else s[:200] + "..."


def q(sql, *args):
    return db.execute(sql, (trace_id,) + args).fetchall()


def q1(sql, *args):
    return q(sql, *args)[0][0]


def close(a, b, rel=1e-8):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


# ---- the trace ----
tr = dict(zip([d[0] for d in db.execute("SELECT * FROM traces").description],
              q("SELECT * FROM traces WHERE trace_id = ?")[0]))
check("nr_cpus", tr["nr_cpus"], st["nr_cpus"])
check("records", tr["records"], st["records"])
check("sched_records", tr["sched_records"], st["sched_records"])
check("end_ns", tr["end_ns"], st["end_ns"])
check("window", [tr["window_start_ns"], tr["end_ns"]], st["window_ns"])
check("wakeup_event", tr["wakeup_event"], st["wakeup_event"])
for k in ("running_max", "waiting_max", "idle_while_waiting_ns", "lost_cpu_ns"):
    check(k, tr[k], st[k])
for k in ("running_avg", "waiting_avg"):
    check(k + " (to 8 digits)", close(tr[k], st[k]), True)
check("repairs", tr["repairs"], sum(st["repairs"].values()))

# ---- CPUs: the table, and busy time summed from the runs ----
cpus = {str(c): (s, b, sw, lost, exact) for c, s, b, sw, lost, exact in
        q("SELECT cpu, start_ns, busy_ns, switches, lost_events, lost_exact FROM cpus "
          "WHERE trace_id = ?")}
check("cpus.start_ns", {c: v[0] for c, v in cpus.items() if c in st["start_ns"]},
      st["start_ns"])
check("cpus.busy_ns", {c: v[1] for c, v in cpus.items() if c in st["cpu_busy_ns"]},
      st["cpu_busy_ns"])
check("cpus.switches", {c: v[2] for c, v in cpus.items() if c in st["cpu_switches"]},
      st["cpu_switches"])
check("cpus.lost_events", {c: v[3] for c, v in cpus.items() if c in st["lost_events"]},
      st["lost_events"])
check("cpus.lost_exact", {c: bool(v[4]) for c, v in cpus.items()
                          if c in st["lost_events_exact"]}, st["lost_events_exact"])
busy = {str(c): b for c, b in q("SELECT cpu, sum(end_ns - start_ns) FROM runs "
                                 "WHERE trace_id = ? AND pid != 0 GROUP BY cpu")}
check("busy time per CPU summed from runs", {c: busy.get(c, 0) for c in st["cpu_busy_ns"]},
      st["cpu_busy_ns"])
lost = {str(c): n for c, n in q("SELECT cpu, sum(coalesce(count, 1)) FROM lost_events "
                                 "WHERE trace_id = ? GROUP BY cpu")}
check("lost_events rows per CPU", {c: lost.get(c, 0) for c in st["lost_events"]},
      st["lost_events"])
repairs = dict(q("SELECT kind, count(*) FROM repairs WHERE trace_id = ? GROUP BY kind"))
check("repairs rows by kind", {k: repairs.get(k, 0) for k in st["repairs"]}, st["repairs"])

# ---- migrations ----
check("migrations", q1("SELECT count(*) FROM migrations WHERE trace_id = ?"), st["migrations"])
classes = dict(q("SELECT class, count(*) FROM migrations WHERE trace_id = ? GROUP BY class"))
classes["cross_socket"] = q1("SELECT count(*) FROM migrations WHERE trace_id = ? "
                             "AND cross_socket")
check("migration classes", {k: classes.get(k, 0) for k in st["migration_classes"]},
      st["migration_classes"])

# ---- wakeup latency: count, mean, nearest-rank quantiles, max ----
lat = st["wakeup_latency_ns"]
n, total, mx = q("SELECT count(*), sum(dur_ns), max(dur_ns) FROM waits "
                 "WHERE trace_id = ? AND class = 'wakeup'")[0]
got = {"count": n, "mean": total // n if n else None, "max": mx}
for p in (50, 90, 99):
    # rank ceil(p n / 100), 1-based
    got["p%d" % p] = q1("SELECT max(dur_ns) FROM (SELECT dur_ns, row_number() OVER "
                        "(ORDER BY dur_ns) AS rk FROM waits WHERE trace_id = ? AND "
                        "class = 'wakeup') WHERE rk <= (? * ? + 99) / 100", p, n) if n else None
check("wakeup latency", got, lat)

# ---- placement ----
place = {k: {"count": c, "wait_ns": w} for k, c, w in
         q("SELECT placement, count(*), sum(dur_ns) FROM waits WHERE trace_id = ? "
           "AND class = 'wakeup' GROUP BY placement")}
check("placement", {k: place.get(k, {"count": 0, "wait_ns": 0}) for k in st["placement"]},
      st["placement"])

# ---- tasks: the table, and sums from the rows ----
cols = "pid, comm, ppid, run_ns, wait_ns, wakeups, migrations"
tasks = {r[0]: dict(zip(cols.split(", "), r)) for r in
         q("SELECT %s FROM tasks WHERE trace_id = ? AND pid != 0" % cols)}
for t in tasks.values():
    if t["ppid"] is None:
        t["ppid"] = -1
# stats' own keys the table has (stats lists more: waited_behind, sleeps)
check("tasks table", [tasks.get(t["pid"]) for t in st["tasks"]],
      [{k: t[k] for k in cols.split(", ")} for t in st["tasks"]])
check("tasks: no more than stats lists", len(tasks), len(st["tasks"]))
run_ns = dict(q("SELECT pid, sum(end_ns - start_ns) FROM runs WHERE trace_id = ? "
                "GROUP BY pid"))
check("run_ns per task summed from runs", {t["pid"]: run_ns.get(t["pid"], 0) for t in st["tasks"]},
      {t["pid"]: t["run_ns"] for t in st["tasks"]})
mig = dict(q("SELECT pid, count(*) FROM migrations WHERE trace_id = ? GROUP BY pid"))
check("migrations per task counted from migrations",
      {t["pid"]: mig.get(t["pid"], 0) for t in st["tasks"]},
      {t["pid"]: t["migrations"] for t in st["tasks"]})
# a wait still open at the end is in wait_ns and is no row: never more
wait_ns = dict(q("SELECT pid, sum(dur_ns) FROM waits WHERE trace_id = ? GROUP BY pid"))
over = [t["pid"] for t in st["tasks"] if wait_ns.get(t["pid"], 0) > t["wait_ns"]]
check("no task waits longer in waits than its wait_ns", over, [])
if tr["waits_open"] == 0:
    check("wait_ns per task summed from waits (no wait open at the end)",
          {t["pid"]: wait_ns.get(t["pid"], 0) for t in st["tasks"]},
          {t["pid"]: t["wait_ns"] for t in st["tasks"]})

# ---- runs: every row equals runs --idle's ----
lines = open(runs_path).read().splitlines()
base = int(lines[0].split("=")[1])
want = []
for r in csv.DictReader(lines[1:]):
    want.append((int(r["cpu"]), int(r["pid"]), base + int(r["start_ns"]),
                 base + int(r["end_ns"]), r["end_state"], int(r["wait_ns"]), r["woken_by"],
                 int(r["prev_cpu"])))
got = []
for cpu, pid, s, e, state, w, wpid, wirq, prev in q(
        "SELECT cpu, pid, start_ns, end_ns, end_state, wait_ns, waker_pid, waker_irq, "
        "prev_cpu FROM runs WHERE trace_id = ? ORDER BY rowid"):
    woken = str(wpid) if wpid is not None else wirq or "-1"
    got.append((cpu, pid, s, e, state, w, woken, -1 if prev is None else prev))
check("runs rows (%d) equal runs%s's" % (len(want), " --idle" if tr["idle_runs"] else ""),
      sorted(got) == sorted(want), True)
check("runs in the order runs writes them", got == want, True)
# the waits that ended as runs began are the rows of waits
w_runs = sorted((pid, s - w, s) for cpu, pid, s, e, st_, w, woken, prev in want if w > 0)
w_rows = sorted(q("SELECT pid, start_ns, end_ns FROM waits WHERE trace_id = ? "
                  "AND dur_ns > 0"))
check("waits rows equal the waits before runs", w_rows == w_runs, True)

# ---- sleeps: between a run that ended asleep and the wakeup ----
bad = q1("SELECT count(*) FROM sleeps s WHERE trace_id = ? AND (dur_ns != end_ns - start_ns "
         "OR NOT EXISTS (SELECT 1 FROM runs r WHERE r.trace_id = s.trace_id AND "
         "r.pid = s.pid AND r.end_ns = s.start_ns AND r.end_state = s.state))")
check("sleeps", q1("SELECT count(*) FROM sleeps WHERE trace_id = ?") > 0 or
      q1("SELECT count(*) FROM runs WHERE trace_id = ? AND end_state IN ('S', 'D')") == 0, True)
check("every sleep begins where a run ended in its state", bad, 0)

# ---- power: the time-weighted mean frequency over the complete window ----
if "cpu_freq_mean_khz" in st:
    w0, w1 = tr["window_start_ns"], tr["end_ns"]
    rows = db.execute(
        "SELECT cpu, sum(value * (min(end_ns, :w1) - max(start_ns, :w0))), "
        "sum(min(end_ns, :w1) - max(start_ns, :w0)) FROM power WHERE trace_id = :t "
        "AND kind = 'freq' AND end_ns > :w0 AND start_ns < :w1 GROUP BY cpu",
        {"w0": w0, "w1": w1, "t": trace_id}).fetchall()
    known = {str(c): k for c, _, k in rows}
    mean = {str(c): round(s / k, 3) for c, s, k in rows if k}
    check("power: time with a known frequency per CPU",
          {c: known.get(c, 0) for c in st["cpu_freq_known_ns"]}, st["cpu_freq_known_ns"])
    check("power: mean frequency per CPU",
          all(close(mean.get(c, 0), v, 1e-6) for c, v in st["cpu_freq_mean_khz"].items()),
          True)

# ---- marks ----
if marks is not None:
    check("marks: the ftrace:print records trace-cmd report shows",
          q1("SELECT count(*) FROM marks WHERE trace_id = ?"), marks)
