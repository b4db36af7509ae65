// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare view: the runs of two groups, their wait distributions and the
 * shift function between them, on one page or each alone, and the
 * ridgeline: every run's waits as a histogram on log x, one row per run.
 * Work is proportional to the runs and the pixels: the CDF panel is the
 * latency view's, evaluated per column.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/analysis/crossings.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/base/alloc.h"
#include "schedplot/draw/axes.h"
#include "schedplot/model/envelope.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/rwgraph.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/logaxis.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/compare.h"
#include "schedplot/views/latency.h"

#define NR_Y_TICKS	6

/* A linear axis: ticks at multiples of 1, 2 or 5 x 10^k covering [lo, hi]. */
struct lin_axis {
	double lo, hi;
	double step;
	int nr_ticks;
	char labels[16][24];
	double ticks[16];
};

/*
 * Room right of a plot with x labels: the last one is centred on the
 * plot's right edge and must not leave the image (as sp_layout_spec's
 * right_w).
 */
static double right_room(const struct sp_theme *theme)
{
	return 2 * theme->font_size;
}

static void lin_axis_fit(struct lin_axis *a, double lo, double hi)
{
	double span, raw, mag, step, t;
	int n = 0;

	if (!(hi > lo)) {
		double d = lo != 0 ? fabs(lo) * 0.1 : 1;

		lo -= d;
		hi += d;
	}
	span = hi - lo;
	raw = span / (NR_Y_TICKS - 1);
	mag = pow(10, floor(log10(raw)));
	step = raw / mag <= 1 ? mag : raw / mag <= 2 ? 2 * mag : raw / mag <= 5 ? 5 * mag :
	       10 * mag;
	a->step = step;
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	for (t = a->lo; t <= a->hi + step / 2 && n < 16; t += step, n++) {
		double v = fabs(t) < step / 1e6 ? 0 : t;

		a->ticks[n] = v;
		snprintf(a->labels[n], sizeof(a->labels[n]), "%.6g", v);
	}
	a->nr_ticks = n;
}

static double lin_y(const struct lin_axis *a, const struct sp_rect *plot, double v)
{
	return plot->y + plot->h - (v - a->lo) / (a->hi - a->lo) * plot->h;
}

static double lin_label_width(cairo_t *cr, const struct sp_theme *theme,
			      const struct lin_axis *a)
{
	const char *labels[16];
	int i;

	for (i = 0; i < a->nr_ticks; i++)
		labels[i] = a->labels[i];
	return sp_axis_label_width(cr, theme, labels, a->nr_ticks);
}

static void lin_axis_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  const struct lin_axis *a, const char *title, double left_w)
{
	int i;

	for (i = 0; i < a->nr_ticks; i++) {
		double y = lin_y(a, plot, a->ticks[i]);

		cairo_save(cr);
		sp_axis_grid_line(cr, theme, plot->x, y, plot->x + plot->w, y);
		cairo_restore(cr);
		sp_axis_left_tick(cr, theme, plot, y, a->labels[i]);
	}
	if (title) {
		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw_vertical(cr, plot->x - left_w + theme->pad, plot->y + plot->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_TOP, title);
		cairo_restore(cr);
	}
	sp_axis_frame_draw(cr, theme, plot);
}

/* Four significant digits, never in exponent form: "249.4", "11430". */
static void format_num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e4 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void group_rgb(size_t i, struct sp_rgb *c)
{
	sp_palette_color(NULL, i, &c->r, &c->g, &c->b);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The runs panel: one half of the plot per group, dots sorted by value. */
static int draw_runs(cairo_t *cr, const struct sp_theme *theme,
		     const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	double lo = INFINITY, hi = -INFINITY, left_w, text_h, r;
	struct sp_rect plot;
	struct lin_axis ax;
	size_t i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < fig->groups[i].nr_runs; j++) {
			double v = fig->groups[i].values[j];

			if (isfinite(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	if (!isfinite(lo))
		lo = hi = 0;
	/* room for the dots at both ends, not below 0 for values that are not */
	r = (hi - lo) * 0.04;
	lin_axis_fit(&ax, lo >= 0 && lo - r < 0 ? 0 : lo - r, hi + r);
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	cairo_restore(cr);
	left_w = sp_axis_left_width(cr, theme, lin_label_width(cr, theme, &ax), true);
	plot.x = area->x + left_w;
	plot.w = area->w - left_w - theme->margin;
	plot.y = area->y + text_h + 2 * theme->pad;
	plot.h = area->h - (plot.y - area->y) - text_h - 2 * theme->pad;
	if (plot.w < SP_LAYOUT_MIN_PLOT || plot.h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	if (fig->pixels) {
		sp_figure_snap_x(&plot);
		sp_figure_snap_y(&plot);
	}
	lin_axis_draw(cr, theme, &plot, &ax, fig->y_title, left_w);
	r = fmax(2.0, theme->font_size / 3);
	for (i = 0; i < 2; i++) {
		const struct sp_compare_runs *g = &fig->groups[i];
		double x0 = plot.x + plot.w * i / 2, w = plot.w / 2, y;
		double *v = sp_alloc_array(g->nr_runs ? g->nr_runs : 1, sizeof(*v));
		struct sp_rgb c;
		char label[96], num[32];

		if (!v)
			return -ENOMEM;
		memcpy(v, g->values, g->nr_runs * sizeof(*v));
		qsort(v, g->nr_runs, sizeof(*v), cmp_double);
		group_rgb(i, &c);
		cairo_save(cr);
		cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
		cairo_clip(cr);
		if (isfinite(g->ci_lo) && isfinite(g->ci_hi)) {
			double y0 = lin_y(&ax, &plot, g->ci_hi), y1 = lin_y(&ax, &plot, g->ci_lo);

			cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.2);
			cairo_rectangle(cr, x0 + w * 0.05, y0, w * 0.9, fmax(y1 - y0, 1));
			cairo_fill(cr);
		}
		if (isfinite(g->median)) {
			y = lin_y(&ax, &plot, g->median);
			sp_render_set_color(cr, &c);
			cairo_set_line_width(cr, theme->data_line_width);
			cairo_move_to(cr, x0 + w * 0.05, y);
			cairo_line_to(cr, x0 + w * 0.95, y);
			cairo_stroke(cr);
		}
		for (j = 0; j < g->nr_runs; j++) {
			double x = x0 + w * (0.1 + 0.8 * (j + 0.5) / (double)g->nr_runs);

			if (!isfinite(v[j]))
				continue;
			cairo_arc(cr, x, lin_y(&ax, &plot, v[j]), r, 0, 2 * M_PI);
			sp_render_set_color(cr, &c);
			cairo_fill_preserve(cr);
			sp_render_set_color(cr, &theme->axis);
			cairo_set_line_width(cr, theme->axis_line_width / 2);
			cairo_stroke(cr);
		}
		cairo_restore(cr);
		free(v);

		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		sp_render_set_color(cr, &theme->text);
		format_num(num, sizeof(num), g->median);
		if (isfinite(g->cv))
			snprintf(label, sizeof(label), "median %s%s, CV %.1f%%", num,
				 isfinite(g->ci_lo) ? " (95% band)" : "", 100 * g->cv);
		else
			snprintf(label, sizeof(label), "median %s", num);
		sp_text_draw(cr, x0 + w / 2, plot.y - theme->pad, SP_ALIGN_CENTER | SP_ALIGN_BOTTOM,
			     label);
		snprintf(label, sizeof(label), "%s (%zu)", g->name, g->nr_runs);
		sp_render_font(cr, theme, theme->font_size, true);
		sp_text_draw(cr, x0 + w / 2, plot.y + plot.h + theme->pad,
			     SP_ALIGN_CENTER | SP_ALIGN_TOP, label);
		cairo_restore(cr);
	}
	/* the two halves apart */
	cairo_save(cr);
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, theme->grid_line_width);
	cairo_move_to(cr, plot.x + plot.w / 2, plot.y);
	cairo_line_to(cr, plot.x + plot.w / 2, plot.y + plot.h);
	cairo_stroke(cr);
	cairo_restore(cr);
	return 0;
}

static uint64_t nearest_rank(const uint64_t *v, size_t n, double p)
{
	size_t k = (size_t)ceil(p * (double)n);

	return n ? v[(k ? k : 1) - 1] : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The CDF panel: each group's waits pooled (thick), each run (thin). */
static int draw_cdf(cairo_t *cr, const struct sp_theme *theme,
		    const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	struct sp_latency_series *series;
	struct sp_latency_figure lf = { 0 };
	uint64_t *pooled[2] = { NULL, NULL }, *marks = NULL;
	size_t i, j, n = 0, nr_series = 2;
	int ret;

	for (i = 0; i < 2; i++)
		nr_series += fig->groups[i].nr_waits_runs;
	series = calloc(nr_series, sizeof(*series));
	if (!series)
		return -ENOMEM;
	for (i = 0; i < 2; i++) {
		const struct sp_compare_runs *g = &fig->groups[i];
		size_t total = 0, k = 0;

		for (j = 0; j < g->nr_waits_runs; j++)
			total += g->nr_waits[j];
		pooled[i] = sp_alloc_array(total ? total : 1, sizeof(uint64_t));
		if (!pooled[i]) {
			ret = -ENOMEM;
			goto out;
		}
		for (j = 0; j < g->nr_waits_runs; j++) {
			struct sp_latency_series *s = &series[n++];

			memcpy(pooled[i] + k, g->waits[j], g->nr_waits[j] * sizeof(uint64_t));
			k += g->nr_waits[j];
			s->name = g->name;
			s->v = g->waits[j];
			s->n = g->nr_waits[j];
			s->p50 = nearest_rank(s->v, s->n, 0.5);
			s->p99 = nearest_rank(s->v, s->n, 0.99);
			s->color = i;
			s->thin = true;
		}
		qsort(pooled[i], total, sizeof(uint64_t), cmp_u64);
		series[n].name = g->name;
		series[n].v = pooled[i];
		series[n].n = total;
		series[n].p50 = nearest_rank(pooled[i], total, 0.5);
		series[n].p99 = nearest_rank(pooled[i], total, 0.99);
		series[n].color = i;
		n++;
	}
	lf.plot = SP_LATPLOT_CDF;
	lf.series = series;
	lf.nr_series = n;
	lf.legend = true;
	lf.pixels = fig->pixels;
	lf.note = fig->nr_crossings ?
		  "wakeup latency: each group's runs pooled (thick), each run (thin); "
		  "dashed: where the pooled CDFs cross" :
		  "wakeup latency: each group's runs pooled (thick), each run (thin)";
	marks = sp_alloc_array(fig->nr_crossings + 1, sizeof(*marks));
	if (!marks) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < fig->nr_crossings; i++)
		marks[i] = fig->crossings[i].at_ns;
	lf.marks_ns = marks;
	lf.nr_marks = fig->nr_crossings;
	cairo_save(cr);
	cairo_rectangle(cr, area->x, area->y, area->w, area->h);
	cairo_clip(cr);
	cairo_translate(cr, area->x, area->y);
	ret = sp_latency_figure_draw(cr, theme, &lf, area->w, area->h);
	cairo_restore(cr);
out:
	free(marks);
	free(pooled[0]);
	free(pooled[1]);
	free(series);
	return ret;
}

/*
 * The shift panel's scales: x is A's decile on a log axis (or the decile's
 * number), y the difference on a signed log scale around 0.
 */
struct shift_scale {
	struct sp_rect plot;
	struct sp_log_axis x;
	bool log_x;
	bool ns;		/* values are ns: time labels */
	double s;		/* display units per value unit */
	int k_lin;		/* L = 10^k_lin: linear within +-L */
	double y_lo, y_hi;	/* the ends of y in symlog units */
	double left_w;
};

static double symlog(const struct shift_scale *sc, double v)
{
	double l = pow(10, sc->k_lin);

	return copysign(log10(1 + fabs(v) / l), v);
}

static double shift_y(const struct shift_scale *sc, double v)
{
	const struct sp_rect *p = &sc->plot;

	return p->y + p->h - (symlog(sc, v * sc->s) - sc->y_lo) / (sc->y_hi - sc->y_lo) * p->h;
}

static double shift_x(const struct shift_scale *sc, int d, double a)
{
	const struct sp_rect *p = &sc->plot;

	if (sc->log_x)
		return p->x + p->w * sp_log_axis_frac(&sc->x, a);
	return p->x + p->w * (d + 0.5) / SP_NR_DECILES;
}

/* the decade of the largest |v| at or above @v, in symlog units */
static double symlog_end(const struct shift_scale *sc, double v)
{
	double l = pow(10, sc->k_lin);

	if (fabs(v) <= l)
		return copysign(log10(2), v);
	return copysign(log10(1 + pow(10, ceil(log10(fabs(v)) - 1e-9)) / l), v);
}

/* the y tick label of sign * 10^k: "+10 µs" for ns, else "+10" */
static void shift_tick_label(const struct shift_scale *sc, char *buf, size_t len, int sign, int k)
{
	char num[32];

	if (!sign)
		snprintf(buf, len, "0");
	else if (sc->ns)
		snprintf(buf, len, "%s%s", sign < 0 ? "-" : "+", sp_log_label(num, sizeof(num), k,
									   SP_LOG_NS));
	else
		snprintf(buf, len, "%s%g", sign < 0 ? "-" : "+", pow(10, k));
}

static int shift_layout(cairo_t *cr, const struct sp_theme *theme,
			const struct sp_compare_figure *fig, const struct sp_rect *area,
			struct shift_scale *sc)
{
	const struct sp_shift *sh = fig->shift;
	double lo = 0, hi = 0, small = INFINITY, amin = INFINITY, amax = 0, text_h, w = 0, span;
	char label[32];
	size_t i, j;
	int d, k;

	memset(sc, 0, sizeof(*sc));
	sc->ns = fig->shift_ns;
	sc->s = sc->ns || !fig->shift_scale ? 1 : fig->shift_scale;
	for (d = 0; d < SP_NR_DECILES; d++) {
		const struct sp_shift_decile *dec = &sh->dec[d];
		double v[3] = { dec->diff * sc->s, dec->ci_lo * sc->s, dec->ci_hi * sc->s };

		for (k = 0; k < 3; k++) {
			lo = fmin(lo, v[k]);
			hi = fmax(hi, v[k]);
			if (v[k] != 0)
				small = fmin(small, fabs(v[k]));
		}
		amin = fmin(amin, dec->a);
		amax = fmax(amax, dec->a);
	}
	/* the decades of the CDF panel: every wait of every run */
	for (i = 0; i < 2; i++)
		for (j = 0; j < fig->groups[i].nr_waits_runs; j++) {
			const struct sp_compare_runs *g = &fig->groups[i];

			for (k = 0; k < (int)g->nr_waits[j] && !g->waits[j][k]; k++)
				;
			if (k < (int)g->nr_waits[j]) {
				amin = fmin(amin, (double)g->waits[j][k]);
				amax = fmax(amax, (double)g->waits[j][g->nr_waits[j] - 1]);
			}
		}
	sc->log_x = fig->shift_ns && amin > 0 && !sp_log_axis_fit(&sc->x, amin, amax, SP_LOG_NS);
	if (!isfinite(small))
		small = 1;
	/* a few decades of detail around 0 at most */
	sc->k_lin = (int)floor(log10(fmax(small, fmax(-lo, hi) * 1e-4)) + 1e-9);
	sc->y_lo = lo < 0 ? symlog_end(sc, lo) : -log10(2);
	sc->y_hi = hi > 0 ? symlog_end(sc, hi) : log10(2);
	/* room for a point's circle at the end of a decade */
	span = sc->y_hi - sc->y_lo;
	sc->y_lo -= 0.04 * span;
	sc->y_hi += 0.04 * span;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	for (k = sc->k_lin; k <= sc->k_lin + 20; k++) {
		shift_tick_label(sc, label, sizeof(label), -1, k);
		w = fmax(w, sp_text_width(cr, label));
	}
	cairo_restore(cr);
	sc->left_w = sp_axis_left_width(cr, theme, w, true);
	sc->plot.x = area->x + sc->left_w;
	sc->plot.w = area->w - sc->left_w - right_room(theme);
	sc->plot.y = area->y + text_h + 2 * theme->pad;
	sc->plot.h = area->h - (sc->plot.y - area->y) - 2 * text_h - 3 * theme->pad -
		     (sc->log_x ? theme->tick_len : 0);
	if (sc->plot.w < SP_LAYOUT_MIN_PLOT || sc->plot.h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	if (fig->pixels) {
		sp_figure_snap_x(&sc->plot);
		sp_figure_snap_y(&sc->plot);
	}
	return 0;
}

/* y ticks at 0 and +-10^k, bottom up, each where it does not crowd the last */
static void shift_y_axis(cairo_t *cr, const struct sp_theme *theme, const struct shift_scale *sc,
			 const char *title)
{
	const struct sp_rect *p = &sc->plot;
	double last_y = INFINITY, text_h;
	char label[48];
	int i;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	cairo_restore(cr);
	for (i = -21; i <= 21; i++) {
		int sign = i < 0 ? -1 : i > 0 ? 1 : 0, k = sc->k_lin + abs(i) - 1;
		double y = p->y + p->h - (symlog(sc, sign * pow(10, k)) - sc->y_lo) /
			   (sc->y_hi - sc->y_lo) * p->h;

		if (y < p->y - 0.5 || y > p->y + p->h + 0.5 || last_y - y < 1.2 * text_h)
			continue;
		last_y = y;
		cairo_save(cr);
		sp_axis_grid_line(cr, theme, p->x, y, p->x + p->w, y);
		cairo_restore(cr);
		shift_tick_label(sc, label, sizeof(label), sign, k);
		sp_axis_left_tick(cr, theme, p, y, label);
	}
	if (title) {
		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw_vertical(cr, p->x - sc->left_w + theme->pad, p->y + p->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_TOP, title);
		cairo_restore(cr);
	}
	sp_axis_frame_draw(cr, theme, p);
}

/* the shift panel's area when it is the whole figure */
static void shift_area(cairo_t *cr, const struct sp_theme *theme,
		       const struct sp_compare_figure *fig, double width, double height,
		       struct sp_rect *area)
{
	double title_h = sp_figure_has_title(fig->title) ? sp_figure_title_height(cr, theme) : 0;

	area->x = theme->margin;
	area->w = width - 2 * theme->margin;
	area->y = theme->margin + title_h;
	area->h = height - title_h - 2 * theme->margin;
	if (fig->pixels) {
		area->y = round(area->y);
		area->h = floor(area->h);
	}
}

int sp_compare_shift_points(cairo_t *cr, const struct sp_theme *theme,
			    const struct sp_compare_figure *fig, double width, double height,
			    struct sp_compare_shift_point *pts)
{
	struct shift_scale sc;
	struct sp_rect area;
	int d, ret;

	if (!fig->shift)
		return -EINVAL;
	shift_area(cr, theme, fig, width, height, &area);
	ret = shift_layout(cr, theme, fig, &area, &sc);
	if (ret)
		return ret;
	for (d = 0; d < SP_NR_DECILES; d++) {
		const struct sp_shift_decile *dec = &fig->shift->dec[d];

		pts[d].x = shift_x(&sc, d, dec->a);
		pts[d].y = shift_y(&sc, dec->diff);
		pts[d].y_lo = shift_y(&sc, dec->ci_lo);
		pts[d].y_hi = shift_y(&sc, dec->ci_hi);
		pts[d].y_zero = shift_y(&sc, 0);
	}
	return 0;
}

/*
 * The shift panel: B - A at each of A's deciles, its interval as a bar;
 * significant deciles filled, the others hollow, each labelled 0.1..0.9
 * where the label fits.
 */
static int draw_shift(cairo_t *cr, const struct sp_theme *theme,
		      const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	const struct sp_shift *sh = fig->shift;
	double r = fmax(2.5, theme->font_size / 2.5), text_h, label_end = -INFINITY;
	struct shift_scale sc;
	struct sp_rgb c;
	char label[256];
	int d, ret, withheld = 0;

	ret = shift_layout(cr, theme, fig, area, &sc);
	if (ret)
		return ret;
	shift_y_axis(cr, theme, &sc, fig->shift_title);
	if (sc.log_x)
		sp_log_axis_draw_x(cr, theme, &sc.plot, &sc.x, NULL, true);
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, theme->axis_line_width);
	cairo_move_to(cr, sc.plot.x, shift_y(&sc, 0));
	cairo_line_to(cr, sc.plot.x + sc.plot.w, shift_y(&sc, 0));
	cairo_stroke(cr);
	group_rgb(1, &c);
	for (d = 0; d < SP_NR_DECILES; d++) {
		const struct sp_shift_decile *dec = &sh->dec[d];
		double x = shift_x(&sc, d, dec->a), y = shift_y(&sc, dec->diff), w;

		sp_render_set_color(cr, &theme->text);
		cairo_set_line_width(cr, theme->data_line_width);
		/* a decile whose sample cannot carry an interval has none */
		if (isfinite(dec->ci_lo) && isfinite(dec->ci_hi)) {
			cairo_move_to(cr, x, shift_y(&sc, dec->ci_lo));
			cairo_line_to(cr, x, shift_y(&sc, dec->ci_hi));
			cairo_stroke(cr);
		} else {
			withheld++;
		}
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		if (dec->significant)
			sp_render_set_color(cr, &c);
		else
			sp_render_set_color(cr, &theme->background);
		cairo_fill_preserve(cr);
		sp_render_set_color(cr, &theme->text);
		cairo_set_line_width(cr, theme->axis_line_width);
		cairo_stroke(cr);
		snprintf(label, sizeof(label), "%.1f", dec->q);
		if (!sc.log_x) {
			sp_text_draw(cr, x, sc.plot.y + sc.plot.h + theme->pad,
				     SP_ALIGN_CENTER | SP_ALIGN_TOP, label);
			continue;
		}
		/* right of the point, above its middle, unless it would crowd */
		w = sp_text_width(cr, label);
		if (x + r + theme->pad / 2 < label_end || x + r + w > sc.plot.x + sc.plot.w ||
		    (d + 1 < SP_NR_DECILES &&
		     shift_x(&sc, d + 1, sh->dec[d + 1].a) - r < x + r + theme->pad + w))
			continue;
		sp_text_draw(cr, x + r + theme->pad / 2, y - r / 2, SP_ALIGN_LEFT | SP_ALIGN_BOTTOM,
			     label);
		label_end = x + r + theme->pad + w;
	}
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, sc.plot.x + sc.plot.w / 2, sc.plot.y + sc.plot.h + 2 * theme->pad +
		     text_h + (sc.log_x ? theme->tick_len : 0), SP_ALIGN_CENTER | SP_ALIGN_TOP,
		     sc.log_x ? "decile of the first group (Harrell-Davis, log)" :
		     "decile (Harrell-Davis)");
	if (withheld == SP_NR_DECILES)
		snprintf(label, sizeof(label), "shift function: %s - %s at each decile (signed "
			 "log y); no intervals: %s", fig->groups[1].name, fig->groups[0].name,
			 sh->dec[0].support == SP_SHIFT_FEW_RUNS ? "too few runs a group" :
			 "too few values a group");
	else
		snprintf(label, sizeof(label), "shift function: %s - %s at each decile (signed "
			 "log y), 95%% intervals of %zu resamples%s; filled: significant",
			 fig->groups[1].name, fig->groups[0].name, sh->nr_boot,
			 withheld ? " where the groups are large enough" : "");
	sp_text_draw(cr, sc.plot.x, sc.plot.y - theme->pad, SP_ALIGN_LEFT | SP_ALIGN_BOTTOM, label);
	cairo_restore(cr);
	return 0;
}

/* a panel's name, above its left corner */
static void panel_label(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *p,
			const char *label)
{
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, p->x, p->y - theme->pad / 2, SP_ALIGN_LEFT | SP_ALIGN_BOTTOM, label);
	cairo_restore(cr);
}

/* where a run settled: a dashed line over its panel, "settled" beside it */
static void draw_settled(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *p,
			 double x, bool pixels)
{
	static const double dash[] = { 4, 3 };

	if (x <= p->x || x >= p->x + p->w)
		return;
	if (pixels)
		x = round(x) + 0.5;
	cairo_save(cr);
	sp_figure_mark_x(cr, theme, p, x, dash);
	sp_render_font(cr, theme, theme->font_size * 0.85, false);
	sp_text_draw(cr, x + theme->pad / 2, p->y + theme->pad / 2, SP_ALIGN_LEFT | SP_ALIGN_TOP,
		     "settled");
	cairo_restore(cr);
}

#define RIDGE_BINS	96	/* histogram bins across the log axis */
#define RIDGE_RISE	1.0	/* a row's tallest bin, in row heights */

/*
 * The ridgeline: one row per run, in the order given (A's runs, then B's),
 * each its waits' histogram over log-spaced bins, scaled to its own
 * tallest bin and filled in its group's colour.
 */
static int draw_ridgeline(cairo_t *cr, const struct sp_theme *theme,
			  const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	double lo = INFINITY, hi = 0, label_w = 0, text_h, row_h, bins[RIDGE_BINS];
	size_t i, j, k, nr_rows = 0, row = 0;
	struct sp_log_axis ax;
	struct sp_rect plot;
	char label[256];

	for (i = 0; i < 2; i++)
		for (j = 0; j < fig->groups[i].nr_waits_runs; j++) {
			const struct sp_compare_runs *g = &fig->groups[i];

			nr_rows++;
			for (k = 0; k < g->nr_waits[j]; k++) {
				if (g->waits[j][k] > 0)
					lo = fmin(lo, (double)g->waits[j][k]);
				hi = fmax(hi, (double)g->waits[j][k]);
			}
		}
	if (!nr_rows || !isfinite(lo))
		return -EINVAL;
	if (sp_log_axis_fit(&ax, lo, hi, SP_LOG_NS))
		return -EINVAL;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	for (i = 0; i < 2; i++)
		for (j = 0; j < fig->groups[i].nr_waits_runs; j++) {
			const struct sp_compare_runs *g = &fig->groups[i];

			snprintf(label, sizeof(label), "%s  %s", g->name,
				 g->labels && g->labels[j] ? g->labels[j] : "");
			label_w = fmax(label_w, sp_text_width(cr, label));
		}
	cairo_restore(cr);
	plot.x = area->x + label_w + 2 * theme->pad;
	plot.w = area->w - (plot.x - area->x) - right_room(theme);
	plot.y = area->y + 2 * text_h + 2 * theme->pad;
	plot.h = area->h - (plot.y - area->y) - 3 * text_h - 3 * theme->pad;
	if (plot.w < SP_LAYOUT_MIN_PLOT || plot.h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	if (fig->pixels) {
		sp_figure_snap_x(&plot);
		sp_figure_snap_y(&plot);
	}
	/* the top row rises RIDGE_RISE - 1 rows above the plot's first row */
	row_h = plot.h / ((double)nr_rows + RIDGE_RISE - 1);
	sp_log_axis_draw_x(cr, theme, &plot, &ax, "time waiting for a CPU (log)", true);

	cairo_save(cr);
	for (i = 0; i < 2; i++) {
		const struct sp_compare_runs *g = &fig->groups[i];
		struct sp_rgb c;

		group_rgb(i, &c);
		for (j = 0; j < g->nr_waits_runs; j++, row++) {
			double base = plot.y + plot.h - (double)(nr_rows - 1 - row) * row_h;
			double top = 0;

			memset(bins, 0, sizeof(bins));
			for (k = 0; k < g->nr_waits[j]; k++) {
				double f = sp_log_axis_frac(&ax, (double)g->waits[j][k]);
				size_t b = (size_t)(f * RIDGE_BINS);

				bins[b < RIDGE_BINS ? b : RIDGE_BINS - 1]++;
			}
			for (k = 0; k < RIDGE_BINS; k++)
				top = fmax(top, bins[k]);
			cairo_move_to(cr, plot.x, base);
			for (k = 0; k < RIDGE_BINS; k++) {
				double y = base - (top ? bins[k] / top : 0) * RIDGE_RISE * row_h;

				double x0 = plot.x + plot.w * (double)k / RIDGE_BINS;

				cairo_line_to(cr, x0, y);
				cairo_line_to(cr, x0 + plot.w / RIDGE_BINS, y);
			}
			cairo_line_to(cr, plot.x + plot.w, base);
			cairo_close_path(cr);
			cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.75);
			cairo_fill_preserve(cr);
			sp_render_set_color(cr, &theme->text);
			cairo_set_line_width(cr, theme->axis_line_width);
			cairo_stroke(cr);
			sp_render_font(cr, theme, theme->font_size, false);
			snprintf(label, sizeof(label), "%s  %s", g->name,
				 g->labels && g->labels[j] ? g->labels[j] : "");
			sp_text_draw(cr, plot.x - theme->pad, base,
				     SP_ALIGN_RIGHT | SP_ALIGN_BOTTOM, label);
		}
	}
	sp_render_font(cr, theme, theme->font_size, false);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, plot.x, area->y + theme->pad, SP_ALIGN_LEFT | SP_ALIGN_TOP,
		     "wakeup latency of each run: histogram on log x, scaled to its tallest bin");
	cairo_restore(cr);
	return 0;
}

#define GRAPH_KEYS	64	/* each run's longest-running commands considered */
#define GRAPH_LEGEND	12	/* commands in the legend */

struct graph_key {
	struct sp_legend_entry e;
	uint64_t ns;
};

static int cmp_graph_key(const void *pa, const void *pb)
{
	const struct graph_key *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->e.label, b->e.label);
}

/*
 * The commands of all runs, by their time summed over the runs (each run's
 * GRAPH_KEYS longest only): a colour is one command's in every run.
 * @keys is allocated; Return: how many, or -ENOMEM.
 */
static long graph_keys(const struct sp_compare_figure *fig, struct graph_key **keys)
{
	size_t i, j, k, n = 0;
	struct graph_key *g;

	g = sp_alloc_array(fig->nr_graphs * GRAPH_KEYS + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < fig->nr_graphs; i++) {
		const struct sp_datagraph *dg = fig->graphs[i];
		size_t end = dg->nr_keys < SP_DG_NR_SPECIAL_KEYS + GRAPH_KEYS ?
			     dg->nr_keys : SP_DG_NR_SPECIAL_KEYS + GRAPH_KEYS;

		for (j = SP_DG_NR_SPECIAL_KEYS; j < end; j++) {
			for (k = 0; k < n && strcmp(g[k].e.label, dg->keys[j].label); k++)
				;
			if (k == n)
				g[n++] = (struct graph_key){
					{ .color = dg->keys[j].color, .label = dg->keys[j].label },
					0 };
			g[k].ns += dg->keys[j].ns;
		}
	}
	if (n)
		qsort(g, n, sizeof(*g), cmp_graph_key);
	*keys = g;
	return (long)n;
}

/*
 * Small multiples: every run's datagraph, one above the other in the order
 * given, each labelled with its group and file.  Every timeline spans the
 * same length from its own run's start, so one time axis (under the last)
 * serves all; colours by command are the same in every run, and one legend
 * under all names the commands that ran longest over all runs.
 */
static int draw_graphs(cairo_t *cr, const struct sp_theme *theme,
		       const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	struct sp_legend_entry entries[GRAPH_LEGEND + 2];
	double rows_w = 0, text_h, panel_h, legend_h;
	const struct sp_datagraph *last;
	struct sp_legend legend = { 0 };
	struct sp_time_ticks ticks;
	struct graph_key *keys;
	struct sp_rect plot;
	long nr_keys;
	size_t i, n = 0;

	if (!fig->nr_graphs)
		return -EINVAL;
	nr_keys = graph_keys(fig, &keys);
	if (nr_keys < 0)
		return (int)nr_keys;
	/* idle, no data (after a shorter run's end), then the commands */
	entries[n++] = (struct sp_legend_entry){
		.color = fig->graphs[0]->keys[SP_DG_KEY_IDLE].color,
		.label = fig->graphs[0]->keys[SP_DG_KEY_IDLE].label };
	for (i = 0; i < fig->nr_graphs; i++)
		if (fig->graphs[i]->keys[SP_DG_KEY_NO_DATA].ns)
			break;
	if (i < fig->nr_graphs)
		entries[n++] = (struct sp_legend_entry){
			.color = fig->graphs[i]->keys[SP_DG_KEY_NO_DATA].color,
			.label = fig->graphs[i]->keys[SP_DG_KEY_NO_DATA].label,
			.no_data = true };
	for (i = 0; i < (size_t)nr_keys && i < GRAPH_LEGEND; i++)
		entries[n++] = keys[i].e;
	legend.entries = entries;
	legend.nr_entries = n;
	legend.nr_more = (size_t)nr_keys - i;
	legend.title = "command";
	legend_h = sp_legend_size(cr, theme, &legend, SP_LEGEND_BELOW, area->w);
	for (i = 0; i < fig->nr_graphs; i++)
		rows_w = fmax(rows_w, sp_datagraph_rows_width(cr, theme,
							       fig->graphs[i]->tl->cpu_of_row,
							       fig->graphs[i]->tl->nr_rows));
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	cairo_restore(cr);
	plot.x = area->x + rows_w;
	plot.w = area->w - rows_w - right_room(theme);
	panel_h = (area->h - 2 * text_h - 4 * theme->pad - legend_h) / (double)fig->nr_graphs;
	if (fig->pixels)	/* every panel alike, down to the pixel */
		panel_h = floor(panel_h);
	plot.h = panel_h - text_h - 2 * theme->pad;
	if (plot.w < SP_LAYOUT_MIN_PLOT || plot.h < 4) {
		free(keys);
		return -ERANGE;
	}
	last = fig->graphs[fig->nr_graphs - 1];
	for (i = 0; i < fig->nr_graphs; i++) {
		struct sp_rect p = plot;

		p.y = area->y + (double)i * panel_h + text_h + theme->pad;
		if (fig->pixels) {
			sp_figure_snap_x(&p);
			sp_figure_snap_y(&p);
		}
		panel_label(cr, theme, &p, fig->graph_labels[i]);
		sp_datagraph_draw(cr, theme, &p, fig->graphs[i]);
		sp_axis_frame_draw(cr, theme, &p);
		sp_datagraph_rows_draw(cr, theme, &p, fig->graphs[i]);
		if (i + 1 == fig->nr_graphs &&
		    !sp_figure_time_ticks(&ticks, cr, theme, p.w, last->tl->window.t0_ns, last->tl->window.t1_ns,
					  last->tl->window.t0_ns))
			sp_axis_time_draw(cr, theme, &p, &ticks, last->tl->window.t0_ns, last->tl->window.t1_ns,
					  false);
	}
	if (legend_h > 0) {
		struct sp_rect la = { area->x, area->y + area->h - legend_h, area->w, legend_h };

		sp_legend_draw(cr, theme, &legend, &la);
	}
	free(keys);
	return 0;
}

/* the plot of every running-waiting panel: x and w */
static void rw_plot_x(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *area,
		      bool pixels, struct sp_rect *plot)
{
	plot->x = area->x + sp_rwgraph_left_width(cr, theme);
	plot->w = area->w - (plot->x - area->x) - right_room(theme);
	plot->y = 0;
	plot->h = 1;
	if (pixels)
		sp_figure_snap_x(plot);
}

size_t sp_compare_graphs_cols(cairo_t *cr, const struct sp_theme *theme, bool pixels,
			      double width)
{
	struct sp_rect area = { theme->margin, 0, width - 2 * theme->margin, 1 }, plot;
	struct sp_rwgraph_style style = { .pixels = pixels };

	rw_plot_x(cr, theme, &area, pixels, &plot);
	return sp_rwgraph_nr_cols(&plot, &style, 0, 0);
}

/* the largest value a running-waiting graph shows */
static double rw_top(const struct sp_envelope *e)
{
	return fmax(e->running_max + e->lost_max, fmax(e->waiting_max, e->nr_cpus));
}

/*
 * Small multiples of the running-waiting graph: as draw_graphs(), one
 * panel per run, on one y scale (that of the run with the most tasks) so
 * that the heights compare too.  A shorter run's graph ends where the run
 * ended; the frame goes on to the longest run's end.
 */
static int draw_rw_graphs(cairo_t *cr, const struct sp_theme *theme,
			  const struct sp_compare_figure *fig, const struct sp_rect *area)
{
	struct sp_rwgraph_style style = { .shade = true, .panels = SP_RWGRAPH_PANELS_SINGLE,
					  .pixels = fig->pixels };
	const struct sp_envelope *top = NULL, *last;
	double text_h, panel_h, legend_w, legend_h, dur_ns = 1;
	struct sp_time_ticks ticks;
	struct sp_int_ticks yt;
	uint64_t end_ns;
	struct sp_rect plot;
	size_t i;

	if (!fig->nr_graphs)
		return -EINVAL;
	for (i = 0; i < fig->nr_graphs; i++)
		if (!top || rw_top(fig->envelopes[i]) > rw_top(top))
			top = fig->envelopes[i];
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	text_h = sp_text_height(cr);
	cairo_restore(cr);
	style.nr_cpus = top->nr_cpus;
	sp_rwgraph_legend_size(cr, theme, &style, true, &legend_w, &legend_h);
	rw_plot_x(cr, theme, area, fig->pixels, &plot);
	panel_h = (area->h - 2 * text_h - 4 * theme->pad - legend_h) / (double)fig->nr_graphs;
	if (fig->pixels)
		panel_h = floor(panel_h);
	plot.h = panel_h - text_h - 2 * theme->pad;
	if (plot.w < SP_LAYOUT_MIN_PLOT || plot.h < 8)
		return -ERANGE;
	if (sp_rwgraph_y_ticks(&yt, top, &style, plot.h, theme))
		return -EINVAL;
	for (i = 0; i < fig->nr_graphs; i++)
		dur_ns = fmax(dur_ns, (double)(fig->envelopes[i]->window.t1_ns -
					       fig->envelopes[i]->window.t0_ns));
	last = fig->envelopes[fig->nr_graphs - 1];
	end_ns = last->window.t0_ns + (uint64_t)dur_ns;
	if (sp_figure_time_ticks(&ticks, cr, theme, plot.w, last->window.t0_ns, end_ns,
				 last->window.t0_ns))
		return -EINVAL;
	for (i = 0; i < fig->nr_graphs; i++) {
		const struct sp_envelope *e = fig->envelopes[i];
		struct sp_time_ticks xt;
		struct sp_rect p = plot, whole;

		p.y = area->y + (double)i * panel_h + text_h + theme->pad;
		if (fig->pixels)
			sp_figure_snap_y(&p);
		/* the run's own window on the common time scale; after it, nothing */
		whole = p;
		p.w = plot.w * (double)(e->window.t1_ns - e->window.t0_ns) / dur_ns;
		if (fig->pixels)
			p.w = fmax(1, round(p.w));
		sp_axis_frame_draw(cr, theme, &whole);
		panel_label(cr, theme, &p, fig->graph_labels[i]);
		style.nr_cpus = e->nr_cpus;
		/* each run's own ticks, at the same offsets from its start */
		if (sp_figure_time_ticks(&xt, cr, theme, p.w, e->window.t0_ns, e->window.t1_ns, e->window.t0_ns))
			return -EINVAL;
		sp_rwgraph_draw_data(cr, theme, &p, e, &yt, &xt, &style);
		sp_rwgraph_draw_y_axis(cr, theme, &p, &yt);
		if (fig->warmup_ns && fig->warmup_ns[i])
			draw_settled(cr, theme, &p, p.x + plot.w * (double)fig->warmup_ns[i] / dur_ns,
				     fig->pixels);
		if (i + 1 == fig->nr_graphs)
			sp_axis_time_draw(cr, theme, &whole, &ticks, last->window.t0_ns, end_ns, false);
	}
	if (legend_h > 0) {
		struct sp_rect la = { area->x + (area->w - legend_w) / 2,
				      area->y + area->h - legend_h, legend_w, legend_h };

		sp_rwgraph_legend_draw(cr, theme, &style, true, &la);
	}
	return 0;
}

int sp_compare_figure_draw(cairo_t *cr, const struct sp_theme *theme,
			   const struct sp_compare_figure *fig, double width, double height)
{
	double share[3] = { 0 }, total = 0, y, title_h = 0;
	bool waits = false;
	struct sp_rect area;
	int i, ret = 0;
	size_t j;

	for (i = 0; i < 2; i++) {
		if (!fig->groups[i].nr_runs)
			return -EINVAL;
		for (j = 0; j < fig->groups[i].nr_waits_runs; j++)
			waits |= fig->groups[i].nr_waits[j] > 0;
	}
	switch (fig->view) {
	case SP_COMPARE_VIEW_PAGE:
		share[0] = 0.35;
		share[1] = waits ? 0.4 : 0;
		share[2] = fig->shift ? 0.25 : 0;
		break;
	case SP_COMPARE_VIEW_RUNS:
		share[0] = 1;
		break;
	case SP_COMPARE_VIEW_CDF:
	case SP_COMPARE_VIEW_RIDGELINE:
		if (!waits)
			return -EINVAL;
		share[1] = 1;
		break;
	case SP_COMPARE_VIEW_SHIFT:
		if (!fig->shift)
			return -EINVAL;
		share[2] = 1;
		break;
	case SP_COMPARE_VIEW_DATAGRAPH:
	case SP_COMPARE_VIEW_RUNNING_WAITING:
		if (!fig->nr_graphs)
			return -EINVAL;
		share[1] = 1;
		break;
	default:
		return -EINVAL;
	}
	for (i = 0; i < 3; i++)
		total += share[i];

	sp_figure_background(cr, theme);
	if (sp_figure_has_title(fig->title)) {
		struct sp_rect t = { theme->margin, theme->margin, width - 2 * theme->margin, 0 };

		title_h = sp_figure_title_height(cr, theme);
		t.h = title_h;
		sp_figure_title_draw(cr, theme, &t, fig->title);
	}
	y = theme->margin + title_h;
	for (i = 0; i < 3 && !ret; i++) {
		if (!share[i])
			continue;
		area.x = theme->margin;
		area.w = width - 2 * theme->margin;
		area.y = y;
		area.h = (height - title_h - 2 * theme->margin) * share[i] / total;
		y += area.h;
		if (fig->pixels) {
			area.y = round(area.y);
			area.h = floor(area.h);
		}
		if (i == 0)
			ret = draw_runs(cr, theme, fig, &area);
		else if (i == 1 && fig->view == SP_COMPARE_VIEW_DATAGRAPH)
			ret = draw_graphs(cr, theme, fig, &area);
		else if (i == 1 && fig->view == SP_COMPARE_VIEW_RUNNING_WAITING)
			ret = draw_rw_graphs(cr, theme, fig, &area);
		else if (i == 1 && fig->view == SP_COMPARE_VIEW_RIDGELINE)
			ret = draw_ridgeline(cr, theme, fig, &area);
		else if (i == 1)
			ret = draw_cdf(cr, theme, fig, &area);
		else
			ret = draw_shift(cr, theme, fig, &area);
	}
	if (!ret && cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		ret = -ENOMEM;
	return ret;
}
