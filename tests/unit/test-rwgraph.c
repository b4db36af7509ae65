// SPDX-License-Identifier: GPL-2.0-only
/*
 * The running/waiting view's plot area, pixel by pixel: a one-microsecond
 * spike keeps its height, shading covers the right columns, the dotted
 * line sits at N.  No text is compared.
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

#include <cairo.h>
#include <cairo-pdf.h>
#include <cmocka.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/envelope.h"
#include "schedplot/views/rwgraph.h"

#define SEC 1000000000ull

/* The plot: 400 x 200 pixels at (40, 20) on a 480 x 260 image. */
static const struct sp_rect plot = { 40, 20, 400, 200 };

struct canvas {
	cairo_surface_t *s;
	cairo_t *cr;
	struct sp_theme theme;
	struct sp_int_ticks yt;
};

static void draw(struct canvas *c, const struct sp_envelope *e,
		 const struct sp_rwgraph_style *st)
{
	c->s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 480, 260);
	c->cr = cairo_create(c->s);
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_paint(c->cr);
	sp_theme_init(&c->theme, 0);
	assert_int_equal(sp_rwgraph_y_ticks(&c->yt, e, st, plot.h, &c->theme), 0);
	sp_rwgraph_draw_data(c->cr, &c->theme, &plot, e, &c->yt, NULL, st);
	cairo_surface_flush(c->s);
	assert_int_equal(cairo_status(c->cr), CAIRO_STATUS_SUCCESS);
}

static void release(struct canvas *c)
{
	cairo_destroy(c->cr);
	cairo_surface_destroy(c->s);
}

static void pixel(const struct canvas *c, int x, int y, int *r, int *g, int *b)
{
	const unsigned char *data = cairo_image_surface_get_data(c->s);
	uint32_t v = *(const uint32_t *)(data + y * cairo_image_surface_get_stride(c->s) + 4 * x);

	*r = (v >> 16) & 0xff;
	*g = (v >> 8) & 0xff;
	*b = v & 0xff;
}

/* The waiting series' red (and not the running green, the grid or white). */
static bool is_red(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r > 200 && g < 120 && b < 120;
}

static bool is_dark(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r < 80 && g < 80 && b < 80;
}

static int row_of(const struct canvas *c, double value)
{
	return (int)floor(sp_rwgraph_value_y(&plot, &c->yt, &c->theme, value));
}

/* 8 CPUs busy for 10 minutes; 40 tasks wait for one microsecond. */
static void test_spike_reaches_height(void **state)
{
	uint64_t t0 = 0, t1 = 600 * SEC, spike = 377 * SEC + 12345;
	struct sp_rwgraph_style st = { .nr_cpus = 8, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int col, x, y;

	assert_int_equal(sp_envelope_init(&e, t0, t1, (size_t)plot.w, 8), 0);
	sp_envelope_step(&e, 0, 8, 0);
	sp_envelope_step(&e, spike, 8, 40);
	sp_envelope_step(&e, spike + 1000, 8, 0);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	col = (int)sp_envelope_col_of(&e, spike);
	x = (int)plot.x + col;
	assert_true(c.yt.top >= 40);
	/* the spike's column is red from 0 up to 40 tasks, its neighbours only near 0 */
	for (y = row_of(&c, 40); y <= row_of(&c, 10); y++)
		assert_true(is_red(&c, x, y));
	assert_false(is_red(&c, x, row_of(&c, 40) - 3));
	assert_false(is_red(&c, x - 2, row_of(&c, 20)));
	assert_false(is_red(&c, x + 2, row_of(&c, 20)));
	assert_true(is_red(&c, x - 2, row_of(&c, 0)));
	release(&c);
	sp_envelope_release(&e);
}

/*
 * N = 2.  [0.25 s, 0.5 s) of a 1 s window: one task runs, one waits (shaded);
 * before and after, both CPUs run and nobody waits.  400 columns: 100..199.
 */
static void test_shaded_columns(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 2, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int col, r, g, b, y = (int)plot.y + 2;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 2), 0);
	sp_envelope_step(&e, 0, 2, 0);
	sp_envelope_step(&e, SEC / 4, 1, 1);
	sp_envelope_step(&e, SEC / 2, 2, 0);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	for (col = 0; col < (int)plot.w; col++) {
		bool shaded;

		pixel(&c, (int)plot.x + col, y, &r, &g, &b);
		/* the shade: warm, clearly not white */
		shaded = r > 230 && b < 160 && g < 220;
		if (col >= 100 && col < 200)
			assert_true(shaded);
		else
			assert_true(r == 255 && g == 255 && b == 255);
	}
	release(&c);

	/* --no-shade: nothing */
	st.shade = false;
	draw(&c, &e, &st);
	pixel(&c, (int)plot.x + 150, y, &r, &g, &b);
	assert_true(r == 255 && g == 255 && b == 255);
	release(&c);
	sp_envelope_release(&e);
}

/* The dotted line at N = 6: dots and gaps on its row, nothing dark above or below. */
static void test_dotted_line_at_n(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 6, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int x, dark = 0, row, x0 = (int)plot.x + 2, x1 = (int)(plot.x + plot.w) - 2;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 6), 0);
	sp_envelope_finish(&e);		/* nothing runs, nothing waits */
	draw(&c, &e, &st);

	row = row_of(&c, 6);
	for (x = x0; x < x1; x++)
		dark += is_dark(&c, x, row);
	assert_true(dark > (x1 - x0) / 4);
	assert_true(dark < (x1 - x0) * 3 / 4);
	for (x = x0; x < x1; x++) {
		assert_false(is_dark(&c, x, row - 3));
		assert_false(is_dark(&c, x, row + 3));
	}
	/* N = 6 lies below the top of the axis, so it is not hidden in the frame */
	assert_true(c.yt.top > 6);
	release(&c);
	sp_envelope_release(&e);
}

/* Vector mode (PDF/SVG) drawn on pixels: the spike is still there. */
static void test_vector_spike(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 4, .shade = false, .pixels = false };
	uint64_t spike = 700 * 1000000ull;
	struct sp_envelope e;
	struct canvas c;
	int x, y, found = 0;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w * 2, 4), 0);
	sp_envelope_step(&e, 0, 4, 0);
	sp_envelope_step(&e, spike, 4, 30);
	sp_envelope_step(&e, spike + 1000, 4, 0);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	x = (int)(plot.x + plot.w * 0.7);
	for (y = row_of(&c, 30) - 1; y <= row_of(&c, 30) + 2; y++)
		for (int dx = -2; dx <= 2; dx++) {
			int r, g, b;

			pixel(&c, x + dx, y, &r, &g, &b);
			found += r > 200 && g < 200 && b < 200;
		}
	assert_true(found > 0);
	release(&c);
	sp_envelope_release(&e);
}

/* A whole figure on PNG and on a PDF stream: lays out and draws without cairo errors. */
static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int len)
{
	*(size_t *)closure += len;
	return CAIRO_STATUS_SUCCESS;
}

static void test_figure(void **state)
{
	struct sp_rwgraph_figure fig = {
		.style = { .nr_cpus = 4, .shade = true, .pixels = false, .complete_ns = SEC / 10 },
		.title = "title", .legend = true, .t0_ns = 0, .t1_ns = SEC, .origin_ns = 0,
		.shade_fraction = 0.25,
	};
	struct sp_theme theme;
	struct sp_layout lay;
	struct sp_envelope e;
	cairo_surface_t *s;
	size_t bytes = 0;
	cairo_t *cr;

	sp_theme_init(&theme, 0);
	s = cairo_pdf_surface_create_for_stream(discard, &bytes, 700, 260);
	cr = cairo_create(s);
	assert_int_equal(sp_rwgraph_layout(&lay, cr, &theme, &fig, 700, 260), 0);
	assert_true(lay.plot.w > 300);
	assert_int_equal(sp_envelope_init(&e, 0, SEC,
					  sp_rwgraph_nr_cols(&lay.plot, &fig.style, 0, SEC), 4), 0);
	assert_int_equal(e.nr_cols, (size_t)ceil(lay.plot.w * SP_RWGRAPH_VECTOR_COLS_PER_PT));
	sp_envelope_step(&e, SEC / 3, 3, 5);
	sp_envelope_finish(&e);
	assert_int_equal(sp_rwgraph_figure_draw(cr, &theme, &fig, &lay, &e), 0);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	cairo_surface_destroy(s);
	assert_true(bytes > 1000);
	sp_envelope_release(&e);

	/* too small for its labels */
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 80, 60);
	cr = cairo_create(s);
	fig.style.pixels = true;
	assert_int_equal(sp_rwgraph_layout(&lay, cr, &theme, &fig, 80, 60), -ERANGE);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spike_reaches_height),
		cmocka_unit_test(test_shaded_columns),
		cmocka_unit_test(test_dotted_line_at_n),
		cmocka_unit_test(test_vector_spike),
		cmocka_unit_test(test_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
