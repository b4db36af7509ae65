// SPDX-License-Identifier: GPL-2.0-only
/*
 * Color bars: round ticks inside a range, a gradient in the colors of the
 * function it is given, lightness kept in order, and its place in a legend.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <errno.h>
#include <stdbool.h>

#include <cmocka.h>

#include <cairo.h>

#include "schedplot/draw/colorbar.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"

static void test_ticks(void **state)
{
	struct sp_colorbar_ticks t;

	(void)state;
	assert_int_equal(sp_colorbar_ticks_compute(&t, 450, 850, 10), 0);
	assert_true(t.step == 50);
	assert_int_equal(t.nr_ticks, 9);
	assert_string_equal(t.label[0], "450");
	assert_string_equal(t.label[8], "850");
	assert_int_equal(sp_colorbar_ticks_compute(&t, 450, 850, 5), 0);
	assert_true(t.step == 100);
	assert_int_equal(t.nr_ticks, 4);
	assert_string_equal(t.label[0], "500");
	assert_string_equal(t.label[3], "800");
	assert_int_equal(sp_colorbar_ticks_compute(&t, 800, 2400, 6), 0);
	assert_true(t.step == 500);
	assert_string_equal(t.label[0], "1000");
	assert_string_equal(t.label[2], "2000");
	/* a step below one: decimals */
	assert_int_equal(sp_colorbar_ticks_compute(&t, 1.1, 1.9, 5), 0);
	assert_true(fabs(t.step - 0.2) < 1e-12);
	assert_string_equal(t.label[0], "1.2");
	assert_string_equal(t.label[3], "1.8");
	assert_int_equal(sp_colorbar_ticks_compute(&t, 5, 5, 5), -EINVAL);
	assert_int_equal(sp_colorbar_ticks_compute(&t, 1, 5, 1), -EINVAL);
}

static void ramp(const void *data, double v, struct sp_rgb *c)
{
	const bool *grey = data;

	sp_palette_ramp_color((v - 400) / 600, *grey, c);
}

static uint32_t at(cairo_surface_t *s, int x, int y)
{
	const unsigned char *d = cairo_image_surface_get_data(s);

	return *(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(s) + 4 * x) &
	       0xffffff;
}

static double lightness(uint32_t p)
{
	return 0.2126 * (p >> 16) + 0.7152 * ((p >> 8) & 0xff) + 0.0722 * (p & 0xff);
}

static uint32_t rgb(const struct sp_rgb *c)
{
	return ((uint32_t)(c->r * 255 + 0.5) << 16) | ((uint32_t)(c->g * 255 + 0.5) << 8) |
	       (uint32_t)(c->b * 255 + 0.5);
}

static bool near(uint32_t a, uint32_t b, int tol)
{
	for (int shift = 0; shift <= 16; shift += 8) {
		int d = (int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff);

		if (d < -tol || d > tol)
			return false;
	}
	return true;
}

/*
 * The scale says where the colors end: the ends' values come after the
 * round ticks, unless a tick is there already or its label would crowd
 * the nearest tick's.
 */
static void test_scale_ends(void **state)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
	cairo_t *cr = cairo_create(s);
	struct sp_colorbar bar = { .lo = 400, .hi = 1000 };
	struct sp_colorbar_scale sc;
	struct sp_theme th;

	(void)state;
	sp_theme_init(&th, 0);
	sp_render_font(cr, &th, th.font_size, false);
	/* round ends are ticks */
	sp_colorbar_scale(cr, &th, &bar, 400, &sc);
	assert_true(sc.ticks.nr_ticks >= 2);
	assert_string_equal(sc.ticks.label[0], "400");
	assert_int_equal(sc.nr_ends, 0);
	/* others are labelled, lo first */
	bar.lo = 437;
	bar.hi = 973;
	sp_colorbar_scale(cr, &th, &bar, 400, &sc);
	assert_int_equal(sc.nr_ends, 2);
	assert_string_equal(sc.end_label[0], "437");
	assert_string_equal(sc.end_label[1], "973");
	assert_true(sc.end_value[0] == 437 && sc.end_value[1] == 973);
	assert_true(sc.ticks.value[0] > 437 && sc.ticks.value[sc.ticks.nr_ticks - 1] < 973);
	/* 490 sits against the tick 500: left out, 1080 is not */
	bar.lo = 490;
	bar.hi = 1080;
	sp_colorbar_scale(cr, &th, &bar, 400, &sc);
	assert_string_equal(sc.ticks.label[0], "500");
	assert_int_equal(sc.nr_ends, 1);
	assert_string_equal(sc.end_label[0], "1080");
	/* a scale in tenths prints its ends in tenths */
	bar.lo = 1.13;
	bar.hi = 1.87;
	sp_colorbar_scale(cr, &th, &bar, 400, &sc);
	assert_true(sc.ticks.step < 1);
	assert_int_equal(sc.nr_ends, 2);
	assert_string_equal(sc.end_label[0], "1.1");
	assert_string_equal(sc.end_label[1], "1.9");
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/*
 * Drawn on an image: along the bar's middle line, every pixel is the
 * function's color at the value of that pixel's centre (within two
 * levels), and the lightness never falls.
 */
static void check_gradient(bool grey)
{
	struct sp_colorbar bar = {
		.title = "CPU frequency (MHz)", .lo = 400, .hi = 1000,
		.color = ramp, .data = &grey, .unknown_label = "unknown",
	};
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 800, 100);
	cairo_t *cr = cairo_create(s);
	struct sp_rect area = { 10, 10, 780, 80 };
	struct sp_theme th;
	int x0 = -1, x1 = -1, y, x, left = -1, right = -1;
	double last = -1;

	sp_theme_init(&th, 0);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	sp_colorbar_draw(cr, &th, &bar, &area);
	cairo_surface_flush(s);
	assert_true(sp_colorbar_height(cr, &th) <= area.h);
	/* the bar: the longest run of non-white pixels on a line under the title */
	y = (int)(area.y + th.font_size * 1.45 + th.swatch * 0.65);
	for (x = 0; x < 800; x++) {
		if (at(s, x, y) != 0xffffff && left < 0)
			left = x;
		if (at(s, x, y) == 0xffffff && left >= 0) {
			right = x;
			break;
		}
	}
	assert_true(left >= 0 && right - left > 100);
	/* inside its outline */
	x0 = left + 1;
	x1 = right - 1;
	for (x = x0 + 1; x < x1 - 1; x++) {
		uint32_t p = at(s, x, y);
		struct sp_rgb want;
		double v = 400 + 600 * (x + 0.5 - x0) / (x1 - x0);

		ramp(&grey, v, &want);
		assert_true(near(p, rgb(&want), 2));
		assert_true(lightness(p) >= last - 0.5);
		last = lightness(p);
		if (grey)
			assert_true((p >> 16) == (p & 0xff) && ((p >> 8) & 0xff) == (p & 0xff));
	}
	assert_true(lightness(at(s, x0 + 1, y)) + 100 < lightness(at(s, x1 - 2, y)));
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

static void test_gradient(void **state)
{
	(void)state;
	check_gradient(false);
	check_gradient(true);
}

/* A legend with a bar: the bar's height on top of its entries'. */
static void test_legend_room(void **state)
{
	bool grey = false;
	struct sp_colorbar bar = { .title = "x (MHz)", .lo = 1, .hi = 2, .color = ramp,
				   .data = &grey };
	struct sp_legend_entry e[2] = { { .label = "a" }, { .label = "b" } };
	struct sp_legend with = { .entries = e, .nr_entries = 2, .bar = &bar };
	struct sp_legend without = { .entries = e, .nr_entries = 2 };
	struct sp_legend only = { .bar = &bar };
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
	cairo_t *cr = cairo_create(s);
	struct sp_theme th;
	double bh;

	(void)state;
	sp_theme_init(&th, 0);
	bh = sp_colorbar_height(cr, &th);
	assert_true(bh > th.font_size * 3);
	assert_true(fabs(sp_legend_size(cr, &th, &with, SP_LEGEND_BELOW, 600) -
			 sp_legend_size(cr, &th, &without, SP_LEGEND_BELOW, 600) - bh - th.pad) <
		    1e-9);
	assert_true(sp_legend_size(cr, &th, &only, SP_LEGEND_BELOW, 600) > bh);
	assert_true(sp_colorbar_width(cr, &th, &bar, 300) <= 300);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_scale_ends),
		cmocka_unit_test(test_gradient),
		cmocka_unit_test(test_legend_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
