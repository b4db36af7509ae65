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
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-marks.h"

double sp_datagraph_default_plot_height(enum sp_format format, unsigned int nr_rows)
{
	bool px = format == SP_FORMAT_PNG;
	double per_row = px ? 40 : 24, min_row = px ? 3 : 1.2, base = px ? 720 : 400;
	double min_h = px ? 200 : 120;
	double h = fmin(per_row * nr_rows, fmax(base, min_row * nr_rows));

	return fmax(h, min_h);
}

static void figure_spec(struct sp_layout_spec *spec, cairo_t *cr,
			const struct sp_datagraph_figure *fig, double height, double left_w)
{
	const struct sp_theme *theme = fig->theme;

	sp_layout_spec_init(spec, theme, fig->width, height);
	spec->left_w = left_w;
	if (sp_figure_has_title(fig->title))
		spec->title_h = sp_figure_title_height(cr, theme);
}

int sp_datagraph_figure_plan(struct sp_datagraph_figure *fig, const int *cpu_of_row,
			     unsigned int nr_rows)
{
	struct sp_layout_spec spec;
	cairo_t *cr = sp_figure_scratch();
	double left_w;
	int ret;

	if (!cr)
		return -ENOMEM;
	left_w = sp_datagraph_rows_width(cr, fig->theme, cpu_of_row, nr_rows);
	figure_spec(&spec, cr, fig, 100000, left_w);
	cairo_destroy(cr);
	ret = sp_figure_layout(&fig->layout, &spec, fig->format == SP_FORMAT_PNG, false);
	if (ret)
		return ret;
	fig->nr_cols = sp_datagraph_format_columns(fig->format, fig->layout.plot.w);
	return 0;
}

int sp_datagraph_figure_finish(struct sp_datagraph_figure *fig, const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	struct sp_rect planned = fig->layout.plot;
	struct sp_layout_spec spec;
	struct sp_legend_entry buf[SP_DG_MARKS_LEGEND_BUF] = { 0 };
	struct sp_legend legend;
	cairo_t *cr = sp_figure_scratch();
	double avail;

	if (!cr)
		return -ENOMEM;
	/* the plan fixed the plot's left edge: margin + left_w */
	figure_spec(&spec, cr, fig, fig->height, planned.x - theme->margin);
	if (fig->legend) {
		sp_dg_marks_chart_legend(fig->marks, dg, &legend, buf);
		avail = fig->width - theme->margin - planned.x;
		spec.legend = SP_LEGEND_BELOW;
		spec.legend_h = sp_figure_legend_height(cr, theme, &legend, avail,
							SP_DATAGRAPH_LEGEND_LINES);
	}
	cairo_destroy(cr);
	return sp_figure_relayout(&fig->layout, &spec, &fig->height,
				  sp_datagraph_default_plot_height(fig->format, dg->tl->nr_rows),
				  fig->format == SP_FORMAT_PNG);
}

void sp_datagraph_figure_draw(cairo_t *cr, const struct sp_datagraph_figure *fig,
			      const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_layout *lay = &fig->layout;
	struct sp_legend_entry buf[SP_DG_MARKS_LEGEND_BUF] = { 0 };
	struct sp_legend legend;

	sp_figure_frame_draw(cr, theme, &lay->title, fig->title);
	sp_datagraph_draw(cr, theme, &lay->plot, dg);
	if (fig->marks)
		sp_dg_marks_draw(cr, theme, &lay->plot, fig->marks);
	sp_axis_frame_draw(cr, theme, &lay->plot);
	sp_datagraph_rows_draw(cr, theme, &lay->plot, dg);
	sp_figure_time_axis_draw(cr, theme, &lay->plot, dg->tl->window.t0_ns, dg->tl->window.t1_ns,
				 fig->origin_ns);
	if (fig->legend && lay->legend.w > 0) {
		sp_dg_marks_chart_legend(fig->marks, dg, &legend, buf);
		sp_legend_draw(cr, theme, &legend, &lay->legend);
	}
}
