/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_COLORBAR_H
#define SP_COLORBAR_H

/*
 * Color bars: the continuous scale of a quantity, drawn as a horizontal
 * gradient from its least to its most value under a title, with round
 * ticks labelled in the title's unit below it, its two end values where
 * they do not crowd a tick's label and, beside it, a swatch for "unknown".  The gradient is vector (a cairo linear gradient) in
 * PDF and SVG.  Its colors come from the picture's own color function,
 * sampled at SP_COLORBAR_STOPS + 1 evenly spaced stops, so a value's
 * color on the bar is its color in the picture.  A legend (legend.h)
 * puts its bar above its entries.
 */

#include <stdbool.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/palette.h"

struct _cairo;
struct sp_theme;

/* Gradient stops of a bar, evenly spaced: a smooth scale is exact at them
 * and off by well under one level of 255 between them. */
#define SP_COLORBAR_STOPS 64

struct sp_colorbar {
	const char *title;		/* with the unit: "CPU frequency (MHz)" */
	double lo, hi;			/* the values at the bar's ends; lo < hi, */
					/* else only the title and unknown swatch */
	/* the color of value @v: the function the picture is drawn with */
	void (*color)(const void *data, double v, struct sp_rgb *c);
	const void *data;
	const char *unknown_label;	/* NULL: no unknown swatch */
	/* sets the source the unknown swatch is filled with (a hatch); */
	/* NULL: the theme's no-data grey */
	void (*unknown_fill)(struct _cairo *cr, const struct sp_theme *theme);
};

struct sp_colorbar_ticks {
	unsigned int nr_ticks;
	double value[SP_MAX_TICKS];
	char label[SP_MAX_TICKS][24];
	double step;			/* 1, 2 or 5 x 10^k */
	int decimals;			/* the labels' (as many as the step needs) */
};

/**
 * sp_colorbar_ticks_compute - round ticks inside a value range
 * @t: result
 * @lo: the least value
 * @hi: the most value, > @lo
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 *
 * The step is the smallest 1-2-5 x 10^k giving at most @max_ticks
 * multiples of it inside [@lo, @hi]; the ticks are those multiples.
 * Labels print the value with as many decimals as the step needs ("600",
 * "1500", "2.5").
 *
 * Return: 0, or -EINVAL for an empty range or bad arguments.
 */
int sp_colorbar_ticks_compute(struct sp_colorbar_ticks *t, double lo, double hi,
			      unsigned int max_ticks);

/* What the scale under a bar says: its round ticks, then its ends' values. */
struct sp_colorbar_scale {
	struct sp_colorbar_ticks ticks;
	unsigned int nr_ends;		/* ends labelled: 0, 1 or 2 */
	double end_value[2];		/* lo first */
	char end_label[2][24];		/* printed as the ticks are */
};

/**
 * sp_colorbar_scale - the labels under a bar of a width
 * @cr: cairo context (for measuring, in the bar's font)
 * @theme: the theme
 * @bar: the bar, lo < hi
 * @bar_w: the gradient's width
 * @sc: result
 *
 * The most round ticks (sp_colorbar_ticks_compute()) whose labels stand a
 * space and a half apart; then each end's value, unless it is a tick's or
 * its label would come within a space and a half of the nearest tick's,
 * so that the reader sees the range the colors span.
 */
void sp_colorbar_scale(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_colorbar *bar, double bar_w, struct sp_colorbar_scale *sc);

/**
 * sp_colorbar_height - the height a bar takes, title and labels included
 * @cr: cairo context (for measuring)
 * @theme: the theme
 *
 * Return: the height, the same for every bar of a theme.
 */
double sp_colorbar_height(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_colorbar_width - the width a bar wants
 * @cr: cairo context (for measuring)
 * @theme: the theme
 * @bar: the bar
 * @avail_w: the width there is
 *
 * Return: the width, at most @avail_w unless even a short bar does not fit.
 */
double sp_colorbar_width(struct _cairo *cr, const struct sp_theme *theme,
			 const struct sp_colorbar *bar, double avail_w);

/**
 * sp_colorbar_draw - draw a bar at the top left of a rectangle
 * @cr: cairo context
 * @theme: the theme
 * @bar: the bar
 * @area: where; sp_colorbar_height() of it is used, its width as far as
 *	  the bar wants (sp_colorbar_width())
 *
 * On image surfaces the bar's edges and ticks fall on whole pixels.
 */
void sp_colorbar_draw(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_colorbar *bar, const struct sp_rect *area);

#endif /* SP_COLORBAR_H */
