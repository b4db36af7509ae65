// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stamps: painted on an image, a mark looks as drawn (within the eighth of
 * a pixel a stamp may move it); on a vector surface it is drawn as paths.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/draw/stamp.h"

#define W 64
#define H 32

static int nr_drawn;

/* A ring over a white halo, as the datagraph's placement marks */
static void ring(cairo_t *cr, double x, double y, const void *arg)
{
	const double *r = arg;

	nr_drawn++;
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, *r, 0, 2 * M_PI);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, 3);
	cairo_stroke_preserve(cr);
	cairo_set_source_rgb(cr, 1, 0.55, 0);
	cairo_set_line_width(cr, 1.2);
	cairo_stroke(cr);
}

static cairo_t *canvas(void)
{
	cairo_t *cr = cairo_create(cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H));

	cairo_set_source_rgb(cr, 0.2, 0.4, 0.6);
	cairo_paint(cr);
	return cr;
}

/* The largest difference of a channel between two canvases, and how many pixels differ */
static int compare(cairo_t *a, cairo_t *b, int *nr_differ)
{
	cairo_surface_t *sa = cairo_get_target(a), *sb = cairo_get_target(b);
	int stride = cairo_image_surface_get_stride(sa), worst = 0;
	const unsigned char *pa, *pb;

	cairo_surface_flush(sa);
	cairo_surface_flush(sb);
	pa = cairo_image_surface_get_data(sa);
	pb = cairo_image_surface_get_data(sb);
	*nr_differ = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			int d = 0;

			for (int c = 0; c < 3; c++)
				d = abs(pa[y * stride + 4 * x + c] - pb[y * stride + 4 * x + c]) > d ?
				    abs(pa[y * stride + 4 * x + c] - pb[y * stride + 4 * x + c]) : d;
			*nr_differ += d > 0;
			worst = d > worst ? d : worst;
		}
	}
	return worst;
}

static void destroy(cairo_t *cr)
{
	cairo_surface_destroy(cairo_get_target(cr));
	cairo_destroy(cr);
}

static void test_image(void **state)
{
	double r = 5;
	cairo_t *drawn = canvas(), *stamped = canvas();
	struct sp_stamp st;
	int n, worst;

	(void)state;
	sp_stamp_init(&st, stamped, r + 1.5, ring, &r);
	assert_true(st.image);
	/* on quarter pixels: the stamp's own positions, the same picture */
	nr_drawn = 0;
	for (int i = 0; i < 4; i++) {
		ring(drawn, 8 + 14 * i + i * 0.25, 16.75, &r);
		sp_stamp_put(&st, stamped, 8 + 14 * i + i * 0.25, 16.75);
	}
	/* rendered once per phase, put down as images */
	assert_int_equal(nr_drawn, 4 + 4);
	worst = compare(drawn, stamped, &n);
	/* compositing in two steps rounds twice: a level or two */
	assert_true(worst <= 2);
	/* the same phase again: no drawing */
	sp_stamp_put(&st, stamped, 8.25, 16.75);
	assert_int_equal(nr_drawn, 8);
	destroy(drawn);
	destroy(stamped);

	/* off the quarter pixels, moved by an eighth of a pixel at most */
	drawn = canvas();
	stamped = canvas();
	ring(drawn, 20.1, 16.6, &r);
	sp_stamp_put(&st, stamped, 20.1, 16.6);
	worst = compare(drawn, stamped, &n);
	assert_true(worst < 64);
	sp_stamp_release(&st);
	destroy(drawn);
	destroy(stamped);
}

static void test_vector_and_scaled(void **state)
{
	double r = 5;
	cairo_surface_t *rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
	cairo_t *cr = cairo_create(rec), *img = canvas();
	struct sp_stamp st;

	(void)state;
	/* not an image: paths every time */
	sp_stamp_init(&st, cr, r + 1.5, ring, &r);
	assert_false(st.image);
	nr_drawn = 0;
	sp_stamp_put(&st, cr, 10, 10);
	sp_stamp_put(&st, cr, 10, 10);
	assert_int_equal(nr_drawn, 2);
	sp_stamp_release(&st);
	/* an image under a scale: paths too, as the scale would blur the images */
	cairo_scale(img, 2, 2);
	sp_stamp_init(&st, img, r + 1.5, ring, &r);
	assert_false(st.image);
	sp_stamp_release(&st);
	cairo_destroy(cr);
	cairo_surface_destroy(rec);
	destroy(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_vector_and_scaled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
