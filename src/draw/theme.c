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
	theme->no_data_line = (struct sp_rgb){ 0.62, 0.62, 0.62 };
	theme->other = (struct sp_rgb){ 0, 0, 0 };
}

bool sp_render_is_image(cairo_t *cr)
{
	return cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE;
}

void sp_render_set_color(cairo_t *cr, const struct sp_rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}

cairo_pattern_t *sp_render_hatch(const struct sp_rgb *ground, const struct sp_rgb *line,
				 double line_width, int period, bool image)
{
	int side = period * 4;
	cairo_surface_t *s;
	cairo_pattern_t *pat;
	cairo_t *c;
	cairo_matrix_t mat;

	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, side, side);
	c = cairo_create(s);
	sp_render_set_color(c, ground);
	cairo_paint(c);
	sp_render_set_color(c, line);
	cairo_set_line_width(c, line_width);
	for (int k = -1; k <= 1; k++) {
		cairo_move_to(c, k * side, side);
		cairo_line_to(c, k * side + side, 0);
	}
	cairo_stroke(c);
	cairo_destroy(c);
	pat = cairo_pattern_create_for_surface(s);
	cairo_surface_destroy(s);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
	cairo_pattern_set_filter(pat, image ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
	cairo_matrix_init_scale(&mat, 4, 4);
	cairo_pattern_set_matrix(pat, &mat);
	return pat;
}

cairo_pattern_t *sp_render_no_data(const struct sp_theme *theme, bool image)
{
	/* lines a pixel wide, every 6 pixels: seen in a legend's swatch too */
	return sp_render_hatch(&theme->no_data, &theme->no_data_line, 4, 6, image);
}
