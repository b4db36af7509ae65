/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LATENCY_VIEW_H
#define SP_LATENCY_VIEW_H

/*
 * The figure of `schedplot latency`: whole distributions of waits for a
 * CPU, one line per group or trace, on a logarithmic time axis.
 *
 *	CDF   the share of waits at most x long, p50 and p99 marked
 *	CCDF  the share longer than x, on a log axis: the tail
 *	HIST  counts per power-of-two bucket, as runqlat shows them
 *	TIME  a heat map: time in the trace across, wait length up (log2
 *	      buckets), colour the number of waits: when waits got long
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;
struct sp_theme;

enum sp_latency_plot {
	SP_LATPLOT_CDF,
	SP_LATPLOT_CCDF,
	SP_LATPLOT_HIST,
	SP_LATPLOT_TIME,
};

/* Log2 buckets of a time-by-length histogram (SP_LATPLOT_TIME): 1 ns .. 2^40 ns. */
#define SP_LATPLOT_NR_LOG2 41

struct sp_latency_series {
	const char *name;
	const uint64_t *v;	/* the waits in ns after the nr_narrow first, sorted ascending */
	size_t n;		/* all the waits */
	uint64_t p50, p99;	/* nearest rank, as the text prints them */
	size_t color;		/* palette index */
	bool thin;		/* a single run drawn under its group's line */
	const uint32_t *narrow;	/* the nr_narrow shortest waits, sorted (4 bytes each), or NULL */
	size_t nr_narrow;
};

struct sp_latency_figure {
	const char *title;		/* NULL or "": none */
	enum sp_latency_plot plot;
	const struct sp_latency_series *series;
	size_t nr_series;
	const char *palette;		/* NULL: default */
	bool legend;
	bool pixels;			/* PNG: lines on whole pixels */
	const char *note;		/* under the title, or NULL */
	/* SP_LATPLOT_TIME: counts[col * SP_LATPLOT_NR_LOG2 + bucket] over [t0, t1] */
	const uint32_t *time_hist;
	size_t nr_time_cols;
	uint64_t t0_ns, t1_ns;
	uint64_t origin_ns;		/* time labels count from here */
	/* CDF, CCDF: dashed vertical lines at these lengths, each labelled */
	const uint64_t *marks_ns;
	size_t nr_marks;
};

/**
 * sp_latency_time_cols - columns a heat map of @width gets
 * @width: the image width
 * @pixels: PNG
 *
 * A column is a few units wide, so each is seen.  Return: the count.
 */
size_t sp_latency_time_cols(double width, bool pixels);

/**
 * sp_latency_figure_draw - draw the whole figure on a surface
 * @cr: cairo context of a @width x @height surface
 * @theme: the theme
 * @fig: what to draw; series without waits are left out of the plot
 * @width: the surface width
 * @height: the surface height
 *
 * Return: 0, -ERANGE when the surface is too small for its labels, or
 * -EINVAL when no series holds a wait.
 */
int sp_latency_figure_draw(struct _cairo *cr, const struct sp_theme *theme,
			   const struct sp_latency_figure *fig, double width, double height);

/**
 * sp_latency_cdf_at - the share of @s's waits at most @v long
 * @s: the series
 * @v: a length in ns
 *
 * Return: 0..1 (0 without waits).
 */
double sp_latency_cdf_at(const struct sp_latency_series *s, double v);

#endif /* SP_LATENCY_VIEW_H */
