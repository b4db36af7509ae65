// SPDX-License-Identifier: GPL-2.0-only
/*
 * Legends.  See include/schedplot/draw/legend.h for the contracts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/colorbar.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

/* The longest label drawn, in bytes with its NUL (as in text.c). */
#define TEXT_BUF 512

static double legend_row_h(const struct sp_theme *theme)
{
	return theme->font_size * 1.45;
}

static double legend_col_gap(const struct sp_theme *theme)
{
	return theme->font_size;
}

/* Widest label, capped, in the current font. */
static double legend_label_w(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_legend *legend)
{
	double w = 0, cap = SP_LEGEND_MAX_LABEL_EM * theme->font_size;
	char more[48];

	for (size_t i = 0; i < legend->nr_entries; i++)
		w = fmax(w, sp_text_width(cr, legend->entries[i].label));
	if (legend->nr_more) {
		snprintf(more, sizeof(more), "+%zu more", legend->nr_more);
		w = fmax(w, sp_text_width(cr, more) - theme->swatch - theme->pad);
	}
	return fmin(w, cap);
}

void sp_legend_grid_compute(struct sp_legend_grid *g, const struct sp_theme *theme,
			    size_t nr_entries, size_t nr_more, double label_w,
			    const struct sp_rect *area)
{
	size_t cols_fit, rows_fit, total = nr_entries + (nr_more ? 1 : 0);

	memset(g, 0, sizeof(*g));
	label_w = fmin(label_w, SP_LEGEND_MAX_LABEL_EM * theme->font_size);
	g->row_h = legend_row_h(theme);
	g->col_w = theme->swatch + theme->pad + label_w + legend_col_gap(theme);
	if (g->col_w > area->w)
		g->col_w = area->w;
	if (!total || !(area->w > 0) || !(area->h >= g->row_h))
		return;
	cols_fit = (size_t)fmax(1, floor(area->w / g->col_w));
	rows_fit = (size_t)floor(area->h / g->row_h);
	if (total <= cols_fit * rows_fit) {
		g->nr_rows = (total + cols_fit - 1) / cols_fit;
		if (g->nr_rows > rows_fit)
			g->nr_rows = rows_fit;
		g->nr_cols = (total + g->nr_rows - 1) / g->nr_rows;
		g->nr_shown = nr_entries;
		g->more_line = nr_more > 0;
	} else {
		g->nr_rows = rows_fit;
		g->nr_cols = cols_fit;
		g->nr_shown = cols_fit * rows_fit - 1;
		g->more_line = true;
	}
}

static double legend_title_h(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_legend *legend)
{
	return legend->title ? legend_row_h(theme) : 0;
}

/* The height of a legend's bar with the gap under it; 0 for none. */
static double bar_h(cairo_t *cr, const struct sp_theme *theme, const struct sp_legend *legend)
{
	return legend->bar ? sp_colorbar_height(cr, theme) + theme->pad : 0;
}

static double entries_size(cairo_t *cr, const struct sp_theme *theme,
			   const struct sp_legend *legend, enum sp_legend_place place,
			   double avail)
{
	double label_w, col_w, row_h = legend_row_h(theme), title_h, size;
	size_t total = legend->nr_entries + (legend->nr_more ? 1 : 0);

	if (!total)
		return 0;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	label_w = legend_label_w(cr, theme, legend);
	title_h = legend_title_h(cr, theme, legend);
	col_w = theme->swatch + theme->pad + label_w + legend_col_gap(theme);
	if (place == SP_LEGEND_RIGHT) {
		size_t rows = (size_t)fmax(1, floor((avail - title_h) / row_h));
		size_t cols = (total + rows - 1) / rows;
		double title_w = 0;

		if (legend->title) {
			sp_render_font(cr, theme, theme->font_size, true);
			title_w = sp_text_width(cr, legend->title);
		}
		size = fmax(cols * col_w - legend_col_gap(theme), title_w);
	} else {
		size_t cols = (size_t)fmax(1, floor(avail / col_w));
		size_t rows = (total + cols - 1) / cols;

		size = title_h + rows * row_h;
	}
	cairo_restore(cr);
	return size;
}

double sp_legend_size(cairo_t *cr, const struct sp_theme *theme, const struct sp_legend *legend,
		      enum sp_legend_place place, double avail)
{
	double bh = bar_h(cr, theme, legend);

	if (place == SP_LEGEND_NONE)
		return 0;
	if (place == SP_LEGEND_RIGHT)
		return fmax(legend->bar ? sp_colorbar_width(cr, theme, legend->bar, INFINITY) : 0,
			    entries_size(cr, theme, legend, place, avail - bh));
	return bh + entries_size(cr, theme, legend, place, avail);
}

void sp_legend_bar_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			  double size)
{
	double thick = (e->style ? e->style : 40) / 100.0;

	cairo_rectangle(cr, x - size * 0.5, y - size * thick * 0.5, size, size * thick);
	sp_render_set_color(cr, &e->color);
	cairo_fill(cr);
}

void sp_legend_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_legend *legend,
		    const struct sp_rect *area)
{
	struct sp_legend_grid g;
	struct sp_rect body = *area;
	double title_h, label_max;
	char buf[TEXT_BUF];

	if (legend->bar) {
		double bh = bar_h(cr, theme, legend);

		sp_colorbar_draw(cr, theme, legend->bar, area);
		body.y += bh;
		body.h -= bh;
	}
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	title_h = legend_title_h(cr, theme, legend);
	body.y += title_h;
	body.h -= title_h;
	/* The last column needs no gap after it. */
	body.w += legend_col_gap(theme);
	sp_legend_grid_compute(&g, theme, legend->nr_entries, legend->nr_more,
			       legend_label_w(cr, theme, legend), &body);
	if (legend->title && body.h >= 0) {
		sp_render_font(cr, theme, theme->font_size, true);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), legend->title, area->w);
		sp_text_draw(cr, area->x, body.y - title_h / 2, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE,
			     buf);
		sp_render_font(cr, theme, theme->font_size, false);
	}
	label_max = g.col_w - theme->swatch - theme->pad - legend_col_gap(theme);
	for (size_t i = 0; i < g.nr_shown + (g.more_line ? 1 : 0); i++) {
		double x = body.x + (double)(i / g.nr_rows) * g.col_w;
		double y = body.y + (double)(i % g.nr_rows) * g.row_h;
		double cy = y + g.row_h / 2;

		if (i == g.nr_shown) {
			snprintf(buf, sizeof(buf), "+%zu more",
				 legend->nr_entries - g.nr_shown + legend->nr_more);
			sp_render_set_color(cr, &theme->text);
			sp_text_draw(cr, x, cy, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, buf);
			break;
		}
		if (legend->entries[i].sample) {
			cairo_save(cr);
			legend->entries[i].sample(cr, &legend->entries[i], x + theme->swatch / 2,
						  cy, theme->swatch);
			cairo_restore(cr);
		} else {
			cairo_pattern_t *hatch = NULL;

			if (legend->entries[i].no_data) {
				hatch = sp_render_no_data(theme, sp_render_is_image(cr));
				cairo_set_source(cr, hatch);
			} else {
				sp_render_set_color(cr, &legend->entries[i].color);
			}
			cairo_rectangle(cr, x, cy - theme->swatch / 2, theme->swatch,
					theme->swatch);
			cairo_fill_preserve(cr);
			if (hatch)
				cairo_pattern_destroy(hatch);
			/* An outline, so white (idle) and pale swatches show. */
			sp_render_set_color(cr, &theme->axis);
			cairo_set_line_width(cr, 0.5);
			cairo_stroke(cr);
		}
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), legend->entries[i].label, label_max);
		sp_text_draw(cr, x + theme->swatch + theme->pad, cy, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE,
			     buf);
	}
	cairo_restore(cr);
}
