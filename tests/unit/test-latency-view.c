// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency figure, checked by pixels: two groups whose CDFs cross where
 * they should, decade ticks where the log axis puts them, and the CDF
 * itself against the nearest-rank definition.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/draw/logaxis.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/latency.h"

#define W 800
#define H 500
#define N 1000

static uint64_t a_v[N], b_v[N];

/* A: every wait 10 us.  B: spread evenly on a log scale over 1 us .. 100 us. */
static void make_series(struct sp_latency_series s[2])
{
	for (int i = 0; i < N; i++) {
		a_v[i] = 10000;
		b_v[i] = (uint64_t)llround(1000 * pow(10, 2.0 * (i + 0.5) / N));
	}
	s[0] = (struct sp_latency_series){ "A", a_v, N, 10000, 10000, 0, false, NULL, 0 };
	s[1] = (struct sp_latency_series){ "B", b_v, N, b_v[N / 2 - 1], b_v[N * 99 / 100 - 1], 1,
					   false, NULL, 0 };
}

static void test_cdf_at(void **state)
{
	struct sp_latency_series s[2];

	make_series(s);
	assert_true(sp_latency_cdf_at(&s[0], 9999) == 0);
	assert_true(sp_latency_cdf_at(&s[0], 10000) == 1);
	/* B: half of the waits below 10 us */
	assert_true(fabs(sp_latency_cdf_at(&s[1], 10000) - 0.5) < 0.002);
}

static void test_log_labels(void **state)
{
	char buf[32];

	assert_string_equal(sp_log_label(buf, sizeof(buf), 3, SP_LOG_NS), "1 µs");
	assert_string_equal(sp_log_label(buf, sizeof(buf), 5, SP_LOG_NS), "100 µs");
	assert_string_equal(sp_log_label(buf, sizeof(buf), 9, SP_LOG_NS), "1 s");
	assert_string_equal(sp_log_label(buf, sizeof(buf), 0, SP_LOG_FRACTION), "100%");
	assert_string_equal(sp_log_label(buf, sizeof(buf), -3, SP_LOG_FRACTION), "0.1%");
}

static bool near_color(const unsigned char *px, const struct sp_rgb *c)
{
	/* cairo ARGB32, little endian: B G R A */
	return abs(px[2] - (int)lround(c->r * 255)) < 40 &&
	       abs(px[1] - (int)lround(c->g * 255)) < 40 &&
	       abs(px[0] - (int)lround(c->b * 255)) < 40;
}

static bool dark(const unsigned char *data, int stride, int x, int y)
{
	const unsigned char *p = data + y * stride + 4 * x;

	return p[0] < 80 && p[1] < 80 && p[2] < 80;
}

/* The plot frame: from the middle of the image out to its lines. */
static void plot_edges(const unsigned char *data, int stride, int *x0, int *x1, int *y0, int *y1)
{
	int cx = W / 2, cy = H / 2;

	for (*x0 = cx; *x0 > 0 && !dark(data, stride, *x0, cy); (*x0)--)
		;
	for (*x1 = cx; *x1 < W - 1 && !dark(data, stride, *x1, cy); (*x1)++)
		;
	/* along the left line, as far as it goes */
	for (*y0 = cy; *y0 > 0 && dark(data, stride, *x0, *y0 - 1); (*y0)--)
		;
	for (*y1 = cy; *y1 < H - 1 && dark(data, stride, *x0, *y1 + 1); (*y1)++)
		;
}

/* A's line rises at 10 us (the middle decade), B's crosses 50% there. */
static void test_two_groups_cross(void **state)
{
	struct sp_latency_series s[2];
	struct sp_latency_figure fig = {
		.title = "", .plot = SP_LATPLOT_CDF, .series = s, .nr_series = 2,
		.legend = true, .pixels = true,
	};
	struct sp_theme theme;
	struct sp_rgb ca, cb;
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
	cairo_t *cr = cairo_create(surf);
	int x0, x1, y0, y1, stride, hits_a = 0, hits_b = 0;
	unsigned char *data;

	make_series(s);
	sp_theme_init(&theme, 11);
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, W, H), 0);
	cairo_surface_flush(surf);
	data = cairo_image_surface_get_data(surf);
	stride = cairo_image_surface_get_stride(surf);
	plot_edges(data, stride, &x0, &x1, &y0, &y1);
	assert_true(x0 > 0 && x1 > x0 + 100 && y0 >= 0 && y1 > y0 + 100);
	sp_palette_color(NULL, 0, &ca.r, &ca.g, &ca.b);
	sp_palette_color(NULL, 1, &cb.r, &cb.g, &cb.b);

	/* the axis spans 1 us .. 100 us: 10 us in the middle */
	int xm = (x0 + x1) / 2, xq = x0 + (x1 - x0) / 4;
	/* left of 10 us A lies at 0% (the bottom), B at about 25% at a quarter */
	/* 0% and 100% lie a few pixels inside the frame */
	for (int y = y1 - 8; y <= y1; y++)
		hits_a += near_color(data + y * stride + 4 * xq, &ca);
	int yb = y1 - (int)lround(0.25 * (y1 - y0));	/* within the inset */
	for (int y = yb - 4; y <= yb + 4; y++)
		hits_b += near_color(data + y * stride + 4 * xq, &cb);
	if (getenv("SP_TEST_PNG"))
		cairo_surface_write_to_png(surf, getenv("SP_TEST_PNG"));
	assert_true(hits_a > 0);
	assert_true(hits_b > 0);
	/* right of 10 us A lies at 100% (the top) */
	hits_a = 0;
	for (int y = y0; y <= y0 + 8; y++)
		hits_a += near_color(data + y * stride + 4 * (xm + (x1 - x0) / 8), &ca);
	assert_true(hits_a > 0);

	if (getenv("SP_TEST_PNG"))
		cairo_surface_write_to_png(surf, getenv("SP_TEST_PNG"));
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

/* Tail and histogram draw too, and the figure says no to empty input. */
static void test_other_plots(void **state)
{
	struct sp_latency_series s[2];
	struct sp_latency_figure fig = {
		.title = "t", .plot = SP_LATPLOT_CCDF, .series = s, .nr_series = 2,
		.legend = true, .note = "note",
	};
	struct sp_theme theme;
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
	cairo_t *cr = cairo_create(surf);

	make_series(s);
	sp_theme_init(&theme, 11);
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, W, H), 0);
	fig.plot = SP_LATPLOT_HIST;
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, W, H), 0);
	s[0].n = s[1].n = 0;
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, W, H), -EINVAL);
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, 40, 30), -EINVAL);
	s[0].n = N;
	assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, 40, 30), -ERANGE);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

/* marks_ns: a dashed vertical line at 10^3.5 ns, a quarter across the 1 us .. 100 us axis */
static void test_vertical_marks(void **state)
{
	static const uint64_t at[1] = { 3162 };
	struct sp_latency_series s[2];
	struct sp_latency_figure fig = {
		.title = "", .plot = SP_LATPLOT_CDF, .series = s, .nr_series = 2,
		.legend = true, .pixels = true,
	};
	int counts[2], x0 = 0, x1 = 0, y0 = 0, y1 = 0;

	make_series(s);
	/* the frame found without the mark, which would stop the search */
	for (int with = 0; with < 2; with++) {
		cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
		cairo_t *cr = cairo_create(surf);
		int stride, xq, best = 0;
		struct sp_theme theme;
		unsigned char *data;

		fig.marks_ns = with ? at : NULL;
		fig.nr_marks = with ? 1 : 0;
		sp_theme_init(&theme, 11);
		assert_int_equal(sp_latency_figure_draw(cr, &theme, &fig, W, H), 0);
		cairo_surface_flush(surf);
		data = cairo_image_surface_get_data(surf);
		stride = cairo_image_surface_get_stride(surf);
		if (!with)
			plot_edges(data, stride, &x0, &x1, &y0, &y1);
		xq = x0 + (int)lround((x1 - x0) / 4.0);
		for (int x = xq - 1; x <= xq + 1; x++) {
			int n = 0;

			for (int y = y0 + 2; y < y1 - 2; y++)
				n += dark(data, stride, x, y);
			best = n > best ? n : best;
		}
		counts[with] = best;
		/* dashes: well over a third of the height dark, gaps between them */
		if (with)
			assert_true(best > (y1 - y0) / 3 && best < y1 - y0 - 4);
		cairo_destroy(cr);
		cairo_surface_destroy(surf);
	}
	assert_true(counts[0] < (counts[1]) / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cdf_at),
		cmocka_unit_test(test_log_labels),
		cmocka_unit_test(test_two_groups_cross),
		cmocka_unit_test(test_vertical_marks),
		cmocka_unit_test(test_other_plots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
