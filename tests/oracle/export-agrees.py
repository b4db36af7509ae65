#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a database of schedplot export against stats --json and runs.

    export-agrees.py DB TRACE_ID STATS.json RUNS [MARKS]

RUNS is `schedplot runs` of the same trace, as CSV or with --json (with
--idle when the database holds the idle task's runs, traces.idle_runs),
whose behind and behind_ns the runs' rows must have; MARKS, when given,
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
        return
    print("not ok - %s: %s: SQL gives %s, expected %s" % (name, what, short(got), short(want)))
    if isinstance(got, dict) and isinstance(want, dict):
        keys = sorted((k for k in set(got) | set(want) if got.get(k) != want.get(k)), key=str)
        for k in keys[:3]:
            print("# %s: SQL gives %s, expected %s" % (k, short(got.get(k)), short(want.get(k))))


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
if lines[0].startswith("{"):
    base = json.loads(lines[0])["start_ns"]
    rows = [json.loads(line) for line in lines[1:]]
else:
    base = int(lines[0].split("=")[1])
    rows = list(csv.DictReader(lines[1:]))
want = []
for r in rows:
    want.append((int(r["cpu"]), int(r["pid"]), base + int(r["start_ns"]),
                 base + int(r["end_ns"]), r["end_state"], int(r["wait_ns"]), str(r["woken_by"]),
                 int(r["prev_cpu"]), int(r["behind"]), int(r["behind_ns"])))
got = []
for cpu, pid, s, e, state, w, wpid, wirq, prev, bpid, bns in q(
        "SELECT cpu, pid, start_ns, end_ns, end_state, wait_ns, waker_pid, waker_irq, "
        "prev_cpu, behind_pid, behind_ns FROM runs WHERE trace_id = ? ORDER BY rowid"):
    woken = str(wpid) if wpid is not None else wirq or "-1"
    got.append((cpu, pid, s, e, state, w, woken, -1 if prev is None else prev,
                -1 if bpid is None else bpid, bns or 0))
check("runs rows (%d) equal runs%s's, with who each waited behind" %
      (len(want), " --idle" if tr["idle_runs"] else ""), sorted(got) == sorted(want), True)
if sorted(got) != sorted(want):
    diff = sorted(set(got) ^ set(want))[:4]
    print("# runs rows in one and not the other: %s" % diff)
check("runs in the order runs writes them", got == want, True)
check("behind_ns is NULL exactly where no wait ended as the run began",
      q1("SELECT count(*) FROM runs WHERE trace_id = ? AND pid != 0 AND "
         "(behind_ns IS NULL) != (placement IS NULL)"), 0)
# the waits that ended as runs began are the rows of waits
w_runs = sorted((r[1], r[2] - r[5], r[2]) for r in want if r[5] > 0)
w_rows = sorted(q("SELECT pid, start_ns, end_ns FROM waits WHERE trace_id = ? "
                  "AND dur_ns > 0"))
check("waits rows equal the waits before runs", w_rows == w_runs, True)

# ---- who each task waited behind: stats' waited_behind ----
BEHIND_TOP = 5     # antagonists stats lists per task
waits_ns = dict(q("SELECT pid, sum(dur_ns) FROM waits WHERE trace_id = ? GROUP BY pid"))
behind = {}
for pid, bpid, ns, comm in q("SELECT a.pid, a.behind_pid, a.ns, t.comm FROM antagonists a "
                             "JOIN tasks t ON t.trace_id = a.trace_id AND t.pid = a.behind_pid "
                             "WHERE a.trace_id = ? ORDER BY a.pid, a.ns DESC, a.behind_pid"):
    behind.setdefault(pid, []).append({"pid": bpid, "comm": comm, "ns": ns})
check("waited_behind per task: the waits' time and the %d longest antagonists" % BEHIND_TOP,
      {t["pid"]: {"waits_ns": waits_ns.get(t["pid"], 0),
                  "top": behind.get(t["pid"], [])[:BEHIND_TOP]} for t in st["tasks"]},
      {t["pid"]: t["waited_behind"] for t in st["tasks"]})
check("antagonists: every antagonist's time summed over the waits is the table's",
      q("SELECT count(*), sum(ns) FROM (SELECT pid, behind_pid, sum(ns) AS ns FROM "
        "antagonists WHERE trace_id = ? GROUP BY pid, behind_pid)")[0],
      q("SELECT count(*), sum(ns) FROM antagonists WHERE trace_id = ?")[0])
over = q1("SELECT count(*) FROM waits w WHERE trace_id = ? AND behind_ns > (SELECT a.ns FROM "
          "antagonists a WHERE a.trace_id = w.trace_id AND a.pid = w.pid AND "
          "a.behind_pid = w.behind_pid)")
check("no wait's longest antagonist held its CPU longer than the table's sum", over, 0)
check("waits: behind_comm is the antagonist's name in tasks",
      q1("SELECT count(*) FROM waits w WHERE trace_id = ? AND behind_pid IS NOT NULL AND "
         "behind_comm IS NOT (SELECT comm FROM tasks t WHERE t.trace_id = w.trace_id AND "
         "t.pid = w.behind_pid)"), 0)

# ---- contradicted waits ----
cw = st["contradicted_waits"]
n, total, longest = q("SELECT count(*), coalesce(sum(dur_ns), 0), max(dur_ns) FROM waits "
                      "WHERE trace_id = ? AND contradicted")[0]
check("contradicted waits: count, time, the longest",
      [n, total, longest], [cw["count"], cw["wait_ns"],
                            cw["longest"]["dur_ns"] if cw["longest"] else None])

# ---- sleeps: stats' per task, by class, and who woke them ----
WAKERS_TOP = 3     # wakers stats lists per task
sleeps = {}
for pid, cls, n, ns in q("SELECT pid, class, count(*), sum(dur_ns) FROM sleeps "
                         "WHERE trace_id = ? GROUP BY pid, class"):
    sleeps.setdefault(pid, {})[cls] = {"count": n, "ns": ns}
wakers = {}
for pid, waker, comm, n in q(
        "SELECT s.pid, coalesce(s.waker_pid, s.waker_irq), "
        "coalesce(t.comm, CASE s.waker_pid WHEN 0 THEN '<idle>' ELSE '' END), count(*) "
        "FROM sleeps s LEFT JOIN tasks t ON t.trace_id = s.trace_id AND t.pid = s.waker_pid "
        "WHERE s.trace_id = ? AND coalesce(s.waker_pid, s.waker_irq) IS NOT NULL "
        "GROUP BY 1, 2 ORDER BY 1, 4 DESC, coalesce(s.waker_pid, "
        "CASE s.waker_irq WHEN 'irq' THEN -2 ELSE -3 END)"):
    wakers.setdefault(pid, []).append({"waker": waker, "comm": comm, "count": n})
none = {"count": 0, "ns": 0}
got = {}
for t in st["tasks"]:
    g = {c: sleeps.get(t["pid"], {}).get(c, none) for c in ("S", "D", "other")}
    g["woken_by"] = wakers.get(t["pid"], [])[:WAKERS_TOP]
    got[t["pid"]] = g
# the blocking places (blocked_in) come from kernel stacks the database does not keep
check("sleeps per task by class (S, D, other), and who woke them",
      got, {t["pid"]: {k: v for k, v in t["sleeps"].items() if k != "blocked_in"}
            for t in st["tasks"]})
bad = q1("SELECT count(*) FROM sleeps s WHERE trace_id = ? AND (dur_ns != end_ns - start_ns "
         "OR NOT EXISTS (SELECT 1 FROM runs r WHERE r.trace_id = s.trace_id AND "
         "r.pid = s.pid AND r.end_ns = s.start_ns AND r.end_state = s.state AND r.cpu = s.cpu))")
check("every sleep begins where a run ended in its state, on its CPU", bad, 0)

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
