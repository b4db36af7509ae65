// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arranging legend entries in columns, with a "+N more" line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cairo.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/theme.h"

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

static int nr_samples;
static double sample_x, sample_y, sample_size;

static void record_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			  double size)
{
	(void)cr;
	assert_int_equal(e->style, 3);
	nr_samples++;
	sample_x = x;
	sample_y = y;
	sample_size = size;
}

static uint32_t pixel(cairo_surface_t *s, double x, double y)
{
	const unsigned char *row = cairo_image_surface_get_data(s) +
				   (int)y * cairo_image_surface_get_stride(s);

	return ((const uint32_t *)row)[(int)x];
}

/* An entry with a sample is drawn by it, in place of the square */
static void test_legend_sample(void **state)
{
	struct sp_legend_entry e[2] = {
		{ .color = { 1, 0, 0 }, .label = "shape", .sample = record_sample, .style = 3 },
		{ .color = { 1, 0, 0 }, .label = "square" },
	};
	struct sp_legend legend = { .entries = e, .nr_entries = 2 };
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 40);
	cairo_t *cr = cairo_create(s);
	size_t red = 0;
	struct sp_theme th;
	int x, y;

	(void)state;
	sp_theme_init(&th, 10);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	sp_legend_draw(cr, &th, &legend, &(struct sp_rect){ 0, 0, 400, 40 });
	cairo_surface_flush(s);
	assert_int_equal(nr_samples, 1);
	assert_true(sample_size == th.swatch);
	/* nothing under the sample: it drew nothing here */
	assert_int_equal(pixel(s, sample_x, sample_y) & 0xffffff, 0xffffff);
	/* the other entry's square is there */
	for (y = 0; y < 40; y++)
		for (x = 0; x < 400; x++)
			red += (pixel(s, x, y) & 0xffffff) == 0xff0000;
	assert_true(red >= (size_t)(th.swatch - 2) * (th.swatch - 2));
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/*
 * The "no data" key is the hatch the datagraph's rows show: its square
 * holds the theme's ground and line greys, as a square painted with
 * sp_render_no_data() does, whatever the entry's color.
 */
static void test_legend_no_data(void **state)
{
	struct sp_legend_entry e = { .color = { 1, 0, 0 }, .label = "no data", .no_data = true };
	struct sp_legend legend = { .entries = &e, .nr_entries = 1 };
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 200, 40);
	cairo_t *cr = cairo_create(s);
	struct sp_theme th;
	size_t ground = 0, line = 0, red = 0;
	uint32_t want_ground, want_line;
	int x, y;

	(void)state;
	sp_theme_init(&th, 10);
	want_ground = (uint32_t)(th.no_data.r * 255 + 0.5) * 0x010101u;
	want_line = (uint32_t)(th.no_data_line.r * 255 + 0.5) * 0x010101u;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	sp_legend_draw(cr, &th, &legend, &(struct sp_rect){ 0, 0, 200, 40 });
	cairo_surface_flush(s);
	for (y = 0; y < 40; y++)
		for (x = 0; x < 40; x++) {
			uint32_t p = pixel(s, x, y) & 0xffffff;

			ground += p == want_ground;
			line += p == want_line;
			red += p == 0xff0000;
		}
	assert_int_equal(red, 0);
	assert_true(ground >= (size_t)th.swatch);
	assert_true(line >= (size_t)th.swatch / 2);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_legend_grid),
		cmocka_unit_test(test_legend_sample),
		cmocka_unit_test(test_legend_no_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
