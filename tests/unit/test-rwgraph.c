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

/* The lost band's orange (and not red, green, the grid or white). */
static bool is_band(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r > 240 && g > 180 && g < 215 && b > 95 && b < 135;
}

/* The running series' green. */
static bool is_green(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r < 40 && g > 70 && g < 130 && b < 60;
}

/* The waiting series' red (and not the running green, the grid or white). */
static bool is_red(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r > 200 && g < 120 && b < 120;
}

/* The light red of waiting's min..max range (neither the full red nor white). */
static bool is_red_range(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r > 235 && g > 150 && g < 215 && b > 150 && b < 215;
}

/* The light green of running's min..max range. */
static bool is_green_range(const struct canvas *c, int x, int y)
{
	int r, g, b;

	pixel(c, x, y, &r, &g, &b);
	return r > 120 && r < 180 && g > 170 && g < 215 && b > 140 && b < 185;
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
	/* the spike's column spans 0 up to 40 tasks, its neighbours only near 0 */
	for (y = row_of(&c, 40); y <= row_of(&c, 10); y++)
		assert_true(is_red_range(&c, x, y));
	assert_false(is_red_range(&c, x, row_of(&c, 40) - 3));
	assert_false(is_red(&c, x - 2, row_of(&c, 20)) || is_red_range(&c, x - 2, row_of(&c, 20)));
	assert_false(is_red(&c, x + 2, row_of(&c, 20)) || is_red_range(&c, x + 2, row_of(&c, 20)));
	assert_true(is_red(&c, x - 2, row_of(&c, 0)));
	release(&c);
	sp_envelope_release(&e);
}

/*
 * N = 2, the column shading kept for a later option.  [0.25 s, 0.5 s) of a
 * 1 s window: one task runs, one waits (shaded); before and after, both CPUs
 * run and nobody waits.  400 columns: 100..199.
 */
static void test_shaded_columns(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 2, .shade = true, .pixels = true,
				       .shade_kind = SP_RWGRAPH_SHADE_COLUMNS };
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

/* Dark pixels of row @row between @x0 and @x1. */
static int dark_in_row(const struct canvas *c, int row, int x0, int x1)
{
	int dark = 0;

	for (int x = x0; x < x1; x++)
		dark += is_dark(c, x, row);
	return dark;
}

/*
 * The dotted line at N = 6, resting just above where a running line at N
 * lies: dots and gaps on one row, nothing dark farther away.
 */
static void test_dotted_line_at_n(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 6, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int x, dark = 0, row, dots = -1, x0 = (int)plot.x + 2, x1 = (int)(plot.x + plot.w) - 2;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 6), 0);
	sp_envelope_finish(&e);		/* nothing runs, nothing waits */
	draw(&c, &e, &st);

	row = row_of(&c, 6);
	for (int r = row - 3; r <= row; r++)
		if (dark_in_row(&c, r, x0, x1) > dark) {
			dark = dark_in_row(&c, r, x0, x1);
			dots = r;
		}
	assert_true(dots < row);
	assert_true(dark > (x1 - x0) / 4);
	assert_true(dark < (x1 - x0) * 3 / 4);
	for (x = x0; x < x1; x++) {
		assert_false(is_dark(&c, x, dots - 3));
		assert_false(is_dark(&c, x, row + 3));
	}
	/* N = 6 lies below the top of the axis, so it is not hidden in the frame */
	assert_true(c.yt.top > 6);
	release(&c);
	sp_envelope_release(&e);
}

/* Every CPU busy all the time: the N line still shows, just above the running line. */
static void test_dotted_line_above_running(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 2, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int x0 = (int)plot.x + 2, x1 = (int)(plot.x + plot.w) - 2, row, dark = 0;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 2), 0);
	sp_envelope_step(&e, 0, 2, 0);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	row = row_of(&c, 2);
	assert_true(is_green(&c, x0 + 10, row));
	for (int r = row - 3; r < row; r++)
		dark = dark_in_row(&c, r, x0, x1) > dark ? dark_in_row(&c, r, x0, x1) : dark;
	assert_true(dark > (x1 - x0) / 4);
	assert_true(dark < (x1 - x0) * 3 / 4);
	release(&c);
	sp_envelope_release(&e);
}

/*
 * A long trace: in every column waiting is 4 for a quarter of the time and
 * 0 otherwise, running 2 then 1.  Each column's range is light; its
 * average (waiting 1, running 1.25) is a line in the full color.
 */
static void test_mean_line_inside_range(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 2, .shade = false, .pixels = true };
	uint64_t t1 = 400 * SEC, col_ns = SEC;	/* 400 columns of a second */
	struct sp_envelope e;
	struct canvas c;
	int full = 0, range = 0;

	assert_int_equal(sp_envelope_init(&e, 0, t1, (size_t)plot.w, 2), 0);
	for (uint64_t t = 0; t < t1; t += col_ns) {
		sp_envelope_step(&e, t, 2, 4);
		sp_envelope_step(&e, t + col_ns / 4, 1, 0);
	}
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	for (int x = (int)plot.x + 1; x < (int)(plot.x + plot.w) - 1; x++) {
		/* the averages in the full colors */
		full += is_red(&c, x, row_of(&c, 1)) && is_green(&c, x, row_of(&c, 1.25));
		/* the ranges above and around them, lighter */
		range += is_red_range(&c, x, row_of(&c, 3)) &&
			 is_green_range(&c, x, row_of(&c, 1.7));
	}
	assert_true(full > (int)plot.w * 9 / 10);
	assert_true(range > (int)plot.w * 9 / 10);
	/* above the largest value, nothing */
	assert_false(is_red_range(&c, (int)plot.x + 100, row_of(&c, 4) - 3));
	release(&c);
	sp_envelope_release(&e);
}

/*
 * N = 48, a step input: [0.2 s, 0.6 s) 20 run and 15 wait (15 lost), then
 * 30 run and 12 wait (12 lost); before 0.2 s all 48 run and 5 wait (none
 * lost).  The band fills exactly the pixel rows from running + lost down to
 * running, in exactly the columns with lost capacity, under the running
 * line.
 */
static void test_band_between_running_and_lost(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 48, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int col;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 48), 0);
	sp_envelope_step(&e, 0, 48, 5);
	sp_envelope_step(&e, SEC / 5, 20, 15);
	sp_envelope_step(&e, SEC / 5 * 3, 30, 12);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);

	for (col = 2; col < (int)plot.w - 2; col++) {
		int x = (int)plot.x + col, run, lost, y;

		if (col == 80 || col == 240)
			continue;	/* the steps themselves */
		run = col < 80 ? 48 : col < 240 ? 20 : 30;
		lost = col < 80 ? 0 : col < 240 ? 15 : 12;
		if (!lost) {
			for (y = (int)plot.y; y < (int)(plot.y + plot.h); y++)
				assert_false(is_band(&c, x, y));
			continue;
		}
		/* from the row of running + lost down to the running line's top */
		for (y = row_of(&c, run + lost); y < row_of(&c, run) - 1; y++)
			if (!is_band(&c, x, y))
				fail_msg("column %d row %d (value %d..%d): not the band", col, y,
					 run, run + lost);
		assert_false(is_band(&c, x, row_of(&c, run + lost) - 1));
		assert_true(is_green(&c, x, row_of(&c, run)));
		assert_false(is_band(&c, x, row_of(&c, run) + 1));
		assert_false(is_band(&c, x, row_of(&c, run) + 3));
	}
	release(&c);

	/* --no-shade: no band */
	st.shade = false;
	draw(&c, &e, &st);
	assert_false(is_band(&c, (int)plot.x + 150, row_of(&c, 28)));
	release(&c);
	sp_envelope_release(&e);
}

/*
 * 64 CPUs, 56 busy for 10 minutes; for one microsecond 4 tasks wait while
 * 8 CPUs idle: 4 lost.  The spike's column has the band up to 60; its
 * neighbours none.
 */
static void test_lost_spike_reaches_height(void **state)
{
	uint64_t t1 = 600 * SEC, spike = 211 * SEC + 777;
	struct sp_rwgraph_style st = { .nr_cpus = 64, .shade = true, .pixels = true };
	struct sp_envelope e;
	struct canvas c;
	int x, y;

	assert_int_equal(sp_envelope_init(&e, 0, t1, (size_t)plot.w, 64), 0);
	sp_envelope_step(&e, 0, 56, 0);
	sp_envelope_step(&e, spike, 56, 4);
	sp_envelope_step(&e, spike + 1000, 56, 0);
	sp_envelope_finish(&e);
	assert_int_equal(e.lost_max, 4);
	draw(&c, &e, &st);

	x = (int)plot.x + (int)sp_envelope_col_of(&e, spike);
	assert_true(row_of(&c, 60) < row_of(&c, 56) - 3);
	for (y = row_of(&c, 60); y < row_of(&c, 56) - 1; y++)
		assert_true(is_band(&c, x, y));
	assert_false(is_band(&c, x, row_of(&c, 60) - 1));
	for (y = (int)plot.y; y < (int)(plot.y + plot.h); y++) {
		assert_false(is_band(&c, x - 1, y));
		assert_false(is_band(&c, x + 1, y));
	}
	release(&c);
	sp_envelope_release(&e);
}

/* Before every CPU records, a CPU without records looks idle: no band there. */
static void test_no_band_before_complete(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 4, .shade = true, .pixels = true,
				       .complete_ns = SEC / 2 };
	struct sp_envelope e;
	struct canvas c;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, (size_t)plot.w, 4), 0);
	sp_envelope_step(&e, 0, 1, 5);
	sp_envelope_finish(&e);
	draw(&c, &e, &st);
	assert_false(is_band(&c, (int)plot.x + 100, row_of(&c, 2.5)));
	assert_true(is_band(&c, (int)plot.x + 300, row_of(&c, 2.5)));
	release(&c);
	sp_envelope_release(&e);
}

/* One panel or two: by the maxima (more than 10x apart), or as forced. */
static void test_split_choice(void **state)
{
	struct sp_rwgraph_style st = { .nr_cpus = 512 };
	struct sp_envelope e;

	assert_int_equal(sp_envelope_init(&e, 0, SEC, 100, 512), 0);
	sp_envelope_step(&e, 0, 470, 20);
	sp_envelope_finish(&e);
	assert_true(sp_rwgraph_split(&e, &st));		/* 512 against 20 */
	st.panels = SP_RWGRAPH_PANELS_SINGLE;
	assert_false(sp_rwgraph_split(&e, &st));
	sp_envelope_release(&e);

	/* 2 CPUs, 400 waiting */
	st = (struct sp_rwgraph_style){ .nr_cpus = 2 };
	assert_int_equal(sp_envelope_init(&e, 0, SEC, 100, 2), 0);
	sp_envelope_step(&e, 0, 2, 400);
	sp_envelope_finish(&e);
	assert_true(sp_rwgraph_split(&e, &st));
	sp_envelope_release(&e);

	/* 16 CPUs, 12 waiting: one panel; nobody waiting: one panel */
	st = (struct sp_rwgraph_style){ .nr_cpus = 16 };
	assert_int_equal(sp_envelope_init(&e, 0, SEC, 100, 16), 0);
	sp_envelope_step(&e, 0, 15, 12);
	sp_envelope_finish(&e);
	assert_false(sp_rwgraph_split(&e, &st));
	sp_envelope_reset(&e);
	sp_envelope_step(&e, 0, 15, 0);
	sp_envelope_finish(&e);
	assert_false(sp_rwgraph_split(&e, &st));
	st.panels = SP_RWGRAPH_PANELS_SPLIT;
	assert_true(sp_rwgraph_split(&e, &st));
	sp_envelope_release(&e);
}

/* The corner note: units that read well, a share that is never rounded to 0. */
static void test_lost_note(void **state)
{
	char buf[96];

	assert_string_equal(sp_rwgraph_lost_note(buf, sizeof(buf), 3.1e9, 0.006),
			    "lost: 3.1 CPU\xc2\xb7s, 0.6% of capacity");
	assert_string_equal(sp_rwgraph_lost_note(buf, sizeof(buf), 10418338, 0.00707),
			    "lost: 10.4 CPU\xc2\xb7ms, 0.7% of capacity");
	assert_string_equal(sp_rwgraph_lost_note(buf, sizeof(buf), 2500, 2e-7),
			    "lost: 2.5 CPU\xc2\xb7\xc2\xb5s, 2e-05% of capacity");
	assert_string_equal(sp_rwgraph_lost_note(buf, sizeof(buf), 999.7e6, 0.5),
			    "lost: 1 CPU\xc2\xb7s, 50.0% of capacity");
	assert_string_equal(sp_rwgraph_lost_note(buf, sizeof(buf), 0, 0),
			    "lost: 0 CPU\xc2\xb7s, 0% of capacity");
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
	assert_int_equal(e.window.nr_cols, (size_t)ceil(lay.plot.w * SP_RWGRAPH_VECTOR_COLS_PER_PT));
	sp_envelope_step(&e, SEC / 3, 3, 5);
	sp_envelope_finish(&e);
	assert_int_equal(sp_rwgraph_figure_draw(cr, &theme, &fig, &lay, &e), 0);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	cairo_surface_destroy(s);
	assert_true(bytes > 1000);
	sp_envelope_release(&e);

	/* a column of a paper, 3.5 inches: the legend goes below, the plot keeps the width */
	s = cairo_pdf_surface_create_for_stream(discard, &bytes, 252, 260);
	cr = cairo_create(s);
	assert_int_equal(sp_rwgraph_layout(&lay, cr, &theme, &fig, 252, 260), 0);
	assert_true(lay.legend.y >= lay.plot.y + lay.plot.h);
	assert_true(lay.plot.w > 252 / 2);
	cairo_destroy(cr);
	cairo_surface_destroy(s);

	/* two panels on PNG: running on top, waiting (400 on 2 CPUs) below */
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 700, 400);
	cr = cairo_create(s);
	fig.style = (struct sp_rwgraph_style){ .nr_cpus = 2, .shade = true, .pixels = true };
	assert_int_equal(sp_rwgraph_layout(&lay, cr, &theme, &fig, 700, 400), 0);
	assert_int_equal(sp_envelope_init(&e, 0, SEC,
					  sp_rwgraph_nr_cols(&lay.plot, &fig.style, 0, SEC), 2), 0);
	sp_envelope_step(&e, 0, 1, 400);
	sp_envelope_finish(&e);
	assert_true(sp_rwgraph_split(&e, &fig.style));
	assert_int_equal(sp_rwgraph_figure_draw(cr, &theme, &fig, &lay, &e), 0);
	cairo_surface_flush(s);
	{
		struct canvas c = { .s = s, .cr = cr };
		int x = (int)(lay.plot.x + lay.plot.w / 2), y, green = -1, band = -1, red = -1;

		/* top to bottom: the band (1..2 lost), running at 1, then waiting's panel */
		for (y = (int)lay.plot.y; y < (int)(lay.plot.y + lay.plot.h); y++) {
			if (band < 0 && is_band(&c, x, y))
				band = y;
			if (green < 0 && is_green(&c, x, y))
				green = y;
			if (red < 0 && is_red(&c, x, y))
				red = y;
		}
		assert_true(band >= 0 && green > band && red > green);
		/* waiting's 400 near the top of its own panel, below the middle */
		assert_true(red < lay.plot.y + lay.plot.h * 0.8);
	}
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
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
		cmocka_unit_test(test_dotted_line_above_running),
		cmocka_unit_test(test_mean_line_inside_range),
		cmocka_unit_test(test_band_between_running_and_lost),
		cmocka_unit_test(test_lost_spike_reaches_height),
		cmocka_unit_test(test_no_band_before_complete),
		cmocka_unit_test(test_split_choice),
		cmocka_unit_test(test_lost_note),
		cmocka_unit_test(test_vector_spike),
		cmocka_unit_test(test_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
