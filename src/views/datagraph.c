// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph: the whole image of the core-by-time chart (title, rows, CPU
 * labels, time axis and legend), around the keys of datagraph-keys.c and
 * the rows of datagraph-rows.c.  See include/schedplot/views/datagraph.h
 * for the contracts.
 */
#include <errno.h>
#include <math.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"

double sp_datagraph_default_plot_height(enum sp_format format, unsigned int nr_rows)
{
	bool px = format == SP_FORMAT_PNG;
	double per_row = px ? 40 : 24, min_row = px ? 3 : 1.2, base = px ? 720 : 400;
	double min_h = px ? 200 : 120;
	double h = fmin(per_row * nr_rows, fmax(base, min_row * nr_rows));

	return fmax(h, min_h);
}

static cairo_t *scratch_context(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

static void figure_spec(struct sp_layout_spec *spec, cairo_t *cr,
			const struct sp_datagraph_figure *fig, double height, double left_w)
{
	const struct sp_theme *theme = fig->theme;

	sp_layout_spec_init(spec, theme, fig->width, height);
	spec->left_w = left_w;
	if (fig->title && fig->title[0]) {
		sp_render_font(cr, theme, theme->title_font_size, true);
		spec->title_h = sp_text_height(cr);
	}
}

int sp_datagraph_figure_plan(struct sp_datagraph_figure *fig, const int *cpu_of_row,
			     unsigned int nr_rows)
{
	struct sp_layout_spec spec;
	cairo_t *cr = scratch_context();
	double x, left_w;
	int ret;

	if (cairo_status(cr)) {
		cairo_destroy(cr);
		return -ENOMEM;
	}
	left_w = sp_datagraph_rows_width(cr, fig->theme, cpu_of_row, nr_rows);
	figure_spec(&spec, cr, fig, 100000, left_w);
	cairo_destroy(cr);
	ret = sp_layout_compute(&fig->layout, &spec);
	if (ret)
		return ret;
	if (fig->format == SP_FORMAT_PNG) {
		x = ceil(fig->layout.plot.x);
		fig->layout.plot.w = floor(fig->layout.plot.x + fig->layout.plot.w) - x;
		fig->layout.plot.x = x;
	}
	fig->nr_cols = sp_datagraph_format_columns(fig->format, fig->layout.plot.w);
	return 0;
}

int sp_datagraph_figure_finish(struct sp_datagraph_figure *fig, const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	struct sp_rect planned = fig->layout.plot;
	struct sp_layout_spec spec;
	struct sp_legend legend;
	cairo_t *cr = scratch_context();
	double y, avail;
	int ret;

	if (cairo_status(cr)) {
		cairo_destroy(cr);
		return -ENOMEM;
	}
	/* the plan fixed the plot's left edge: margin + left_w */
	figure_spec(&spec, cr, fig, fig->height, planned.x - theme->margin);
	if (fig->legend) {
		struct sp_legend one;
		double line, want, max;

		sp_datagraph_legend(dg, &legend, 64);
		avail = fig->width - theme->margin - planned.x;
		want = sp_legend_size(cr, theme, &legend, SP_LEGEND_BELOW, avail);
		one = legend;
		one.nr_entries = legend.nr_entries ? 1 : 0;
		one.nr_more = 0;
		one.title = NULL;
		line = sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, avail);
		max = line * (SP_DATAGRAPH_LEGEND_LINES + (legend.title ? 1 : 0));
		spec.legend = SP_LEGEND_BELOW;
		/* whole units, so the legend grid does not lose a line to rounding */
		spec.legend_h = ceil(fmin(want, max));
	}
	if (!(fig->height > 0)) {
		double chrome = 2 * spec.margin + spec.top_h + spec.bottom_h;

		if (spec.title_h > 0)
			chrome += spec.title_h + spec.gap / 2;
		if (spec.legend_h > 0)
			chrome += spec.legend_h + spec.gap;
		/* one unit of slack: snapping the plot to pixels may cost it one */
		fig->height = ceil(chrome) + 1 +
			      ceil(sp_datagraph_default_plot_height(fig->format, dg->tl->nr_rows));
		if (fig->height > SP_OUTPUT_MAX_PX)
			fig->height = SP_OUTPUT_MAX_PX;
		spec.height = fig->height;
	}
	cairo_destroy(cr);
	ret = sp_layout_compute(&fig->layout, &spec);
	if (ret)
		return ret;
	fig->layout.plot.x = planned.x;
	fig->layout.plot.w = planned.w;
	if (fig->format == SP_FORMAT_PNG) {
		y = ceil(fig->layout.plot.y);
		fig->layout.plot.h = floor(fig->layout.plot.y + fig->layout.plot.h) - y;
		fig->layout.plot.y = y;
	}
	return 0;
}

void sp_datagraph_figure_draw(cairo_t *cr, const struct sp_datagraph_figure *fig,
			      const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_layout *lay = &fig->layout;
	struct sp_time_ticks ticks;
	struct sp_legend legend;
	char buf[512];

	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	if (lay->title.w > 0 && fig->title) {
		sp_render_font(cr, theme, theme->title_font_size, true);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), fig->title, lay->title.w);
		sp_text_draw(cr, lay->title.x + lay->title.w / 2, lay->title.y,
			     SP_ALIGN_CENTER | SP_ALIGN_TOP, buf);
	}
	sp_datagraph_draw(cr, theme, &lay->plot, dg);
	sp_axis_frame_draw(cr, theme, &lay->plot);
	sp_datagraph_rows_draw(cr, theme, &lay->plot, dg);
	sp_render_font(cr, theme, theme->font_size, false);
	if (!sp_time_ticks_fit(&ticks, cr, lay->plot.w, dg->tl->t0_ns, dg->tl->t1_ns,
			       fig->origin_ns))
		sp_axis_time_draw(cr, theme, &lay->plot, &ticks, dg->tl->t0_ns, dg->tl->t1_ns,
				  false);
	if (fig->legend && lay->legend.w > 0) {
		sp_datagraph_legend(dg, &legend, 64);
		sp_legend_draw(cr, theme, &legend, &lay->legend);
	}
	cairo_restore(cr);
}
