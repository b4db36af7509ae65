/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_COMPARE_VIEW_H
#define SP_COMPARE_VIEW_H

/*
 * The figure of `schedplot compare`: two groups of runs, before and after
 * a change, in up to three panels stacked from the top:
 *
 *	runs	every run a dot, sorted by the metric within its group, the
 *		group's median as a line over the band of its interval,
 *		median and CV written above
 *	CDF	the wait distributions (views/latency.h): each group's runs
 *		pooled in a thick line, each run a thin one in its colour
 *	shift	B - A at each decile with its bootstrap interval
 *
 * Panels without data (no waits, no shift function) are left out.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;
struct sp_datagraph;
struct sp_envelope;
struct sp_crossing;
struct sp_shift;
struct sp_theme;

/* One group. */
struct sp_compare_runs {
	const char *name;
	double *values;			/* the metric of each run, in the axis' unit */
	size_t nr_runs;
	const uint64_t **waits;		/* nr_waits_runs runs' waits in ns, sorted */
	size_t *nr_waits;
	size_t nr_waits_runs;
	const char **labels;		/* the ridgeline's name of each run, or NULL */
	double median;			/* in the axis' unit */
	double ci_lo, ci_hi;		/* its interval; NaN for none (a band when known) */
	double cv;			/* sd / mean, NaN when unknown */
};

/* What the figure shows: the page of three panels, or one view alone. */
enum sp_compare_view {
	SP_COMPARE_VIEW_PAGE,		/* runs, CDF and shift function */
	SP_COMPARE_VIEW_RUNS,
	SP_COMPARE_VIEW_CDF,
	SP_COMPARE_VIEW_SHIFT,
	SP_COMPARE_VIEW_RIDGELINE,	/* one row per run: its waits' histogram */
	SP_COMPARE_VIEW_DATAGRAPH,	/* every run's datagraph, one time scale */
	SP_COMPARE_VIEW_RUNNING_WAITING,	/* every run's running-waiting graph */
};

struct sp_compare_figure {
	enum sp_compare_view view;
	const char *title;		/* NULL or "": none */
	const char *y_title;		/* the runs panel's axis: "duration (s)" */
	const struct sp_compare_runs *groups;	/* two */
	const struct sp_shift *shift;	/* NULL: no shift panel */
	double shift_scale;		/* shift values are multiplied by it ... */
	const char *shift_title;	/* ... for this axis title */
	bool shift_ns;			/* deciles are ns: x is A's decile, log */
	const struct sp_crossing *crossings;	/* where the pooled CDFs cross: */
	size_t nr_crossings;			/* marked on the CDF panel */
	bool pixels;			/* PNG: lines on whole pixels */
	/*
	 * SP_COMPARE_VIEW_DATAGRAPH or _RUNNING_WAITING: the first group's
	 * runs, then the second's, each over the same length of time from its
	 * own start; graphs or envelopes (of sp_compare_graphs_cols() columns)
	 */
	const struct sp_datagraph *const *graphs;
	const struct sp_envelope *const *envelopes;
	const char *const *graph_labels;	/* "group  file" */
	size_t nr_graphs;
	/*
	 * _RUNNING_WAITING: where each run settled, ns from its start (0:
	 * from the start), marked with a dashed line; NULL: none
	 */
	const uint64_t *warmup_ns;
};

/**
 * sp_compare_graphs_cols - envelope columns for --view running-waiting
 * @cr: cairo context of the output (to measure the y axis' labels)
 * @theme: the theme
 * @pixels: PNG
 * @width: the surface width
 *
 * Return: the columns of every envelope: one per pixel of the plot (two
 * per point for PDF and SVG), as sp_compare_figure_draw() lays it out.
 */
size_t sp_compare_graphs_cols(struct _cairo *cr, const struct sp_theme *theme, bool pixels,
			      double width);

/* Where the shift panel puts one decile: its point and its interval. */
struct sp_compare_shift_point {
	double x, y;		/* the point: A's decile, B - A */
	double y_lo, y_hi;	/* the ends of its interval's bar */
	double y_zero;		/* the zero line */
};

/**
 * sp_compare_shift_points - where --view shift draws each decile
 * @cr: cairo context of a @width x @height surface (to measure text)
 * @theme: the theme
 * @fig: what to draw; its shift function
 * @width: the surface width
 * @height: the surface height
 * @pts: out: one per decile, in surface coordinates
 *
 * x is A's decile on a log axis (when @fig->shift_ns and all are above 0,
 * else the decile's number), y the difference on a signed log scale:
 * sign(v) log10(1 + |v| / L), L the decade at or below the smallest
 * difference or interval end that is not 0, and at least 10^-4 of the
 * largest, so a few µs and several ms both read.
 *
 * Return: 0, -EINVAL without a shift function, -ERANGE when too small.
 */
int sp_compare_shift_points(struct _cairo *cr, const struct sp_theme *theme,
			    const struct sp_compare_figure *fig, double width, double height,
			    struct sp_compare_shift_point *pts);

/**
 * sp_compare_figure_draw - draw the whole figure on a surface
 * @cr: cairo context of a @width x @height surface
 * @theme: the theme
 * @fig: what to draw
 * @width: the surface width
 * @height: the surface height
 *
 * Return: 0, -ERANGE when the surface is too small for its labels,
 * -EINVAL when a group has no run, the view needs waits (cdf, ridgeline),
 * a shift function or datagraphs that @fig lacks, or -ENOMEM.
 */
int sp_compare_figure_draw(struct _cairo *cr, const struct sp_theme *theme,
			   const struct sp_compare_figure *fig, double width, double height);

#endif /* SP_COMPARE_VIEW_H */
