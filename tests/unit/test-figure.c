// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts figures share: pixel snapping, the title, the time ticks under
 * a plot, the height of a legend kept to a few lines, and panels stacked on
 * one time axis.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

static void test_snap(void **state)
{
	struct sp_rect r = { 10.4, 20.6, 100.2, 50.3 };

	/* x only: left edge up, right edge (110.6) down, y untouched */
	sp_figure_snap_x(&r);
	assert_true(r.x == 11 && r.w == 99);
	assert_true(r.y == 20.6 && r.h == 50.3);
	/* y: top edge up, bottom edge (70.9) down */
	sp_figure_snap_y(&r);
	assert_true(r.y == 21 && r.h == 49);
	/* whole already: unchanged */
	sp_figure_snap_x(&r);
	sp_figure_snap_y(&r);
	assert_true(r.x == 11 && r.w == 99 && r.y == 21 && r.h == 49);
	/* inside one pixel: nothing left, never negative */
	r = (struct sp_rect){ 5.2, 5.2, 0.5, 0.5 };
	sp_figure_snap_x(&r);
	sp_figure_snap_y(&r);
	assert_true(r.w == 0 && r.h == 0);
}

static void test_title(void **state)
{
	cairo_t *cr = sp_figure_scratch();
	struct sp_theme th;
	cairo_matrix_t m;
	double h, h_big;

	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	assert_false(sp_figure_has_title(NULL));
	assert_false(sp_figure_has_title(""));
	assert_true(sp_figure_has_title("trace"));

	sp_theme_init(&th, 0);
	/* the context's own font is left as it was */
	sp_render_font(cr, &th, 5, false);
	h = sp_figure_title_height(cr, &th);
	assert_true(h > th.font_size && h < 3 * th.title_font_size);
	cairo_get_font_matrix(cr, &m);
	assert_true(m.xx == 5 && m.yy == 5);
	cairo_destroy(cr);
	/* twice the font size: about twice the height (hinting rounds) */
	cr = sp_figure_scratch();
	sp_theme_init(&th, 22);
	h_big = sp_figure_title_height(cr, &th);
	assert_true(h_big / h > 1.7 && h_big / h < 2.3);
	cairo_destroy(cr);
}

static void test_time_ticks(void **state)
{
	cairo_t *cr = sp_figure_scratch();
	struct sp_time_ticks wide, narrow;
	struct sp_theme th;

	sp_theme_init(&th, 0);
	assert_int_equal(sp_figure_time_ticks(&wide, cr, &th, 1500, 0, 1000000000, 0), 0);
	assert_int_equal(sp_figure_time_ticks(&narrow, cr, &th, 60, 0, 1000000000, 0), 0);
	assert_true(wide.nr_ticks >= 5);
	assert_true(narrow.nr_ticks >= 1 && narrow.nr_ticks < wide.nr_ticks);
	assert_int_equal(sp_figure_time_ticks(&wide, cr, &th, 1500, 10, 10, 0), -EINVAL);
	cairo_destroy(cr);
}

static void test_legend_height(void **state)
{
	cairo_t *cr = sp_figure_scratch();
	struct sp_legend_entry entries[200] = { 0 };
	struct sp_legend legend = { entries, 0, 0, NULL, NULL };
	struct sp_theme th;
	double one, four, all;

	sp_theme_init(&th, 0);
	for (size_t i = 0; i < 200; i++)
		entries[i] = (struct sp_legend_entry){ .color = { 0.5, 0.5, 0.5 },
							  .label = "a-task-1234" };
	assert_true(sp_figure_legend_height(cr, &th, &legend, 800, 4) == 0);

	legend.nr_entries = 1;
	one = sp_figure_legend_height(cr, &th, &legend, 800, 4);
	assert_true(one > 0 && one == ceil(one));
	/* many entries: four lines at most */
	legend.nr_entries = 200;
	four = sp_figure_legend_height(cr, &th, &legend, 800, 4);
	assert_true(four == ceil(4 * sp_legend_size(cr, &th,
						    &(struct sp_legend){ .entries = entries,
									 .nr_entries = 1 },
						    SP_LEGEND_BELOW, 800)));
	/* a wide enough area takes them all in fewer lines */
	all = sp_figure_legend_height(cr, &th, &legend, 1e6, 4);
	assert_true(all <= one);
	/* a title adds its own line */
	legend.title = "tasks";
	assert_true(sp_figure_legend_height(cr, &th, &legend, 800, 4) > four);
	cairo_destroy(cr);
}

static void test_background_and_title_draw(void **state)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 200, 40);
	cairo_t *cr = cairo_create(s);
	struct sp_rect area = { 0, 0, 200, 40 };
	struct sp_theme th;
	unsigned char *px;
	int stride, dark = 0;

	sp_theme_init(&th, 0);
	cairo_set_source_rgb(cr, 0, 0, 1);
	cairo_paint(cr);
	sp_figure_background(cr, &th);
	sp_figure_title_draw(cr, &th, &area, "a title much too long for two hundred pixels");
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_surface_flush(s);
	px = cairo_image_surface_get_data(s);
	stride = cairo_image_surface_get_stride(s);
	/* the corner is background white, some text pixels are dark */
	assert_int_equal(px[0] | px[1] << 8 | px[2] << 16, 0xffffff);
	for (int y = 0; y < 40; y++)
		for (int x = 0; x < 200; x++)
			dark += px[y * stride + 4 * x + 1] < 128;
	assert_true(dark > 20);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

static void test_stack(void **state)
{
	struct sp_figure_stack s = { 0 };
	struct sp_theme th;
	double bottom;

	sp_theme_init(&th, 0);
	s.theme = &th;
	s.width = 1000.5;
	s.pixels = true;
	s.left_w = 40.3;
	s.nr_panels = 2;
	assert_int_equal(sp_figure_stack_plan_x(&s), 0);
	/* both plots share x and width, on whole pixels, inside the margins */
	assert_true(s.plot[0].x == s.plot[1].x && s.plot[0].w == s.plot[1].w);
	assert_true(s.plot[0].x == ceil(th.margin + 40.3));
	assert_true(s.plot[0].w == floor(s.plot[0].w) && s.plot[0].x + s.plot[0].w <= 1000.5);

	/* free height: each plot gets what it wants */
	s.title_h = 20;
	s.want_h[0] = 300.2;
	s.want_h[1] = 100;
	s.above_h[1] = 15;
	s.nr_legends = 2;
	s.legend_h[0] = 18;
	s.legend_h[1] = 40;
	assert_int_equal(sp_figure_stack_place(&s), 0);
	assert_true(s.plot[0].h == 301 && s.plot[1].h == 100);
	assert_true(s.title.h == 20 && s.title.y == th.margin);
	assert_true(s.plot[0].y >= s.title.y + s.title.h + th.font_size * 0.6);
	assert_true(s.plot[1].y >= s.plot[0].y + s.plot[0].h + 15);
	assert_true(s.plot[0].y == floor(s.plot[0].y) && s.plot[1].y == floor(s.plot[1].y));
	/* legends under the axis, in order, as wide as the plots */
	assert_true(s.legend[0].y > s.plot[1].y + s.plot[1].h);
	assert_true(s.legend[1].y >= s.legend[0].y + s.legend[0].h);
	assert_true(s.legend[1].x == s.plot[0].x && s.legend[1].w == s.plot[0].w);
	bottom = s.legend[1].y + s.legend[1].h;
	assert_true(bottom <= s.height - th.margin && bottom > s.height - th.margin - 4);

	/* a height given: the plots share what is left, 3:1 */
	s.height = 1000;
	s.want_h[0] = 300;
	assert_int_equal(sp_figure_stack_place(&s), 0);
	assert_true(s.height == 1000);
	assert_true(fabs(s.plot[0].h - 3 * s.plot[1].h) <= 4);
	bottom = s.legend[1].y + s.legend[1].h;
	assert_true(bottom <= 1000 - th.margin && bottom > 1000 - th.margin - 4);
	/* a legend left out takes no room */
	s.legend_h[0] = 0;
	assert_int_equal(sp_figure_stack_place(&s), 0);
	assert_true(s.legend[0].h == 0 && s.legend[1].h == 40);

	/* too small, or bad counts */
	s.height = 200;
	assert_int_equal(sp_figure_stack_place(&s), -ERANGE);
	s.width = 80;
	assert_int_equal(sp_figure_stack_plan_x(&s), -ERANGE);
	s.nr_panels = 0;
	assert_int_equal(sp_figure_stack_plan_x(&s), -EINVAL);
	assert_int_equal(sp_figure_stack_place(&s), -EINVAL);
}

/* Let leak checkers see only our own allocations (as test-text.c). */
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
		cmocka_unit_test(test_snap),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_time_ticks),
		cmocka_unit_test(test_legend_height),
		cmocka_unit_test(test_background_and_title_draw),
		cmocka_unit_test(test_stack),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
