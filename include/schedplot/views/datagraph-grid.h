/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATAGRAPH_GRID_H
#define SP_DATAGRAPH_GRID_H

/*
 * Where a chart's timeline columns and CPU rows lie in a plot rectangle
 * (datagraph-grid.c): what the rows, the power layers over them and the
 * figures lined up with them share.
 */

#include <stdbool.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/output.h"

struct _cairo;

/**
 * sp_datagraph_columns - how many timeline columns suit a plot width
 * @cr: where the chart will be drawn
 * @plot_w: the plot width in user units
 *
 * Return: the width in whole pixels for image surfaces (one column per
 * pixel: pixel-exact), twice the width in points for vector surfaces.
 */
unsigned int sp_datagraph_columns(struct _cairo *cr, double plot_w);

/**
 * sp_datagraph_format_columns - sp_datagraph_columns() before the surface exists
 * @format: the output format: PNG is an image surface, PDF and SVG vector ones
 * @plot_w: the plot width in user units
 *
 * Return: what sp_datagraph_columns() returns on a surface of @format.
 */
unsigned int sp_datagraph_format_columns(enum sp_format format, double plot_w);

/**
 * sp_datagraph_row_span - the vertical extent of a row in a plot
 * @plot: the rectangle
 * @nr_rows: rows (row 0 at the bottom)
 * @row: the row
 * @snap: round to whole pixels, as sp_datagraph_draw() does on images
 * @y0: set to its top
 * @y1: set to its bottom
 */
void sp_datagraph_row_span(const struct sp_rect *plot, unsigned int nr_rows, unsigned int row,
			   bool snap, double *y0, double *y1);

/**
 * sp_datagraph_col_x - the left edge of a column in a plot
 * @plot: the rectangle
 * @nr_cols: columns
 * @col: 0..@nr_cols (@nr_cols: the right edge)
 * @snap: round to whole pixels
 *
 * Return: the x coordinate.
 */
double sp_datagraph_col_x(const struct sp_rect *plot, unsigned int nr_cols, unsigned int col,
			  bool snap);

#endif /* SP_DATAGRAPH_GRID_H */
