// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ticks, axes and the plot frame.  See include/schedplot/draw/axes.h for
 * the contracts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

/* A coordinate on which a line of width @lw is drawn crisply on pixels. */
static double snap(double v, double lw)
{
	if (fmod(round(lw), 2) == 1)
		return floor(v) + 0.5;
	return round(v);
}

static uint64_t pow10_u64(int k)
{
	uint64_t v = 1;

	while (k-- > 0)
		v *= 10;
	return v;
}

/* Ticks of multiples of @step (counted from @origin) inside [t0, t1]. */
static uint64_t count_ticks(uint64_t t0, uint64_t t1, uint64_t origin, uint64_t step,
			    uint64_t *first)
{
	uint64_t lo = t0 - origin, hi = t1 - origin;
	uint64_t k0 = lo / step + (lo % step != 0), k1 = hi / step;

	*first = k0;
	return k1 >= k0 ? k1 - k0 + 1 : 0;
}

/* "12.35": @v ns in seconds with @decimals (0..9) digits, "12" with none. */
static void format_seconds(char *buf, size_t size, uint64_t v, int decimals)
{
	uint64_t frac = v % 1000000000ULL / pow10_u64(9 - decimals);

	if (!decimals) {
		snprintf(buf, size, "%llu", (unsigned long long)(v / 1000000000ULL));
		return;
	}
	snprintf(buf, size, "%llu.%0*llu", (unsigned long long)(v / 1000000000ULL),
		 decimals & 31, (unsigned long long)frac);
}

static void label_ticks(struct sp_time_ticks *t, uint64_t origin_ns, int decimals)
{
	for (unsigned int i = 0; i < t->nr_ticks; i++)
		format_seconds(t->ticks[i].label, sizeof(t->ticks[i].label),
			       t->ticks[i].ts_ns - origin_ns, decimals);
}

int sp_time_ticks_compute(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			  uint64_t origin_ns, unsigned int max_ticks)
{
	static const unsigned int mant[3] = { 1, 2, 5 };
	uint64_t step = 1, first = 0, n = 0, dec = 1;
	int exp10 = 0;

	memset(t, 0, sizeof(*t));
	if (t1_ns <= t0_ns || origin_ns > t0_ns || max_ticks < 2 || max_ticks > SP_MAX_TICKS)
		return -EINVAL;

	for (exp10 = 0; exp10 <= 18; exp10++, dec *= 10) {
		unsigned int m;

		for (m = 0; m < 3; m++) {
			step = mant[m] * dec;
			n = count_ticks(t0_ns, t1_ns, origin_ns, step, &first);
			if (n <= max_ticks)
				break;
		}
		if (m < 3)
			break;
	}
	t->step_ns = step;
	t->nr_ticks = (unsigned int)n;
	for (unsigned int i = 0; i < t->nr_ticks; i++)
		t->ticks[i].ts_ns = origin_ns + (first + i) * step;

	/*
	 * Seconds with the decimals that name the ticks, no more: a step of
	 * 50 ms reads 0.05, 0.10, ...; of 2 s, 436, 438, ...
	 */
	t->unit = "s";
	label_ticks(t, origin_ns, exp10 >= 9 ? 0 : 9 - exp10);
	snprintf(t->title, sizeof(t->title), "%s",
		 origin_ns ? "time since the trace start (s)" : "trace timestamp (s)");
	return 0;
}

/*
 * Whether the labels of @t fit @plot_w: each gets its own width and a fifth
 * of it (two digits) as a gap.
 */
static bool labels_fit(const struct sp_time_ticks *t, cairo_t *cr, double plot_w, uint64_t t0_ns,
		       uint64_t t1_ns)
{
	double widest = 0;

	for (unsigned int i = 0; i < t->nr_ticks; i++)
		widest = fmax(widest, sp_text_width(cr, t->ticks[i].label));
	return t->nr_ticks <= 1 || plot_w / (t1_ns - t0_ns) * t->step_ns >= 1.2 * widest;
}

int sp_time_ticks_fit(struct sp_time_ticks *t, cairo_t *cr, double plot_w, uint64_t t0_ns,
		      uint64_t t1_ns, uint64_t origin_ns)
{
	int ret = -EINVAL;

	for (unsigned int max = 10; max >= 2; max--) {
		ret = sp_time_ticks_compute(t, t0_ns, t1_ns, origin_ns, max);
		if (ret || labels_fit(t, cr, plot_w, t0_ns, t1_ns))
			return ret;
	}
	return ret;
}

/* A signed time in @unit_ns units with @decimals digits: "\u22120.4", "0", "12". */
static void format_relative(char *buf, size_t size, int64_t v, uint64_t unit_ns, int decimals)
{
	uint64_t a = v < 0 ? (uint64_t)-v : (uint64_t)v;

	/* tick values have few digits: a double holds them exactly enough */
	snprintf(buf, size, "%s%.*f", v < 0 ? "\u2212" : "", decimals > 9 ? 9 : decimals,
		 (double)a / (double)unit_ns);
}

int sp_time_ticks_relative(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			   uint64_t origin_ns, unsigned int max_ticks, const char *what)
{
	static const unsigned int mant[3] = { 1, 2, 5 };
	static const char *const units[] = { "ns", "\u00b5s", "ms", "s" };
	uint64_t step = 1, dec = 1, unit_ns = 1;
	int64_t k0 = 0, k1 = -1, lo, hi;
	int exp10, u = 0, decimals;

	memset(t, 0, sizeof(*t));
	if (t1_ns <= t0_ns || max_ticks < 2 || max_ticks > SP_MAX_TICKS ||
	    t0_ns > INT64_MAX || t1_ns > INT64_MAX || origin_ns > INT64_MAX)
		return -EINVAL;
	lo = (int64_t)t0_ns - (int64_t)origin_ns;
	hi = (int64_t)t1_ns - (int64_t)origin_ns;
	for (exp10 = 0; exp10 <= 18; exp10++, dec *= 10) {
		unsigned int m;

		for (m = 0; m < 3; m++) {
			int64_t s;

			step = mant[m] * dec;
			s = (int64_t)step;
			/* the multiples of the step inside [lo, hi] */
			k0 = lo >= 0 ? (lo + s - 1) / s : -((-lo) / s);
			k1 = hi >= 0 ? hi / s : -((-hi + s - 1) / s);
			if (k1 - k0 + 1 <= (int64_t)max_ticks)
				break;
		}
		if (m < 3)
			break;
	}
	/* the unit of the step: 200 us reads in us, 0.5 ms in ms */
	while (u < 3 && step >= unit_ns * 1000) {
		unit_ns *= 1000;
		u++;
	}
	decimals = 0;
	for (uint64_t q = unit_ns; q > 1 && step % q; q /= 10)
		decimals++;
	t->step_ns = step;
	t->nr_ticks = k1 >= k0 ? (unsigned int)(k1 - k0 + 1) : 0;
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		int64_t v = (k0 + (int64_t)i) * (int64_t)step;

		t->ticks[i].ts_ns = (uint64_t)((int64_t)origin_ns + v);
		format_relative(t->ticks[i].label, sizeof(t->ticks[i].label), v, unit_ns,
				decimals);
	}
	t->unit = units[u];
	snprintf(t->title, sizeof(t->title), "time since %s (%s)", what, units[u]);
	return 0;
}

int sp_time_ticks_relative_fit(struct sp_time_ticks *t, cairo_t *cr, double plot_w,
			       uint64_t t0_ns, uint64_t t1_ns, uint64_t origin_ns, const char *what)
{
	int ret = -EINVAL;

	for (unsigned int max = 10; max >= 2; max--) {
		ret = sp_time_ticks_relative(t, t0_ns, t1_ns, origin_ns, max, what);
		if (ret || labels_fit(t, cr, plot_w, t0_ns, t1_ns))
			return ret;
	}
	return ret;
}

void sp_axis_frame_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot)
{
	double lw = theme->axis_line_width;
	double x0 = snap(plot->x, lw) - (fmod(round(lw), 2) == 1 ? 1 : 0);
	double y0 = snap(plot->y, lw) - (fmod(round(lw), 2) == 1 ? 1 : 0);
	double x1 = snap(plot->x + plot->w, lw), y1 = snap(plot->y + plot->h, lw);

	cairo_save(cr);
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, lw);
	cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void sp_axis_grid_line(cairo_t *cr, const struct sp_theme *theme, double x0, double y0,
		       double x1, double y1)
{
	sp_render_set_color(cr, &theme->grid);
	cairo_set_line_width(cr, theme->grid_line_width);
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

void sp_axis_time_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns, bool grid)
{
	double bottom = plot->y + plot->h;
	double label_y = bottom + theme->tick_len + theme->pad;
	double right = plot->x + plot->w + 2 * theme->font_size, w;

	if (t1_ns <= t0_ns)
		return;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		double x = plot->x + (double)(t->ticks[i].ts_ns - t0_ns) / (double)(t1_ns - t0_ns) *
					     plot->w;

		if (grid && t->ticks[i].ts_ns > t0_ns && t->ticks[i].ts_ns < t1_ns) {
			double gx = snap(x, theme->grid_line_width);

			sp_axis_grid_line(cr, theme, gx, plot->y, gx, bottom);
		}
		x = snap(x, theme->axis_line_width);
		sp_render_set_color(cr, &theme->axis);
		cairo_set_line_width(cr, theme->axis_line_width);
		cairo_move_to(cr, x, bottom);
		cairo_line_to(cr, x, bottom + theme->tick_len);
		cairo_stroke(cr);
		sp_render_set_color(cr, &theme->text);
		/*
		 * A label centred on a tick at the right edge may be wider than
		 * the room the layouts leave there (sp_layout_spec.right_w):
		 * it ends at that room's end instead of leaving the image.
		 */
		w = sp_text_width(cr, t->ticks[i].label);
		if (x + w / 2 > right)
			sp_text_draw(cr, right, label_y, SP_ALIGN_RIGHT | SP_ALIGN_TOP,
				     t->ticks[i].label);
		else
			sp_text_draw(cr, x, label_y, SP_ALIGN_CENTER | SP_ALIGN_TOP,
				     t->ticks[i].label);
	}
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, plot->x + plot->w / 2, label_y + sp_text_height(cr) + theme->pad,
		     SP_ALIGN_CENTER | SP_ALIGN_TOP, t->title);
	cairo_restore(cr);
}

int sp_int_ticks_compute(struct sp_int_ticks *t, long long max, unsigned int max_ticks)
{
	static const unsigned int mant[3] = { 1, 2, 5 };
	long long dec = 1, step = 1, top = 1;

	memset(t, 0, sizeof(*t));
	if (max_ticks < 2 || max_ticks > SP_MAX_TICKS)
		return -EINVAL;
	if (max < 1)
		max = 1;
	for (;;) {
		unsigned int m;

		for (m = 0; m < 3; m++) {
			step = mant[m] * dec;
			top = (max + step - 1) / step * step;
			if (top / step + 1 <= max_ticks)
				break;
		}
		if (m < 3 || dec > LLONG_MAX / 100)
			break;
		dec *= 10;
	}
	t->step = step;
	t->top = top;
	t->nr_ticks = (unsigned int)(top / step + 1);
	if (t->nr_ticks > SP_MAX_TICKS)
		t->nr_ticks = SP_MAX_TICKS;
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		t->ticks[i].value = i * step;
		snprintf(t->ticks[i].label, sizeof(t->ticks[i].label), "%lld", i * step);
	}
	return 0;
}

double sp_axis_label_width(cairo_t *cr, const struct sp_theme *theme, const char *const *labels,
			   size_t nr)
{
	double w = 0;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (size_t i = 0; i < nr; i++)
		if (labels[i])
			w = fmax(w, sp_text_width(cr, labels[i]));
	cairo_restore(cr);
	return w;
}

double sp_axis_left_width(cairo_t *cr, const struct sp_theme *theme, double label_w,
			  bool has_title)
{
	double w = theme->tick_len + theme->pad + label_w;

	if (has_title) {
		cairo_save(cr);
		sp_render_font(cr, theme, theme->font_size, false);
		w += 2 * theme->pad + sp_text_height(cr);
		cairo_restore(cr);
	}
	return w;
}

void sp_axis_left_tick(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       double y, const char *label)
{
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, theme->axis_line_width);
	cairo_move_to(cr, plot->x - theme->tick_len, y);
	cairo_line_to(cr, plot->x, y);
	cairo_stroke(cr);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, plot->x - theme->tick_len - theme->pad, y,
		     SP_ALIGN_RIGHT | SP_ALIGN_MIDDLE, label);
}

/* The vertical title of a y axis whose labels are @label_w wide. */
static void draw_y_title(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			 double label_w, const char *title)
{
	double x = plot->x - theme->tick_len - theme->pad - label_w - 2 * theme->pad;

	sp_render_set_color(cr, &theme->text);
	sp_text_draw_vertical(cr, x, plot->y + plot->h / 2, SP_ALIGN_CENTER | SP_ALIGN_BOTTOM,
			      title);
}

void sp_axis_int_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_int_ticks *t, const char *title, bool grid)
{
	double label_w = 0;

	if (t->top <= 0)
		return;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		double y = plot->y + plot->h - (double)t->ticks[i].value / (double)t->top * plot->h;

		if (grid && i > 0 && t->ticks[i].value < t->top) {
			double gy = snap(y, theme->grid_line_width);

			sp_axis_grid_line(cr, theme, plot->x, gy, plot->x + plot->w, gy);
		}
		y = snap(y, theme->axis_line_width);
		sp_axis_left_tick(cr, theme, plot, y, t->ticks[i].label);
		label_w = fmax(label_w, sp_text_width(cr, t->ticks[i].label));
	}
	if (title)
		draw_y_title(cr, theme, plot, label_w, title);
	cairo_restore(cr);
}

unsigned int sp_category_label_step(size_t nr_rows, double row_h, double label_h)
{
	size_t k = 1;

	if (nr_rows <= 1)
		return 1;
	while (k < nr_rows && k * row_h < label_h)
		k *= 2;
	if (k * row_h < label_h || k > nr_rows)
		k = nr_rows;
	return (unsigned int)k;
}

void sp_axis_rows_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const char *const *labels, size_t nr_rows, const char *title)
{
	double row_h, label_w;
	unsigned int k;

	if (!nr_rows)
		return;
	row_h = plot->h / (double)nr_rows;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	k = sp_category_label_step(nr_rows, row_h, theme->font_size * 1.5);
	label_w = sp_axis_label_width(cr, theme, labels, nr_rows);
	for (size_t i = 0; i < nr_rows; i += k) {
		double y = plot->y + (i + 0.5) * row_h;

		sp_axis_left_tick(cr, theme, plot, y, labels[i]);
	}
	if (title)
		draw_y_title(cr, theme, plot, label_w, title);
	cairo_restore(cr);
}
