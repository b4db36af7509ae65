# SPDX-License-Identifier: GPL-2.0-only
"""Run `trace-cmd report -t` for the oracles: one form of timestamp, always.

trace-cmd 3.1 parses a file's trace-clock option from a buffer it does
not terminate. Where that option is empty (the shared i686 trace has
one), what it parses is whatever the heap held: now and then that names
a clock it does not know, and the run prints every timestamp raw,
"41404337131:", instead of "41.404337131:". No conversion is applied
either way (both print the recorded nanoseconds), so a raw timestamp is
written back here as seconds and nanoseconds and every oracle reads the
form it expects. The suite saw it about once in a hundred runs, under
load; a failed run is also tried once more.

Usage from an oracle (tests/lib on sys.path):
    import tracecmd_report
    lines = tracecmd_report.lines(trace_cmd, ["-N", "-t", "-l", "-i", path], die)
"""

import re
import subprocess
import sys

# "<comm>-<pid>" then "[<cpu>]" or, with -l, "<cpu><flags>", then a
# timestamp that has no fraction: the raw form.  Nothing before it holds
# ": ", so a record's text is never taken for its header.
RAW_TS_RE = re.compile(r"^((?:(?!: ).)*?-\d+\s+(?:\[\d+\]|\d+[^\d\s]\S*)\s+)(\d+)(:\s)")


def seconds(line):
    """line with a raw nanosecond timestamp written as seconds."""
    m = RAW_TS_RE.match(line)
    if not m:
        return line
    s, ns = divmod(int(m.group(2)), 1000000000)
    return "%s%d.%09d%s%s" % (m.group(1), s, ns, m.group(3), line[m.end():])


def lines(trace_cmd, args, die):
    """The lines `trace_cmd report ARGS` prints, timestamps in seconds.

    ARGS must hold -t: only full nanosecond timestamps can be written back
    exactly. die(message) is called when trace-cmd cannot run or fails twice.
    """
    if "-t" not in args:
        die("tracecmd_report.lines: -t is needed to read timestamps exactly")
    cmd = [trace_cmd, "report"] + list(args)
    for attempt in range(2):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as e:
            die("cannot run %s: %s" % (trace_cmd, e))
        if p.returncode == 0:
            break
        print("%s: exit %d%s" % (" ".join(cmd), p.returncode,
                                 ", trying again" if not attempt else ""), file=sys.stderr)
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().replace("\n", "; ")
        die("%s failed (exit %d): %s" % (" ".join(cmd), p.returncode, err))
    return [seconds(l) for l in p.stdout.decode("utf-8", "replace").splitlines()]
