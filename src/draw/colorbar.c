// SPDX-License-Identifier: GPL-2.0-only
/*
 * Color bars.  See include/schedplot/draw/colorbar.h for the contracts.
 *
 *	CPU frequency (MHz)			<- title row
 *	  [==========gradient==========]   [////] unknown
 *	      |        |        |		<- ticks on round values
 *	 437 500      600      700     761	<- and the ends' values
 *	^ inset: half a label, so the end labels stay inside the area
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/colorbar.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

/* The most ticks a bar gets, however long: a scale, not a ruler. */
#define MAX_BAR_TICKS 10
/* The title's row, in font sizes (as a legend's); the bar's height, in swatches */
#define TITLE_ROW_EM 1.45
#define BAR_SWATCHES 1.3
/* Between the bar and the unknown swatch, in font sizes */
#define UNKNOWN_GAP_EM 1.5

int sp_colorbar_ticks_compute(struct sp_colorbar_ticks *t, double lo, double hi,
			      unsigned int max_ticks)
{
	static const double mant[3] = { 1, 2, 5 };
	double range = hi - lo, dec;

	memset(t, 0, sizeof(*t));
	if (!(range > 0) || !isfinite(range) || max_ticks < 2 || max_ticks > SP_MAX_TICKS)
		return -EINVAL;
	/* from steps far below the range up: the first with few enough ticks */
	for (dec = pow(10, floor(log10(range)) - 3); dec < range * 100; dec *= 10) {
		for (int m = 0; m < 3; m++) {
			double step = mant[m] * dec;
			double k0 = ceil(lo / step - 1e-9), k1 = floor(hi / step + 1e-9);
			int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

			if (k1 - k0 + 1 > max_ticks)
				continue;
			t->step = step;
			t->decimals = decimals;
			for (double k = k0; k <= k1; k++) {
				double v = k * step;

				t->value[t->nr_ticks] = v;
				/* v == 0: no "-0" */
				snprintf(t->label[t->nr_ticks], sizeof(t->label[0]), "%.*f",
					 decimals, v == 0 ? 0.0 : v);
				t->nr_ticks++;
			}
			return 0;
		}
	}
	return -EINVAL;
}

struct geom {
	double row_h;			/* the title's */
	double inset;			/* left of the bar, for the first label */
	double x, y, w, h;		/* the gradient; w == 0: none */
	double ux, uw;			/* the unknown swatch; uw == 0: none */
	double width;			/* all of it */
};

static bool has_range(const struct sp_colorbar *bar)
{
	return bar->hi > bar->lo && isfinite(bar->hi - bar->lo);
}

static void geom_compute(cairo_t *cr, const struct sp_theme *theme, const struct sp_colorbar *bar,
			 const struct sp_rect *area, bool image, struct geom *g)
{
	double em = theme->font_size, unknown_w = 0, want;
	char buf[32];

	memset(g, 0, sizeof(*g));
	sp_render_font(cr, theme, theme->font_size, false);
	g->row_h = em * TITLE_ROW_EM;
	g->y = area->y + g->row_h;
	g->h = theme->swatch * BAR_SWATCHES;
	if (bar->unknown_label) {
		g->uw = 2 * theme->swatch;
		unknown_w = UNKNOWN_GAP_EM * em + g->uw + theme->pad +
			    sp_text_width(cr, bar->unknown_label);
	}
	if (has_range(bar)) {
		snprintf(buf, sizeof(buf), "%.0f", fmax(fabs(bar->lo), fabs(bar->hi)));
		g->inset = sp_text_width(cr, buf) / 2;
		want = fmin(32 * em, fmax(18 * em, 0.35 * area->w));
		g->w = fmax(4 * em, fmin(want, area->w - 2 * g->inset - unknown_w));
	}
	g->x = area->x + g->inset;
	if (image) {
		g->x = round(g->x);
		g->y = round(g->y);
		g->w = round(g->w);
		g->h = round(g->h);
	}
	g->ux = g->w > 0 ? g->x + g->w + g->inset + UNKNOWN_GAP_EM * em : area->x;
	g->width = g->w > 0 ? 2 * g->inset + g->w + unknown_w :
			      fmax(0, unknown_w - UNKNOWN_GAP_EM * em);
}

double sp_colorbar_height(cairo_t *cr, const struct sp_theme *theme)
{
	double h;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	h = theme->font_size * TITLE_ROW_EM + theme->swatch * BAR_SWATCHES + theme->tick_len +
	    theme->pad + sp_text_height(cr);
	cairo_restore(cr);
	return ceil(h);
}

double sp_colorbar_width(cairo_t *cr, const struct sp_theme *theme, const struct sp_colorbar *bar,
			 double avail_w)
{
	struct sp_rect area = { 0, 0, avail_w, 0 };
	struct geom g;
	double title_w;

	cairo_save(cr);
	geom_compute(cr, theme, bar, &area, false, &g);
	sp_render_font(cr, theme, theme->font_size, true);
	title_w = bar->title ? sp_text_width(cr, bar->title) : 0;
	cairo_restore(cr);
	return fmax(g.width, title_w);
}

/* The most ticks whose labels, a space and a half apart, fit along the bar. */
static void fit_ticks(cairo_t *cr, const struct sp_theme *theme, const struct sp_colorbar *bar,
		      double bar_w, struct sp_colorbar_ticks *t)
{
	for (unsigned int m = MAX_BAR_TICKS; m >= 2; m--) {
		double widest = 0;

		if (sp_colorbar_ticks_compute(t, bar->lo, bar->hi, m))
			break;
		for (unsigned int i = 0; i < t->nr_ticks; i++)
			widest = fmax(widest, sp_text_width(cr, t->label[i]));
		if (t->nr_ticks < 2 ||
		    bar_w * t->step / (bar->hi - bar->lo) >= widest + 1.5 * theme->font_size)
			return;
	}
}

void sp_colorbar_scale(cairo_t *cr, const struct sp_theme *theme, const struct sp_colorbar *bar,
		       double bar_w, struct sp_colorbar_scale *sc)
{
	const struct sp_colorbar_ticks *t = &sc->ticks;
	double per_value = bar_w / (bar->hi - bar->lo);

	memset(sc, 0, sizeof(*sc));
	fit_ticks(cr, theme, bar, bar_w, &sc->ticks);
	for (int end = 0; end < 2; end++) {
		double v = end ? bar->hi : bar->lo, room = INFINITY;
		char label[24];
		bool crowded = false;

		snprintf(label, sizeof(label), "%.*f", t->decimals, v == 0 ? 0.0 : v);
		for (unsigned int i = 0; i < t->nr_ticks; i++) {
			double gap = fabs(t->value[i] - v) * per_value -
				     (sp_text_width(cr, label) + sp_text_width(cr, t->label[i])) / 2;

			crowded |= !strcmp(label, t->label[i]);
			room = fmin(room, gap);
		}
		if (crowded || room < 1.5 * theme->font_size)
			continue;
		sc->end_value[sc->nr_ends] = v;
		memcpy(sc->end_label[sc->nr_ends], label, sizeof(label));
		sc->nr_ends++;
	}
}

static void draw_gradient(cairo_t *cr, const struct sp_theme *theme,
			  const struct sp_colorbar *bar, const struct geom *g, bool image)
{
	cairo_pattern_t *grad = cairo_pattern_create_linear(g->x, 0, g->x + g->w, 0);
	const struct sp_colorbar_ticks *t;
	struct sp_colorbar_scale sc;
	struct sp_rgb c;
	double lw = theme->axis_line_width;

	for (int i = 0; i <= SP_COLORBAR_STOPS; i++) {
		double f = (double)i / SP_COLORBAR_STOPS;

		bar->color(bar->data, bar->lo + f * (bar->hi - bar->lo), &c);
		cairo_pattern_add_color_stop_rgb(grad, f, c.r, c.g, c.b);
	}
	cairo_set_source(cr, grad);
	cairo_rectangle(cr, g->x, g->y, g->w, g->h);
	cairo_fill(cr);
	cairo_pattern_destroy(grad);

	sp_colorbar_scale(cr, theme, bar, g->w, &sc);
	t = &sc.ticks;
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, lw);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		double x = g->x + (t->value[i] - bar->lo) / (bar->hi - bar->lo) * g->w;

		/* a 1-pixel line is sharp on a pixel's centre */
		if (image)
			x = fmod(lw, 2) ? floor(x) + 0.5 : round(x);
		cairo_move_to(cr, x, g->y + g->h);
		cairo_line_to(cr, x, g->y + g->h + theme->tick_len);
		cairo_stroke(cr);
	}
	sp_render_set_color(cr, &theme->text);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		double x = g->x + (t->value[i] - bar->lo) / (bar->hi - bar->lo) * g->w;

		sp_text_draw(cr, x, g->y + g->h + theme->tick_len + theme->pad / 2,
			     SP_ALIGN_CENTER | SP_ALIGN_TOP, t->label[i]);
	}
	/* the ends, under the bar's edges, after the ticks' labels */
	for (unsigned int i = 0; i < sc.nr_ends; i++)
		sp_text_draw(cr, sc.end_value[i] == bar->lo ? g->x : g->x + g->w,
			     g->y + g->h + theme->tick_len + theme->pad / 2,
			     SP_ALIGN_CENTER | SP_ALIGN_TOP, sc.end_label[i]);
}

/* An outline, so the light end and a pale swatch show on white. */
static void outline(cairo_t *cr, const struct sp_theme *theme, double x, double y, double w,
		    double h)
{
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, 0.5);
	cairo_rectangle(cr, x, y, w, h);
	cairo_stroke(cr);
}

void sp_colorbar_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_colorbar *bar,
		      const struct sp_rect *area)
{
	bool image = sp_render_is_image(cr);
	char buf[512];
	struct geom g;

	cairo_save(cr);
	geom_compute(cr, theme, bar, area, image, &g);
	if (bar->title) {
		sp_render_font(cr, theme, theme->font_size, true);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), bar->title, area->w);
		sp_text_draw(cr, area->x, area->y + g.row_h / 2, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE,
			     buf);
		sp_render_font(cr, theme, theme->font_size, false);
	}
	if (g.w > 0) {
		draw_gradient(cr, theme, bar, &g, image);
		outline(cr, theme, g.x, g.y, g.w, g.h);
	}
	if (g.uw > 0) {
		struct sp_rect sw = { g.ux, g.y, g.uw, g.h };

		if (bar->unknown_fill)
			bar->unknown_fill(cr, theme);
		else
			sp_render_set_color(cr, &theme->no_data);
		cairo_rectangle(cr, sw.x, sw.y, sw.w, sw.h);
		cairo_fill(cr);
		outline(cr, theme, sw.x, sw.y, sw.w, sw.h);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, sw.x + sw.w + theme->pad, sw.y + sw.h / 2,
			     SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, bar->unknown_label);
	}
	cairo_restore(cr);
}
