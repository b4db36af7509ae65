/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LOGAXIS_H
#define SP_LOGAXIS_H

/*
 * Logarithmic axes in whole decades: durations from nanoseconds to
 * seconds on x ("1 µs", "10 µs", ...), probabilities on y ("100%", "10%",
 * "1%", ...).  Major ticks and labels at decades, minor ticks at 2..9.
 */

#include <stdbool.h>

#include "schedplot/draw/layout.h"

struct _cairo;
struct sp_theme;

enum sp_log_unit {
	SP_LOG_NS,		/* values are nanoseconds */
	SP_LOG_FRACTION,	/* values are fractions, labelled in % */
};

struct sp_log_axis {
	int lo, hi;		/* the ends: 10^lo .. 10^hi, lo < hi */
	enum sp_log_unit unit;
};

/**
 * sp_log_axis_fit - the whole decades around [@min, @max]
 * @a: result
 * @min: the smallest value to show, > 0
 * @max: the largest, >= @min
 * @unit: what the values are
 *
 * Return: 0, or -EINVAL for values that are not positive.
 */
int sp_log_axis_fit(struct sp_log_axis *a, double min, double max, enum sp_log_unit unit);

/**
 * sp_log_axis_frac - where @v lies along the axis
 * @a: the axis
 * @v: a value; at or below 10^lo gives 0, at or above 10^hi gives 1
 *
 * Return: 0..1.
 */
double sp_log_axis_frac(const struct sp_log_axis *a, double v);

/**
 * sp_log_axis_value - the value at a place along the axis
 * @a: the axis
 * @frac: 0..1
 *
 * Return: 10^(lo + frac * (hi - lo)).
 */
double sp_log_axis_value(const struct sp_log_axis *a, double frac);

/**
 * sp_log_label - the label of decade 10^@k
 * @buf: room for it
 * @len: its size
 * @k: the decade
 * @unit: what the values are
 *
 * Return: @buf ("100 µs", "1 s", "0.1%").
 */
char *sp_log_label(char *buf, unsigned long len, int k, enum sp_log_unit unit);

/**
 * sp_log_axis_label_width - the widest decade label
 * @cr: cairo context
 * @theme: the theme
 * @a: the axis
 *
 * Return: the width in the theme font, to size the room for a y axis.
 */
double sp_log_axis_label_width(struct _cairo *cr, const struct sp_theme *theme,
			       const struct sp_log_axis *a);

/**
 * sp_log_axis_draw_x - ticks, decade labels and a title under a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot; 10^lo at its left edge
 * @a: the axis
 * @title: drawn under the labels, or NULL
 * @grid: grid lines through the plot at decades
 */
void sp_log_axis_draw_x(struct _cairo *cr, const struct sp_theme *theme,
			const struct sp_rect *plot, const struct sp_log_axis *a,
			const char *title, bool grid);

/**
 * sp_log_axis_draw_y - ticks, decade labels and a title left of a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot; 10^hi at its top edge
 * @a: the axis
 * @title: drawn vertically, or NULL
 * @grid: grid lines through the plot at decades
 */
void sp_log_axis_draw_y(struct _cairo *cr, const struct sp_theme *theme,
			const struct sp_rect *plot, const struct sp_log_axis *a,
			const char *title, bool grid);

#endif /* SP_LOGAXIS_H */
