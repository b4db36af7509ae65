// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph grid: where a chart's columns and rows lie in a plot
 * rectangle, for the rows (datagraph-rows.c), the power layers over them
 * (datagraph-power.c) and the figures that line up with them.
 */
#include <math.h>

#include <cairo.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/datagraph-grid.h"

static unsigned int columns_for(bool image, double plot_w)
{
	double n = image ? floor(plot_w) : ceil(plot_w * 2);

	return n < 1 ? 1 : (unsigned int)n;
}

unsigned int sp_datagraph_columns(cairo_t *cr, double plot_w)
{
	return columns_for(sp_render_is_image(cr), plot_w);
}

unsigned int sp_datagraph_format_columns(enum sp_format format, double plot_w)
{
	return columns_for(format == SP_FORMAT_PNG, plot_w);
}

/* Top edge of row @r (row 0 at the bottom) in a plot; @snap rounds to pixels. */
static double row_top(const struct sp_rect *plot, unsigned int nr_rows, unsigned int r,
		      bool snap)
{
	double y = plot->y + plot->h - (double)(r + 1) * plot->h / nr_rows;

	return snap ? round(y) : y;
}

static double col_x(const struct sp_rect *plot, unsigned int nr_cols, unsigned int c, bool snap)
{
	double x = plot->x + (double)c * plot->w / nr_cols;

	return snap ? round(x) : x;
}

void sp_datagraph_row_span(const struct sp_rect *plot, unsigned int nr_rows, unsigned int row,
			   bool snap, double *y0, double *y1)
{
	*y0 = row_top(plot, nr_rows, row, snap);
	*y1 = row ? row_top(plot, nr_rows, row - 1, snap) : plot->y + plot->h;
}

double sp_datagraph_col_x(const struct sp_rect *plot, unsigned int nr_cols, unsigned int col,
			  bool snap)
{
	return col_x(plot, nr_cols, col, snap);
}
