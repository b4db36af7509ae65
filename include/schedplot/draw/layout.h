/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LAYOUT_H
#define SP_LAYOUT_H

/*
 * Placing the title, the plot and the legend on a surface.  Pure
 * computation from sizes in user units: no cairo context needed, so it
 * can be unit-tested alone.
 */

struct sp_theme;

struct sp_rect {
	double x, y, w, h;
};

enum sp_legend_place {
	SP_LEGEND_NONE,
	SP_LEGEND_RIGHT,
	SP_LEGEND_BELOW,
};

/* What the layout has to make room for, all in user units. */
struct sp_layout_spec {
	double width, height;		/* the surface */
	double margin;			/* around everything */
	double title_h;			/* 0: no title */
	double left_w;			/* y tick labels + y-axis title */
	double bottom_h;		/* x ticks, labels and x-axis title */
	double right_w;			/* room for the last x label's overhang */
	double top_h;			/* room above the plot (top y label) */
	enum sp_legend_place legend;
	double legend_w;		/* wanted legend size: width for RIGHT, */
	double legend_h;		/* height for BELOW */
	double gap;			/* between plot area and legend/title */
};

struct sp_layout {
	struct sp_rect title;		/* w == 0 when there is none */
	struct sp_rect plot;		/* the data area, inside the axes */
	struct sp_rect legend;		/* w == 0 when there is none */
};

/* Smallest plot side sp_layout_compute() accepts. */
#define SP_LAYOUT_MIN_PLOT 16.0

/**
 * sp_layout_spec_init - a spec with the theme's margins and axis sizes
 * @spec: filled in
 * @theme: the theme
 * @width: surface width
 * @height: surface height
 *
 * Sets margin, gap, bottom_h (ticks, one label line and an axis title),
 * right_w and top_h from the font size; left_w, title_h and the legend are
 * left 0/none for the caller.
 */
void sp_layout_spec_init(struct sp_layout_spec *spec, const struct sp_theme *theme,
			 double width, double height);

/**
 * sp_layout_compute - place the title, plot and legend
 * @lay: result
 * @spec: what to make room for
 *
 * The title spans the top; a RIGHT legend takes a column right of the plot
 * (at most 40% of the width), a BELOW legend a band under the x axis (at
 * most 40% of the height), so a legend never covers data.
 *
 * Return: 0, or -ERANGE when the plot would be smaller than
 * SP_LAYOUT_MIN_PLOT on a side (the image is too small for its labels).
 */
int sp_layout_compute(struct sp_layout *lay, const struct sp_layout_spec *spec);

#endif /* SP_LAYOUT_H */
