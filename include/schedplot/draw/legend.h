/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LEGEND_H
#define SP_LEGEND_H

/*
 * Legends of color swatches and labels, arranged in columns; what does not
 * fit becomes one "+N more" line.
 */

#include <stdbool.h>
#include <stddef.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/palette.h"

struct _cairo;
struct sp_colorbar;
struct sp_theme;

struct sp_legend_entry {
	struct sp_rgb color;
	const char *label;
	/*
	 * NULL: a square of @color.  Else it draws the entry's sample (a
	 * mark's shape, a line's dashes) centered at (@x, @y) in a square of
	 * side @size, so that the legend shows what the picture shows.
	 */
	void (*sample)(struct _cairo *cr, const struct sp_legend_entry *e, double x, double y,
		       double size);
	int style;			/* for @sample: which shape or line */
	bool no_data;			/* a square of the theme's no-data hatch, not @color */
};

struct sp_legend {
	const struct sp_legend_entry *entries;
	size_t nr_entries;
	size_t nr_more;			/* items not in @entries: "+N more" */
	const char *title;		/* NULL: none */
	const struct sp_colorbar *bar;	/* drawn above the rest, or NULL */
};

/* How a legend's entries are arranged in its rectangle. */
struct sp_legend_grid {
	size_t nr_cols;
	size_t nr_rows;
	size_t nr_shown;		/* entries drawn; the rest join "+N more" */
	bool more_line;			/* the last line says "+N more" */
	double col_w;
	double row_h;
};

/* Longest label width a legend column is given before labels are cut. */
#define SP_LEGEND_MAX_LABEL_EM 14.0

/**
 * sp_legend_grid_compute - arrange legend entries in columns
 * @g: result
 * @theme: the theme
 * @nr_entries: entries to place
 * @nr_more: entries beyond them, only counted
 * @label_w: the widest label (capped at SP_LEGEND_MAX_LABEL_EM font sizes)
 * @area: the legend rectangle (after its title, if any)
 *
 * Columns are filled top to bottom.  When not all entries fit, the last
 * line becomes "+N more" for what was left out.
 */
void sp_legend_grid_compute(struct sp_legend_grid *g, const struct sp_theme *theme,
			    size_t nr_entries, size_t nr_more, double label_w,
			    const struct sp_rect *area);

/**
 * sp_legend_size - the size a legend would like
 * @cr: cairo context
 * @theme: the theme
 * @legend: the legend
 * @place: SP_LEGEND_RIGHT: @avail is the height and the width is returned;
 *	   SP_LEGEND_BELOW: @avail is the width and the height is returned
 * @avail: the other dimension
 *
 * A color bar (colorbar.h) comes first, the title and entries under it.
 *
 * Return: the wanted width (RIGHT) or height (BELOW); 0 for no entries
 * and no bar.
 */
double sp_legend_size(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_legend *legend, enum sp_legend_place place, double avail);

/**
 * sp_legend_bar_sample - a legend entry's sample: a bar, as a row's spans are drawn
 * @cr: cairo context
 * @e: the entry: its color, and in @style the bar's thickness in hundredths
 *     of the square's side (0: 40)
 * @x: the square's center
 * @y: the square's center
 * @size: the square's side
 */
void sp_legend_bar_sample(struct _cairo *cr, const struct sp_legend_entry *e, double x, double y,
			  double size);

/**
 * sp_legend_draw - draw a legend in a rectangle
 * @cr: cairo context
 * @theme: the theme
 * @legend: the legend
 * @area: where (usually sp_layout.legend)
 *
 * Labels that do not fit their column end in an ellipsis.
 */
void sp_legend_draw(struct _cairo *cr, const struct sp_theme *theme,
		    const struct sp_legend *legend, const struct sp_rect *area);

#endif /* SP_LEGEND_H */
