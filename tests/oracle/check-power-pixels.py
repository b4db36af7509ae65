#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the datagraph's power layers against `trace-cmd report`.

Usage: check-power-pixels.py STEPS NR_ROWS PLAIN.png FREQ.png MERGED.png IDLE.png
       check-power-pixels.py --colorbar [--merged] [--grey] STEPS NR_ROWS IMG.png IMG.svg

STEPS is the output of `report-stats.py --power-steps` for the trace; the
PNGs are `schedplot datagraph` of the whole trace, numeric CPU order, no
title, no legend, all of one size: plain, --freq, --freq merged and
--idle-states.  Every pixel column of every row that lies inside one
interval of constant frequency (as the report says) is checked, away from
the interval's ends by two columns:

  --freq:         one color per frequency, different frequencies different
                  colors, lighter as the frequency rises; hatched (two greys)
                  before the CPU's first cpu_frequency record;
  --freq merged:  the bottom half as --freq, the top half as the plain chart;
  --idle-states:  the plain chart where it is not white; in white (idle)
                  columns inside one C-state, one grey per state, darker as
                  the state deepens, and white out of idle or before the
                  CPU's first cpu_idle record.

With --colorbar, IMG.png and IMG.svg are one `datagraph --freq` (or
--freq merged) with its legend, numeric CPU order, of the whole trace:
the color bar's tick labels (from the SVG's text) are round MHz, evenly
stepped, around the frequencies of the trace and as many as the ticks
drawn under the bar in the PNG, followed by the labels of the bar's ends
where they fit (the trace's least and most frequency, under its edges);
the bar gets lighter all along (grey with --grey); and every frequency's
color in the rows is the bar's color at that frequency's place on the
scale, the ticks being the ruler.

Prints "ok - ..." or "not ok - ..." lines; exits 1 on any failure.
"""
import html
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import png  # noqa: E402  (tests/lib/png.py)

AXIS = (38, 38, 38)
WHITE = (255, 255, 255)


def frame(w, h, px):
    """The plot's frame: the long horizontal runs of the axis color."""
    lines = []
    for y in range(h):
        xs = [x for x in range(w) if px(x, y) == AXIS]
        if len(xs) > w // 2:
            lines.append((y, xs[0], xs[-1]))
    if len(lines) < 2:
        sys.exit("not ok - no plot frame found")
    return lines[0][0], lines[-1][0], lines[0][1], lines[0][2]


def segments(steps, cpu, t0, end):
    """[(start, end, value)] of one CPU, None before its first step."""
    out, last_t, last_v = [], t0, None
    for c, ts, v in steps:
        if c != cpu:
            continue
        out.append((last_t, ts, last_v))
        last_t, last_v = ts, v
    out.append((last_t, end, last_v))
    return out


def lightness(c):
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def read_steps(path):
    """(t0, end, frequency steps, idle-state steps) of a --power-steps file."""
    t0 = end = None
    fsteps, isteps = [], []
    for line in open(path):
        f = line.split()
        if f[0] == "span":
            t0, end = int(f[1]), int(f[2])
        else:
            (fsteps if f[0] == "freq" else isteps).append((int(f[1]), int(f[2]), int(f[3])))
    return t0, end, fsteps, isteps


def svg_texts(path):
    """The SVG's text overlay, in drawing order: [(centre x, text)]."""
    out = []
    for m in re.finditer(r'<text transform="matrix\(([^)]*)\)" x="([-0-9.]+)" '
                         r'y="[-0-9.]+" font-size="[0-9.]+" textLength="([0-9.]+)"'
                         r'[^>]*>([^<]*)</text>', open(path).read()):
        a, _, _, _, e, _ = (float(v) for v in m.group(1).split())
        out.append((e + a * (float(m.group(2)) + float(m.group(3)) / 2),
                    html.unescape(m.group(4))))
    return out


def bar_of(w, h, px, below):
    """The color bar under y @below: (y, first and last inner column, tick columns)."""
    lines = []
    for y in range(below, h):
        run, best = [], []
        for x in range(w):
            if px(x, y) != WHITE:
                run.append(x)
                continue
            if len(run) > len(best):
                best = run
            run = []
        if len(best) > 60 and lightness(px(best[-3], y)) - lightness(px(best[2], y)) > 80:
            lines.append((y, best[0], best[-1]))
    if not lines:
        return None
    y, left, right = lines[len(lines) // 2]
    below_bar = lines[-1][0] + 2
    ticks = [x for x in range(left, right + 1)
             if px(x, below_bar) == AXIS and px(x - 1, below_bar) != AXIS]
    # inside the outline, which tints the pixel either side of the edge
    return y, left + 2, right - 2, ticks


def check_colorbar(args):
    merged, grey = "--merged" in args, "--grey" in args
    args = [a for a in args if not a.startswith("--")]
    steps_path, nr_rows, png_path, svg_path = args[0], int(args[1]), args[2], args[3]
    t0, end, fsteps, _ = read_steps(steps_path)
    w, h, px = png.read(png_path)
    top, bottom, x0, x1 = frame(w, h, px)
    cols = x1 - x0
    bad = []

    # the rows: one color per frequency (the other mode checks them all)
    color_of = {}
    for cpu in range(nr_rows):
        y = int(top + (nr_rows - 1 - cpu + (0.75 if merged else 0.5)) * (bottom - top) / nr_rows)
        for a, b, khz in segments(fsteps, cpu, t0, end):
            xa, xb = x0 + (a - t0) * cols / (end - t0), x0 + (b - t0) * cols / (end - t0)
            if khz is not None and xb - xa > 8:
                color_of.setdefault(khz, px(int((xa + xb) / 2), y))

    # the bar, its ticks (PNG) and their labels (SVG)
    bar = bar_of(w, h, px, bottom + 1)
    if not bar:
        print("not ok - --colorbar: no color bar under the plot")
        return 1
    y, left, right, ticks = bar
    texts = svg_texts(svg_path)
    titles = [i for i, (_, t) in enumerate(texts) if t.startswith("CPU frequency (MHz)")]
    if not titles:
        print("not ok - --colorbar: no title \"CPU frequency (MHz)\" in the SVG's text")
        return 1
    labels, ends = [], []
    for x, t in texts[titles[0] + 1:]:
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", t):
            break
        (labels if len(labels) < len(ticks) else ends).append((x, t))
    labels = [float(t) for _, t in labels]
    khz = sorted(color_of)
    # after the ticks' labels, the ends' values under the bar's edges:
    # the least and the most frequency the trace has
    known = sorted({v for _, _, v in fsteps if v > 0})
    for x, t in ends:
        at_left = abs(x - (left - 2)) <= 3
        want = known[0] if at_left else known[-1]
        if len(ends) > 2 or not (at_left or abs(x - (right + 2)) <= 3):
            bad.append("end label %s at x %.1f is not under an end of the bar (%d..%d)"
                       % (t, x, left - 2, right + 2))
        elif t != "%.0f" % (want / 1000):
            bad.append("end label %s: the trace's %s frequency is %g MHz"
                       % (t, "least" if at_left else "most", want / 1000))
    steps = {round(b - a, 6) for a, b in zip(labels, labels[1:])}
    if len(labels) < 2 or len(labels) != len(ticks):
        bad.append("%d tick labels %s for %d ticks" % (len(labels), labels, len(ticks)))
    elif len(steps) != 1 or not re.fullmatch(r"(1|2|5|25)0*(\.0)?|0\.0*(1|2|5)",
                                              ("%g" % steps.pop())):
        bad.append("tick labels %s are not evenly stepped round values" % labels)
    elif not (khz[0] / 1000 - 1e-9 <= labels[0] and labels[-1] <= khz[-1] / 1000 + 1e-9):
        bad.append("tick labels %s are not MHz inside the trace's %d..%d MHz"
                   % (labels, khz[0] // 1000, khz[-1] // 1000))

    # lighter all along
    light = [lightness(px(x, y)) for x in range(left, right + 1)]
    if any(b < a - 0.5 for a, b in zip(light, light[1:])) or light[-1] - light[0] < 80:
        bad.append("the bar does not get lighter all along: %s" % light[::20])
    if grey and any(len(set(px(x, y))) != 1 for x in range(left, right + 1)):
        bad.append("--palette grey: the bar is not grey")

    # each frequency's row color is the bar's at its place
    if not bad:
        span = (ticks[-1] - ticks[0]) / (labels[-1] - labels[0])
        for k in khz:
            x = int(ticks[0] + 0.5 + (k / 1000 - labels[0]) * span)
            p = px(min(right, max(left, x)), y)
            if max(abs(a - b) for a, b in zip(p, color_of[k])) > 3:
                bad.append("%g MHz: rows %s, bar %s at x %d" % (k / 1000, color_of[k], p, x))
    if bad:
        print("not ok - %s: color bar: %s" % (os.path.basename(png_path), "; ".join(bad[:6])))
        return 1
    print("ok - %s: color bar ticks %s MHz (ends labelled: %s), lighter all along%s; the "
          "rows' %s MHz are the bar's colors at their places" % (os.path.basename(png_path),
                                            ", ".join("%g" % v for v in labels),
                                            ", ".join(t for _, t in ends) or "none",
                                            ", grey" if grey else "",
                                            ", ".join("%g" % (k / 1000) for k in khz)))
    return 0


def main():
    if sys.argv[1] == "--colorbar":
        return check_colorbar(sys.argv[2:])
    steps_path, nr_rows = sys.argv[1], int(sys.argv[2])
    imgs = [png.read(p) for p in sys.argv[3:7]]
    (w, h, plain), (_, _, freq), (_, _, merged), (_, _, idle) = imgs
    if any((iw, ih) != (w, h) for iw, ih, _ in imgs):
        sys.exit("not ok - the four images differ in size")
    t0, end, fsteps, isteps = read_steps(steps_path)
    top, bottom, x0, x1 = frame(w, h, plain)
    cols = x1 - x0

    def x_of(t):
        return x0 + (t - t0) * cols / (end - t0)

    def y_of(row, frac):
        return int(top + (nr_rows - 1 - row + frac) * (bottom - top) / nr_rows)

    def inside(segs):
        """The pixel columns wholly inside each segment, with its value."""
        for a, b, v in segs:
            for x in range(max(x0 + 3, int(x_of(a)) + 3), min(x1 - 2, int(x_of(b)) - 2)):
                yield x, v

    bad, color_of, nr_freq, nr_idle = [], {}, 0, 0
    for cpu in range(nr_rows):
        hatch = set()
        ym, ytop, ybot = y_of(cpu, 0.5), y_of(cpu, 0.25), y_of(cpu, 0.75)
        for x, khz in inside(segments(fsteps, cpu, t0, end)):
            p, pm = freq(x, ym), merged(x, ybot)
            nr_freq += 1
            if merged(x, ytop) != plain(x, ytop):
                bad.append("cpu %d x %d: merged top half %s, plain %s"
                           % (cpu, x, merged(x, ytop), plain(x, ytop)))
            if khz is None:
                if not (p[0] == p[1] == p[2] and pm[0] == pm[1] == pm[2]):
                    bad.append("cpu %d x %d: unknown frequency is %s, not hatched grey"
                               % (cpu, x, p))
                hatch.add(p)
                continue
            if color_of.setdefault(khz, p) != p:
                bad.append("cpu %d x %d: %d kHz is %s here, %s elsewhere"
                           % (cpu, x, khz, p, color_of[khz]))
            if pm != p:
                bad.append("cpu %d x %d: merged bottom half %s, --freq %s" % (cpu, x, pm, p))
        if any(c == cpu for c, _, _ in fsteps) and fsteps and len(hatch) == 1:
            bad.append("cpu %d: the unknown frequency is one flat grey, not hatched" % cpu)
    by_khz = sorted(color_of)
    if len(set(color_of.values())) != len(color_of):
        bad.append("two frequencies share a color: %s" % color_of)
    if [lightness(color_of[k]) for k in by_khz] != sorted(lightness(color_of[k]) for k in by_khz):
        bad.append("the colors do not lighten as the frequency rises: %s" % color_of)

    grey_of = {}
    for cpu in range(nr_rows):
        ym = y_of(cpu, 0.5)
        for x in range(x0 + 3, x1 - 2):
            if plain(x, ym) != WHITE and idle(x, ym) != plain(x, ym):
                bad.append("cpu %d x %d: --idle-states changed a busy pixel" % (cpu, x))
        for x, state in inside(segments(isteps, cpu, t0, end)):
            if plain(x, ym) != WHITE:
                continue
            p = idle(x, ym)
            nr_idle += 1
            if state is None or state < 0:
                if p != WHITE:
                    bad.append("cpu %d x %d: idle out of any C-state is %s" % (cpu, x, p))
            elif (p == WHITE or not p[0] == p[1] == p[2] or
                  grey_of.setdefault(state, p) != p):
                bad.append("cpu %d x %d: C-state %d is %s (elsewhere %s)"
                           % (cpu, x, state, p, grey_of.get(state)))
    states = sorted(grey_of)
    if [grey_of[s][0] for s in states] != sorted((grey_of[s][0] for s in states), reverse=True):
        bad.append("deeper C-states are not darker: %s" % grey_of)

    if bad:
        print("not ok - %d power-layer pixels differ from trace-cmd report: %s"
              % (len(bad), "; ".join(bad[:6])))
        return 1
    print("ok - --freq: %d row columns in the color of the frequency trace-cmd report "
          "gives (%s), unknown hatched; merged halves as plain and --freq"
          % (nr_freq, ", ".join("%d MHz" % (k // 1000) for k in by_khz)))
    if not nr_idle:
        print("skip - --idle-states: no idle stretch wide enough to check (zoom in)")
        return 0
    print("ok - --idle-states: %d idle row columns in the grey of their C-state (%s), "
          "busy pixels unchanged" % (nr_idle, ", ".join("C%d" % s for s in states)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
