/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATAGRAPH_MARKS_H
#define SP_DATAGRAPH_MARKS_H

/*
 * Marks drawn over the datagraph's rows, gathered in the same pass by a
 * consumer of their own (analysis/overlay.h); drawn here:
 *
 *   --migrations  each sched_migrate_task: a tick on the row it left and on
 *                 the row it went to, joined by a line; solid at wakeup,
 *                 dashed for load balancing, dotted for NUMA balancing,
 *                 thicker across sockets (analysis/migrations.h);
 *   --wakeups     an arrow from the waker's row, at the wakeup, to the row
 *                 where the woken task next ran, drawn when few enough to
 *                 read (else a note says how many there are);
 *   --placement   each wakeup that left an idle previous CPU: a ring on
 *                 that CPU's row at the wakeup, a line to where it ran;
 *   --events      each record of the events named: a shape on the row of
 *                 its CPU, one shape and color per event; the text of
 *                 ftrace:print as a label when few enough to read.
 *
 * Drawing costs a few
 * cairo operations per pixel's worth of marks, not a few per mark: rings
 * and shapes are stamped (draw/stamp.h), overlapping migration lines and
 * ticks of a class merged.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/overlay.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/draw/legend.h"
#include "schedplot/views/datagraph-power.h"

struct _cairo;
struct sp_datagraph;
struct sp_rect;
struct sp_dg_seg;
struct sp_theme;
struct sp_timeline;

/* legend entries: the classes, across sockets, placement, wakeups, the events, the spans */
#define SP_DG_MARKS_MAX_ENTRIES	(SP_MIG_NR_CLASSES + 3 + SP_OVERLAY_MAX_EVENTS + SP_SPANS_MAX_KINDS)

/* The color of each kind of span, in the datagraph and the tasks chart. */
extern const struct sp_rgb sp_span_color[SP_SPANS_MAX_KINDS];

/**
 * sp_span_bar_draw - a span's bar, in its kind's colour, edged in white
 * @cr: cairo context
 * @x0: its left end
 * @x1: its right end (a pixel right of @x0 at least: a short span still shows)
 * @y: its top
 * @bar: its height; a white edge of a fifth of it above and below, none
 *	 at the ends, so a short span stays its colour
 * @kind: the span's kind, < SP_SPANS_MAX_KINDS
 */
void sp_span_bar_draw(struct _cairo *cr, double x0, double x1, double y, double bar, int kind);

struct sp_dg_marks {
	struct sp_overlay ov;		/* what is drawn: set its settings, then sp_overlay_init() */
	struct sp_spans spans;		/* --span: bars along the rows, under the marks */

	/* private */
	struct sp_dg_seg *segs;		/* drawing: room for two per migration */
	size_t *open_ticks;		/* drawing: per row, its last tick in segs */
	struct sp_legend_entry entries[SP_DG_MARKS_MAX_ENTRIES];
	char labels[SP_DG_MARKS_MAX_ENTRIES][96];
	size_t nr_entries;
};

/**
 * sp_dg_marks_any - whether any mark or span is to be drawn
 * @mk: the marks, planned
 *
 * Return: true when the overlay asked for something or spans are defined.
 */
bool sp_dg_marks_any(const struct sp_dg_marks *mk);

/**
 * sp_dg_marks_finish - finish the overlay (sp_overlay_finish()), label the legend
 * @mk: the marks, after the pass
 *
 * Return: 0, or -ENOMEM (also when the pass ran out of memory).
 */
int sp_dg_marks_finish(struct sp_dg_marks *mk);

/**
 * sp_dg_marks_legend - the legend entries of the marks, counts in their labels
 * @mk: finished marks
 * @n: set to how many
 *
 * Return: the entries (valid while @mk lives).
 */
const struct sp_legend_entry *sp_dg_marks_legend(const struct sp_dg_marks *mk, size_t *n);

/* Legend entries a chart with marks may have: sp_dg_marks_chart_legend()'s @buf. */
#define SP_DG_MARKS_LEGEND_BUF	(64 + SP_DG_POWER_MAX_ENTRIES + SP_DG_MARKS_MAX_ENTRIES)

/**
 * sp_dg_marks_chart_legend - a datagraph's legend with the marks' entries first
 * @mk: finished marks, or NULL (the chart's legend alone)
 * @dg: the chart
 * @legend: filled in; points into @dg and @buf
 * @buf: room for SP_DG_MARKS_LEGEND_BUF entries
 */
void sp_dg_marks_chart_legend(const struct sp_dg_marks *mk, const struct sp_datagraph *dg,
			      struct sp_legend *legend, struct sp_legend_entry *buf);

/**
 * sp_dg_marks_arrows - whether the wakeup arrows are few enough to draw
 * @mk: finished marks
 * @plot_w: the width of the plot they would be drawn in
 *
 * Return: true when, on average, they would be far enough apart to read.
 */
bool sp_dg_marks_arrows(const struct sp_dg_marks *mk, double plot_w);

/**
 * sp_dg_marks_draw - draw the marks over the rows in a plot rectangle
 * @cr: cairo context
 * @theme: the theme
 * @plot: the rectangle of sp_datagraph_draw()
 * @mk: finished marks
 */
void sp_dg_marks_draw(struct _cairo *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_dg_marks *mk);

/**
 * sp_dg_marks_release - free what @mk holds
 * @mk: the marks (zeroed or initialised)
 */
void sp_dg_marks_release(struct sp_dg_marks *mk);

#endif /* SP_DATAGRAPH_MARKS_H */
