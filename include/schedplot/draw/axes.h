/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_AXES_H
#define SP_AXES_H

/*
 * Axes: round time and integer ticks (computed without cairo, so they can
 * be unit-tested alone), and drawing them with the plot frame, row labels
 * and axis titles.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/layout.h"

struct _cairo;
struct sp_theme;

#define SP_MAX_TICKS 32

struct sp_tick {
	uint64_t ts_ns;			/* time ticks: absolute timestamp */
	long long value;		/* integer ticks: the value */
	char label[32];
};

struct sp_time_ticks {
	unsigned int nr_ticks;
	struct sp_tick ticks[SP_MAX_TICKS];
	uint64_t step_ns;		/* 1, 2 or 5 x 10^k */
	const char *unit;		/* "s": labels are seconds */
	char title[64];			/* "time since the trace start (s)" or "trace timestamp (s)" */
};

/**
 * sp_time_ticks_compute - round time ticks for a window
 * @t: result
 * @t0_ns: window start (absolute timestamp)
 * @t1_ns: window end, > @t0_ns
 * @origin_ns: labels show time since this (the trace start), or 0 for
 *	       absolute timestamps; must be <= @t0_ns
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 *
 * The step is the smallest 1-2-5 x 10^k ns giving at most @max_ticks ticks
 * on multiples of the step (counted from @origin_ns) inside [t0, t1].
 * Labels are seconds since @origin_ns with the decimals that name the
 * step and no more ("0.05" for a step of 50 ms, "436.3" for 100 ms, "12"
 * from a step of 1 s up), so consecutive labels always differ.
 *
 * Return: 0, or -EINVAL for an empty window or bad arguments.
 */
int sp_time_ticks_compute(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			  uint64_t origin_ns, unsigned int max_ticks);

/**
 * sp_time_ticks_fit - time ticks whose labels fit a plot width
 * @t: result
 * @cr: cairo context (font as the labels will be drawn)
 * @plot_w: plot width
 * @t0_ns: as for sp_time_ticks_compute()
 * @t1_ns: ditto
 * @origin_ns: ditto
 *
 * Return: as sp_time_ticks_compute().
 */
int sp_time_ticks_fit(struct sp_time_ticks *t, struct _cairo *cr, double plot_w,
		      uint64_t t0_ns, uint64_t t1_ns, uint64_t origin_ns);

/**
 * sp_time_ticks_relative - round time ticks around a moment, labelled from it
 * @t: result
 * @t0_ns: window start (absolute timestamp)
 * @t1_ns: window end, > @t0_ns
 * @origin_ns: the moment labelled 0; may lie anywhere (before, inside or
 *	       after the window): earlier times read negative
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 * @what: names the moment in the title, "the wakeup" for "time since the
 *	  wakeup (ms)"
 *
 * Ticks on multiples of a 1-2-5 x 10^k ns step counted from @origin_ns,
 * labelled in the unit of the step (ns, µs, ms or s: "−0.4", "0",
 * "1.2"), with a true minus sign, and the decimals the step needs.
 *
 * Return: 0, or -EINVAL for an empty window or bad arguments.
 */
int sp_time_ticks_relative(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			   uint64_t origin_ns, unsigned int max_ticks, const char *what);

/**
 * sp_time_ticks_relative_fit - sp_time_ticks_relative() whose labels fit a plot width
 * @t: result
 * @cr: cairo context (font as the labels will be drawn)
 * @plot_w: plot width
 * @t0_ns: as for sp_time_ticks_relative()
 * @t1_ns: ditto
 * @origin_ns: ditto
 * @what: ditto
 *
 * Return: as sp_time_ticks_relative().
 */
int sp_time_ticks_relative_fit(struct sp_time_ticks *t, struct _cairo *cr, double plot_w,
			       uint64_t t0_ns, uint64_t t1_ns, uint64_t origin_ns, const char *what);

/**
 * sp_axis_time_draw - draw time ticks, labels and title under a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 * @t: ticks from sp_time_ticks_compute()
 * @t0_ns: the window drawn across @plot
 * @t1_ns: ditto
 * @grid: also draw vertical grid lines through the plot
 */
void sp_axis_time_draw(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, const struct sp_time_ticks *t,
		       uint64_t t0_ns, uint64_t t1_ns, bool grid);

struct sp_int_ticks {
	unsigned int nr_ticks;
	struct sp_tick ticks[SP_MAX_TICKS];
	long long step;			/* 1, 2 or 5 x 10^k */
	long long top;			/* axis maximum: a multiple of step >= max */
};

/**
 * sp_int_ticks_compute - integer ticks from 0 to a maximum
 * @t: result
 * @max: the largest value to show (< 0 is taken as 0; 0 gives an axis to 1)
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 *
 * Return: 0, or -EINVAL for bad arguments.
 */
int sp_int_ticks_compute(struct sp_int_ticks *t, long long max, unsigned int max_ticks);

/**
 * sp_axis_int_draw - draw an integer y axis left of a plot (0 at the bottom)
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle; @t->top is at its top edge
 * @t: ticks from sp_int_ticks_compute()
 * @title: y-axis title drawn vertically, or NULL
 * @grid: also draw horizontal grid lines through the plot
 */
void sp_axis_int_draw(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_rect *plot, const struct sp_int_ticks *t,
		      const char *title, bool grid);

/**
 * sp_category_label_step - label every k-th row so labels do not overlap
 * @nr_rows: rows in the axis
 * @row_h: height of one row
 * @label_h: height a label needs (text height plus a little air)
 *
 * Return: the smallest k in 1, 2, 4, 8, ... with k * @row_h >= @label_h
 * (at least 1; @nr_rows when even one label per axis does not fit in k
 * rows, so only row 0 is labelled).
 */
unsigned int sp_category_label_step(size_t nr_rows, double row_h, double label_h);

/**
 * sp_axis_rows_draw - label the rows of a plot (row 0 at the top)
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle, split into @nr_rows equal rows
 * @labels: one label per row
 * @nr_rows: number of rows
 * @title: y-axis title drawn vertically, or NULL
 *
 * Every k-th row is labelled (sp_category_label_step()), with a short
 * tick, starting at row 0.
 */
void sp_axis_rows_draw(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, const char *const *labels, size_t nr_rows,
		       const char *title);

/**
 * sp_axis_grid_line - a grid line, in the theme's grid colour and width
 * @cr: the context (its source and line width are left set)
 * @theme: sizes and colors
 * @x0: where the line starts
 * @y0: ditto
 * @x1: where it ends
 * @y1: ditto
 */
void sp_axis_grid_line(struct _cairo *cr, const struct sp_theme *theme, double x0, double y0,
		       double x1, double y1);

/**
 * sp_axis_left_tick - a tick on the left edge of the plot and its label
 * @cr: the context
 * @theme: sizes and colors
 * @plot: the plot area
 * @y: where the tick goes
 * @label: right-aligned before the tick, centred on @y
 */
void sp_axis_left_tick(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, double y, const char *label);

/**
 * sp_axis_frame_draw - draw the frame around a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 */
void sp_axis_frame_draw(struct _cairo *cr, const struct sp_theme *theme,
			const struct sp_rect *plot);

/**
 * sp_axis_label_width - widest of a set of labels in the theme font
 * @cr: cairo context
 * @theme: the theme
 * @labels: the labels (NULL entries are skipped)
 * @nr: how many
 *
 * Return: the width, to size sp_layout_spec.left_w.
 */
double sp_axis_label_width(struct _cairo *cr, const struct sp_theme *theme,
			   const char *const *labels, size_t nr);

/**
 * sp_axis_left_width - room a y axis needs left of the plot
 * @cr: cairo context
 * @theme: the theme
 * @label_w: the widest tick label (sp_axis_label_width())
 * @has_title: a vertical axis title is drawn too
 *
 * Return: the width, for sp_layout_spec.left_w.
 */
double sp_axis_left_width(struct _cairo *cr, const struct sp_theme *theme, double label_w,
			  bool has_title);

#endif /* SP_AXES_H */
