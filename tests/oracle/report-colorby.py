#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The time each value of `--color-by` colors, from `trace-cmd report` text.

An independent oracle for `schedplot datagraph -v --color-by DEF` (its
"colors: LABEL: N ns" lines): it never reads the .dat file itself.  The
runs come from report-stats.py --runs (the model's rules applied to
`trace-cmd report`), the values from `trace-cmd report -R -t -F 'EVENT:
FILTER'` (trace-cmd's own filter code).  Then, for every run of a task
other than the idle task:

  * FIELD, or sched:sched_switch/FIELD without per=: the value in the
    sched_switch record at the run's start, on its CPU, that switched its
    task in; a run that began otherwise has none;
  * EVENT/FIELD per=cpu (the default), per=task, per=PIDFIELD, per=trace:
    the value of the latest record at or before each instant of the run,
    on the run's CPU, with the run's task as common_pid (or as the value
    of PIDFIELD), or anywhere; a record that repeats the value changes
    nothing; before any record, none.

Usage: report-colorby.py [--trace-cmd PROG] FILE DEF
Prints "LABEL<TAB>NS" per value, sorted by label: "FIELD VALUE" for
numbers, the text for strings (trailing white space left out), "-" for
the time of no value.
"""

import argparse
import bisect
import fnmatch
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402

RECORD_RE = re.compile(r"^(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([^\s:]+):\s*(.*)$")
SPANS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report-spans.py")


def load_spans():
    import importlib.util
    spec = importlib.util.spec_from_file_location("report_spans", SPANS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse_def(d):
    """-> (system, event, filter, field, per, task_field)"""
    m = re.fullmatch(r"\w+", d)
    if m:
        return "sched", "sched_switch", "", d, "switch-in", None
    m = re.match(r"(\w+):(\w+)/(\w+)(\s+per=\w+)?\s*$", d)
    if m:
        s, e, flt, field, rest = m.group(1), m.group(2), "", m.group(3), m.group(4) or ""
    else:
        m = re.match(r"(\w+):(\w+)/(.*)/(\w+)(\s+per=\w+)?\s*$", d)
        if not m:
            sys.exit("report-colorby.py: bad definition: " + d)
        s, e, flt, field, rest = m.groups()
        rest = rest or ""
    per = rest.strip()[4:] if rest.strip() else None
    if per is None:
        per = "switch-in" if (s, e) == ("sched", "sched_switch") else "cpu"
    task_field = None
    if per not in ("switch-in", "cpu", "task", "trace"):
        task_field, per = per, "task"
    return s, e, flt.strip(), field, per, task_field


def records(tc, path, s, e, flt, field, extra):
    """(ts, cpu, common_pid, value, extra value) in report order."""
    spans = load_spans()
    # trace-cmd report -F cannot filter the text of ftrace:print: FIELD ~ "GLOB" is applied here
    glob = re.fullmatch(r'(\w+)\s*~\s*"([^"]*)"', flt)
    if glob:
        flt = ""
    spec = "%s/%s" % (s, e) + (": " + spans.glob_to_regex(flt) if flt else "")
    out = tracecmd_report.lines(tc, ["-R", "-t", "-F", spec, path],
                                lambda m: sys.exit("report-colorby.py: " + m))
    recs = []
    for line in out:
        m = RECORD_RE.match(line)
        if not m or m.group(6) != e:
            continue
        body = m.group(7)
        # a string field may hold spaces: it runs to the next " name=" or the end
        fm = re.search(r"(?:^|\s)%s=(.*?)(?=\s\w+=|$)" % field, body)
        if not fm:
            sys.exit("report-colorby.py: no field %s in: %s" % (field, line))
        v = fm.group(1).rstrip()
        if glob:
            gm = re.search(r"(?:^|\s)%s=(.*?)(?=\s\w+=|$)" % glob.group(1), body)
            if not gm or not fnmatch.fnmatchcase(gm.group(1), glob.group(2)):
                continue
        xv = None
        if extra:
            xm = re.search(r"(?:^|\s)%s=(\S*)" % extra, body)
            xv = int(xm.group(1)) if xm else None
        ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
        recs.append((ts, int(m.group(3)), int(m.group(2)), v, xv))
    return recs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("file")
    ap.add_argument("definition")
    a = ap.parse_args()
    s, e, flt, field, per, task_field = parse_def(a.definition)
    extra = "next_pid" if per == "switch-in" else task_field
    recs = records(a.trace_cmd, a.file, s, e, flt, field, extra)
    numeric = all(re.fullmatch(r"-?(\d+|0x[0-9a-f]+)", r[3]) for r in recs)
    if numeric:
        recs = [(ts, cpu, cpid, int(v, 16 if v.startswith("0x") else 10), xv)
                for ts, cpu, cpid, v, xv in recs]

    def label(v):
        return "-" if v is None else ("%s %s" % (field, v) if numeric else v)

    out = subprocess.run([sys.executable, os.path.join(os.path.dirname(SPANS),
                                                       "report-stats.py"),
                          "--trace-cmd", a.trace_cmd, "--runs", a.file], check=True,
                         capture_output=True, text=True).stdout
    runs = []
    for line in out.splitlines():
        f = line.split()
        if f[0] != "open":
            runs.append((int(f[0]), int(f[1]), int(f[2]), int(f[3])))

    total = {}

    def add(v, ns):
        if ns > 0:
            total[label(v)] = total.get(label(v), 0) + ns

    if per == "switch-in":
        first = {}
        for ts, cpu, _, v, nxt in recs:
            first.setdefault((cpu, ts), (nxt, v))
        for cpu, pid, b, t in runs:
            if pid:
                hit = first.get((cpu, b))
                add(hit[1] if hit and hit[0] == pid else None, t - b)
    else:
        hist = {}
        for ts, cpu, cpid, v, xv in recs:
            h = {"cpu": cpu, "trace": 0}.get(per, xv if task_field else cpid)
            lst = hist.setdefault(h, ([], []))
            if not lst[1] or lst[1][-1] != v:
                lst[0].append(ts)
                lst[1].append(v)
        for cpu, pid, b, t in runs:
            if not pid:
                continue
            h = {"cpu": cpu, "trace": 0}.get(per, pid)
            times, vals = hist.get(h, ([], []))
            i = bisect.bisect_right(times, b)
            cur, frm = (vals[i - 1] if i else None), b
            while i < len(times) and times[i] < t:
                add(cur, times[i] - frm)
                cur, frm = vals[i], times[i]
                i += 1
            add(cur, t - frm)
    for k in sorted(total):
        print("%s\t%d" % (k, total[k]))


if __name__ == "__main__":
    main()
