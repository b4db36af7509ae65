// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts every figure shares around its plots.  See
 * include/schedplot/draw/figure.h for the contracts.
 */
#include <math.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

cairo_t *sp_figure_scratch(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

void sp_figure_background(cairo_t *cr, const struct sp_theme *theme)
{
	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	cairo_restore(cr);
}

bool sp_figure_has_title(const char *title)
{
	return title && title[0];
}

double sp_figure_title_height(cairo_t *cr, const struct sp_theme *theme)
{
	double h;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->title_font_size, true);
	h = sp_text_height(cr);
	cairo_restore(cr);
	return h;
}

void sp_figure_title_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *area,
			  const char *title)
{
	char buf[512];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->title_font_size, true);
	sp_render_set_color(cr, &theme->text);
	sp_text_fit(cr, buf, sizeof(buf), title, area->w);
	sp_text_draw(cr, area->x + area->w / 2, area->y, SP_ALIGN_CENTER | SP_ALIGN_TOP, buf);
	cairo_restore(cr);
}

void sp_figure_snap_x(struct sp_rect *plot)
{
	double x1 = floor(plot->x + plot->w);

	plot->x = ceil(plot->x);
	plot->w = x1 > plot->x ? x1 - plot->x : 0;
}

void sp_figure_snap_y(struct sp_rect *plot)
{
	double y1 = floor(plot->y + plot->h);

	plot->y = ceil(plot->y);
	plot->h = y1 > plot->y ? y1 - plot->y : 0;
}

int sp_figure_time_ticks(struct sp_time_ticks *t, cairo_t *cr, const struct sp_theme *theme,
			 double plot_w, uint64_t t0_ns, uint64_t t1_ns, uint64_t origin_ns)
{
	int ret;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	ret = sp_time_ticks_fit(t, cr, plot_w, t0_ns, t1_ns, origin_ns);
	cairo_restore(cr);
	return ret;
}

double sp_figure_legend_height(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_legend *legend, double avail_w,
			       unsigned int max_lines)
{
	struct sp_legend one = *legend;
	double want, line;

	want = sp_legend_size(cr, theme, legend, SP_LEGEND_BELOW, avail_w);
	/* the height of one line of entries, without the title */
	one.nr_entries = legend->nr_entries ? 1 : 0;
	one.nr_more = 0;
	one.title = NULL;
	line = sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, avail_w);
	return ceil(fmin(want, line * (max_lines + (legend->title ? 1 : 0))));
}
