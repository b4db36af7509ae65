// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared drawing for all views: theme, text, layout, axes, legends and
 * palettes.  See include/schedplot/render.h for the contracts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/render.h"

#define TEXT_BUF 512

static const char ellipsis[] = "\xe2\x80\xa6";	/* U+2026 */

void sp_theme_init(struct sp_theme *theme, double font_size)
{
	double f;

	if (!(font_size > 0))
		font_size = SP_THEME_FONT_SIZE;
	if (font_size < SP_THEME_MIN_FONT_SIZE)
		font_size = SP_THEME_MIN_FONT_SIZE;
	if (font_size > SP_THEME_MAX_FONT_SIZE)
		font_size = SP_THEME_MAX_FONT_SIZE;
	f = font_size / SP_THEME_FONT_SIZE;

	memset(theme, 0, sizeof(*theme));
	theme->font_family = SP_THEME_FONT_FAMILY;
	theme->font_size = font_size;
	theme->title_font_size = font_size * 1.3;
	theme->axis_line_width = fmax(1.0, round(f));
	theme->grid_line_width = fmax(1.0, round(f));
	theme->data_line_width = fmax(1.5, 1.5 * f);
	theme->tick_len = 4.0 * f;
	theme->pad = 3.0 * f;
	theme->margin = 10.0 * f;
	theme->swatch = 0.9 * font_size;
	theme->background = (struct sp_rgb){ 1, 1, 1 };
	theme->axis = (struct sp_rgb){ 0.15, 0.15, 0.15 };
	theme->grid = (struct sp_rgb){ 0.85, 0.85, 0.85 };
	theme->text = (struct sp_rgb){ 0.1, 0.1, 0.1 };
	theme->idle = (struct sp_rgb){ 1, 1, 1 };
	theme->no_data = (struct sp_rgb){ 0.8, 0.8, 0.8 };
	theme->other = (struct sp_rgb){ 0, 0, 0 };
}

void sp_render_set_color(cairo_t *cr, const struct sp_rgb *c)
{
	cairo_set_source_rgb(cr, c->r, c->g, c->b);
}

/* ---- text ---------------------------------------------------------------- */

/*
 * Length of the valid, allowed UTF-8 character at @s; 0 when the byte at @s
 * starts no well-formed sequence; minus the length of a well-formed
 * sequence that is not allowed (overlong, surrogate, control, ...).
 */
static int utf8_char(const unsigned char *s)
{
	uint32_t cp;
	int len, i;

	if (s[0] < 0x80)
		return (s[0] < 0x20 || s[0] == 0x7f) ? -1 : 1;
	if (s[0] >= 0xc0 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf7) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff)
		return -len;	/* overlong or beyond Unicode */
	if (cp >= 0xd800 && cp <= 0xdfff)
		return -len;	/* surrogate */
	if (cp >= 0x80 && cp <= 0x9f)
		return -len;	/* C1 control */
	if (cp == 0xfffe || cp == 0xffff)
		return -len;
	return len;
}

size_t sp_text_sanitize(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t n = 0;

	if (!size)
		return 0;
	while (*s) {
		int len = utf8_char(s);

		if (len <= 0) {
			if (n + 1 >= size)
				break;
			dst[n++] = '?';
			s += len < 0 ? -len : 1;
			continue;
		}
		if (n + (size_t)len >= size)
			break;
		memcpy(dst + n, s, (size_t)len);
		n += (size_t)len;
		s += len;
	}
	dst[n] = '\0';
	return n;
}

void sp_render_font(cairo_t *cr, const struct sp_theme *theme, double size, bool bold)
{
	cairo_select_font_face(cr, theme->font_family, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double sp_text_width(cairo_t *cr, const char *text)
{
	char buf[TEXT_BUF];
	cairo_text_extents_t te;

	sp_text_sanitize(buf, sizeof(buf), text);
	cairo_text_extents(cr, buf, &te);
	return te.x_advance;
}

double sp_text_height(cairo_t *cr)
{
	cairo_font_extents_t fe;

	cairo_font_extents(cr, &fe);
	return fe.ascent + fe.descent;
}

void sp_text_draw(cairo_t *cr, double x, double y, unsigned int align, const char *text)
{
	char buf[TEXT_BUF];
	cairo_text_extents_t te;
	cairo_font_extents_t fe;

	sp_text_sanitize(buf, sizeof(buf), text);
	if (!buf[0])
		return;
	cairo_text_extents(cr, buf, &te);
	cairo_font_extents(cr, &fe);

	switch (align & SP_ALIGN_H_MASK) {
	case SP_ALIGN_CENTER:
		x -= te.x_advance / 2;
		break;
	case SP_ALIGN_RIGHT:
		x -= te.x_advance;
		break;
	}
	switch (align & SP_ALIGN_V_MASK) {
	case SP_ALIGN_TOP:
		y += fe.ascent;
		break;
	case SP_ALIGN_MIDDLE: {
		/* Centre digits and capitals, not the font's line box. */
		cairo_text_extents_t digit;

		cairo_text_extents(cr, "0", &digit);
		y -= digit.y_bearing / 2;
		break;
	}
	case SP_ALIGN_BOTTOM:
		y -= fe.descent;
		break;
	}
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
	cairo_new_path(cr);
}

void sp_text_draw_vertical(cairo_t *cr, double x, double y, unsigned int align, const char *text)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -M_PI / 2);
	sp_text_draw(cr, 0, 0, align, text);
	cairo_restore(cr);
}

bool sp_text_fit(cairo_t *cr, char *dst, size_t size, const char *text, double max_w)
{
	cairo_text_extents_t te;
	char buf[TEXT_BUF];
	size_t n, cut;

	if (!size)
		return false;
	n = sp_text_sanitize(buf, sizeof(buf), text);
	cairo_text_extents(cr, buf, &te);
	if (te.x_advance <= max_w && n < size) {
		memcpy(dst, buf, n + 1);
		return true;
	}
	/* Drop whole characters from the end until text + ellipsis fits. */
	cut = n;
	while (cut > 0) {
		do
			cut--;
		while (cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80);
		if (cut + sizeof(ellipsis) > size)
			continue;
		memcpy(dst, buf, cut);
		memcpy(dst + cut, ellipsis, sizeof(ellipsis));
		cairo_text_extents(cr, dst, &te);
		if (te.x_advance <= max_w)
			return false;
	}
	dst[0] = '\0';
	if (sizeof(ellipsis) <= size) {
		cairo_text_extents(cr, ellipsis, &te);
		if (te.x_advance <= max_w)
			memcpy(dst, ellipsis, sizeof(ellipsis));
	}
	return false;
}

/* ---- layout -------------------------------------------------------------- */

void sp_layout_spec_init(struct sp_layout_spec *spec, const struct sp_theme *theme,
			 double width, double height)
{
	double line = theme->font_size * 1.2;

	memset(spec, 0, sizeof(*spec));
	spec->width = width;
	spec->height = height;
	spec->margin = theme->margin;
	spec->gap = theme->font_size;
	spec->bottom_h = theme->tick_len + theme->pad + line + theme->pad + line;
	spec->right_w = theme->font_size * 2;
	spec->top_h = theme->font_size * 0.6;
	spec->legend = SP_LEGEND_NONE;
}

int sp_layout_compute(struct sp_layout *lay, const struct sp_layout_spec *spec)
{
	double x0 = spec->margin, y0 = spec->margin;
	double x1 = spec->width - spec->margin, y1 = spec->height - spec->margin;

	memset(lay, 0, sizeof(*lay));
	if (spec->title_h > 0) {
		lay->title = (struct sp_rect){ x0, y0, x1 - x0, spec->title_h };
		y0 += spec->title_h + spec->gap / 2;
	}
	if (spec->legend == SP_LEGEND_RIGHT && spec->legend_w > 0) {
		double lw = fmin(spec->legend_w, 0.4 * (x1 - x0));

		lay->legend = (struct sp_rect){ x1 - lw, y0 + spec->top_h, lw,
						y1 - y0 - spec->top_h };
		x1 -= lw + spec->gap;
	} else if (spec->legend == SP_LEGEND_BELOW && spec->legend_h > 0) {
		double lh = fmin(spec->legend_h, 0.4 * (y1 - y0));

		lay->legend = (struct sp_rect){ x0, y1 - lh, x1 - x0, lh };
		y1 -= lh + spec->gap;
	}
	lay->plot.x = x0 + spec->left_w;
	lay->plot.y = y0 + spec->top_h;
	lay->plot.w = x1 - spec->right_w - lay->plot.x;
	lay->plot.h = y1 - spec->bottom_h - lay->plot.y;
	if (spec->legend == SP_LEGEND_BELOW && lay->legend.w > 0) {
		/* Line the legend up with the plot, not with the y labels. */
		lay->legend.w -= lay->plot.x - lay->legend.x;
		lay->legend.x = lay->plot.x;
	}
	if (!(lay->plot.w >= SP_LAYOUT_MIN_PLOT) || !(lay->plot.h >= SP_LAYOUT_MIN_PLOT))
		return -ERANGE;
	return 0;
}

/* ---- axes ---------------------------------------------------------------- */

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

/* "12.35": @v ns in units of 10^@u ns with @decimals digits; "0" for zero. */
static void format_fixed(char *buf, size_t size, uint64_t v, int u, int decimals)
{
	uint64_t unit = pow10_u64(u);
	uint64_t ip = v / unit, frac = v % unit;

	if (v == 0 || decimals <= 0) {
		snprintf(buf, size, "%llu", (unsigned long long)ip);
		return;
	}
	if (decimals > u)
		decimals = u;
	frac /= pow10_u64(u - decimals);
	snprintf(buf, size, "%llu.%0*llu", (unsigned long long)ip, decimals & 31,
		 (unsigned long long)frac);
}

static void label_ticks(struct sp_time_ticks *t, uint64_t origin_ns, int u, int decimals)
{
	for (unsigned int i = 0; i < t->nr_ticks; i++)
		format_fixed(t->ticks[i].label, sizeof(t->ticks[i].label),
			     t->ticks[i].ts_ns - origin_ns - t->base_ns, u, decimals);
}

int sp_time_ticks_compute(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			  uint64_t origin_ns, unsigned int max_ticks)
{
	static const unsigned int mant[3] = { 1, 2, 5 };
	static const char *const units[4] = { "ns", "\xc2\xb5s", "ms", "s" };
	uint64_t span, step = 1, first = 0, n = 0, dec = 1;
	int exp10 = 0, u, decimals;
	size_t longest = 0;

	memset(t, 0, sizeof(*t));
	if (t1_ns <= t0_ns || origin_ns > t0_ns || max_ticks < 2 || max_ticks > SP_MAX_TICKS)
		return -EINVAL;
	span = t1_ns - t0_ns;

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

	/* Unit: the largest not longer than the window. */
	u = span >= 1000000000ULL ? 9 : span >= 1000000ULL ? 6 : span >= 1000ULL ? 3 : 0;
	t->unit = units[u / 3];
	decimals = exp10 >= u ? 0 : u - exp10;
	label_ticks(t, origin_ns, u, decimals);
	for (unsigned int i = 0; i < t->nr_ticks; i++)
		if (strlen(t->ticks[i].label) > longest)
			longest = strlen(t->ticks[i].label);

	if (longest > 7) {
		/* Count from a round base just before t0: D is the power of ten above span. */
		uint64_t d = 1;
		char base[40];
		int dexp = 0;
		size_t len;

		while (d <= span && dexp < 18) {
			d *= 10;
			dexp++;
		}
		t->base_ns = (t0_ns - origin_ns) / d * d;
		label_ticks(t, origin_ns, u, decimals);
		format_fixed(base, sizeof(base), t->base_ns, 9, dexp >= 9 ? 0 : 9 - dexp);
		len = strlen(base);
		if (strchr(base, '.')) {
			while (len > 0 && base[len - 1] == '0')
				base[--len] = '\0';
			if (len > 0 && base[len - 1] == '.')
				base[--len] = '\0';
		}
		snprintf(t->title, sizeof(t->title), "time (%s) after %s s", t->unit, base);
	} else {
		snprintf(t->title, sizeof(t->title), "time (%s)", t->unit);
	}
	return 0;
}

int sp_time_ticks_fit(struct sp_time_ticks *t, cairo_t *cr, double plot_w, uint64_t t0_ns,
		      uint64_t t1_ns, uint64_t origin_ns)
{
	int ret = -EINVAL;

	for (unsigned int max = 10; max >= 2; max--) {
		double widest = 0;

		ret = sp_time_ticks_compute(t, t0_ns, t1_ns, origin_ns, max);
		if (ret)
			return ret;
		for (unsigned int i = 0; i < t->nr_ticks; i++)
			widest = fmax(widest, sp_text_width(cr, t->ticks[i].label));
		/* Each label gets its own width and as much again as a gap. */
		if (t->nr_ticks <= 1 || plot_w / (t1_ns - t0_ns) * t->step_ns >= 2 * widest)
			return 0;
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

void sp_axis_time_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns, bool grid)
{
	double bottom = plot->y + plot->h;
	double label_y = bottom + theme->tick_len + theme->pad;

	if (t1_ns <= t0_ns)
		return;
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		double x = plot->x + (double)(t->ticks[i].ts_ns - t0_ns) / (double)(t1_ns - t0_ns) *
					     plot->w;

		if (grid && t->ticks[i].ts_ns > t0_ns && t->ticks[i].ts_ns < t1_ns) {
			double gx = snap(x, theme->grid_line_width);

			sp_render_set_color(cr, &theme->grid);
			cairo_set_line_width(cr, theme->grid_line_width);
			cairo_move_to(cr, gx, plot->y);
			cairo_line_to(cr, gx, bottom);
			cairo_stroke(cr);
		}
		x = snap(x, theme->axis_line_width);
		sp_render_set_color(cr, &theme->axis);
		cairo_set_line_width(cr, theme->axis_line_width);
		cairo_move_to(cr, x, bottom);
		cairo_line_to(cr, x, bottom + theme->tick_len);
		cairo_stroke(cr);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, x, label_y, SP_ALIGN_CENTER | SP_ALIGN_TOP, t->ticks[i].label);
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

			sp_render_set_color(cr, &theme->grid);
			cairo_set_line_width(cr, theme->grid_line_width);
			cairo_move_to(cr, plot->x, gy);
			cairo_line_to(cr, plot->x + plot->w, gy);
			cairo_stroke(cr);
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

/* ---- legend -------------------------------------------------------------- */

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

double sp_legend_size(cairo_t *cr, const struct sp_theme *theme, const struct sp_legend *legend,
		      enum sp_legend_place place, double avail)
{
	double label_w, col_w, row_h = legend_row_h(theme), title_h, size;
	size_t total = legend->nr_entries + (legend->nr_more ? 1 : 0);

	if (!total || place == SP_LEGEND_NONE)
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

void sp_legend_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_legend *legend,
		    const struct sp_rect *area)
{
	struct sp_legend_grid g;
	struct sp_rect body = *area;
	double title_h, label_max;
	char buf[TEXT_BUF];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	title_h = legend_title_h(cr, theme, legend);
	body.y += title_h;
	body.h -= title_h;
	/* The last column needs no gap after it. */
	body.w += legend_col_gap(theme);
	sp_legend_grid_compute(&g, theme, legend->nr_entries, legend->nr_more,
			       legend_label_w(cr, theme, legend), &body);
	if (legend->title && area->h >= title_h) {
		sp_render_font(cr, theme, theme->font_size, true);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), legend->title, area->w);
		sp_text_draw(cr, area->x, area->y + title_h / 2, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE,
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
		sp_render_set_color(cr, &legend->entries[i].color);
		cairo_rectangle(cr, x, cy - theme->swatch / 2, theme->swatch, theme->swatch);
		cairo_fill_preserve(cr);
		/* An outline, so white (idle) and pale swatches show. */
		sp_render_set_color(cr, &theme->axis);
		cairo_set_line_width(cr, 0.5);
		cairo_stroke(cr);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), legend->entries[i].label, label_max);
		sp_text_draw(cr, x + theme->swatch + theme->pad, cy, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE,
			     buf);
	}
	cairo_restore(cr);
}

/* ---- palettes ------------------------------------------------------------ */

enum palette_kind { PALETTE_DEFAULT, PALETTE_COLORBLIND, PALETTE_GREY };

struct sp_palette {
	const char *name;
	enum palette_kind kind;
};

static const struct sp_palette palettes[] = {
	{ "default", PALETTE_DEFAULT },
	{ "colorblind", PALETTE_COLORBLIND },
	{ "grey", PALETTE_GREY },
	{ "gray", PALETTE_GREY },
};

/* Okabe and Ito's color-blind safe set, without its black. */
static const struct sp_rgb okabe_ito[] = {
	{ 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0 },	/* orange */
	{ 0x56 / 255.0, 0xb4 / 255.0, 0xe9 / 255.0 },	/* sky blue */
	{ 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0 },	/* bluish green */
	{ 0xf0 / 255.0, 0xe4 / 255.0, 0x42 / 255.0 },	/* yellow */
	{ 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 },	/* blue */
	{ 0xd5 / 255.0, 0x5e / 255.0, 0x00 / 255.0 },	/* vermillion */
	{ 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0 },	/* reddish purple */
};
#define NR_OKABE_ITO (sizeof(okabe_ito) / sizeof(okabe_ito[0]))

#define GOLDEN_ANGLE 137.50776405003785
#define GOLDEN_FRACTION 0.6180339887498949

const struct sp_palette *sp_palette_by_name(const char *name)
{
	if (!name)
		return &palettes[0];
	for (size_t i = 0; i < sizeof(palettes) / sizeof(palettes[0]); i++)
		if (!strcmp(name, palettes[i].name))
			return &palettes[i];
	return NULL;
}

const char *sp_palette_names(void)
{
	return "default, colorblind, grey";
}

static double srgb_to_linear(double x)
{
	return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double x)
{
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055;
}

void sp_color_to_oklab(const struct sp_rgb *c, double lab[3])
{
	double r = srgb_to_linear(c->r), g = srgb_to_linear(c->g), b = srgb_to_linear(c->b);
	double l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
	double m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
	double s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);

	lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
	lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
	lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

/* OKLab to linear sRGB; true when the color is inside the sRGB gamut. */
static bool oklab_to_linear(double L, double a, double b, double rgb[3])
{
	double l = L + 0.3963377774 * a + 0.2158037573 * b;
	double m = L - 0.1055613458 * a - 0.0638541728 * b;
	double s = L - 0.0894841775 * a - 1.2914855480 * b;

	l = l * l * l;
	m = m * m * m;
	s = s * s * s;
	rgb[0] = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
	rgb[1] = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
	rgb[2] = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
	for (int i = 0; i < 3; i++)
		if (rgb[i] < -1e-9 || rgb[i] > 1 + 1e-9)
			return false;
	return true;
}

/*
 * OKLCH to sRGB, lowering the chroma (keeping lightness and hue) until the
 * color is displayable.
 */
static void oklch_to_srgb(double L, double C, double h_deg, struct sp_rgb *out)
{
	double h = h_deg * M_PI / 180, rgb[3];
	double lo = 0, hi = C;

	if (!oklab_to_linear(L, C * cos(h), C * sin(h), rgb)) {
		for (int i = 0; i < 30; i++) {
			double mid = (lo + hi) / 2;

			if (oklab_to_linear(L, mid * cos(h), mid * sin(h), rgb))
				lo = mid;
			else
				hi = mid;
		}
		oklab_to_linear(L, lo * cos(h), lo * sin(h), rgb);
	}
	out->r = linear_to_srgb(rgb[0]);
	out->g = linear_to_srgb(rgb[1]);
	out->b = linear_to_srgb(rgb[2]);
}

static void default_color(size_t j, struct sp_rgb *c)
{
	static const double light[3] = { 0.70, 0.55, 0.83 };
	double h = fmod(145.0 + (double)(j % 100000) * GOLDEN_ANGLE, 360.0);

	oklch_to_srgb(light[j % 3], 0.14, h, c);
}

/* Alternate blue and yellow-orange families, stepping lightness and hue. */
static void colorblind_color(size_t j, struct sp_rgb *c)
{
	static const double light[4] = { 0.52, 0.78, 0.64, 0.86 };
	size_t k = j / 2;
	double off = (fmod((double)(k % 100000) * GOLDEN_FRACTION, 1.0) - 0.5) * 60.0;
	double h = (j % 2 ? 250.0 : 70.0) + off;

	oklch_to_srgb(light[k % 4], 0.13, h, c);
}

static void grey_color(size_t index, struct sp_rgb *c)
{
	/* Nine levels from light to dark; a step of four keeps neighbours apart. */
	size_t level = (index * 4) % 9;
	double L = 0.87 - 0.065 * (double)level;
	double v = linear_to_srgb(L * L * L);

	c->r = c->g = c->b = v;
}

void sp_palette_color(const struct sp_palette *palette, size_t index, double *r, double *g,
		      double *b)
{
	struct sp_rgb c;

	if (!palette)
		palette = &palettes[0];
	if (palette->kind == PALETTE_GREY)
		grey_color(index, &c);
	else if (index < NR_OKABE_ITO)
		c = okabe_ito[index];
	else if (palette->kind == PALETTE_COLORBLIND)
		colorblind_color(index - NR_OKABE_ITO, &c);
	else
		default_color(index - NR_OKABE_ITO, &c);
	*r = c.r;
	*g = c.g;
	*b = c.b;
}

size_t sp_string_color_index(const char *s)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h % SP_STRING_COLORS;
}
