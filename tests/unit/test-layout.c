// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placing title, plot and legend; and a whole layout drawn with axes,
 * legend and text, which must leave cairo without error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

#define NS_PER_S 1000000000ULL

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

static cairo_t *scratch(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

/* Everything draws without putting cairo in an error state. */
static void test_draw_smoke(void **state)
{
	static const char *const cpus[] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	struct sp_legend_entry entries[40] = { 0 };
	struct sp_legend legend = { entries, 40, 100, "tasks", NULL };
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

/*
 * Time labels as drawn: in seconds, distinct, and never overlapping, for
 * zoomed windows far from the trace start and absolute timestamps, at the
 * widths of a narrow PDF and a wide PNG.
 */
static void test_time_labels_fit(void **state)
{
	static const uint64_t spans[] = { 700, 3000, 1500000, 2500000, 740000000, 600 * NS_PER_S };
	static const double widths[] = { 300, 620, 1480 };
	uint64_t origin = 436124940484ULL;
	struct sp_theme th;
	cairo_t *cr = scratch();

	sp_theme_init(&th, 0);
	sp_render_font(cr, &th, th.font_size, false);
	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++)
		for (size_t w = 0; w < 3; w++)
			for (int abs = 0; abs < 2; abs++) {
				uint64_t t0 = origin + 107500123, t1 = t0 + spans[i];
				struct sp_time_ticks tt;

				assert_int_equal(sp_time_ticks_fit(&tt, cr, widths[w], t0, t1,
								   abs ? 0 : origin), 0);
				/* at least two ticks, but for sub-microsecond windows in 300 px */
				assert_true(tt.nr_ticks >= 2 || (spans[i] < 1000 && widths[w] < 400));
				assert_string_equal(tt.unit, "s");
				for (unsigned int k = 1; k < tt.nr_ticks; k++) {
					double gap = widths[w] * (double)tt.step_ns /
						     (double)spans[i];
					double half = (sp_text_width(cr, tt.ticks[k].label) +
						       sp_text_width(cr, tt.ticks[k - 1].label)) / 2;

					assert_string_not_equal(tt.ticks[k].label,
								tt.ticks[k - 1].label);
					/* centred labels: apart by half of each and some air */
					assert_true(gap >= 1.2 * half);
				}
				/* seconds: since the start, or the trace's own timestamps */
				for (unsigned int k = 0; k < tt.nr_ticks; k++) {
					double v = strtod(tt.ticks[k].label, NULL) * 1e9;
					double want = (double)(tt.ticks[k].ts_ns - (abs ? 0 : origin));

					assert_true(v > want - 0.5 - 1e-6 * want && v < want + 0.5 + 1e-6 * want);
				}
			}
	cairo_destroy(cr);
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
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_draw_smoke),
		cmocka_unit_test(test_time_labels_fit),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
