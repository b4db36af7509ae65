// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overview figure: the datagraph on top and the running/waiting graph
 * below it, on one time axis, drawn from one pass over the trace.  The
 * layout is in include/schedplot/views/overview.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/overview.h"
#include "schedplot/views/datagraph-marks.h"
#include "schedplot/views/rwgraph.h"

/* Default sizes of the running/waiting panel's plot: px for PNG, pt for PDF/SVG. */
#define OV_RW_PLOT_PX	260
#define OV_RW_PLOT_PT	130

static cairo_t *scratch_context(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

int sp_overview_figure_plan(struct sp_overview_figure *fig, const int *cpu_of_row,
			    unsigned int nr_rows)
{
	struct sp_layout_spec spec;
	struct sp_rect *plot = &fig->plot;
	double left_w;

	if (!fig->scratch)
		fig->scratch = scratch_context();
	if (cairo_status(fig->scratch))
		return -ENOMEM;
	left_w = fmax(sp_datagraph_rows_width(fig->scratch, fig->theme, cpu_of_row, nr_rows),
		      sp_rwgraph_left_width(fig->scratch, fig->theme));

	/* the x extent of both plots is fixed before the pass: columns depend on it */
	sp_layout_spec_init(&spec, fig->theme, fig->width, 1000);
	memset(plot, 0, sizeof(*plot));
	plot->x = spec.margin + left_w;
	plot->w = fig->width - spec.margin - spec.right_w - plot->x;
	sp_rwgraph_snap_plot(plot, &fig->style);
	if (plot->w < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	fig->nr_cols = sp_datagraph_columns(fig->scratch, plot->w);
	if (!fig->style.pixels)
		fig->nr_cols = (unsigned int)ceil(plot->w * SP_RWGRAPH_VECTOR_COLS_PER_PT);
	return 0;
}

int sp_overview_figure_finish(struct sp_overview_figure *fig, const struct sp_datagraph *dg,
			      unsigned int nr_rows)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_rect *px = &fig->plot;
	struct sp_overview_layout *lay = &fig->layout;
	cairo_t *cr = fig->scratch;
	struct sp_layout_spec spec;
	struct sp_legend legend;
	struct sp_legend_entry buf[SP_DG_MARKS_LEGEND_BUF] = { 0 };
	double rw_lw = 0, rw_lh = 0, dg_lh = 0, title_h = 0, note_h, y, dg_h, rw_h, avail;
	bool png = fig->style.pixels;

	sp_layout_spec_init(&spec, theme, fig->width, 1000);
	memset(lay, 0, sizeof(*lay));
	if (fig->title && fig->title[0])
		title_h = sp_rwgraph_title_height(cr, theme);
	note_h = fig->note ? sp_rwgraph_note_height(cr, theme) : theme->font_size;
	if (fig->legend) {
		sp_rwgraph_legend_size(cr, theme, &fig->style, true, &rw_lw, &rw_lh);
		/* a row wider than the plot: as many rows as it needs */
		if (rw_lw > px->w)
			rw_lh = sp_rwgraph_legend_grid(cr, theme, &fig->style, px->w, NULL);
		sp_dg_marks_chart_legend(fig->marks, dg, &legend, buf);
		dg_lh = sp_figure_legend_height(cr, theme, &legend, px->w,
						SP_DATAGRAPH_LEGEND_LINES);
	}
	/* everything but the two plots */
	avail = 2 * spec.margin + spec.top_h + note_h + spec.bottom_h;
	if (title_h > 0)
		avail += title_h + spec.gap / 2;
	if (rw_lh > 0)
		avail += spec.gap + rw_lh;
	if (dg_lh > 0)
		avail += spec.gap / 2 + dg_lh;
	if (fig->height > 0) {
		double dg_want = sp_datagraph_default_plot_height(png ? SP_FORMAT_PNG :
								  SP_FORMAT_PDF, nr_rows);
		double rw_want = png ? OV_RW_PLOT_PX : OV_RW_PLOT_PT;
		double room = fig->height - avail - 2;

		dg_h = floor(room * dg_want / (dg_want + rw_want));
		rw_h = floor(room - dg_h);
	} else {
		dg_h = ceil(sp_datagraph_default_plot_height(png ? SP_FORMAT_PNG : SP_FORMAT_PDF,
							     nr_rows));
		rw_h = png ? OV_RW_PLOT_PX : OV_RW_PLOT_PT;
		fig->height = ceil(avail) + 2 + dg_h + rw_h;
		if (fig->height > SP_OUTPUT_MAX_PX)
			return -ERANGE;
	}
	if (dg_h < SP_LAYOUT_MIN_PLOT || rw_h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;

	y = spec.margin;
	if (title_h > 0) {
		lay->title = (struct sp_rect){ spec.margin, y, fig->width - 2 * spec.margin,
					       title_h };
		y += title_h + spec.gap / 2;
	}
	y += spec.top_h;
	if (png)
		y = ceil(y);
	lay->dg = (struct sp_rect){ px->x, y, px->w, dg_h };
	y += dg_h + note_h;
	if (png)
		y = ceil(y);
	lay->rw = (struct sp_rect){ px->x, y, px->w, rw_h };
	y += rw_h + spec.bottom_h;
	if (rw_lh > 0) {
		y += spec.gap;
		lay->rw_legend = (struct sp_rect){ px->x, y, px->w, rw_lh };
		y += rw_lh;
	}
	if (dg_lh > 0) {
		y += spec.gap / 2;
		lay->dg_legend = (struct sp_rect){ px->x, y, px->w, dg_lh };
	}
	return 0;
}

int sp_overview_figure_draw(cairo_t *cr, const struct sp_overview_figure *fig,
			    const struct sp_datagraph *dg, const struct sp_rw_collect *rw)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_overview_layout *lay = &fig->layout;
	const struct sp_envelope *env = &rw->env;
	struct sp_time_ticks xt;
	struct sp_rect top, bottom;
	struct sp_legend legend;
	struct sp_legend_entry buf[SP_DG_MARKS_LEGEND_BUF] = { 0 };
	int ret;

	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	cairo_restore(cr);
	if (lay->title.h > 0)
		sp_rwgraph_draw_title(cr, theme, &lay->title, fig->title);

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	ret = sp_time_ticks_fit(&xt, cr, lay->rw.w, env->window.t0_ns, env->window.t1_ns, fig->origin_ns);
	cairo_restore(cr);
	if (ret)
		return ret;

	sp_datagraph_draw(cr, theme, &lay->dg, dg);
	if (fig->marks)
		sp_dg_marks_draw(cr, theme, &lay->dg, fig->marks);
	sp_axis_frame_draw(cr, theme, &lay->dg);
	sp_datagraph_rows_draw(cr, theme, &lay->dg, dg);

	/* waiting that dwarfs the CPUs gets a panel of its own, as in running-waiting */
	ret = sp_rwgraph_draw_panels(cr, theme, &lay->rw, env, &xt, &fig->style, &top, &bottom);
	if (ret)
		return ret;
	if (fig->note)
		sp_rwgraph_draw_note(cr, theme, &top, sp_rw_collect_shade_fraction(rw),
				     fig->style.counting);
	sp_axis_time_draw(cr, theme, &bottom, &xt, env->window.t0_ns, env->window.t1_ns, false);

	if (lay->rw_legend.h > 0) {
		double lw, lh;

		sp_rwgraph_legend_size(cr, theme, &fig->style, true, &lw, &lh);
		if (lw > lay->rw_legend.w)
			sp_rwgraph_legend_grid(cr, theme, &fig->style, lay->rw_legend.w,
					       &lay->rw_legend);
		else
			sp_rwgraph_legend_draw(cr, theme, &fig->style, true, &lay->rw_legend);
	}
	if (lay->dg_legend.h > 0) {
		sp_dg_marks_chart_legend(fig->marks, dg, &legend, buf);
		sp_legend_draw(cr, theme, &legend, &lay->dg_legend);
	}
	return 0;
}

void sp_overview_figure_release(struct sp_overview_figure *fig)
{
	if (fig->scratch)
		cairo_destroy(fig->scratch);
	fig->scratch = NULL;
}
