// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compare view's shift panel, checked by its geometry and pixels: each
 * point at the x of A's decile on the log axis and on the right side of
 * zero, small and large differences both clear of the zero line, filled
 * for significant deciles and hollow for the others, the same bytes twice,
 * and the shift function's properties as drawn (identical groups, B = A +
 * a constant).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/analysis/shift.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/compare.h"

#define W 900
#define H 400

static double run_values[2] = { 1, 2 };

static void make_fig(struct sp_compare_figure *fig, struct sp_compare_runs g[2],
		     const struct sp_shift *sh)
{
	memset(g, 0, 2 * sizeof(*g));
	g[0] = (struct sp_compare_runs){ .name = "A", .values = run_values, .nr_runs = 2,
					 .median = 1, .ci_lo = NAN, .ci_hi = NAN, .cv = NAN };
	g[1] = g[0];
	g[1].name = "B";
	memset(fig, 0, sizeof(*fig));
	fig->view = SP_COMPARE_VIEW_SHIFT;
	fig->groups = g;
	fig->shift = sh;
	fig->shift_scale = 1;
	fig->shift_title = "difference";
	fig->shift_ns = true;
	fig->pixels = true;
}

/* A's deciles from 1 us to 10 ms; B - A: +2 us at the low ones, -5 ms at the top */
static void make_shift(struct sp_shift *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->nr_boot = 2000;
	for (int d = 0; d < SP_NR_DECILES; d++) {
		struct sp_shift_decile *dec = &sh->dec[d];

		dec->q = (d + 1) / 10.0;
		dec->a = 1000 * pow(10, d * 0.5);
		dec->diff = d < 4 ? 2000 : d < 8 ? 300000 : -5e6;
		dec->b = dec->a + dec->diff;
		dec->ci_lo = dec->diff - fabs(dec->diff) / 2;
		dec->ci_hi = dec->diff + fabs(dec->diff) / 2;
		dec->significant = d % 2 == 0;
	}
}

static cairo_surface_t *draw(const struct sp_compare_figure *fig)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_t *cr = cairo_create(s);
	struct sp_theme theme;

	sp_theme_init(&theme, 0);
	assert_int_equal(sp_compare_figure_draw(cr, &theme, fig, W, H), 0);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	return s;
}

static void points(const struct sp_compare_figure *fig, struct sp_compare_shift_point *p)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_t *cr = cairo_create(s);
	struct sp_theme theme;

	sp_theme_init(&theme, 0);
	assert_int_equal(sp_compare_shift_points(cr, &theme, fig, W, H, p), 0);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

static uint32_t pixel(cairo_surface_t *s, double x, double y)
{
	const unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);

	return ((const uint32_t *)(data + (int)y * stride))[(int)x] & 0xffffff;
}

static uint32_t rgb(double r, double g, double b)
{
	return (uint32_t)lround(r * 255) << 16 | (uint32_t)lround(g * 255) << 8 |
	       (uint32_t)lround(b * 255);
}

/* x on the log axis of A's deciles; y on the side of zero the difference says */
static void test_shift_geometry(void **state)
{
	struct sp_compare_shift_point p[SP_NR_DECILES];
	struct sp_compare_figure fig;
	struct sp_compare_runs g[2];
	struct sp_shift sh;
	double step;

	(void)state;
	make_shift(&sh);
	make_fig(&fig, g, &sh);
	points(&fig, p);
	/* A's deciles are half a decade apart: as far apart on the axis */
	step = p[1].x - p[0].x;
	assert_true(step > 10);
	for (int d = 1; d < SP_NR_DECILES; d++)
		assert_true(fabs(p[d].x - p[d - 1].x - step) < 0.01);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		if (sh.dec[d].diff > 0)
			assert_true(p[d].y < p[d].y_zero);
		else
			assert_true(p[d].y > p[d].y_zero);
		/* +2 us next to -5 ms is still well clear of zero */
		assert_true(fabs(p[d].y - p[d].y_zero) > 15);
		/* the interval's bar brackets the point */
		assert_true(p[d].y_hi < p[d].y && p[d].y < p[d].y_lo);
	}
	/* the order of the differences is kept */
	assert_true(p[4].y < p[0].y);
}

/* filled in B's colour when significant, hollow (background) when not */
static void test_shift_pixels(void **state)
{
	struct sp_compare_shift_point p[SP_NR_DECILES];
	struct sp_compare_figure fig;
	struct sp_compare_runs g[2];
	struct sp_shift sh;
	cairo_surface_t *s1, *s2;
	double r, gr, b;

	(void)state;
	make_shift(&sh);
	make_fig(&fig, g, &sh);
	points(&fig, p);
	s1 = draw(&fig);
	s2 = draw(&fig);
	sp_palette_color(NULL, 1, &r, &gr, &b);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		/* beside the bar, inside the marker */
		uint32_t c = pixel(s1, p[d].x + 2.5, p[d].y + 0.5);

		if (sh.dec[d].significant)
			assert_int_equal(c, rgb(r, gr, b));
		else
			assert_int_equal(c, 0xffffff);
	}
	assert_memory_equal(cairo_image_surface_get_data(s1), cairo_image_surface_get_data(s2),
			    (size_t)cairo_image_surface_get_stride(s1) * H);
	cairo_surface_destroy(s1);
	cairo_surface_destroy(s2);
}

#define NR	300

static double va[NR], vb[NR];

static void lognormal_ns(double *x, int n, unsigned seed)
{
	srand(seed);
	for (int i = 0; i < n; i++) {
		double u1 = (rand() + 0.5) / ((double)RAND_MAX + 1);
		double u2 = (rand() + 0.5) / ((double)RAND_MAX + 1);

		x[i] = 1e5 * exp(1.5 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
	}
}

/* identical groups: every bar crosses the zero line, every point sits on it */
static void test_shift_identical_drawn(void **state)
{
	struct sp_compare_shift_point p[SP_NR_DECILES];
	struct sp_shift_run ra = { va, NR };
	struct sp_shift_group ga = { &ra, 1 };
	struct sp_compare_figure fig;
	struct sp_compare_runs g[2];
	struct sp_shift sh;

	(void)state;
	lognormal_ns(va, NR, 1);
	assert_int_equal(sp_shift_compute(&sh, &ga, &ga, SP_SHIFT_VALUES, 200, 5), 0);
	make_fig(&fig, g, &sh);
	points(&fig, p);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		assert_true(p[d].y_hi <= p[d].y_zero && p[d].y_zero <= p[d].y_lo);
		assert_true(fabs(p[d].y - p[d].y_zero) < 1e-9);
	}
}

/* B = A + 50 us: every point at the height of +50 us, above zero */
static void test_shift_constant_drawn(void **state)
{
	struct sp_compare_shift_point p[SP_NR_DECILES];
	struct sp_shift_run ra = { va, NR }, rb = { vb, NR };
	struct sp_shift_group ga = { &ra, 1 }, gb = { &rb, 1 };
	struct sp_compare_figure fig;
	struct sp_compare_runs g[2];
	struct sp_shift sh;

	(void)state;
	lognormal_ns(va, NR, 2);
	for (int i = 0; i < NR; i++)
		vb[i] = va[i] + 50000;
	assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_VALUES, 200, 5), 0);
	make_fig(&fig, g, &sh);
	points(&fig, p);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		assert_true(p[d].y < p[d].y_zero - 10);
		assert_true(fabs(p[d].y - p[0].y) < 1e-6);
		assert_true(d == 0 || p[d].x > p[d - 1].x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shift_geometry),
		cmocka_unit_test(test_shift_pixels),
		cmocka_unit_test(test_shift_identical_drawn),
		cmocka_unit_test(test_shift_constant_drawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
