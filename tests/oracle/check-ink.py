# SPDX-License-Identifier: GPL-2.0-only
"""Ink in proportion to time, read from the pixels of a chart.

    check-ink.py datagraph|tasks RUNS.CSV OUT.png ZOOM.png ROW_KEY... [--expect-fail]

OUT.png is a chart of the whole trace (rows: the CPUs or tasks given as
ROW_KEY, bottom first for a datagraph, top first for the tasks chart);
ZOOM.png the same rows over a short window in which each row ran
throughout (drawn with the same colors, --colors).  For every row, the
mean ink of its pixels in OUT.png (ink: 255 minus a channel, averaged
over the channels, over 255) must be within 30% of its busy share (from
RUNS.CSV: the CPU's time running a task, or the task's time running)
times the ink of its full color, the most inked pixel of the row in
ZOOM.png.  With --expect-fail, at least one row must miss that (the
old rule did).
"""
import csv
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/lib")
import png  # noqa: E402

AXIS = (38, 38, 38)


def frame(w, h, px):
    frames = [y for y in range(h) if sum(px(x, y) == AXIS for x in range(0, w, 2)) > w // 4]
    top = max(y for y in frames if y < frames[0] + 4) + 1
    bottom = min(y for y in frames if y > frames[-1] - 4)
    xs = [x for x in range(w) if px(x, frames[0]) == AXIS]
    return top, bottom, xs[0] + 2, xs[-1] - 1


def ink(c):
    return sum(255 - v for v in c) / (3 * 255.0)


def row_bands(path, nr_rows, bottom_first):
    w, h, px = png.read(path)
    top, bottom, x0, x1 = frame(w, h, px)
    rh = (bottom - top) / nr_rows
    bands = []
    for r in range(nr_rows):
        k = nr_rows - 1 - r if bottom_first else r
        y0, y1 = int(top + k * rh + 2), int(top + (k + 1) * rh - 2)
        bands.append([px(x, y) for y in range(y0, y1) for x in range(x0, x1)])
    return bands


def main():
    args = [a for a in sys.argv[1:] if a != "--expect-fail"]
    expect_fail = "--expect-fail" in sys.argv
    view, runs_csv, out, zoom = args[:4]
    keys = [int(k) for k in args[4:]]
    lines = open(runs_csv).read().splitlines()
    end = 0
    busy = {k: 0 for k in keys}
    for r in csv.DictReader(lines[1:]):
        s, e, pid, cpu = int(r["start_ns"]), int(r["end_ns"]), int(r["pid"]), int(r["cpu"])
        end = max(end, e)
        key = cpu if view == "datagraph" else pid
        if pid and key in busy:
            busy[key] += e - s
    bottom_first = view == "datagraph"
    got = row_bands(out, len(keys), bottom_first)
    full = row_bands(zoom, len(keys), bottom_first)
    misses = []
    for k, band, zband in zip(keys, got, full):
        share = busy[k] / end
        want = share * max(ink(c) for c in zband)
        have = sum(ink(c) for c in band) / len(band)
        rel = have / want - 1 if want else float("inf")
        line = "row %d: busy %.1f%%, ink %.4f, want %.4f (%+.0f%%)" % (
            k, 100 * share, have, want, 100 * rel)
        print("#", line)
        if abs(rel) > 0.30:
            misses.append(line)
    if expect_fail:
        if not misses:
            sys.exit("not ok - every row's ink within 30% of its share; the old rule should miss")
        print("ok - the longest-holder rule misses: %s" % misses[0])
    elif misses:
        sys.exit("not ok - ink not in proportion to time: %s" % "; ".join(misses))
    else:
        print("ok - %s: every row's ink within 30%% of busy share x its color's ink" % view)


main()
