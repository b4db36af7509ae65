// SPDX-License-Identifier: GPL-2.0-only
/*
 * rwgraph: the running/waiting view, drawn from an envelope.  PNG gets one
 * crisp bar per pixel column and series; PDF and SVG get one polygon per
 * series (and per stretch of the lost band) whose edges only turn where the
 * values change, so files stay small.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/envelope.h"
#include "schedplot/model/model.h"
#include "schedplot/views/rwgraph.h"

/*
 * Chosen to differ in lightness as well as hue (grey values about 0.24,
 * 0.47 and 0.81), and drawn with different widths, so a grey-scale print
 * keeps running, waiting and the lost band (shade_color) apart.
 */
static const struct sp_rgb running_color = { 0.00, 0.38, 0.13 };
static const struct sp_rgb waiting_color = { 0.90, 0.30, 0.25 };
static const struct sp_rgb shade_color = { 0.99, 0.78, 0.45 };
static const struct sp_rgb cpus_color = { 0.10, 0.10, 0.10 };
static const struct sp_rgb incomplete_color = { 0.94, 0.94, 0.94 };

/*
 * A column's min..max range is drawn in its series' color this much of the
 * way from white, and the column's time average over it in the full color,
 * so the average reads inside a range that fills the plot (a long trace
 * whose values swing in every column).
 */
#define RANGE_TINT 0.40

static struct sp_rgb range_color(const struct sp_rgb *c)
{
	struct sp_rgb t = { 1 + (c->r - 1) * RANGE_TINT, 1 + (c->g - 1) * RANGE_TINT,
			    1 + (c->b - 1) * RANGE_TINT };

	return t;
}

/* What a panel shows. */
enum {
	PANEL_RUNNING = 1 << 0,		/* running, the lost band and the N line */
	PANEL_WAITING = 1 << 1,
	PANEL_BOTH = PANEL_RUNNING | PANEL_WAITING,
};

/*
 * Shading levels: the fraction of a column, rounded up so none is lost;
 * the faintest level is SHADE_MIN of the full color, so even a short
 * violation is seen, and a column violated throughout gets the full color.
 */
#define SHADE_LEVELS 8
#define SHADE_MIN 0.07

static double running_width(const struct sp_theme *theme, bool pixels)
{
	return pixels ? fmax(2, round(2 * theme->data_line_width)) : 1.2 * theme->data_line_width;
}

static double waiting_width(const struct sp_theme *theme, bool pixels)
{
	return pixels ? fmax(1, round(theme->data_line_width)) : 0.6 * theme->data_line_width;
}

/* Gap between the zero line and the frame, so 0 does not hide in the axis. */
static double zero_gap(const struct sp_theme *theme)
{
	return ceil(0.35 * theme->font_size);
}

void sp_rwgraph_snap_plot(struct sp_rect *plot, const struct sp_rwgraph_style *style)
{
	if (!style->pixels)
		return;
	sp_figure_snap_x(plot);
	sp_figure_snap_y(plot);
}

size_t sp_rwgraph_nr_cols(const struct sp_rect *plot, const struct sp_rwgraph_style *style,
			  uint64_t t0_ns, uint64_t t1_ns)
{
	double n = style->pixels ? round(plot->w) : ceil(plot->w * SP_RWGRAPH_VECTOR_COLS_PER_PT);

	if (!(n >= 1))
		n = 1;
	if (t1_ns > t0_ns && n > (double)(t1_ns - t0_ns))
		n = (double)(t1_ns - t0_ns);
	return (size_t)n;
}

double sp_rwgraph_left_width(cairo_t *cr, const struct sp_theme *theme)
{
	static const char *const widest[] = { "9999", "8888", "0000" };

	return sp_axis_left_width(cr, theme, sp_axis_label_width(cr, theme, widest, 3), true);
}

double sp_rwgraph_note_height(cairo_t *cr, const struct sp_theme *theme)
{
	double h;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	h = sp_text_height(cr) + 2 * theme->pad;
	cairo_restore(cr);
	return h;
}

/*
 * Ticks from 0 past @max (at least 1), as many as fit in @plot_h, but no
 * more than give the lowest top.  When the top tick would still leave more
 * than a sixth of the plot empty (0 and 1000 for 512 CPUs in a low panel),
 * the axis ends just above @max instead, unlabelled.
 */
static int y_ticks(struct sp_int_ticks *t, long long max, double plot_h,
		   const struct sp_theme *theme)
{
	unsigned int nr = (unsigned int)fmax(2, fmin(12, floor(plot_h / (2.5 * theme->font_size))));
	unsigned int most = (unsigned int)fmax(nr, fmin(12, floor(plot_h / (1.6 * theme->font_size))
							     + 1));
	struct sp_int_ticks more;
	int ret;

	if (max < 1)
		max = 1;
	/* headroom: the largest value (and N) must not vanish in the frame */
	max += 1 + max / 20;
	ret = sp_int_ticks_compute(t, max, nr);
	while (!ret && ++nr <= most) {
		if (sp_int_ticks_compute(&more, max, nr))
			break;
		if (more.top < t->top)
			*t = more;
	}
	if (!ret && t->top * 5 > max * 6) {
		while (t->nr_ticks > 2 && t->ticks[t->nr_ticks - 1].value > max)
			t->nr_ticks--;
		t->top = max;
	}
	return ret;
}

/* The largest value a panel shows: N and running (the band never passes N), waiting. */
static long long panel_max(const struct sp_envelope *env, const struct sp_rwgraph_style *style,
			   unsigned int what)
{
	long long max = 0;

	if (what & PANEL_RUNNING) {
		max = style->nr_cpus;
		if (env->running_max > max)
			max = env->running_max;
	}
	if ((what & PANEL_WAITING) && env->waiting_max > max)
		max = env->waiting_max;
	return max;
}

int sp_rwgraph_y_ticks(struct sp_int_ticks *t, const struct sp_envelope *env,
		       const struct sp_rwgraph_style *style, double plot_h,
		       const struct sp_theme *theme)
{
	return y_ticks(t, panel_max(env, style, PANEL_BOTH), plot_h, theme);
}

bool sp_rwgraph_split(const struct sp_envelope *env, const struct sp_rwgraph_style *style)
{
	long long run = panel_max(env, style, PANEL_RUNNING), wait = env->waiting_max;

	if (style->panels != SP_RWGRAPH_PANELS_AUTO)
		return style->panels == SP_RWGRAPH_PANELS_SPLIT;
	if (wait < 1 || run < 1)
		return false;
	return run > SP_RWGRAPH_SPLIT_RATIO * wait || wait > SP_RWGRAPH_SPLIT_RATIO * run;
}

double sp_rwgraph_value_y(const struct sp_rect *plot, const struct sp_int_ticks *t,
			  const struct sp_theme *theme, double value)
{
	double h = plot->h - zero_gap(theme);

	return plot->y + h - value / (double)(t->top > 0 ? t->top : 1) * h;
}

/* The plot rectangle without the gap under the zero line: what the y axis spans. */
static struct sp_rect value_rect(const struct sp_rect *plot, const struct sp_theme *theme)
{
	struct sp_rect r = *plot;

	r.h -= zero_gap(theme);
	return r;
}

static double col_x(const struct sp_rect *plot, const struct sp_envelope *env, size_t i,
		    bool pixels)
{
	double x = plot->x + plot->w * (double)i / (double)env->window.nr_cols;

	return pixels ? round(x) : x;
}

/* The shading level of a column: 0 for none, else 1..SHADE_LEVELS. */
static int shade_level(const struct sp_envelope *env, size_t i, uint64_t complete_ns)
{
	double f;

	if (sp_envelope_col_start(env, i + 1) <= complete_ns)
		return 0;
	f = sp_envelope_shade_fraction(env, i);
	return f > 0 ? (int)ceil(f * SHADE_LEVELS) : 0;
}

static void draw_shade(cairo_t *cr, const struct sp_rect *plot, const struct sp_envelope *env,
		       bool pixels, uint64_t complete_ns)
{
	size_t i = 0;

	while (i < env->window.nr_cols) {
		int level = shade_level(env, i, complete_ns);
		size_t j = i + 1;
		struct sp_rgb c;
		double x0, a;

		while (j < env->window.nr_cols && shade_level(env, j, complete_ns) == level)
			j++;
		if (level) {
			a = SHADE_MIN + (1 - SHADE_MIN) * (level - 1) / (SHADE_LEVELS - 1);
			c.r = 1 + (shade_color.r - 1) * a;
			c.g = 1 + (shade_color.g - 1) * a;
			c.b = 1 + (shade_color.b - 1) * a;
			x0 = col_x(plot, env, i, pixels);
			sp_render_set_color(cr, &c);
			cairo_rectangle(cr, x0, plot->y, col_x(plot, env, j, pixels) - x0, plot->h);
			cairo_fill(cr);
		}
		i = j;
	}
}

/* Grey, hatched: the part of a window in which not every CPU was recording. */
static void incomplete_band(cairo_t *cr, const struct sp_theme *theme, double x0, double y0,
			    double x1, double y1)
{
	double step = 0.6 * theme->font_size, x;

	if (x1 <= x0)
		return;
	cairo_save(cr);
	cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
	cairo_clip_preserve(cr);
	sp_render_set_color(cr, &incomplete_color);
	cairo_fill(cr);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
	sp_render_set_color(cr, &theme->no_data);
	cairo_set_line_width(cr, 1);
	for (x = x0 - (y1 - y0); x < x1; x += step) {
		cairo_move_to(cr, x, y1);
		cairo_line_to(cr, x + (y1 - y0), y0);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

enum series { SERIES_RUNNING, SERIES_WAITING, SERIES_LOST };

/* A column's range of a series; for the lost band, hi == 0 when it has none. */
static void col_range(const struct sp_envelope_col *c, enum series which, int *lo, int *hi)
{
	switch (which) {
	case SERIES_RUNNING:
		*lo = c->run_min;
		*hi = c->run_max;
		break;
	case SERIES_WAITING:
		*lo = c->wait_min;
		*hi = c->wait_max;
		break;
	default:
		*lo = c->lost_lo;
		*hi = c->lost_hi;
		break;
	}
}

/* First column not wholly before @complete_ns: the band starts there. */
static size_t first_complete_col(const struct sp_envelope *env, uint64_t complete_ns)
{
	if (complete_ns <= env->window.t0_ns)
		return 0;
	if (complete_ns >= env->window.t1_ns)
		return env->window.nr_cols;
	return sp_envelope_col_of(env, complete_ns);
}

/* The end of the run of columns from @i on that have the same range of @which. */
static size_t run_end(const struct sp_envelope *env, size_t i, size_t end, enum series which)
{
	int lo, hi, lo2, hi2;
	size_t j = i + 1;

	col_range(&env->cols[i], which, &lo, &hi);
	for (; j < end; j++) {
		col_range(&env->cols[j], which, &lo2, &hi2);
		if (lo2 != lo || hi2 != hi)
			break;
	}
	return j;
}

/*
 * PNG: per column one bar from max to min, @lw pixels thicker, runs merged.
 * With @flat_only, only the columns in which the value does not change.
 * The lost band (@lw 0) fills the pixel rows of its values, from the row of
 * running + lost down to the row of running, in the columns [@from, end).
 */
static void draw_series_pixels(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const struct sp_envelope *env,
			       const struct sp_int_ticks *t, enum series which, double lw,
			       bool flat_only, size_t from)
{
	int up = (int)lw / 2, down = ((int)lw - 1) / 2 + 1;
	size_t i = from;

	if (lw < 1)
		up = 0, down = 1;
	while (i < env->window.nr_cols) {
		size_t j = run_end(env, i, env->window.nr_cols, which);
		int lo, hi, top, bot;

		col_range(&env->cols[i], which, &lo, &hi);
		top = (int)floor(sp_rwgraph_value_y(plot, t, theme, hi)) - up;
		bot = (int)floor(sp_rwgraph_value_y(plot, t, theme, lo)) + down;
		if ((!flat_only || lo == hi) && (which != SERIES_LOST || hi > 0))
			cairo_rectangle(cr, col_x(plot, env, i, true), top,
					col_x(plot, env, j, true) - col_x(plot, env, i, true),
					bot - top);
		i = j;
	}
	cairo_fill(cr);
}

/* PDF/SVG: the stretches in which the value does not change, as lines. */
static void draw_flat_vector(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_rect *plot, const struct sp_envelope *env,
			     const struct sp_int_ticks *t, enum series which, double lw)
{
	size_t i = 0;

	while (i < env->window.nr_cols) {
		size_t j = run_end(env, i, env->window.nr_cols, which);
		int lo, hi;
		double y;

		col_range(&env->cols[i], which, &lo, &hi);
		if (lo == hi) {
			y = sp_rwgraph_value_y(plot, t, theme, lo);
			cairo_move_to(cr, col_x(plot, env, i, false), y);
			cairo_line_to(cr, col_x(plot, env, j, false), y);
		}
		i = j;
	}
	cairo_set_line_width(cr, lw);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	cairo_stroke(cr);
}

/*
 * PDF/SVG: a closed path over the columns [@a, @b), the maxima left to
 * right and the minima back, each edge turning only where its value
 * changes.
 */
static void range_path(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_envelope *env, const struct sp_int_ticks *t,
		       enum series which, size_t a, size_t b)
{
	size_t i;
	int lo, hi, prev;

	col_range(&env->cols[a], which, &lo, &hi);
	prev = hi;
	cairo_move_to(cr, col_x(plot, env, a, false), sp_rwgraph_value_y(plot, t, theme, hi));
	for (i = a + 1; i < b; i++) {
		col_range(&env->cols[i], which, &lo, &hi);
		if (hi == prev)
			continue;
		cairo_line_to(cr, col_x(plot, env, i, false),
			      sp_rwgraph_value_y(plot, t, theme, prev));
		cairo_line_to(cr, col_x(plot, env, i, false),
			      sp_rwgraph_value_y(plot, t, theme, hi));
		prev = hi;
	}
	cairo_line_to(cr, col_x(plot, env, b, false), sp_rwgraph_value_y(plot, t, theme, prev));
	col_range(&env->cols[b - 1], which, &lo, &hi);
	prev = lo;
	cairo_line_to(cr, col_x(plot, env, b, false), sp_rwgraph_value_y(plot, t, theme, lo));
	for (i = b - 1; i-- > a;) {
		col_range(&env->cols[i], which, &lo, &hi);
		if (lo == prev)
			continue;
		cairo_line_to(cr, col_x(plot, env, i + 1, false),
			      sp_rwgraph_value_y(plot, t, theme, prev));
		cairo_line_to(cr, col_x(plot, env, i + 1, false),
			      sp_rwgraph_value_y(plot, t, theme, lo));
		prev = lo;
	}
	cairo_line_to(cr, col_x(plot, env, a, false), sp_rwgraph_value_y(plot, t, theme, prev));
	cairo_close_path(cr);
}

/*
 * PDF/SVG: one path per series, filled and stroked, so flat stretches get
 * the line width and spikes their full height.
 */
static void draw_series_vector(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const struct sp_envelope *env,
			       const struct sp_int_ticks *t, enum series which, double lw)
{
	range_path(cr, theme, plot, env, t, which, 0, env->window.nr_cols);
	cairo_set_line_width(cr, lw);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_fill_preserve(cr);
	cairo_stroke(cr);
}

/* PDF/SVG: the lost band, one filled path per stretch of columns that have it. */
static void draw_band_vector(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_rect *plot, const struct sp_envelope *env,
			     const struct sp_int_ticks *t, size_t from)
{
	size_t i = from, j;

	while (i < env->window.nr_cols) {
		if (!env->cols[i].lost_hi) {
			i++;
			continue;
		}
		for (j = i + 1; j < env->window.nr_cols && env->cols[j].lost_hi; j++)
			;
		range_path(cr, theme, plot, env, t, SERIES_LOST, i, j);
		i = j;
	}
	cairo_fill(cr);
}

static double col_mean(const struct sp_envelope *env, size_t i, enum series which)
{
	double running, waiting;

	sp_envelope_col_mean(env, i, &running, &waiting);
	return which == SERIES_RUNNING ? running : waiting;
}

/* PNG: the column averages as a step line @lw pixels thick, each column joined to the last. */
static void draw_mean_pixels(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_rect *plot, const struct sp_envelope *env,
			     const struct sp_int_ticks *t, enum series which, double lw)
{
	int up = (int)lw / 2, down = ((int)lw - 1) / 2 + 1, prev = 0;

	for (size_t i = 0; i < env->window.nr_cols; i++) {
		int y = (int)floor(sp_rwgraph_value_y(plot, t, theme, col_mean(env, i, which)));
		int top = i && prev < y ? prev : y, bot = i && prev > y ? prev : y;
		double x0 = col_x(plot, env, i, true);

		cairo_rectangle(cr, x0, top - up, col_x(plot, env, i + 1, true) - x0,
				bot - top + up + down);
		prev = y;
	}
	cairo_fill(cr);
}

/* PDF/SVG: the column averages as one stroked step line. */
static void draw_mean_vector(cairo_t *cr, const struct sp_theme *theme,
			     const struct sp_rect *plot, const struct sp_envelope *env,
			     const struct sp_int_ticks *t, enum series which, double lw)
{
	double prev = sp_rwgraph_value_y(plot, t, theme, col_mean(env, 0, which));

	cairo_move_to(cr, col_x(plot, env, 0, false), prev);
	for (size_t i = 1; i < env->window.nr_cols; i++) {
		double y = sp_rwgraph_value_y(plot, t, theme, col_mean(env, i, which));

		if (y == prev)
			continue;
		cairo_line_to(cr, col_x(plot, env, i, false), prev);
		cairo_line_to(cr, col_x(plot, env, i, false), y);
		prev = y;
	}
	cairo_line_to(cr, col_x(plot, env, env->window.nr_cols, false), prev);
	cairo_set_line_width(cr, lw);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	cairo_stroke(cr);
}

/* What of a series draw_series() draws. */
enum part {
	PART_RANGE,	/* each column's min..max, in the light range color */
	PART_MEAN,	/* each column's time average, a line in the full color */
	PART_FLAT,	/* the stretches where the value stays level, in the full color */
};

static void draw_series(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			const struct sp_envelope *env, const struct sp_int_ticks *t,
			enum series which, enum part part, bool px)
{
	bool running = which == SERIES_RUNNING;
	double lw = running ? running_width(theme, px) : waiting_width(theme, px);
	const struct sp_rgb *color = running ? &running_color : &waiting_color;
	struct sp_rgb range = range_color(color);

	sp_render_set_color(cr, part == PART_RANGE ? &range : color);
	if (part == PART_MEAN && px)
		draw_mean_pixels(cr, theme, plot, env, t, which, lw);
	else if (part == PART_MEAN)
		draw_mean_vector(cr, theme, plot, env, t, which, lw);
	else if (px)
		draw_series_pixels(cr, theme, plot, env, t, which, lw, part == PART_FLAT, 0);
	else if (part == PART_FLAT)
		draw_flat_vector(cr, theme, plot, env, t, which, lw);
	else
		draw_series_vector(cr, theme, plot, env, t, which, lw);
}

/* The lost band, from the first column in which every CPU was recording. */
static void draw_band(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_envelope *env, const struct sp_int_ticks *t,
		      const struct sp_rwgraph_style *style)
{
	size_t from = first_complete_col(env, style->complete_ns);

	sp_render_set_color(cr, &shade_color);
	if (style->pixels)
		draw_series_pixels(cr, theme, plot, env, t, SERIES_LOST, 0, false, from);
	else
		draw_band_vector(cr, theme, plot, env, t, from);
}

static double cpus_width(const struct sp_theme *theme, bool pixels)
{
	double f = theme->font_size / SP_THEME_FONT_SIZE;

	return pixels ? fmax(1, round(f)) : 1.1 * f;
}

/* The dotted line at N, or a legend sample of it from x0 to x1 at y. */
static void cpus_line(cairo_t *cr, const struct sp_theme *theme, bool pixels, double x0,
		      double x1, double y)
{
	double f = theme->font_size / SP_THEME_FONT_SIZE;

	cairo_save(cr);
	sp_render_set_color(cr, &cpus_color);
	if (pixels) {
		static const double dash[] = { 2, 3 };
		double lw = cpus_width(theme, true);

		cairo_set_line_width(cr, lw);
		cairo_set_dash(cr, dash, 2, 0);
		y = fmod(lw, 2) == 1 ? floor(y) + 0.5 : round(y);
	} else {
		double dash[] = { 0, 2.5 * f };

		cairo_set_line_width(cr, cpus_width(theme, false));
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		cairo_set_dash(cr, dash, 2, 0);
	}
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
	cairo_restore(cr);
}

static void draw_panel(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_envelope *env, const struct sp_int_ticks *t,
		       const struct sp_time_ticks *xt, const struct sp_rwgraph_style *style,
		       unsigned int what)
{
	bool px = style->pixels;
	bool columns = style->shade_kind == SP_RWGRAPH_SHADE_COLUMNS;
	double lw = theme->grid_line_width, off = fmod(round(lw), 2) == 1 ? 0.5 : 0;
	unsigned int k;

	if (!env->window.nr_cols || t->top <= 0)
		return;
	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	if (px)
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	if (style->complete_ns > env->window.t0_ns) {
		double xc = plot->x + plot->w * (double)(style->complete_ns - env->window.t0_ns) /
				      (double)(env->window.t1_ns - env->window.t0_ns);

		/*
		 * The complete window may start far right of a short window:
		 * hatching up to there would make a path of millions of
		 * lines, which cairo fails with "out of memory".  The plot is
		 * clipped, so ending the band at its edge draws the same.
		 */
		xc = fmin(xc, plot->x + plot->w);
		incomplete_band(cr, theme, plot->x, plot->y, px ? round(xc) : xc,
				plot->y + plot->h);
	}
	if (style->shade && columns)
		draw_shade(cr, plot, env, px, style->complete_ns);

	/* grid under the data */
	sp_render_set_color(cr, &theme->grid);
	cairo_set_line_width(cr, lw);
	for (k = 1; k < t->nr_ticks; k++) {
		double y = sp_rwgraph_value_y(plot, t, theme, (double)t->ticks[k].value);

		if (t->ticks[k].value >= t->top)
			continue;
		y = px ? floor(y) + off : y;
		cairo_move_to(cr, plot->x, y);
		cairo_line_to(cr, plot->x + plot->w, y);
	}
	for (k = 0; xt && k < xt->nr_ticks; k++) {
		uint64_t ts = xt->ticks[k].ts_ns;
		double x;

		if (ts <= env->window.t0_ns || ts >= env->window.t1_ns)
			continue;
		x = plot->x +
		    plot->w * (double)(ts - env->window.t0_ns) / (double)(env->window.t1_ns - env->window.t0_ns);
		x = px ? floor(x) + off : x;
		cairo_move_to(cr, x, plot->y);
		cairo_line_to(cr, x, plot->y + plot->h);
	}
	cairo_stroke(cr);

	/* the band under the lines, which keep their colors on top of it */
	if ((what & PANEL_RUNNING) && style->shade && !columns)
		draw_band(cr, theme, plot, env, t, style);
	/*
	 * Ranges under the average lines, waiting's under running's, so a wide
	 * range of waiting tasks buries neither line; waiting's level
	 * stretches go over running again, so a thin red line shows inside
	 * the green where both have the same value.
	 */
	if (what & PANEL_WAITING)
		draw_series(cr, theme, plot, env, t, SERIES_WAITING, PART_RANGE, px);
	if (what & PANEL_RUNNING)
		draw_series(cr, theme, plot, env, t, SERIES_RUNNING, PART_RANGE, px);
	if (what & PANEL_WAITING)
		draw_series(cr, theme, plot, env, t, SERIES_WAITING, PART_MEAN, px);
	if (what & PANEL_RUNNING)
		draw_series(cr, theme, plot, env, t, SERIES_RUNNING, PART_MEAN, px);
	if (what == PANEL_BOTH)
		draw_series(cr, theme, plot, env, t, SERIES_WAITING, PART_FLAT, px);
	/*
	 * N last, resting on top of a running line at N (every CPU busy),
	 * so its dots stay visible above it rather than lost inside it.
	 */
	if (what & PANEL_RUNNING)
		cpus_line(cr, theme, px, plot->x, plot->x + plot->w,
			  sp_rwgraph_value_y(plot, t, theme, style->nr_cpus) -
				  running_width(theme, px) / 2 - cpus_width(theme, px) / 2);
	cairo_restore(cr);
	sp_axis_frame_draw(cr, theme, plot);
}

void sp_rwgraph_draw_data(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  const struct sp_envelope *env, const struct sp_int_ticks *t,
			  const struct sp_time_ticks *xt, const struct sp_rwgraph_style *style)
{
	draw_panel(cr, theme, plot, env, t, xt, style, PANEL_BOTH);
}

void sp_rwgraph_draw_y_axis(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			    const struct sp_int_ticks *t)
{
	struct sp_rect r = value_rect(plot, theme);

	sp_axis_int_draw(cr, theme, &r, t, "tasks", false);
}

void sp_rwgraph_draw_note_text(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const char *text)
{
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, plot->x + plot->w, plot->y - theme->pad,
		     SP_ALIGN_RIGHT | SP_ALIGN_BOTTOM, text);
	cairo_restore(cr);
}

/* A share as a percentage that never reads 0 unless it is. */
static void format_pct(char *buf, size_t len, double fraction)
{
	double pct = 100 * fraction;

	if (fraction <= 0)
		snprintf(buf, len, "0%%");
	else if (pct < 0.1)
		snprintf(buf, len, "%.2g%%", pct);
	else
		snprintf(buf, len, "%.1f%%", pct);
}

/*
 * The lost note in one of three lengths: 0 "lost: 3.1 CPU·s, 0.6% of
 * capacity", 1 "lost 3.1 CPU·s, 0.6%", 2 "lost 0.6%"; @aside follows the
 * first two in parentheses.
 */
static void lost_note_form(char *buf, size_t len, double lost_cpu_ns, double fraction, int form,
			   const char *counting, const char *aside)
{
	size_t n;

	static const struct { double ns; const char *unit; } units[] = {
		{ 1e9, "CPU\xc2\xb7s" },
		{ 1e6, "CPU\xc2\xb7ms" },
		{ 1e3, "CPU\xc2\xb7\xc2\xb5s" },
		{ 1, "CPU\xc2\xb7ns" },
	};
	char pct[32], amount[48];
	size_t i = 0;

	/* the unit that leaves 1..999 (three digits; 999.5 rounds up to the next) */
	while (i + 1 < sizeof(units) / sizeof(units[0]) && lost_cpu_ns < 0.9995 * units[i].ns)
		i++;
	format_pct(pct, sizeof(pct), fraction);
	if (lost_cpu_ns < 0.5)
		snprintf(amount, sizeof(amount), "0 CPU\xc2\xb7s");
	else
		snprintf(amount, sizeof(amount), "%.3g %s", lost_cpu_ns / units[i].ns,
			 units[i].unit);
	if (form == 0 && counting)
		snprintf(buf, len, "lost, counting %s only: %s, %s of capacity", counting, amount,
			 pct);
	else if (form == 0)
		snprintf(buf, len, "lost: %s, %s of capacity", amount, pct);
	else if (form == 1)
		snprintf(buf, len, "lost%s%s%s %s, %s", counting ? " (" : "",
			 counting ? counting : "", counting ? " only)" : "", amount, pct);
	else
		snprintf(buf, len, "lost%s%s%s %s", counting ? " (" : "", counting ? counting : "",
			 counting ? " only)" : "", pct);
	n = strlen(buf);
	if (aside && form < 2 && n < len)
		snprintf(buf + n, len - n, " (%s)", aside);
}

char *sp_rwgraph_lost_note(char *buf, size_t len, double lost_cpu_ns, double fraction)
{
	lost_note_form(buf, len, lost_cpu_ns, fraction, 0, NULL, NULL);
	return buf;
}

/* The longest form of the lost note that fits in @w. */
static void lost_note_fit(cairo_t *cr, const struct sp_theme *theme, char *buf, size_t len,
			  double lost_cpu_ns, double fraction, double w,
			  const struct sp_rwgraph_style *style)
{
	int form;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (form = 0; form < 3; form++) {
		lost_note_form(buf, len, lost_cpu_ns, fraction, form, style->counting,
			       style->aside);
		if (sp_text_width(cr, buf) <= w)
			break;
	}
	cairo_restore(cr);
}

void sp_rwgraph_draw_note(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  double fraction, const char *counting)
{
	char buf[192], pct[32];

	format_pct(pct, sizeof(pct), fraction);
	if (counting)
		snprintf(buf, sizeof(buf), "lost, counting %s only: %s of capacity", counting,
			 pct);
	else
		snprintf(buf, sizeof(buf), "lost: %s of capacity", pct);
	sp_rwgraph_draw_note_text(cr, theme, plot, buf);
}

/* The note of SP_RWGRAPH_SHADE_COLUMNS. */
static void idle_note(char *buf, size_t len, double fraction, const char *counting)
{
	char pct[32];

	format_pct(pct, sizeof(pct), fraction);
	if (counting)
		snprintf(buf, len, "idle while waiting, counting %s only: %s of the window",
			 counting, pct);
	else
		snprintf(buf, len, "idle while waiting: %s of the window", pct);
}

/* ---- legend -------------------------------------------------------------- */

enum { ENTRY_RUNNING, ENTRY_WAITING, ENTRY_CPUS, ENTRY_SHADE, ENTRY_INCOMPLETE, NR_ENTRIES };

/* The entries shown, in order; returns how many. */
static int legend_entries(const struct sp_rwgraph_style *style, int *entries)
{
	int n = 0;

	entries[n++] = ENTRY_RUNNING;
	entries[n++] = ENTRY_WAITING;
	entries[n++] = ENTRY_CPUS;
	if (style->shade)
		entries[n++] = ENTRY_SHADE;
	if (style->complete_ns)
		entries[n++] = ENTRY_INCOMPLETE;
	return n;
}

/* An entry's label; @brief leaves out what the y axis says ("tasks"). */
static void entry_label(char *buf, size_t len, int entry, const struct sp_rwgraph_style *style,
			bool brief)
{
	switch (entry) {
	case ENTRY_RUNNING:
		snprintf(buf, len, brief ? "running" : "running tasks");
		break;
	case ENTRY_WAITING:
		snprintf(buf, len, brief ? "waiting" : "waiting tasks");
		break;
	case ENTRY_CPUS:
		snprintf(buf, len, "N = %d CPU%s", style->nr_cpus, style->nr_cpus == 1 ? "" : "s");
		break;
	case ENTRY_SHADE:
		snprintf(buf, len, style->shade_kind == SP_RWGRAPH_SHADE_COLUMNS ?
			 "idle while waiting" : "lost capacity");
		break;
	default:
		snprintf(buf, len, "not all CPUs recording");
		break;
	}
}

static void legend_label(char *buf, size_t len, int entry, const struct sp_rwgraph_style *style)
{
	entry_label(buf, len, entry, style, false);
}

static double legend_row_h(const struct sp_theme *theme)
{
	return 1.6 * theme->font_size;
}

static double legend_sample_w(const struct sp_theme *theme)
{
	return 2.4 * theme->font_size;
}

/* Width of an entry in a row: sample, gap, label, gap to the next. */
static double entry_w(cairo_t *cr, const struct sp_theme *theme, const char *label)
{
	return legend_sample_w(theme) + 2 * theme->pad + sp_text_width(cr, label) +
	       1.5 * theme->font_size;
}

void sp_rwgraph_legend_size(cairo_t *cr, const struct sp_theme *theme,
			    const struct sp_rwgraph_style *style, bool row, double *w, double *h)
{
	int entries[NR_ENTRIES], n = legend_entries(style, entries), i;
	double label_w = 0, sum = 0;
	char buf[64];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (i = 0; i < n; i++) {
		legend_label(buf, sizeof(buf), entries[i], style);
		label_w = fmax(label_w, sp_text_width(cr, buf));
		sum += entry_w(cr, theme, buf);
	}
	cairo_restore(cr);
	if (row) {
		*w = sum;
		*h = legend_row_h(theme);
	} else {
		*w = legend_sample_w(theme) + 2 * theme->pad + label_w;
		*h = n * legend_row_h(theme);
	}
}

/* One entry: its sample from @x to @x + @sw, its label after; @y its middle. */
static void legend_entry_draw(cairo_t *cr, const struct sp_theme *theme,
			      const struct sp_rwgraph_style *style, int e, double x, double y,
			      double sw, bool brief)
{
	double yl = style->pixels ? round(y) : y;
	char buf[64];

	switch (e) {
	case ENTRY_RUNNING:
	case ENTRY_WAITING: {
		const struct sp_rgb *color = e == ENTRY_RUNNING ? &running_color : &waiting_color;
		struct sp_rgb range = range_color(color);

		/* the average line inside its min..max range */
		sp_render_set_color(cr, &range);
		cairo_rectangle(cr, x, yl - theme->swatch / 2, sw, theme->swatch);
		cairo_fill(cr);
		sp_render_set_color(cr, color);
		cairo_set_line_width(cr, e == ENTRY_RUNNING ? running_width(theme, style->pixels) :
				     waiting_width(theme, style->pixels));
		cairo_move_to(cr, x, yl);
		cairo_line_to(cr, x + sw, yl);
		cairo_stroke(cr);
		break;
	}
	case ENTRY_CPUS:
		cpus_line(cr, theme, style->pixels, x, x + sw, y);
		break;
	case ENTRY_SHADE:
		sp_render_set_color(cr, &shade_color);
		cairo_rectangle(cr, x, y - theme->swatch / 2, sw, theme->swatch);
		cairo_fill(cr);
		break;
	default:
		incomplete_band(cr, theme, x, y - theme->swatch / 2, x + sw, y + theme->swatch / 2);
		break;
	}
	entry_label(buf, sizeof(buf), e, style, brief);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, x + sw + 2 * theme->pad, y, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, buf);
}

void sp_rwgraph_legend_draw(cairo_t *cr, const struct sp_theme *theme,
			    const struct sp_rwgraph_style *style, bool row,
			    const struct sp_rect *area)
{
	double rh = legend_row_h(theme);
	int entries[NR_ENTRIES], n = legend_entries(style, entries), i;
	double x = area->x;
	char buf[64];

	cairo_save(cr);
	cairo_rectangle(cr, area->x, area->y, area->w, area->h);
	cairo_clip(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (i = 0; i < n; i++) {
		double y = area->y + ((row ? 0 : i) + 0.5) * rh;

		if (!row)
			x = area->x;
		if (y + rh / 2 > area->y + area->h + 0.01)
			break;
		legend_entry_draw(cr, theme, style, entries[i], x, y, legend_sample_w(theme),
				  false);
		legend_label(buf, sizeof(buf), entries[i], style);
		x += entry_w(cr, theme, buf);
	}
	cairo_restore(cr);
}

/* A legend below a narrow figure, with shorter line samples than at the side. */
double sp_rwgraph_legend_grid(cairo_t *cr, const struct sp_theme *theme,
			      const struct sp_rwgraph_style *style, double w,
			      const struct sp_rect *area)
{
	int entries[NR_ENTRIES], n = legend_entries(style, entries), i, nr_cols, col = 0, row = 0;
	double sw = 1.4 * theme->font_size, gap = theme->font_size, rh = 1.4 * theme->font_size;
	double label_w[NR_ENTRIES], pitch = 0;
	char buf[64];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (i = 0; i < n; i++) {
		entry_label(buf, sizeof(buf), entries[i], style, true);
		label_w[i] = sw + 2 * theme->pad + sp_text_width(cr, buf);
		if (label_w[i] <= (w - gap) / 2)
			pitch = fmax(pitch, label_w[i]);
	}
	nr_cols = pitch > 0 ? (int)floor((w + gap) / (pitch + gap)) : 1;
	if (nr_cols < 1)
		nr_cols = 1;
	for (i = 0; i < n; i++) {
		bool wide = label_w[i] > pitch;

		if (col >= nr_cols || (wide && col > 0)) {
			row++;
			col = 0;
		}
		if (area)
			legend_entry_draw(cr, theme, style, entries[i],
					  area->x + col * (pitch + gap), area->y + (row + 0.5) * rh,
					  sw, true);
		col = wide ? nr_cols : col + 1;
	}
	cairo_restore(cr);
	return (row + 1) * rh;
}

/* ---- a figure of its own ------------------------------------------------- */

double sp_rwgraph_title_height(cairo_t *cr, const struct sp_theme *theme)
{
	return sp_figure_title_height(cr, theme);
}

void sp_rwgraph_draw_title(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *area,
			   const char *title)
{
	sp_figure_title_draw(cr, theme, area, title);
}

/* A legend right of the plot at most this share of the width; else below it. */
#define LEGEND_RIGHT_MAX 0.25

int sp_rwgraph_layout(struct sp_layout *lay, cairo_t *cr, const struct sp_theme *theme,
		      const struct sp_rwgraph_figure *fig, double width, double height)
{
	struct sp_layout_spec spec;
	double lw, lh;
	int ret;

	sp_layout_spec_init(&spec, theme, width, height);
	if (sp_figure_has_title(fig->title))
		spec.title_h = sp_figure_title_height(cr, theme);
	spec.left_w = sp_rwgraph_left_width(cr, theme);
	if (fig->shade_fraction >= 0)
		spec.top_h = fmax(spec.top_h, sp_rwgraph_note_height(cr, theme));
	if (fig->legend) {
		sp_rwgraph_legend_size(cr, theme, &fig->style, false, &lw, &lh);
		if (lw <= LEGEND_RIGHT_MAX * width) {
			spec.legend = SP_LEGEND_RIGHT;
			spec.legend_w = lw;
		} else {
			/* narrow (a column of a paper): the plot keeps the width */
			spec.legend = SP_LEGEND_BELOW;
			spec.legend_h = sp_rwgraph_legend_grid(cr, theme, &fig->style,
						    width - 2 * spec.margin, NULL);
		}
	}
	ret = sp_layout_compute(lay, &spec);
	if (ret)
		return ret;
	if (spec.legend == SP_LEGEND_BELOW && lay->legend.w > 0) {
		/* the whole width, from the left margin: more entries on a line */
		lay->legend.x = spec.margin;
		lay->legend.w = width - 2 * spec.margin;
	}
	sp_rwgraph_snap_plot(&lay->plot, &fig->style);
	if (lay->plot.w < SP_LAYOUT_MIN_PLOT || lay->plot.h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	return 0;
}

/*
 * Two panels in @plot: running and the band above, waiting below, a gap
 * between them for the tick labels at their facing edges.  Return: false
 * when they would be too low (then one panel it is).
 */
static bool split_plot(const struct sp_rect *plot, const struct sp_theme *theme, bool px,
		       struct sp_rect *top, struct sp_rect *bottom)
{
	double gap = ceil(1.2 * theme->font_size), h = plot->h - gap, top_h, bottom_h;

	top_h = 0.6 * h;
	if (px)
		top_h = round(top_h);
	bottom_h = plot->h - top_h - gap;
	if (top_h < SP_LAYOUT_MIN_PLOT + zero_gap(theme) || bottom_h < 2 * theme->font_size ||
	    bottom_h < SP_LAYOUT_MIN_PLOT + zero_gap(theme))
		return false;
	*top = *plot;
	top->h = top_h;
	*bottom = *plot;
	bottom->y = plot->y + top_h + gap;
	bottom->h = bottom_h;
	return true;
}

int sp_rwgraph_draw_panels(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			   const struct sp_envelope *env, const struct sp_time_ticks *xt,
			   const struct sp_rwgraph_style *style, struct sp_rect *top,
			   struct sp_rect *bottom)
{
	struct sp_int_ticks yt, wt;
	struct sp_rect r;
	int ret;

	*top = *bottom = *plot;
	if (!sp_rwgraph_split(env, style) || !split_plot(plot, theme, style->pixels, top, bottom)) {
		*top = *bottom = *plot;
		ret = sp_rwgraph_y_ticks(&yt, env, style, plot->h, theme);
		if (ret)
			return ret;
		sp_rwgraph_draw_data(cr, theme, plot, env, &yt, xt, style);
		sp_rwgraph_draw_y_axis(cr, theme, plot, &yt);
		return 0;
	}
	ret = y_ticks(&yt, panel_max(env, style, PANEL_RUNNING), top->h, theme);
	if (!ret)
		ret = y_ticks(&wt, panel_max(env, style, PANEL_WAITING), bottom->h, theme);
	if (ret)
		return ret;
	r = value_rect(top, theme);
	draw_panel(cr, theme, top, env, &yt, xt, style, PANEL_RUNNING);
	sp_axis_int_draw(cr, theme, &r, &yt, "running", false);
	draw_panel(cr, theme, bottom, env, &wt, xt, style, PANEL_WAITING);
	r = value_rect(bottom, theme);
	sp_axis_int_draw(cr, theme, &r, &wt, "waiting", false);
	return 0;
}

int sp_rwgraph_figure_draw(cairo_t *cr, const struct sp_theme *theme,
			   const struct sp_rwgraph_figure *fig, const struct sp_layout *lay,
			   const struct sp_envelope *env)
{
	const struct sp_rwgraph_style *style = &fig->style;
	struct sp_rect top, bottom;
	struct sp_time_ticks xt;
	struct sp_rect legend;
	int ret;

	ret = sp_figure_time_ticks(&xt, cr, theme, lay->plot.w, fig->t0_ns, fig->t1_ns,
				   fig->origin_ns);
	if (ret)
		return ret;
	sp_figure_frame_draw(cr, theme, &lay->title, fig->title);
	ret = sp_rwgraph_draw_panels(cr, theme, &lay->plot, env, &xt, style, &top, &bottom);
	if (ret)
		return ret;
	sp_axis_time_draw(cr, theme, &bottom, &xt, fig->t0_ns, fig->t1_ns, false);
	if (fig->shade_fraction >= 0) {
		char buf[192];

		if (style->shade_kind == SP_RWGRAPH_SHADE_COLUMNS) {
			idle_note(buf, sizeof(buf), fig->shade_fraction, style->counting);
		} else {
			uint64_t from = style->complete_ns > fig->t0_ns ? style->complete_ns :
					fig->t0_ns;
			double capacity = fig->t1_ns > from ?
					  (double)style->nr_cpus * (double)(fig->t1_ns - from) : 0;

			lost_note_fit(cr, theme, buf, sizeof(buf), fig->shade_fraction * capacity,
				      fig->shade_fraction, top.w, style);
		}
		sp_rwgraph_draw_note_text(cr, theme, &top, buf);
	}
	if (fig->legend && lay->legend.w > 0 && lay->legend.y >= lay->plot.y + lay->plot.h) {
		sp_rwgraph_legend_grid(cr, theme, style, lay->legend.w, &lay->legend);
	} else if (fig->legend && lay->legend.w > 0) {
		legend = lay->legend;
		legend.y = lay->plot.y;
		legend.h = lay->plot.h;
		sp_rwgraph_legend_draw(cr, theme, style, false, &legend);
	}
	return 0;
}
