// SPDX-License-Identifier: GPL-2.0-only
/*
 * The default theme.  See include/schedplot/draw/theme.h for the contract.
 */
#include <math.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/theme.h"

void sp_theme_init(struct sp_theme *theme, double font_size)
{
	double f;

	if (!(font_size > 0))
		font_size = SP_THEME_FONT_SIZE;
	if (font_size < SP_THEME_MIN_FONT_SIZE)
		font_size = SP_THEME_MIN_FONT_SIZE;
	if (font_size > SP_THEME_MAX_FONT_SIZE)
		font_size = SP_THEME_MAX_FONT_SIZE;
	f = font_size / SP_THEME_FONT_SIZE;

	memset(theme, 0, sizeof(*theme));
	theme->font_family = SP_THEME_FONT_FAMILY;
	theme->font_size = font_size;
	theme->title_font_size = font_size * 1.3;
	theme->axis_line_width = fmax(1.0, round(f));
	theme->grid_line_width = fmax(1.0, round(f));
	theme->data_line_width = fmax(1.5, 1.5 * f);
	theme->tick_len = 4.0 * f;
	theme->pad = 3.0 * f;
	theme->margin = 10.0 * f;
	theme->swatch = 0.9 * font_size;
	theme->background = (struct sp_rgb){ 1, 1, 1 };
	theme->axis = (struct sp_rgb){ 0.15, 0.15, 0.15 };
	theme->grid = (struct sp_rgb){ 0.85, 0.85, 0.85 };
	theme->text = (struct sp_rgb){ 0.1, 0.1, 0.1 };
	theme->idle = (struct sp_rgb){ 1, 1, 1 };
	theme->no_data = (struct sp_rgb){ 0.8, 0.8, 0.8 };
	theme->other = (struct sp_rgb){ 0, 0, 0 };
}

void sp_render_set_color(cairo_t *cr, const struct sp_rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}
