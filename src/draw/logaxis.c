// SPDX-License-Identifier: GPL-2.0-only
/*
 * Logarithmic axes in whole decades.  See include/schedplot/draw/logaxis.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/logaxis.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

int sp_log_axis_fit(struct sp_log_axis *a, double min, double max, enum sp_log_unit unit)
{
	if (!(min > 0) || !(max >= min) || !isfinite(max))
		return -EINVAL;
	/* a hair of slack, so that 1000 stays in decade 3 despite rounding */
	a->lo = (int)floor(log10(min) + 1e-9);
	a->hi = (int)ceil(log10(max) - 1e-9);
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->unit = unit;
	return 0;
}

double sp_log_axis_frac(const struct sp_log_axis *a, double v)
{
	double f;

	if (!(v > 0))
		return 0;
	f = (log10(v) - a->lo) / (a->hi - a->lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

double sp_log_axis_value(const struct sp_log_axis *a, double frac)
{
	return pow(10, a->lo + frac * (a->hi - a->lo));
}

char *sp_log_label(char *buf, unsigned long len, int k, enum sp_log_unit unit)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };
	static const char *const mult[] = { "1", "10", "100" };

	if (unit == SP_LOG_FRACTION) {
		/* 10^k as a percentage: 10^(k+2) % */
		if (k + 2 >= 0)
			snprintf(buf, len, "%.0f%%", pow(10, k + 2));
		else
			snprintf(buf, len, "%.*f%%", -(k + 2), pow(10, k + 2));
		return buf;
	}
	if (k < 0) {
		snprintf(buf, len, "%g ns", pow(10, k));
	} else if (k >= 12) {
		snprintf(buf, len, "%.0f s", pow(10, k - 9));
	} else {
		snprintf(buf, len, "%s %s", mult[k % 3], units[k / 3]);
	}
	return buf;
}

double sp_log_axis_label_width(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_log_axis *a)
{
	double w = 0;
	char label[32];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (int k = a->lo; k <= a->hi; k++)
		w = fmax(w, sp_text_width(cr, sp_log_label(label, sizeof(label), k, a->unit)));
	cairo_restore(cr);
	return w;
}

/* Calls @fn for every tick, major (decades) and minor (2..9 in each). */
static void each_tick(const struct sp_log_axis *a,
		      void (*fn)(void *data, double frac, int k, bool major), void *data)
{
	for (int k = a->lo; k <= a->hi; k++) {
		fn(data, (double)(k - a->lo) / (a->hi - a->lo), k, true);
		for (int m = 2; m <= 9 && k < a->hi; m++)
			fn(data, (k + log10(m) - a->lo) / (a->hi - a->lo), k, false);
	}
}

struct tick_ctx {
	cairo_t *cr;
	const struct sp_theme *theme;
	const struct sp_rect *plot;
	const struct sp_log_axis *a;
	bool grid;
	double label_w;
};

static void tick_x(void *data, double frac, int k, bool major)
{
	struct tick_ctx *c = data;
	const struct sp_theme *th = c->theme;
	double x = c->plot->x + frac * c->plot->w, y = c->plot->y + c->plot->h;
	double len = major ? th->tick_len : th->tick_len / 2;
	char label[32];

	if (major && c->grid && frac > 0 && frac < 1)
		sp_axis_grid_line(c->cr, th, x, c->plot->y, x, y);
	sp_render_set_color(c->cr, &th->axis);
	cairo_set_line_width(c->cr, th->axis_line_width);
	cairo_move_to(c->cr, x, y);
	cairo_line_to(c->cr, x, y + len);
	cairo_stroke(c->cr);
	if (!major)
		return;
	sp_render_set_color(c->cr, &th->text);
	sp_text_draw(c->cr, x, y + th->tick_len + th->pad, SP_ALIGN_CENTER | SP_ALIGN_TOP,
		     sp_log_label(label, sizeof(label), k, c->a->unit));
}

static void tick_y(void *data, double frac, int k, bool major)
{
	struct tick_ctx *c = data;
	const struct sp_theme *th = c->theme;
	double y = c->plot->y + c->plot->h - frac * c->plot->h;
	char label[32];

	if (major && c->grid && frac > 0 && frac < 1)
		sp_axis_grid_line(c->cr, th, c->plot->x, y, c->plot->x + c->plot->w, y);
	if (major) {
		sp_log_label(label, sizeof(label), k, c->a->unit);
		sp_axis_left_tick(c->cr, th, c->plot, y, label);
		c->label_w = fmax(c->label_w, sp_text_width(c->cr, label));
		return;
	}
	sp_render_set_color(c->cr, &th->axis);
	cairo_set_line_width(c->cr, th->axis_line_width);
	cairo_move_to(c->cr, c->plot->x - th->tick_len / 2, y);
	cairo_line_to(c->cr, c->plot->x, y);
	cairo_stroke(c->cr);
}

/* The axis under the plot (@vertical false) or left of it, with its title. */
static void log_axis_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  const struct sp_log_axis *a, const char *title, bool grid, bool vertical)
{
	struct tick_ctx c = { cr, theme, plot, a, grid, 0 };

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	each_tick(a, vertical ? tick_y : tick_x, &c);
	if (title && vertical) {
		double x = plot->x - theme->tick_len - theme->pad - c.label_w - 2 * theme->pad;

		sp_render_set_color(cr, &theme->text);
		sp_text_draw_vertical(cr, x, plot->y + plot->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM, title);
	} else if (title) {
		double y = plot->y + plot->h + theme->tick_len + 2 * theme->pad + sp_text_height(cr);

		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, plot->x + plot->w / 2, y, SP_ALIGN_CENTER | SP_ALIGN_TOP, title);
	}
	cairo_restore(cr);
}

void sp_log_axis_draw_x(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			const struct sp_log_axis *a, const char *title, bool grid)
{
	log_axis_draw(cr, theme, plot, a, title, grid, false);
}

void sp_log_axis_draw_y(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			const struct sp_log_axis *a, const char *title, bool grid)
{
	log_axis_draw(cr, theme, plot, a, title, grid, true);
}
