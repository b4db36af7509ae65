#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Marks and spans from `trace-cmd report` text, filters applied by trace-cmd.

An independent oracle for `schedplot stats --mark/--span`: it never reads
the .dat file itself.  For each definition it asks `trace-cmd report -R -t
-F 'EVENT: FILTER'` for the records that pass (trace-cmd's own filter
code), and `trace-cmd report -t` for where records were lost ("CPU:N [..
EVENTS DROPPED]" before the record that follows the gap).  Then, in record
order (timestamp, ties to the lower CPU):

  * a mark counts every record that passes;
  * a span's start record opens its key (the values of the key fields, as
    -R prints them; common_pid from the line), replacing (and counting as
    an unmatched start) one open already; an end record closes the open
    start of its key (a span: end - start) or, with none open, is an
    unmatched end; a start still open at the end is an unmatched start;
  * a span during which a gap was seen anywhere is "across_lost", not a
    span;
  * a record that is both an end and a start (the markers of phases) ends
    the open span and starts the next; with none open it is only a start.

A FILTER written FIELD ~ "GLOB" (the kernel's syntax) is handed to
trace-cmd as FIELD =~ "REGEX", the regular expression of the same strings.

Usage: report-spans.py [--trace-cmd PROG] [--rows] FILE (--mark DEF | --span DEF)...
with DEF as schedplot takes it.  Prints one line per definition, in order:
"mark NAME COUNT" or "span NAME COUNT TOTAL_NS P50 P99 MAX UNMATCHED_START
UNMATCHED_END ACROSS_LOST" (nearest-rank percentiles, "-" without spans).
With --rows, before a definition's line, one line per record of a mark,
"mark-row TS_NS LABEL" (the value of its label=FIELD, "-" without), and
per span, "span-row START_NS END_NS KEY..." (the key's values as -R
prints them).
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tracecmd_report  # noqa: E402


def die(msg):
    sys.exit("report-spans.py: " + msg)


RECORD_RE = re.compile(r"^(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([^\s:]+):\s*(.*)$")
DROP_RE = re.compile(r"^CPU:\s*(\d+) \[(\d+ )?EVENTS DROPPED\]")
FIELD_RE = re.compile(r"(\w+)=(\S*)")


def glob_to_regex(text):
    """FIELD ~ "GLOB" -> FIELD =~ "^REGEX$" outside strings."""
    out, i, quote = [], 0, None
    while i < len(text):
        c = text[i]
        if quote:
            out.append(c)
            if c == quote:
                quote = None
            i += 1
            continue
        if c in "\"'":
            quote = c
            out.append(c)
            i += 1
            continue
        m = re.match(r'~\s*"([^"]*)"', text[i:])
        if c == "~" and m and not (i and text[i - 1] in "=!"):
            rx = ""
            for part in re.split(r"(\[!?[^]]*\])", m.group(1)):
                if part.startswith("["):
                    rx += "[^" + part[2:] if part.startswith("[!") else part
                    continue
                rx += "".join(".*" if g == "*" else "." if g == "?" else
                              ("\\" + g if g in ".[]\\^$" else g) for g in part)
            out.append('=~ "^%s$"' % rx)
            i += m.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_event(text):
    """'sys:ev/filter/' at the start of text -> (sys, ev, filter, rest)."""
    m = re.match(r"(\w+):(\w+)(?:/([^/]*)/)?", text)
    if not m:
        sys.exit("report-spans.py: bad definition: " + text)
    return m.group(1), m.group(2), (m.group(3) or "").strip(), text[m.end():]


def records(tc, path, sysname, ev, flt):
    spec = "%s/%s" % (sysname, ev) + (": " + glob_to_regex(flt) if flt else "")
    out = tracecmd_report.lines(tc, ["-R", "-t", "-F", spec, path], die)
    recs = []
    for line in out:
        m = RECORD_RE.match(line)
        if not m or m.group(6) != ev:
            continue
        fields = dict(FIELD_RE.findall(m.group(7)))
        fields["common_pid"] = m.group(2)
        ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
        recs.append((ts, int(m.group(3)), fields))
    return recs


def gaps(tc, path):
    out = tracecmd_report.lines(tc, ["-t", path], die)
    pending, found = {}, []
    for line in out:
        d = DROP_RE.match(line)
        if d:
            pending[int(d.group(1))] = True
            continue
        m = RECORD_RE.match(line)
        if m and pending.pop(int(m.group(3)), False):
            ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
            found.append((ts, int(m.group(3))))
    return sorted(found)


def quantile(v, num, den):
    return v[max(1, math.ceil(num * len(v) / den)) - 1] if v else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--rows", action="store_true")
    ap.add_argument("file")
    ap.add_argument("--mark", action="append", default=[], dest="defs",
                    type=lambda s: ("mark", s))
    ap.add_argument("--span", action="append", default=[], dest="defs",
                    type=lambda s: ("span", s))
    a = ap.parse_args()
    lost = None
    for kind, d in a.defs:
        if kind == "mark":
            s, e, f, rest = parse_event(d)
            recs = records(a.trace_cmd, a.file, s, e, f)
            label = re.search(r"label=(\w+)", rest)
            for ts, _, fields in recs if a.rows else []:
                print("mark-row %d %s" % (ts, fields.get(label.group(1)) if label else "-"))
            print("mark %s:%s %d" % (s, e, len(recs)))
            continue
        s1, e1, f1, rest = parse_event(d)
        s2, e2, f2, rest = parse_event(rest[2:])
        keys = re.search(r"key=([\w,]+)", rest).group(1).split(",")
        if lost is None:
            lost = gaps(a.trace_cmd, a.file)
        # (ts, cpu, order): ends before starts of one record, as schedplot
        evs = [(ts, cpu, 0, "end", f) for ts, cpu, f in records(a.trace_cmd, a.file, s2, e2, f2)]
        evs += [(ts, cpu, 1, "start", f) for ts, cpu, f in records(a.trace_cmd, a.file, s1, e1, f1)]
        evs.sort(key=lambda x: (x[0], x[1], x[2]))
        starts = {(x[0], x[1]) for x in evs if x[3] == "start"}
        opened, durs = {}, []
        um_start = um_end = across = 0
        gi = 0
        for ts, cpu, _, what, f in evs:
            while gi < len(lost) and lost[gi] <= (ts, cpu):
                gi += 1
            key = tuple(f.get(k) for k in keys)
            if what == "end":
                if key not in opened:
                    # a record that also starts a span is only a start then
                    if (ts, cpu) not in starts:
                        um_end += 1
                    continue
                t0, g0 = opened.pop(key)
                if g0 != gi:
                    across += 1
                else:
                    durs.append(ts - t0)
                    if a.rows:
                        print("span-row %d %d %s" % (t0, ts, " ".join(key)))
            else:
                if key in opened:
                    um_start += 1
                opened[key] = (ts, gi)
        um_start += len(opened)
        durs.sort()
        print("span %s:%s..%s:%s %d %d %s %s %s %d %d %d" % (
            s1, e1, s2, e2, len(durs), sum(durs), quantile(durs, 1, 2),
            quantile(durs, 99, 100), durs[-1] if durs else "-", um_start, um_end, across))


if __name__ == "__main__":
    main()
