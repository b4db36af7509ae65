// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts every figure shares around its plots.  See
 * include/schedplot/draw/figure.h for the contracts.
 */
#include <errno.h>
#include <math.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

cairo_t *sp_figure_scratch(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	if (cairo_status(cr)) {
		cairo_destroy(cr);
		return NULL;
	}
	return cr;
}

void sp_figure_background(cairo_t *cr, const struct sp_theme *theme)
{
	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	cairo_restore(cr);
}

void sp_figure_frame_draw(cairo_t *cr, const struct sp_theme *theme,
			  const struct sp_rect *title_area, const char *title)
{
	sp_figure_background(cr, theme);
	if (title_area->w > 0 && sp_figure_has_title(title))
		sp_figure_title_draw(cr, theme, title_area, title);
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

void sp_figure_plot_begin(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  bool image)
{
	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	sp_render_set_color(cr, &theme->idle);
	cairo_paint(cr);
	if (image)
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
}

void sp_figure_mark_x(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      double x, const double dash[2])
{
	sp_render_set_color(cr, &theme->text);
	cairo_set_line_width(cr, theme->axis_line_width);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, x, plot->y);
	cairo_line_to(cr, x, plot->y + plot->h);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
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

int sp_figure_layout(struct sp_layout *lay, const struct sp_layout_spec *spec, bool snap_x,
		     bool snap_y)
{
	int ret = sp_layout_compute(lay, spec);

	if (ret)
		return ret;
	if (snap_x)
		sp_figure_snap_x(&lay->plot);
	if (snap_y)
		sp_figure_snap_y(&lay->plot);
	return 0;
}

int sp_figure_relayout(struct sp_layout *lay, struct sp_layout_spec *spec, double *height,
		       double plot_h, bool pixels)
{
	struct sp_rect planned = lay->plot;
	int ret;

	if (!(*height > 0)) {
		double chrome = 2 * spec->margin + spec->top_h + spec->bottom_h;

		if (spec->title_h > 0)
			chrome += spec->title_h + spec->gap / 2;
		if (spec->legend_h > 0)
			chrome += spec->legend_h + spec->gap;
		/* one unit of slack: snapping the plot to pixels may cost it one */
		*height = ceil(chrome) + 1 + ceil(plot_h);
		if (*height > SP_OUTPUT_MAX_PX)
			*height = SP_OUTPUT_MAX_PX;
		spec->height = *height;
	}
	ret = sp_figure_layout(lay, spec, false, pixels);
	if (ret)
		return ret;
	lay->plot.x = planned.x;
	lay->plot.w = planned.w;
	return 0;
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

void sp_figure_time_axis_draw(cairo_t *cr, const struct sp_theme *theme,
			      const struct sp_rect *plot, uint64_t t0_ns, uint64_t t1_ns,
			      uint64_t origin_ns)
{
	struct sp_time_ticks ticks;

	if (!sp_figure_time_ticks(&ticks, cr, theme, plot->w, t0_ns, t1_ns, origin_ns))
		sp_axis_time_draw(cr, theme, plot, &ticks, t0_ns, t1_ns, false);
}

double sp_figure_legend_height(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_legend *legend, double avail_w,
			       unsigned int max_lines)
{
	struct sp_legend one = *legend;
	double want, line;

	want = sp_legend_size(cr, theme, legend, SP_LEGEND_BELOW, avail_w);
	/* the height of one line of entries, without the title and bar */
	one.nr_entries = legend->nr_entries ? 1 : 0;
	one.nr_more = 0;
	one.title = NULL;
	one.bar = NULL;
	line = sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, avail_w);
	one.nr_entries = 0;
	one.bar = legend->bar;
	return ceil(fmin(want, sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, avail_w) +
			       line * (max_lines + (legend->title ? 1 : 0))));
}

/* ---- panels stacked on one time axis ------------------------------------ */

int sp_figure_stack_plan_x(struct sp_figure_stack *fig)
{
	struct sp_layout_spec spec;
	struct sp_rect r = { 0 };

	if (fig->nr_panels < 1 || fig->nr_panels > SP_FIGURE_MAX_PANELS)
		return -EINVAL;
	sp_layout_spec_init(&spec, fig->theme, fig->width, 1000);
	r.x = spec.margin + fig->left_w;
	r.w = fig->width - spec.margin - spec.right_w - r.x;
	if (fig->pixels)
		sp_figure_snap_x(&r);
	for (unsigned int i = 0; i < fig->nr_panels; i++) {
		fig->plot[i].x = r.x;
		fig->plot[i].w = r.w;
	}
	return r.w >= SP_LAYOUT_MIN_PLOT ? 0 : -ERANGE;
}

/* Room above plot @i: the first one's is at least the theme's. */
static double room_above(const struct sp_figure_stack *fig, const struct sp_layout_spec *spec,
			 unsigned int i)
{
	return i ? fig->above_h[i] : fmax(spec->top_h, fig->above_h[0]);
}

int sp_figure_stack_place(struct sp_figure_stack *fig)
{
	struct sp_layout_spec spec;
	double h[SP_FIGURE_MAX_PANELS], chrome, y;
	unsigned int i, n = fig->nr_panels;

	if (n < 1 || n > SP_FIGURE_MAX_PANELS || fig->nr_legends > SP_FIGURE_MAX_LEGENDS)
		return -EINVAL;
	sp_layout_spec_init(&spec, fig->theme, fig->width, 1000);

	/* everything but the plots */
	chrome = 2 * spec.margin;
	for (i = 0; i < n; i++)
		chrome += room_above(fig, &spec, i);
	chrome += spec.bottom_h;
	if (fig->title_h > 0)
		chrome += fig->title_h + spec.gap / 2;
	for (i = 0; i < fig->nr_legends; i++)
		if (fig->legend_h[i] > 0)
			chrome += (i ? spec.gap / 2 : spec.gap) + fig->legend_h[i];

	if (fig->height > 0) {
		/* one unit per plot of slack: snapping to pixels may cost it one */
		double room = fig->height - chrome - n, total = 0, used = 0;

		for (i = 0; i < n; i++)
			total += fig->want_h[i];
		for (i = 0; i + 1 < n; i++) {
			h[i] = total > 0 ? floor(room * fig->want_h[i] / total) : 0;
			used += h[i];
		}
		h[n - 1] = floor(room - used);
	} else {
		fig->height = ceil(chrome) + n;
		for (i = 0; i < n; i++) {
			h[i] = ceil(fig->want_h[i]);
			fig->height += h[i];
		}
		if (fig->height > SP_OUTPUT_MAX_PX)
			return -ERANGE;
	}
	for (i = 0; i < n; i++)
		if (h[i] < SP_LAYOUT_MIN_PLOT)
			return -ERANGE;

	y = spec.margin;
	fig->title = (struct sp_rect){ 0 };
	if (fig->title_h > 0) {
		fig->title = (struct sp_rect){ spec.margin, y, fig->width - 2 * spec.margin,
					       fig->title_h };
		y += fig->title_h + spec.gap / 2;
	}
	y += room_above(fig, &spec, 0);
	for (i = 0; i < n; i++) {
		if (fig->pixels)
			y = ceil(y);
		fig->plot[i].y = y;
		fig->plot[i].h = h[i];
		/* what follows a plot: the room above the next one, or the axis */
		y += h[i] + (i + 1 < n ? room_above(fig, &spec, i + 1) : spec.bottom_h);
	}
	for (i = 0; i < fig->nr_legends; i++) {
		fig->legend[i] = (struct sp_rect){ 0 };
		if (!(fig->legend_h[i] > 0))
			continue;
		y += i ? spec.gap / 2 : spec.gap;
		fig->legend[i] = (struct sp_rect){ fig->plot[0].x, y, fig->plot[0].w,
						   fig->legend_h[i] };
		y += fig->legend_h[i];
	}
	return 0;
}
