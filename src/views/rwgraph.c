// SPDX-License-Identifier: GPL-2.0-only
/*
 * rwgraph: the running/waiting view, drawn from an envelope.  PNG gets one
 * crisp bar per pixel column and series; PDF and SVG get one polygon per
 * series whose edges only turn where the values change, so files stay
 * small.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/model/envelope.h"
#include "schedplot/views/rwgraph.h"

/*
 * Chosen to differ in lightness as well as hue (grey values about 0.24,
 * 0.47 and 0.81), and drawn with different widths, so a grey-scale print
 * keeps running, waiting and the shading apart.
 */
static const struct sp_rgb running_color = { 0.00, 0.38, 0.13 };
static const struct sp_rgb waiting_color = { 0.90, 0.30, 0.25 };
static const struct sp_rgb shade_color = { 0.99, 0.78, 0.45 };
static const struct sp_rgb cpus_color = { 0.10, 0.10, 0.10 };
static const struct sp_rgb incomplete_color = { 0.94, 0.94, 0.94 };

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
	double x1 = floor(plot->x + plot->w), y1 = floor(plot->y + plot->h);

	if (!style->pixels)
		return;
	plot->x = ceil(plot->x);
	plot->y = ceil(plot->y);
	plot->w = x1 > plot->x ? x1 - plot->x : 0;
	plot->h = y1 > plot->y ? y1 - plot->y : 0;
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

int sp_rwgraph_y_ticks(struct sp_int_ticks *t, const struct sp_envelope *env,
		       const struct sp_rwgraph_style *style, double plot_h,
		       const struct sp_theme *theme)
{
	long long max = style->nr_cpus;
	unsigned int nr = (unsigned int)fmax(2, fmin(12, floor(plot_h / (2.5 * theme->font_size))));

	if (env->running_max > max)
		max = env->running_max;
	if (env->waiting_max > max)
		max = env->waiting_max;
	/* headroom: the largest value (and N) must not vanish in the frame */
	return sp_int_ticks_compute(t, max + 1 + max / 20, nr);
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
	double x = plot->x + plot->w * (double)i / (double)env->nr_cols;

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

	while (i < env->nr_cols) {
		int level = shade_level(env, i, complete_ns);
		size_t j = i + 1;
		struct sp_rgb c;
		double x0, a;

		while (j < env->nr_cols && shade_level(env, j, complete_ns) == level)
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

static void col_range(const struct sp_envelope_col *c, bool running, int *lo, int *hi)
{
	*lo = running ? c->run_min : c->wait_min;
	*hi = running ? c->run_max : c->wait_max;
}

/*
 * PNG: per column one bar from max to min, @lw pixels thicker, runs merged.
 * With @flat_only, only the columns in which the value does not change.
 */
static void draw_series_pixels(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const struct sp_envelope *env,
			       const struct sp_int_ticks *t, bool running, double lw,
			       bool flat_only)
{
	int up = (int)lw / 2, down = ((int)lw - 1) / 2 + 1;
	size_t i = 0;

	while (i < env->nr_cols) {
		int lo, hi, top, bot;
		size_t j = i + 1;

		col_range(&env->cols[i], running, &lo, &hi);
		top = (int)floor(sp_rwgraph_value_y(plot, t, theme, hi)) - up;
		bot = (int)floor(sp_rwgraph_value_y(plot, t, theme, lo)) + down;
		while (j < env->nr_cols) {
			int lo2, hi2;

			col_range(&env->cols[j], running, &lo2, &hi2);
			if (lo2 != lo || hi2 != hi)
				break;
			j++;
		}
		if (!flat_only || lo == hi)
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
			     const struct sp_int_ticks *t, bool running, double lw)
{
	size_t i = 0;

	while (i < env->nr_cols) {
		int lo, hi;
		size_t j = i + 1;
		double y;

		col_range(&env->cols[i], running, &lo, &hi);
		while (j < env->nr_cols) {
			int lo2, hi2;

			col_range(&env->cols[j], running, &lo2, &hi2);
			if (lo2 != lo || hi2 != hi)
				break;
			j++;
		}
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
 * PDF/SVG: one closed path per series, the maxima left to right and the
 * minima back, each edge turning only where its value changes; filled and
 * stroked, so flat stretches get the line width and spikes their full
 * height.
 */
static void draw_series_vector(cairo_t *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const struct sp_envelope *env,
			       const struct sp_int_ticks *t, bool running, double lw)
{
	size_t n = env->nr_cols, i;
	int lo, hi, prev;

	col_range(&env->cols[0], running, &lo, &hi);
	prev = hi;
	cairo_move_to(cr, col_x(plot, env, 0, false), sp_rwgraph_value_y(plot, t, theme, hi));
	for (i = 1; i < n; i++) {
		col_range(&env->cols[i], running, &lo, &hi);
		if (hi == prev)
			continue;
		cairo_line_to(cr, col_x(plot, env, i, false),
			      sp_rwgraph_value_y(plot, t, theme, prev));
		cairo_line_to(cr, col_x(plot, env, i, false),
			      sp_rwgraph_value_y(plot, t, theme, hi));
		prev = hi;
	}
	cairo_line_to(cr, col_x(plot, env, n, false), sp_rwgraph_value_y(plot, t, theme, prev));
	col_range(&env->cols[n - 1], running, &lo, &hi);
	prev = lo;
	cairo_line_to(cr, col_x(plot, env, n, false), sp_rwgraph_value_y(plot, t, theme, lo));
	for (i = n - 1; i-- > 0;) {
		col_range(&env->cols[i], running, &lo, &hi);
		if (lo == prev)
			continue;
		cairo_line_to(cr, col_x(plot, env, i + 1, false),
			      sp_rwgraph_value_y(plot, t, theme, prev));
		cairo_line_to(cr, col_x(plot, env, i + 1, false),
			      sp_rwgraph_value_y(plot, t, theme, lo));
		prev = lo;
	}
	cairo_line_to(cr, col_x(plot, env, 0, false), sp_rwgraph_value_y(plot, t, theme, prev));
	cairo_close_path(cr);
	cairo_set_line_width(cr, lw);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_fill_preserve(cr);
	cairo_stroke(cr);
}

/*
 * One series in its color and width: its min..max ranges, or with
 * @flat_only only the stretches where the value stays level.
 */
static void draw_series(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			const struct sp_envelope *env, const struct sp_int_ticks *t,
			bool running, bool flat_only, bool px)
{
	double lw = running ? running_width(theme, px) : waiting_width(theme, px);

	sp_render_set_color(cr, running ? &running_color : &waiting_color);
	if (px)
		draw_series_pixels(cr, theme, plot, env, t, running, lw, flat_only);
	else if (flat_only)
		draw_flat_vector(cr, theme, plot, env, t, running, lw);
	else
		draw_series_vector(cr, theme, plot, env, t, running, lw);
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
		double lw = fmax(1, round(f));

		cairo_set_line_width(cr, lw);
		cairo_set_dash(cr, dash, 2, 0);
		y = fmod(lw, 2) == 1 ? floor(y) + 0.5 : round(y);
	} else {
		double dash[] = { 0, 2.5 * f };

		cairo_set_line_width(cr, 1.1 * f);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		cairo_set_dash(cr, dash, 2, 0);
	}
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void sp_rwgraph_draw_data(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  const struct sp_envelope *env, const struct sp_int_ticks *t,
			  const struct sp_time_ticks *xt, const struct sp_rwgraph_style *style)
{
	bool px = style->pixels;
	double lw = theme->grid_line_width, off = fmod(round(lw), 2) == 1 ? 0.5 : 0;
	unsigned int k;

	if (!env->nr_cols || t->top <= 0)
		return;
	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	if (px)
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	if (style->complete_ns > env->t0_ns) {
		double xc = plot->x + plot->w * (double)(style->complete_ns - env->t0_ns) /
				      (double)(env->t1_ns - env->t0_ns);

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
	if (style->shade)
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

		if (ts <= env->t0_ns || ts >= env->t1_ns)
			continue;
		x = plot->x +
		    plot->w * (double)(ts - env->t0_ns) / (double)(env->t1_ns - env->t0_ns);
		x = px ? floor(x) + off : x;
		cairo_move_to(cr, x, plot->y);
		cairo_line_to(cr, x, plot->y + plot->h);
	}
	cairo_stroke(cr);

	/*
	 * Waiting's ranges go under running, so a wide band of waiting tasks
	 * does not bury the running line; waiting's level stretches go over
	 * it again, so a thin red line shows inside the green where both
	 * have the same value.
	 */
	draw_series(cr, theme, plot, env, t, false, false, px);
	draw_series(cr, theme, plot, env, t, true, false, px);
	draw_series(cr, theme, plot, env, t, false, true, px);
	/* N last: its dots show through where every CPU is busy */
	cpus_line(cr, theme, px, plot->x, plot->x + plot->w,
		  sp_rwgraph_value_y(plot, t, theme, style->nr_cpus));
	cairo_restore(cr);
	sp_axis_frame_draw(cr, theme, plot);
}

void sp_rwgraph_draw_y_axis(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			    const struct sp_int_ticks *t)
{
	struct sp_rect r = value_rect(plot, theme);

	sp_axis_int_draw(cr, theme, &r, t, "tasks", false);
}

void sp_rwgraph_draw_note(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			  double fraction)
{
	char buf[96];
	double pct = 100 * fraction;

	if (fraction <= 0)
		snprintf(buf, sizeof(buf), "idle while waiting: 0%% of the window");
	else if (pct < 0.1)
		snprintf(buf, sizeof(buf), "idle while waiting: %.2g%% of the window", pct);
	else
		snprintf(buf, sizeof(buf), "idle while waiting: %.1f%% of the window", pct);
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, plot->x + plot->w, plot->y - theme->pad,
		     SP_ALIGN_RIGHT | SP_ALIGN_BOTTOM, buf);
	cairo_restore(cr);
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

static void legend_label(char *buf, size_t len, int entry, const struct sp_rwgraph_style *style)
{
	switch (entry) {
	case ENTRY_RUNNING:
		snprintf(buf, len, "running tasks");
		break;
	case ENTRY_WAITING:
		snprintf(buf, len, "waiting tasks");
		break;
	case ENTRY_CPUS:
		snprintf(buf, len, "N = %d CPU%s", style->nr_cpus, style->nr_cpus == 1 ? "" : "s");
		break;
	case ENTRY_SHADE:
		snprintf(buf, len, "idle while waiting");
		break;
	default:
		snprintf(buf, len, "not all CPUs recording");
		break;
	}
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

void sp_rwgraph_legend_draw(cairo_t *cr, const struct sp_theme *theme,
			    const struct sp_rwgraph_style *style, bool row,
			    const struct sp_rect *area)
{
	double sw = legend_sample_w(theme), rh = legend_row_h(theme);
	int entries[NR_ENTRIES], n = legend_entries(style, entries), i;
	double x = area->x;
	char buf[64];

	cairo_save(cr);
	cairo_rectangle(cr, area->x, area->y, area->w, area->h);
	cairo_clip(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (i = 0; i < n; i++) {
		double y = area->y + ((row ? 0 : i) + 0.5) * rh;
		double yl = style->pixels ? round(y) : y;
		int e = entries[i];

		if (!row)
			x = area->x;
		if (y + rh / 2 > area->y + area->h + 0.01)
			break;
		switch (e) {
		case ENTRY_RUNNING:
		case ENTRY_WAITING:
			sp_render_set_color(cr, e == ENTRY_RUNNING ? &running_color :
						&waiting_color);
			cairo_set_line_width(cr, e == ENTRY_RUNNING ?
					     running_width(theme, style->pixels) :
					     waiting_width(theme, style->pixels));
			cairo_move_to(cr, x, yl);
			cairo_line_to(cr, x + sw, yl);
			cairo_stroke(cr);
			break;
		case ENTRY_CPUS:
			cpus_line(cr, theme, style->pixels, x, x + sw, y);
			break;
		case ENTRY_SHADE:
			sp_render_set_color(cr, &shade_color);
			cairo_rectangle(cr, x, y - theme->swatch / 2, sw, theme->swatch);
			cairo_fill(cr);
			break;
		default:
			incomplete_band(cr, theme, x, y - theme->swatch / 2, x + sw,
					y + theme->swatch / 2);
			break;
		}
		legend_label(buf, sizeof(buf), e, style);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, x + sw + 2 * theme->pad, y, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, buf);
		x += entry_w(cr, theme, buf);
	}
	cairo_restore(cr);
}

/* ---- a figure of its own ------------------------------------------------- */

double sp_rwgraph_title_height(cairo_t *cr, const struct sp_theme *theme)
{
	double h;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->title_font_size, true);
	h = sp_text_height(cr);
	cairo_restore(cr);
	return h;
}

void sp_rwgraph_draw_title(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *area,
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

static bool has_title(const struct sp_rwgraph_figure *fig)
{
	return fig->title && fig->title[0];
}

int sp_rwgraph_layout(struct sp_layout *lay, cairo_t *cr, const struct sp_theme *theme,
		      const struct sp_rwgraph_figure *fig, double width, double height)
{
	struct sp_layout_spec spec;
	double lw, lh;
	int ret;

	sp_layout_spec_init(&spec, theme, width, height);
	if (has_title(fig))
		spec.title_h = sp_rwgraph_title_height(cr, theme);
	spec.left_w = sp_rwgraph_left_width(cr, theme);
	if (fig->shade_fraction >= 0)
		spec.top_h = fmax(spec.top_h, sp_rwgraph_note_height(cr, theme));
	if (fig->legend) {
		sp_rwgraph_legend_size(cr, theme, &fig->style, false, &lw, &lh);
		spec.legend = SP_LEGEND_RIGHT;
		spec.legend_w = lw;
	}
	ret = sp_layout_compute(lay, &spec);
	if (ret)
		return ret;
	sp_rwgraph_snap_plot(&lay->plot, &fig->style);
	if (lay->plot.w < SP_LAYOUT_MIN_PLOT || lay->plot.h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;
	return 0;
}

int sp_rwgraph_figure_draw(cairo_t *cr, const struct sp_theme *theme,
			   const struct sp_rwgraph_figure *fig, const struct sp_layout *lay,
			   const struct sp_envelope *env)
{
	struct sp_time_ticks xt;
	struct sp_int_ticks yt;
	struct sp_rect legend;
	int ret;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	ret = sp_time_ticks_fit(&xt, cr, lay->plot.w, fig->t0_ns, fig->t1_ns, fig->origin_ns);
	cairo_restore(cr);
	if (ret)
		return ret;
	ret = sp_rwgraph_y_ticks(&yt, env, &fig->style, lay->plot.h, theme);
	if (ret)
		return ret;

	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	cairo_restore(cr);
	if (has_title(fig))
		sp_rwgraph_draw_title(cr, theme, &lay->title, fig->title);
	sp_rwgraph_draw_data(cr, theme, &lay->plot, env, &yt, &xt, &fig->style);
	sp_rwgraph_draw_y_axis(cr, theme, &lay->plot, &yt);
	sp_axis_time_draw(cr, theme, &lay->plot, &xt, fig->t0_ns, fig->t1_ns, false);
	if (fig->shade_fraction >= 0)
		sp_rwgraph_draw_note(cr, theme, &lay->plot, fig->shade_fraction);
	if (fig->legend && lay->legend.w > 0) {
		legend = lay->legend;
		legend.y = lay->plot.y;
		legend.h = lay->plot.h;
		sp_rwgraph_legend_draw(cr, theme, &fig->style, false, &legend);
	}
	return 0;
}
