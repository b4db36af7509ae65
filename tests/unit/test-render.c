// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared drawing: ticks, label thinning, layout, legends, palettes and text
 * sanitizing, checked as numbers and strings (never as rendered pixels).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL

static bool is_125(uint64_t v, int *exp10)
{
	int e = 0;

	if (!v)
		return false;
	while (v % 10 == 0) {
		v /= 10;
		e++;
	}
	*exp10 = e;
	return v == 1 || v == 2 || v == 5;
}

static uint64_t unit_ns(const char *unit)
{
	if (!strcmp(unit, "s"))
		return NS_PER_S;
	if (!strcmp(unit, "ms"))
		return NS_PER_MS;
	if (!strcmp(unit, "\xc2\xb5s"))
		return NS_PER_US;
	assert_string_equal(unit, "ns");
	return 1;
}

/* Structure every tick set must have, whatever the window. */
static void check_ticks(const struct sp_time_ticks *t, uint64_t t0, uint64_t t1, uint64_t origin)
{
	uint64_t u = unit_ns(t->unit);
	int exp10 = 0, decimals = -1;

	assert_true(is_125(t->step_ns, &exp10));
	assert_in_range(t->nr_ticks, 4, 12);
	/* The unit is the largest not longer than the window. */
	assert_true(t1 - t0 >= u);
	assert_true(u == NS_PER_S || t1 - t0 < u * 1000);
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		const char *label = t->ticks[i].label;
		const char *dot = strchr(label, '.');
		uint64_t rel = t->ticks[i].ts_ns - origin - t->base_ns;
		double value = strtod(label, NULL);

		assert_true(t->ticks[i].ts_ns >= t0 && t->ticks[i].ts_ns <= t1);
		assert_int_equal((t->ticks[i].ts_ns - origin) % t->step_ns, 0);
		if (i)
			assert_int_equal(t->ticks[i].ts_ns - t->ticks[i - 1].ts_ns, t->step_ns);
		/* The label says the tick's time in the unit. */
		assert_true(fabs(value * (double)u - (double)rel) <= 1e-6 * (double)u + 0.5);
		/* Same number of decimals on every label but a bare "0". */
		if (!strcmp(label, "0"))
			continue;
		if (decimals < 0)
			decimals = dot ? (int)strlen(dot + 1) : 0;
		assert_int_equal(dot ? (int)strlen(dot + 1) : 0, decimals);
		/* Just the decimals the step needs. */
		assert_int_equal(decimals, (u > t->step_ns) ? (int)log10((double)u) - exp10 : 0);
		assert_true(strlen(label) <= 8);
	}
}

static void test_time_ticks_windows(void **state)
{
	static const uint64_t spans[] = {
		1 * NS_PER_US, 1500, 2500, 7 * NS_PER_US, 10 * NS_PER_US, 33 * NS_PER_US,
		100 * NS_PER_US, 999 * NS_PER_US, 1 * NS_PER_MS, 2500 * NS_PER_US,
		10 * NS_PER_MS, 42 * NS_PER_MS, 120 * NS_PER_MS, 999 * NS_PER_MS, NS_PER_S,
		2 * NS_PER_S, 7300 * NS_PER_MS, 10 * NS_PER_S, 60 * NS_PER_S, 100 * NS_PER_S,
		333 * NS_PER_S, 600 * NS_PER_S,
	};
	static const uint64_t origins[] = { 0, 12345678901ULL };
	static const uint64_t offsets[] = { 0, 1, 777, 123456789 };
	struct sp_time_ticks t;
	unsigned int nr = 0;

	for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++)
		for (size_t o = 0; o < 2; o++)
			for (size_t f = 0; f < 4; f++)
				for (unsigned int max = 8; max <= 10; max++) {
					uint64_t t0 = origins[o] + offsets[f];
					uint64_t t1 = t0 + spans[s];

					assert_int_equal(sp_time_ticks_compute(&t, t0, t1,
									       origins[o], max),
							 0);
					assert_true(t.nr_ticks <= max);
					check_ticks(&t, t0, t1, origins[o]);
					nr++;
				}
	assert_true(nr > 500);
}

static void expect_labels(uint64_t t0, uint64_t t1, uint64_t origin, const char *title,
			  const char *const *labels, unsigned int nr)
{
	struct sp_time_ticks t;

	assert_int_equal(sp_time_ticks_compute(&t, t0, t1, origin, 10), 0);
	assert_string_equal(t.title, title);
	assert_int_equal(t.nr_ticks, nr);
	for (unsigned int i = 0; i < nr; i++)
		assert_string_equal(t.ticks[i].label, labels[i]);
}

static void test_time_ticks_labels(void **state)
{
	static const char *const one_s[] = { "0", "0.2", "0.4", "0.6", "0.8", "1.0" };
	static const char *const ten_min[] = { "0", "100", "200", "300", "400", "500", "600" };
	static const char *const one_us[] = { "0", "0.2", "0.4", "0.6", "0.8", "1.0" };
	static const char *const ms120[] = { "0", "20", "40", "60", "80", "100", "120" };
	static const char *const zoom[] = { "0.4", "0.6", "0.8", "1.0", "1.2" };
	static const char *const abs_s[] = { "5.0", "5.5", "6.0", "6.5", "7.0" };
	uint64_t o = 1000 * NS_PER_S;

	expect_labels(o, o + NS_PER_S, o, "time (s)", one_s, 6);
	expect_labels(o, o + 600 * NS_PER_S, o, "time (s)", ten_min, 7);
	expect_labels(o, o + NS_PER_US, o, "time (\xc2\xb5s)", one_us, 6);
	expect_labels(o, o + 120 * NS_PER_MS, o, "time (ms)", ms120, 7);
	/* A narrow window far from the origin counts from a round base. */
	expect_labels(o + 100 * NS_PER_S + 300 * NS_PER_US, o + 100 * NS_PER_S + 1300 * NS_PER_US,
		      o, "time (ms) after 100 s", zoom, 5);
	/* Absolute timestamps (origin 0). */
	expect_labels(5 * NS_PER_S, 7 * NS_PER_S, 0, "time (s)", abs_s, 5);
}

static void test_time_ticks_bad(void **state)
{
	struct sp_time_ticks t;

	assert_int_equal(sp_time_ticks_compute(&t, 10, 10, 0, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 5, 0, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 11, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 0, 1), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 0, SP_MAX_TICKS + 1), -EINVAL);
	/* A 1 ns window still gets ticks. */
	assert_int_equal(sp_time_ticks_compute(&t, 10, 11, 0, 10), 0);
	assert_int_equal(t.nr_ticks, 2);
	assert_int_equal(t.step_ns, 1);
}

static void test_int_ticks(void **state)
{
	struct sp_int_ticks t;
	static const struct {
		long long max;
		unsigned int max_ticks;
		long long step, top;
	} cases[] = {
		{ 0, 6, 1, 1 },	  { 1, 6, 1, 1 },	  { 5, 6, 1, 5 },   { 7, 6, 2, 8 },
		{ 37, 6, 10, 40 }, { 1000, 6, 200, 1000 }, { 512, 8, 100, 600 },
		{ 3, 2, 5, 5 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(sp_int_ticks_compute(&t, cases[i].max, cases[i].max_ticks), 0);
		assert_int_equal(t.step, cases[i].step);
		assert_int_equal(t.top, cases[i].top);
		assert_true(t.nr_ticks <= cases[i].max_ticks);
		assert_int_equal(t.nr_ticks, t.top / t.step + 1);
		assert_string_equal(t.ticks[0].label, "0");
		assert_int_equal(t.ticks[t.nr_ticks - 1].value, t.top);
	}
	assert_int_equal(sp_int_ticks_compute(&t, 10, 1), -EINVAL);
}

static void check_rows(size_t nr_rows, double plot_h, double label_h, unsigned int expect)
{
	double row_h = plot_h / (double)nr_rows;
	unsigned int k = sp_category_label_step(nr_rows, row_h, label_h);

	assert_int_equal(k, expect);
	assert_int_equal(k & (k - 1), 0);	/* 1, 2, 4, ... */
	/* Labels never overlap and no smaller step would do. */
	assert_true(k * row_h >= label_h);
	if (k > 1)
		assert_true(k / 2 * row_h < label_h);
}

static void test_category_label_step(void **state)
{
	check_rows(2, 400, 13, 1);
	check_rows(64, 400, 13, 4);
	check_rows(512, 400, 13, 32);
	check_rows(512, 2000, 13, 4);
	check_rows(64, 64 * 13, 13, 1);
	/* Not even one label per axis fits: only row 0. */
	assert_int_equal(sp_category_label_step(4, 1, 100), 4);
	assert_int_equal(sp_category_label_step(1, 1, 100), 1);
}

static bool overlaps(const struct sp_rect *a, const struct sp_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

static void test_layout(void **state)
{
	struct sp_theme th;
	struct sp_layout_spec spec;
	struct sp_layout lay;

	sp_theme_init(&th, 0);
	sp_layout_spec_init(&spec, &th, 800, 600);
	spec.title_h = 20;
	spec.left_w = 40;
	spec.legend = SP_LEGEND_RIGHT;
	spec.legend_w = 150;
	assert_int_equal(sp_layout_compute(&lay, &spec), 0);
	assert_true(lay.title.w > 0 && lay.legend.w == 150);
	assert_false(overlaps(&lay.plot, &lay.legend));
	assert_false(overlaps(&lay.plot, &lay.title));
	assert_true(lay.plot.x >= spec.margin + spec.left_w);
	assert_true(lay.legend.x + lay.legend.w <= 800 - spec.margin + 1e-9);
	assert_true(lay.plot.y + lay.plot.h + spec.bottom_h <= 600 - spec.margin + 1e-9);

	/* A legend wider than 40% is capped. */
	spec.legend_w = 1000;
	assert_int_equal(sp_layout_compute(&lay, &spec), 0);
	assert_true(lay.legend.w <= 0.4 * 800);
	assert_false(overlaps(&lay.plot, &lay.legend));

	spec.legend = SP_LEGEND_BELOW;
	spec.legend_h = 80;
	assert_int_equal(sp_layout_compute(&lay, &spec), 0);
	assert_true(lay.legend.h == 80);
	assert_true(lay.legend.y >= lay.plot.y + lay.plot.h + spec.bottom_h);
	assert_true(lay.legend.x == lay.plot.x);

	spec.legend = SP_LEGEND_NONE;
	spec.title_h = 0;
	assert_int_equal(sp_layout_compute(&lay, &spec), 0);
	assert_true(lay.title.w == 0 && lay.legend.w == 0);

	sp_layout_spec_init(&spec, &th, 60, 40);
	assert_int_equal(sp_layout_compute(&lay, &spec), -ERANGE);
}

static void test_legend_grid(void **state)
{
	struct sp_theme th;
	struct sp_legend_grid g;
	struct sp_rect tall = { 0, 0, 150, 500 }, wide = { 0, 0, 700, 60 };

	sp_theme_init(&th, 10);
	sp_legend_grid_compute(&g, &th, 10, 0, 60, &tall);
	assert_int_equal(g.nr_cols, 1);
	assert_int_equal(g.nr_rows, 10);
	assert_int_equal(g.nr_shown, 10);
	assert_false(g.more_line);

	/* Too many: the last place says "+N more". */
	sp_legend_grid_compute(&g, &th, 300, 0, 60, &tall);
	assert_true(g.more_line);
	assert_int_equal(g.nr_shown + 1, g.nr_cols * g.nr_rows);
	assert_true(g.nr_cols * g.col_w <= tall.w + 1e-9);
	assert_true(g.nr_rows * g.row_h <= tall.h + 1e-9);

	/* Below the plot: entries spread over columns. */
	sp_legend_grid_compute(&g, &th, 12, 5, 60, &wide);
	assert_true(g.nr_cols > 1);
	assert_true(g.nr_rows * g.row_h <= wide.h + 1e-9);
	assert_true(g.nr_cols * g.nr_rows >= 13);
	assert_int_equal(g.nr_shown, 12);
	assert_true(g.more_line);

	/* No room at all. */
	sp_legend_grid_compute(&g, &th, 5, 0, 60, &(struct sp_rect){ 0, 0, 100, 3 });
	assert_int_equal(g.nr_shown, 0);
	assert_false(g.more_line);
}

static double dist(const double a[3], const double b[3])
{
	return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
		    (a[2] - b[2]) * (a[2] - b[2]));
}

static void check_palette(const char *name, double min_step)
{
	const struct sp_palette *pal = sp_palette_by_name(name);
	const double white[3] = { 1, 0, 0 }, black[3] = { 0, 0, 0 };
	double prev[3] = { 0 };

	assert_non_null(pal);
	for (size_t i = 0; i < 1000; i++) {
		struct sp_rgb c, again;
		double lab[3];

		sp_palette_color(pal, i, &c.r, &c.g, &c.b);
		sp_palette_color(pal, i, &again.r, &again.g, &again.b);
		assert_memory_equal(&c, &again, sizeof(c));
		assert_true(c.r >= 0 && c.r <= 1 && c.g >= 0 && c.g <= 1 && c.b >= 0 && c.b <= 1);
		sp_color_to_oklab(&c, lab);
		/* Never near white (idle) nor near black ("other"). */
		assert_true(dist(lab, white) >= 0.12);
		assert_true(lab[0] <= 0.92);
		assert_true(lab[0] >= 0.3);
		assert_true(dist(lab, black) >= 0.3);
		/* Neighbours, e.g. tasks on one row, are clearly different. */
		if (i)
			assert_true(dist(lab, prev) >= min_step);
		memcpy(prev, lab, sizeof(prev));
	}
}

static void test_palettes(void **state)
{
	double r, g, b;

	check_palette("default", 0.12);
	check_palette("colorblind", 0.12);
	check_palette("grey", 0.2);
	assert_ptr_equal(sp_palette_by_name(NULL), sp_palette_by_name("default"));
	assert_null(sp_palette_by_name("rainbow"));
	assert_non_null(sp_palette_by_name("gray"));
	/* The first default colors are Okabe-Ito's orange and sky blue. */
	sp_palette_color(NULL, 0, &r, &g, &b);
	assert_true(fabs(r - 0xe6 / 255.0) < 1e-9 && fabs(g - 0x9f / 255.0) < 1e-9 && b == 0);
	sp_palette_color(sp_palette_by_name("colorblind"), 1, &r, &g, &b);
	assert_true(fabs(r - 0x56 / 255.0) < 1e-9 && fabs(b - 0xe9 / 255.0) < 1e-9);
	/* Any index has a color. */
	sp_palette_color(NULL, SIZE_MAX, &r, &g, &b);
	assert_true(r >= 0 && r <= 1);
}

static void test_string_colors(void **state)
{
	static const char *const names[] = {
		"bash", "kworker/0:1", "systemd", "gcc", "cc1", "ld", "make", "sshd",
		"rcu_sched", "ksoftirqd/3", "migration/7", "Xorg", "firefox", "python3",
		"perf", "trace-cmd", "barrier", "hackbench", "", "\xff\xfe",
	};
	bool seen[SP_STRING_COLORS] = { false };
	size_t distinct = 0;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < 20; i++) {
		size_t index = sp_string_color_index(names[i]);

		assert_true(index < SP_STRING_COLORS);
		assert_int_equal(sp_string_color_index(names[i]), index);
		distinct += !seen[index];
		seen[index] = true;
	}
	assert_true(distinct >= 12);

	/* Pinned to FNV-1a, so colors stay the same across releases. */
	for (const char *p = "bash"; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 16777619u;
	}
	assert_int_equal(h, 0x3adc901fu);
	assert_int_equal(sp_string_color_index("bash"), h % SP_STRING_COLORS);
}

static void expect_sanitized(const char *in, const char *out)
{
	char buf[64];

	assert_int_equal(sp_text_sanitize(buf, sizeof(buf), in), strlen(out));
	assert_string_equal(buf, out);
}

static void test_sanitize(void **state)
{
	char buf[8];

	expect_sanitized("bash", "bash");
	expect_sanitized("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");
	expect_sanitized("a\tb\nc\x7f", "a?b?c?");
	expect_sanitized("\xff", "?");
	expect_sanitized("x\x80y", "x?y");			/* stray continuation */
	expect_sanitized("\xc0\xaf", "?");			/* overlong '/' */
	expect_sanitized("\xe0\x80\xaf", "?");			/* overlong */
	expect_sanitized("\xed\xa0\x80", "?");			/* surrogate */
	expect_sanitized("\xf4\x90\x80\x80", "?");		/* beyond U+10FFFF */
	expect_sanitized("\xc2\x85", "?");			/* C1 NEL */
	expect_sanitized("\xef\xbf\xbf", "?");			/* U+FFFF */
	expect_sanitized("ab\xe2\x82", "ab??");			/* truncated */
	expect_sanitized("\xe2\x82x", "??x");
	expect_sanitized("", "");
	expect_sanitized(NULL, "");

	/* Cut at a character boundary. */
	assert_int_equal(sp_text_sanitize(buf, 5, "a\xc3\xa9\xe2\x82\xac"), 3);
	assert_string_equal(buf, "a\xc3\xa9");
	assert_int_equal(sp_text_sanitize(buf, 1, "abc"), 0);
	assert_string_equal(buf, "");
}

static cairo_t *scratch(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

static void test_text_fit(void **state)
{
	struct sp_theme th;
	cairo_t *cr = scratch();
	char buf[128];
	const char *longest = "a-very-long-command-name-that-will-not-fit";

	sp_theme_init(&th, 0);
	sp_render_font(cr, &th, th.font_size, false);
	assert_true(sp_text_fit(cr, buf, sizeof(buf), "bash", 100));
	assert_string_equal(buf, "bash");
	assert_false(sp_text_fit(cr, buf, sizeof(buf), longest, 80));
	assert_true(sp_text_width(cr, buf) <= 80);
	assert_true(strlen(buf) > 4);
	assert_memory_equal(buf + strlen(buf) - 3, "\xe2\x80\xa6", 3);
	assert_memory_equal(buf, longest, strlen(buf) - 3);
	/* Multi-byte characters are never split. */
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 30));
	assert_int_equal((strlen(buf) - 3) % 2, 0);
	/* Invalid input is sanitized. */
	assert_true(sp_text_fit(cr, buf, sizeof(buf), "a\x01", 100));
	assert_string_equal(buf, "a?");
	assert_false(sp_text_fit(cr, buf, sizeof(buf), longest, 0.5));
	assert_string_equal(buf, "");
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
}

/* Everything draws without putting cairo in an error state. */
static void test_draw_smoke(void **state)
{
	static const char *const cpus[] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	struct sp_legend_entry entries[40];
	struct sp_legend legend = { entries, 40, 100, "tasks" };
	struct sp_theme th;
	struct sp_layout_spec spec;
	struct sp_layout lay;
	struct sp_time_ticks tt;
	struct sp_int_ticks it;
	cairo_t *cr = scratch();

	sp_theme_init(&th, 0);
	for (int i = 0; i < 40; i++) {
		sp_palette_color(NULL, (size_t)i, &entries[i].color.r, &entries[i].color.g,
				 &entries[i].color.b);
		entries[i].label = i % 2 ? "bash" : "kworker/u16:3-events_unbound\x01";
	}
	sp_layout_spec_init(&spec, &th, 400, 300);
	spec.left_w = sp_axis_left_width(cr, &th, sp_axis_label_width(cr, &th, cpus, 8), true);
	spec.legend = SP_LEGEND_RIGHT;
	spec.legend_w = sp_legend_size(cr, &th, &legend, SP_LEGEND_RIGHT, 250);
	assert_true(spec.legend_w > 0);
	assert_int_equal(sp_layout_compute(&lay, &spec), 0);
	assert_int_equal(sp_time_ticks_fit(&tt, cr, lay.plot.w, 100, 100 + 3 * NS_PER_S, 100), 0);
	assert_true(tt.nr_ticks >= 2);
	sp_axis_rows_draw(cr, &th, &lay.plot, cpus, 8, "CPU");
	sp_axis_time_draw(cr, &th, &lay.plot, &tt, 100, 100 + 3 * NS_PER_S, true);
	sp_axis_frame_draw(cr, &th, &lay.plot);
	sp_legend_draw(cr, &th, &legend, &lay.legend);
	assert_int_equal(sp_int_ticks_compute(&it, 17, 6), 0);
	sp_axis_int_draw(cr, &th, &lay.plot, &it, "tasks", true);
	sp_text_draw_vertical(cr, 10, 10, SP_ALIGN_CENTER | SP_ALIGN_MIDDLE, "x\xff");
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
}

static void test_theme(void **state)
{
	struct sp_theme th, big;

	sp_theme_init(&th, 0);
	assert_string_equal(th.font_family, "DejaVu Sans");
	assert_true(th.font_size == SP_THEME_FONT_SIZE);
	assert_true(th.idle.r == 1 && th.idle.g == 1 && th.idle.b == 1);
	assert_true(th.other.r == 0 && th.other.g == 0 && th.other.b == 0);
	sp_theme_init(&big, 22);
	assert_true(big.font_size == 22);
	assert_true(big.tick_len > th.tick_len && big.margin > th.margin);
	sp_theme_init(&big, 1000);
	assert_true(big.font_size == SP_THEME_MAX_FONT_SIZE);
	sp_theme_init(&big, 0.1);
	assert_true(big.font_size == SP_THEME_MIN_FONT_SIZE);
}

/*
 * Let leak checkers see only our own allocations: cairo keeps font caches
 * until reset, and fontconfig leaks a little while parsing its
 * configuration (not ours to fix).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static int teardown(void **state)
{
	cairo_debug_reset_static_data();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_ticks_windows),
		cmocka_unit_test(test_time_ticks_labels),
		cmocka_unit_test(test_time_ticks_bad),
		cmocka_unit_test(test_int_ticks),
		cmocka_unit_test(test_category_label_step),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_legend_grid),
		cmocka_unit_test(test_palettes),
		cmocka_unit_test(test_string_colors),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_text_fit),
		cmocka_unit_test(test_draw_smoke),
		cmocka_unit_test(test_theme),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
