/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_THEME_H
#define SP_THEME_H

#include <stdbool.h>

/*
 * The one theme table of every view: fonts, line widths, paddings and
 * colors, all in user units (pixels for PNG, points for PDF/SVG).
 */

#include "schedplot/draw/palette.h"

struct _cairo;

/* The one theme table: every size in user units. */
struct sp_theme {
	const char *font_family;
	double font_size;		/* tick labels, legend, row labels */
	double title_font_size;		/* the image title */
	double axis_line_width;		/* plot frame and ticks */
	double grid_line_width;
	double data_line_width;		/* step lines and the like */
	double tick_len;
	double pad;			/* gap between text and lines */
	double margin;			/* around the whole image */
	double swatch;			/* legend color square */
	struct sp_rgb background;
	struct sp_rgb axis;
	struct sp_rgb grid;
	struct sp_rgb text;
	struct sp_rgb idle;		/* white: the core ran nothing */
	struct sp_rgb no_data;		/* grey: nothing is known, hatched (sp_render_no_data()) */
	struct sp_rgb no_data_line;	/* the hatch's lines on it */
	struct sp_rgb other;		/* black: tasks not singled out */
};

#define SP_THEME_FONT_FAMILY	"DejaVu Sans"
#define SP_THEME_FONT_SIZE	11.0
#define SP_THEME_MIN_FONT_SIZE	4.0
#define SP_THEME_MAX_FONT_SIZE	72.0

/**
 * sp_theme_init - fill in the default theme
 * @theme: the theme
 * @font_size: base font size in user units (e.g. from --font-size), or 0 for
 *	       SP_THEME_FONT_SIZE; sizes outside SP_THEME_MIN/MAX_FONT_SIZE are
 *	       clamped.  Paddings, tick lengths and line widths scale with it.
 */
void sp_theme_init(struct sp_theme *theme, double font_size);

/**
 * sp_render_set_color - make @c the cairo source color
 * @cr: cairo context
 * @c: the color
 */
void sp_render_set_color(struct _cairo *cr, const struct sp_rgb *c);

/**
 * sp_render_is_image - whether @cr draws into pixels (PNG), not vectors
 * @cr: cairo context
 *
 * Raster output snaps edges to whole pixels and samples patterns nearest.
 */
bool sp_render_is_image(struct _cairo *cr);

/**
 * sp_render_hatch - a repeating pattern of diagonal lines on a ground
 * @ground: the color between the lines
 * @line: the lines' color
 * @line_width: their width, in the tile's 4x pixels
 * @period: the tile's side, in pixels (or points)
 * @image: for a raster surface (nearest-pixel filter), else for vector output
 *
 * The tile is drawn at 4x and scaled down, so the lines stay thin in vector
 * output.  Return: the pattern (the caller destroys it).
 */
struct _cairo_pattern *sp_render_hatch(const struct sp_rgb *ground, const struct sp_rgb *line,
				       double line_width, int period, bool image);

/**
 * sp_render_no_data - the pattern of time nothing is known of ("no data")
 * @theme: the theme (its no_data ground and no_data_line lines)
 * @image: for a raster surface (nearest-pixel filter), else for vector output
 *
 * The rows of a datagraph and the legend's key show the same.
 * Return: as sp_render_hatch().
 */
struct _cairo_pattern *sp_render_no_data(const struct sp_theme *theme, bool image);

#endif /* SP_THEME_H */
