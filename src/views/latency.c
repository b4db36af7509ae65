// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency view: distributions of waits for a CPU on a log time axis.
 * Work is proportional to the pixels: each line is evaluated once per
 * column by binary search in the sorted waits, so a million waits cost
 * what a hundred do.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/logaxis.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/latency.h"

#define MAX_SERIES_SHOWN 64
#define NR_LOG2 64

/* The wait of rank @i + 1 of @s. */
static uint64_t wait_at(const struct sp_latency_series *s, size_t i)
{
	return i < s->nr_narrow ? s->narrow[i] : s->v[i - s->nr_narrow];
}

/* How many of @s's waits are at most @v long. */
static size_t count_at_most(const struct sp_latency_series *s, double v)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)wait_at(s, mid) <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

double sp_latency_cdf_at(const struct sp_latency_series *s, double v)
{
	return s->n ? (double)count_at_most(s, v) / (double)s->n : 0;
}


static void series_rgb(const struct sp_latency_figure *fig, const struct sp_latency_series *s,
		       struct sp_rgb *c)
{
	sp_palette_color(sp_palette_by_name(fig->palette), s->color, &c->r, &c->g, &c->b);
}

/* The smallest positive and the largest wait over every series. */
static int value_range(const struct sp_latency_figure *fig, double *min, double *max)
{
	bool any = false;

	*min = INFINITY;
	*max = 0;
	for (size_t i = 0; i < fig->nr_series; i++) {
		const struct sp_latency_series *s = &fig->series[i];
		size_t first = count_at_most(s, 0);	/* waits of 0 ns sit at the left edge */

		if (!s->n)
			continue;
		any = true;
		if (first < s->n)
			*min = fmin(*min, (double)wait_at(s, first));
		*max = fmax(*max, (double)wait_at(s, s->n - 1));
	}
	if (!any)
		return -EINVAL;
	if (!isfinite(*min))
		*min = *max = 1;
	if (fig->plot == SP_LATPLOT_HIST) {
		/* whole power-of-two buckets */
		*min = exp2(floor(log2(*min)));
		*max = exp2(floor(log2(*max)) + 1);
	}
	return 0;
}

static unsigned int bucket_of(uint64_t v)
{
	return v ? 63 - (unsigned int)__builtin_clzll(v) : 0;
}

static void histogram(const struct sp_latency_series *s, uint64_t counts[NR_LOG2])
{
	memset(counts, 0, NR_LOG2 * sizeof(*counts));
	for (size_t i = 0; i < s->n; i++)
		counts[bucket_of(wait_at(s, i))]++;
}

static long long hist_max(const struct sp_latency_figure *fig)
{
	uint64_t counts[NR_LOG2], max = 0;

	for (size_t i = 0; i < fig->nr_series; i++) {
		histogram(&fig->series[i], counts);
		for (int k = 0; k < NR_LOG2; k++)
			if (counts[k] > max)
				max = counts[k];
	}
	return (long long)max;
}

/*
 * y of a share: linear 0..1 for the CDF, log for the CCDF; 0 and 1 lie a
 * little inside the frame, so a line along them is not hidden by it.
 */
static double share_y(const struct sp_latency_figure *fig, const struct sp_rect *plot,
		      const struct sp_log_axis *ya, double share)
{
	double f = fig->plot == SP_LATPLOT_CCDF ? sp_log_axis_frac(ya, share) : share;
	double inset = fmin(4, plot->h / 50);

	return plot->y + plot->h - inset - f * (plot->h - 2 * inset);
}

static void draw_distribution(cairo_t *cr, const struct sp_latency_figure *fig,
			      const struct sp_latency_series *s, const struct sp_rect *plot,
			      const struct sp_log_axis *xa, const struct sp_log_axis *ya,
			      double lw)
{
	/* vector output gets two points a unit, so the steps stay sharp */
	size_t cols = (size_t)ceil(plot->w) * (fig->pixels ? 1 : 2);
	bool ccdf = fig->plot == SP_LATPLOT_CCDF;
	double floor_share = ccdf ? pow(10, ya->lo) : 0;
	bool drawing = false;

	cairo_set_line_width(cr, lw);
	for (size_t i = 0; i <= cols; i++) {
		double frac = (double)i / (double)cols;
		double share = sp_latency_cdf_at(s, sp_log_axis_value(xa, frac));
		double x = plot->x + frac * plot->w;

		if (ccdf) {
			share = 1 - share;
			if (share < floor_share) {
				/* the last wait: 1 - F reaches 0, off a log axis */
				break;
			}
		}
		if (!drawing)
			cairo_move_to(cr, x, share_y(fig, plot, ya, share));
		else
			cairo_line_to(cr, x, share_y(fig, plot, ya, share));
		drawing = true;
	}
	if (drawing)
		cairo_stroke(cr);
	else
		cairo_new_path(cr);
}

/* p50 and p99 of a series as dots on its line. */
static void draw_marks(cairo_t *cr, const struct sp_theme *theme,
		       const struct sp_latency_figure *fig, const struct sp_latency_series *s,
		       const struct sp_rect *plot, const struct sp_log_axis *xa,
		       const struct sp_log_axis *ya)
{
	static const double at[2] = { 0.5, 0.99 };
	uint64_t v[2] = { s->p50, s->p99 };
	double r = theme->data_line_width * 2;

	for (int i = 0; i < 2; i++) {
		double share = fig->plot == SP_LATPLOT_CCDF ? 1 - at[i] : at[i];
		double x = plot->x + sp_log_axis_frac(xa, (double)v[i]) * plot->w;

		cairo_arc(cr, x, share_y(fig, plot, ya, share), r, 0, 2 * M_PI);
		cairo_fill_preserve(cr);
		sp_render_set_color(cr, &theme->background);
		cairo_set_line_width(cr, theme->axis_line_width);
		cairo_stroke(cr);
		{
			struct sp_rgb c;

			series_rgb(fig, s, &c);
			sp_render_set_color(cr, &c);
		}
	}
}

/* Dashed guides at the shares p50 and p99 mean, labelled at the right. */
static void draw_guides(cairo_t *cr, const struct sp_theme *theme,
			const struct sp_latency_figure *fig, const struct sp_rect *plot,
			const struct sp_log_axis *ya)
{
	static const double at[2] = { 0.5, 0.99 };
	static const char *const names[2] = { "p50", "p99" };
	double dash = theme->font_size / 3;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size * 0.85, false);
	for (int i = 0; i < 2; i++) {
		double share = fig->plot == SP_LATPLOT_CCDF ? 1 - at[i] : at[i];
		double y = share_y(fig, plot, ya, share);

		sp_render_set_color(cr, &theme->axis);
		cairo_set_line_width(cr, theme->grid_line_width);
		cairo_set_dash(cr, &dash, 1, 0);
		cairo_move_to(cr, plot->x, y);
		cairo_line_to(cr, plot->x + plot->w, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		sp_render_set_color(cr, &theme->text);
		/* at the left: a distribution rises from the bottom left */
		if (y - plot->y < 2 * theme->font_size)	/* near the top: under it */
			sp_text_draw(cr, plot->x + theme->pad, y + theme->pad / 2,
				     SP_ALIGN_LEFT | SP_ALIGN_TOP, names[i]);
		else
			sp_text_draw(cr, plot->x + theme->pad, y - theme->pad / 2,
				     SP_ALIGN_LEFT | SP_ALIGN_BOTTOM, names[i]);
	}
	cairo_restore(cr);
}

/* Dashed vertical lines at fig->marks_ns, each labelled with its length at the top. */
static void draw_vmarks(cairo_t *cr, const struct sp_theme *theme,
			const struct sp_latency_figure *fig, const struct sp_rect *plot,
			const struct sp_log_axis *xa)
{
	double dash[2] = { theme->font_size / 2, theme->font_size / 4 }, last_end = -INFINITY;
	char label[32];
	int row = 0;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size * 0.85, false);
	/* the lines first, then the labels over them */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < fig->nr_marks; i++) {
			double x = plot->x + sp_log_axis_frac(xa, (double)fig->marks_ns[i]) * plot->w;
			double y;

			if (fig->pixels)
				x = floor(x) + 0.5;
			if (!pass) {
				sp_figure_mark_x(cr, theme, plot, x, dash);
				continue;
			}
			sp_text_duration(label, sizeof(label), fig->marks_ns[i]);
			/* a line lower when it would run into the label before */
			row = x + theme->pad / 2 < last_end ? row + 1 : 0;
			y = plot->y + (2 + 1.2 * row) * theme->font_size;
			sp_render_set_color(cr, &theme->background);
			cairo_rectangle(cr, x + theme->pad / 4, y,
					sp_text_width(cr, label) + theme->pad / 2, sp_text_height(cr));
			cairo_fill(cr);
			sp_render_set_color(cr, &theme->text);
			sp_text_draw(cr, x + theme->pad / 2, y, SP_ALIGN_LEFT | SP_ALIGN_TOP, label);
			last_end = x + theme->pad + sp_text_width(cr, label);
		}
	cairo_restore(cr);
}

static void draw_hist(cairo_t *cr, const struct sp_theme *theme,
		      const struct sp_latency_figure *fig, const struct sp_latency_series *s,
		      const struct sp_rect *plot, const struct sp_log_axis *xa, long long top,
		      bool fill)
{
	uint64_t counts[NR_LOG2];
	struct sp_rgb c;

	histogram(s, counts);
	series_rgb(fig, s, &c);
	for (int k = 0; k < NR_LOG2; k++) {
		double x0, x1, y;

		if (!counts[k])
			continue;
		x0 = plot->x + sp_log_axis_frac(xa, exp2(k)) * plot->w;
		x1 = plot->x + sp_log_axis_frac(xa, exp2(k + 1)) * plot->w;
		y = plot->y + plot->h - (double)counts[k] / (double)top * plot->h;
		cairo_rectangle(cr, x0, y, x1 - x0, plot->y + plot->h - y);
		if (fill) {
			cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.55);
			cairo_fill_preserve(cr);
		}
		sp_render_set_color(cr, &c);
		cairo_set_line_width(cr, theme->data_line_width);
		cairo_stroke(cr);
	}
}

/* The y axis of shares: 0..100% in quarters for the CDF. */
static void draw_share_axis(cairo_t *cr, const struct sp_theme *theme,
			    const struct sp_latency_figure *fig, const struct sp_rect *plot,
			    const struct sp_log_axis *ya, const char *title)
{
	static const char *const labels[5] = { "0%", "25%", "50%", "75%", "100%" };

	if (fig->plot == SP_LATPLOT_CCDF) {
		/* the shares' own extent: share_y()'s inset off the frame */
		struct sp_rect inner = *plot;

		inner.y = share_y(fig, plot, ya, 1);
		inner.h = share_y(fig, plot, ya, pow(10, ya->lo)) - inner.y;
		sp_log_axis_draw_y(cr, theme, &inner, ya, title, true);
		return;
	}
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (int i = 0; i < 5; i++) {
		double y = share_y(fig, plot, ya, i / 4.0);

		if (i > 0 && i < 4) {
			sp_render_set_color(cr, &theme->grid);
			cairo_set_line_width(cr, theme->grid_line_width);
			cairo_move_to(cr, plot->x, y);
			cairo_line_to(cr, plot->x + plot->w, y);
			cairo_stroke(cr);
		}
		sp_axis_left_tick(cr, theme, plot, y, labels[i]);
	}
	{
		double w = sp_text_width(cr, "100%");
		double x = plot->x - theme->tick_len - theme->pad - w - 2 * theme->pad;

		sp_render_set_color(cr, &theme->text);
		sp_text_draw_vertical(cr, x, plot->y + plot->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM, title);
	}
	cairo_restore(cr);
}

/*
 * The legend as a small table under the plot, one line a series:
 *
 *	[] name          n      p50      p99
 *
 * so the numbers line up and read like the text output.
 */
struct table {
	const struct sp_latency_figure *fig;
	size_t rows[MAX_SERIES_SHOWN];	/* series shown */
	size_t nr_rows;
	double line_h, name_w, num_w[3];
};

static void table_cells(const struct sp_latency_series *s, char cells[3][32])
{
	snprintf(cells[0], 32, "%zu", s->n);
	sp_text_duration(cells[1], 32, s->p50);
	sp_text_duration(cells[2], 32, s->p99);
}

static double table_plan(cairo_t *cr, const struct sp_theme *theme, struct table *t,
			 const struct sp_latency_figure *fig)
{
	static const char *const heads[3] = { "waits", "p50", "p99" };
	char cells[3][32];

	memset(t, 0, sizeof(*t));
	t->fig = fig;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	t->line_h = sp_text_height(cr) * 1.35;
	for (int k = 0; k < 3; k++)
		t->num_w[k] = sp_text_width(cr, heads[k]);
	for (size_t i = 0; i < fig->nr_series && t->nr_rows < MAX_SERIES_SHOWN; i++) {
		const struct sp_latency_series *s = &fig->series[i];

		if (s->thin)
			continue;
		t->rows[t->nr_rows++] = i;
		t->name_w = fmax(t->name_w, sp_text_width(cr, s->name));
		table_cells(s, cells);
		for (int k = 0; k < 3; k++)
			t->num_w[k] = fmax(t->num_w[k], sp_text_width(cr, cells[k]));
	}
	t->name_w = fmin(t->name_w, 24 * theme->font_size);
	cairo_restore(cr);
	return t->nr_rows ? (t->nr_rows + 1) * t->line_h : 0;
}

static void table_draw(cairo_t *cr, const struct sp_theme *theme, const struct table *t,
		       const struct sp_rect *area)
{
	static const char *const heads[3] = { "waits", "p50", "p99" };
	double gap = 2 * theme->font_size, x_name = area->x + theme->swatch + theme->pad;
	double x = x_name + t->name_w, col_x[3];
	char cells[3][32], name[128];

	for (int k = 0; k < 3; k++) {
		x += gap + t->num_w[k];
		col_x[k] = x;		/* right edges: numbers align */
	}
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	sp_render_set_color(cr, &theme->text);
	for (int k = 0; k < 3; k++)
		sp_text_draw(cr, col_x[k], area->y + t->line_h / 2, SP_ALIGN_RIGHT | SP_ALIGN_MIDDLE,
			     heads[k]);
	for (size_t r = 0; r < t->nr_rows; r++) {
		const struct sp_latency_series *s = &t->fig->series[t->rows[r]];
		double y = area->y + (r + 1.5) * t->line_h;
		struct sp_rgb c;

		series_rgb(t->fig, s, &c);
		sp_render_set_color(cr, &c);
		cairo_rectangle(cr, area->x, y - theme->swatch / 2, theme->swatch, theme->swatch);
		cairo_fill(cr);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, name, sizeof(name), s->name, t->name_w);
		sp_text_draw(cr, x_name, y, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, name);
		table_cells(s, cells);
		for (int k = 0; k < 3; k++)
			sp_text_draw(cr, col_x[k], y, SP_ALIGN_RIGHT | SP_ALIGN_MIDDLE, cells[k]);
	}
	cairo_restore(cr);
}

size_t sp_latency_time_cols(double width, bool pixels)
{
	size_t cols = (size_t)(width / (pixels ? 4 : 3));

	return cols ? cols : 1;
}

/* White to dark blue through teal: a count's colour, @f in 0..1. */
static void heat_color(double f, struct sp_rgb *c)
{
	static const struct sp_rgb stops[] = {
		{ 0.97, 0.98, 0.85 }, { 0.60, 0.85, 0.65 }, { 0.20, 0.60, 0.70 },
		{ 0.12, 0.30, 0.60 }, { 0.05, 0.08, 0.30 },
	};
	double x = f * 4;
	int i = x >= 4 ? 3 : (int)x;
	double t = x - i;

	c->r = stops[i].r + t * (stops[i + 1].r - stops[i].r);
	c->g = stops[i].g + t * (stops[i + 1].g - stops[i].g);
	c->b = stops[i].b + t * (stops[i + 1].b - stops[i].b);
}

/* The heat map: columns of time, rows of log2 buckets, on a log y axis. */
static int draw_time_map(cairo_t *cr, const struct sp_theme *theme,
			 const struct sp_latency_figure *fig, double width, double height)
{
	struct sp_layout_spec spec;
	struct sp_time_ticks xt;
	struct sp_log_axis ya;
	struct sp_layout lay;
	uint32_t max = 0;
	int lo = SP_LATPLOT_NR_LOG2, hi = -1, ret;
	size_t col;
	char label[48];

	for (col = 0; col < fig->nr_time_cols; col++) {
		for (int k = 0; k < SP_LATPLOT_NR_LOG2; k++) {
			uint32_t n = fig->time_hist[col * SP_LATPLOT_NR_LOG2 + k];

			if (!n)
				continue;
			max = n > max ? n : max;
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
		}
	}
	if (!max || fig->t1_ns <= fig->t0_ns)
		return -EINVAL;
	ret = sp_log_axis_fit(&ya, exp2(lo), exp2(hi + 1), SP_LOG_NS);
	if (ret)
		return ret;

	sp_layout_spec_init(&spec, theme, width, height);
	if (sp_figure_has_title(fig->title))
		spec.title_h = sp_figure_title_height(cr, theme);
	spec.left_w = sp_axis_left_width(cr, theme, sp_log_axis_label_width(cr, theme, &ya),
					 true);
	/* the colour scale, a bar right of the plot */
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	snprintf(label, sizeof(label), "%u", max);
	spec.legend = SP_LEGEND_RIGHT;
	spec.legend_w = 2 * theme->swatch + 2 * theme->pad + sp_text_width(cr, label) +
			sp_text_width(cr, "waits") / 2;
	cairo_restore(cr);
	ret = sp_figure_layout(&lay, &spec, fig->pixels, fig->pixels);
	if (ret)
		return ret;
	ret = sp_figure_time_ticks(&xt, cr, theme, lay.plot.w, fig->t0_ns, fig->t1_ns,
				   fig->origin_ns);
	if (ret)
		return ret;

	sp_figure_frame_draw(cr, theme, &lay.title, fig->title);
	cairo_save(cr);
	cairo_rectangle(cr, lay.plot.x, lay.plot.y, lay.plot.w, lay.plot.h);
	cairo_clip(cr);
	if (fig->pixels)	/* no seams between cells */
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	for (col = 0; col < fig->nr_time_cols; col++) {
		double x0 = lay.plot.x + lay.plot.w * col / fig->nr_time_cols;
		double x1 = lay.plot.x + lay.plot.w * (col + 1) / fig->nr_time_cols;

		for (int k = 0; k < SP_LATPLOT_NR_LOG2; k++) {
			uint32_t n = fig->time_hist[col * SP_LATPLOT_NR_LOG2 + k];
			double y0, y1;
			struct sp_rgb c;

			if (!n)
				continue;
			/* counts on a log scale: one wait is seen beside a thousand */
			heat_color(0.15 + 0.85 * log1p(n) / log1p(max), &c);
			y1 = lay.plot.y + lay.plot.h * (1 - sp_log_axis_frac(&ya, exp2(k)));
			y0 = lay.plot.y + lay.plot.h * (1 - sp_log_axis_frac(&ya, exp2(k + 1)));
			sp_render_set_color(cr, &c);
			cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
			cairo_fill(cr);
		}
	}
	cairo_restore(cr);
	sp_log_axis_draw_y(cr, theme, &lay.plot, &ya, "time waiting for a CPU", false);
	sp_axis_time_draw(cr, theme, &lay.plot, &xt, fig->t0_ns, fig->t1_ns, false);
	sp_axis_frame_draw(cr, theme, &lay.plot);

	/* the colour bar: 1 at the bottom, the largest count at the top */
	{
		double bx = lay.legend.x + theme->pad, by = lay.plot.y, bh = lay.plot.h * 0.6;
		int steps = 64;

		for (int i = 0; i < steps; i++) {
			struct sp_rgb c;

			heat_color(0.15 + 0.85 * (i + 0.5) / steps, &c);
			sp_render_set_color(cr, &c);
			cairo_rectangle(cr, bx, by + bh * (1 - (i + 1.0) / steps), theme->swatch,
					bh / steps + 0.5);
			cairo_fill(cr);
		}
		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, bx + theme->swatch + theme->pad, by, SP_ALIGN_LEFT | SP_ALIGN_TOP,
			     label);
		sp_text_draw(cr, bx + theme->swatch + theme->pad, by + bh,
			     SP_ALIGN_LEFT | SP_ALIGN_BOTTOM, "1");
		sp_text_draw(cr, bx, by + bh + theme->pad, SP_ALIGN_LEFT | SP_ALIGN_TOP, "waits");
		cairo_restore(cr);
	}
	return 0;
}

int sp_latency_figure_draw(cairo_t *cr, const struct sp_theme *theme,
			   const struct sp_latency_figure *fig, double width, double height)
{
	static const char *const y_titles[] = {
		[SP_LATPLOT_CDF] = "waits at most this long",
		[SP_LATPLOT_CCDF] = "waits longer than this",
		[SP_LATPLOT_HIST] = "waits per power-of-two bucket",
	};
	struct sp_log_axis xa, ya = { 0 };
	struct sp_int_ticks yt = { 0 };
	struct sp_layout_spec spec;
	struct table table;
	struct sp_layout lay;
	double min, max, label_w, note_h = 0;
	size_t i, n_max = 1;
	int ret;

	if (fig->plot == SP_LATPLOT_TIME)
		return fig->time_hist ? draw_time_map(cr, theme, fig, width, height) : -EINVAL;
	ret = value_range(fig, &min, &max);
	if (ret)
		return ret;
	ret = sp_log_axis_fit(&xa, min, max, SP_LOG_NS);
	if (ret)
		return ret;
	for (i = 0; i < fig->nr_series; i++)
		if (fig->series[i].n > n_max)
			n_max = fig->series[i].n;
	if (fig->plot == SP_LATPLOT_CCDF)
		sp_log_axis_fit(&ya, 1.0 / (double)n_max, 1, SP_LOG_FRACTION);
	if (fig->plot == SP_LATPLOT_HIST)
		sp_int_ticks_compute(&yt, hist_max(fig), 6);

	sp_layout_spec_init(&spec, theme, width, height);
	if (sp_figure_has_title(fig->title))
		spec.title_h = sp_figure_title_height(cr, theme);
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	if (fig->note) {
		note_h = sp_text_height(cr) + theme->pad;
		spec.top_h = fmax(spec.top_h, note_h + theme->pad);
	}
	if (fig->plot == SP_LATPLOT_CCDF)
		label_w = sp_log_axis_label_width(cr, theme, &ya);
	else if (fig->plot == SP_LATPLOT_HIST)
		label_w = sp_text_width(cr, yt.ticks[yt.nr_ticks ? yt.nr_ticks - 1 : 0].label);
	else
		label_w = sp_text_width(cr, "100%");
	cairo_restore(cr);
	spec.left_w = sp_axis_left_width(cr, theme, label_w, true);
	if (fig->legend && table_plan(cr, theme, &table, fig) > 0) {
		spec.legend = SP_LEGEND_BELOW;
		spec.legend_h = table_plan(cr, theme, &table, fig);
	}
	ret = sp_figure_layout(&lay, &spec, fig->pixels, fig->pixels);
	if (ret)
		return ret;

	sp_figure_frame_draw(cr, theme, &lay.title, fig->title);
	if (fig->note) {
		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, lay.plot.x, lay.plot.y - theme->pad,
			     SP_ALIGN_LEFT | SP_ALIGN_BOTTOM, fig->note);
		cairo_restore(cr);
	}
	if (fig->plot == SP_LATPLOT_HIST)
		sp_axis_int_draw(cr, theme, &lay.plot, &yt, y_titles[fig->plot], true);
	else
		draw_share_axis(cr, theme, fig, &lay.plot, &ya, y_titles[fig->plot]);
	sp_log_axis_draw_x(cr, theme, &lay.plot, &xa, "time waiting for a CPU", true);

	cairo_save(cr);
	cairo_rectangle(cr, lay.plot.x, lay.plot.y, lay.plot.w, lay.plot.h);
	cairo_clip(cr);
	if (fig->plot != SP_LATPLOT_HIST)
		draw_guides(cr, theme, fig, &lay.plot, &ya);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	/* thin lines first, so the thick ones of the groups stay on top */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < fig->nr_series; i++) {
			const struct sp_latency_series *s = &fig->series[i];
			struct sp_rgb c;

			if (!s->n || s->thin != (pass == 0))
				continue;
			series_rgb(fig, s, &c);
			sp_render_set_color(cr, &c);
			if (fig->plot == SP_LATPLOT_HIST) {
				draw_hist(cr, theme, fig, s, &lay.plot, &xa, yt.top,
					  fig->nr_series == 1);
				continue;
			}
			draw_distribution(cr, fig, s, &lay.plot, &xa, &ya,
					  s->thin ? theme->data_line_width / 2
						  : theme->data_line_width * 1.5);
			if (!s->thin)
				draw_marks(cr, theme, fig, s, &lay.plot, &xa, &ya);
		}
	}
	if (fig->plot == SP_LATPLOT_CDF || fig->plot == SP_LATPLOT_CCDF)
		draw_vmarks(cr, theme, fig, &lay.plot, &xa);
	cairo_restore(cr);
	sp_axis_frame_draw(cr, theme, &lay.plot);
	if (fig->legend && lay.legend.w > 0) {
		struct sp_rect area = lay.legend;

		area.x = lay.plot.x;
		table_draw(cr, theme, &table, &area);
	}
	return 0;
}
