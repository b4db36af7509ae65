// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overview figure: both plots on one x extent, the datagraph above the
 * running/waiting graph, the sizes that leave no room refused with
 * -ERANGE, and a figure that draws without a cairo error.  No text is
 * compared.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cmocka.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/overview.h"
#include "schedplot/views/rwgraph.h"

#define T1 1000000ull	/* the window: [0, 1 ms) */

static const int rows[2] = { 0, 1 };
static struct sp_theme theme;
static struct sp_model m;
static struct sp_timeline tl;
static struct sp_rw_collect rw;
static struct sp_datagraph dg;

static void ev(uint64_t ts, int cpu, int type, int common, int pid, const char *comm,
	       int other, const char *other_comm)
{
	struct sp_event e = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = (uint8_t)type,
		.pid = pid, .other_pid = other, .comm = comm, .other_comm = other_comm,
		.target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &e), 0);
}

static void figure_init(struct sp_overview_figure *fig, double width, double height)
{
	sp_theme_init(&theme, 0);
	memset(fig, 0, sizeof(*fig));
	fig->theme = &theme;
	fig->style.nr_cpus = 2;
	fig->style.shade = true;
	fig->style.pixels = true;
	fig->legend = true;
	fig->note = true;
	fig->title = "overview";
	fig->width = width;
	fig->height = height;
}

/* One pass as schedplot overview makes it: the collector and the timeline its consumers. */
static void pass(const struct sp_overview_figure *fig)
{
	uint64_t start[2] = { 0, 0 };
	struct sp_datagraph_opts o = { .color_by = SP_COLOR_BY_PID };
	struct sp_model_observer obs;
	struct sp_pass p;

	assert_int_equal(sp_timeline_init(&tl, 0, T1, fig->nr_cols, 2, rows, 2), 0);
	assert_int_equal(sp_rw_collect_init(&rw, 0, T1,
					    sp_rwgraph_nr_cols(&fig->plot, &fig->style, 0, T1),
					    2, 0, NULL), 0);
	sp_pass_init(&p);
	sp_rw_collect_observer(&rw, &obs);
	assert_int_equal(sp_pass_add(&p, &obs), 0);
	sp_timeline_observer(&tl, &obs);
	assert_int_equal(sp_pass_add(&p, &obs), 0);
	assert_int_equal(sp_model_init(&m, 2, start, T1, false, &p, NULL), 0);
	ev(0, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	ev(0, 1, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	ev(100000, 0, SP_EV_WAKEUP, 0, 10, "worker", -1, NULL);
	ev(100000, 1, SP_EV_WAKEUP, 0, 20, "daemon", -1, NULL);
	ev(200000, 0, SP_EV_SWITCH, 0, 0, "swapper/0", 10, "worker");
	ev(600000, 0, SP_EV_SWITCH, 10, 10, "worker", 20, "daemon");
	ev(T1, 0, SP_EV_OTHER, 20, 20, NULL, 0, NULL);
	assert_int_equal(sp_model_finish(&m), 0);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_rw_collect_finish(&rw), 0);
	assert_int_equal(sp_datagraph_init(&dg, &tl, &m, &o), 0);
}

static void release_pass(void)
{
	sp_datagraph_release(&dg);
	sp_rw_collect_release(&rw);
	sp_timeline_release(&tl);
	sp_model_release(&m);
}

static void test_layout_and_draw(void **state)
{
	struct sp_overview_figure fig;
	const struct sp_overview_layout *lay = &fig.layout;
	cairo_surface_t *s;
	cairo_t *cr;

	figure_init(&fig, 800, 0);
	assert_int_equal(sp_overview_figure_plan(&fig, rows, 2), 0);
	assert_true(fig.plot.x > 0 && fig.plot.w > 0);
	assert_true(fig.plot.x + fig.plot.w <= 800);
	/* PNG: one timeline column per pixel, on whole pixels */
	assert_int_equal(fig.nr_cols, (unsigned int)fig.plot.w);
	assert_true(fig.plot.x == (double)(int)fig.plot.x);

	pass(&fig);
	assert_int_equal(sp_overview_figure_finish(&fig, &dg, 2), 0);
	assert_true(fig.height > 0 && fig.height <= 32767);
	/* one x extent, the datagraph above the running/waiting plot */
	assert_true(lay->dg.x == fig.plot.x && lay->rw.x == fig.plot.x);
	assert_true(lay->dg.w == fig.plot.w && lay->rw.w == fig.plot.w);
	assert_true(lay->dg.h > 0 && lay->rw.h > 0);
	assert_true(lay->dg.y + lay->dg.h <= lay->rw.y);
	assert_true(lay->title.h > 0 && lay->title.y + lay->title.h <= lay->dg.y);
	assert_true(lay->rw_legend.h > 0 && lay->dg_legend.h > 0);
	assert_true(lay->dg_legend.y + lay->dg_legend.h <= fig.height);

	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)fig.width, (int)fig.height);
	cr = cairo_create(s);
	assert_int_equal(sp_overview_figure_draw(cr, &fig, &dg, &rw), 0);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	sp_overview_figure_release(&fig);
	sp_overview_figure_release(&fig);	/* released twice: nothing happens */
	release_pass();
}

static void test_no_legend_no_title(void **state)
{
	struct sp_overview_figure with, without;

	figure_init(&with, 800, 0);
	assert_int_equal(sp_overview_figure_plan(&with, rows, 2), 0);
	pass(&with);
	assert_int_equal(sp_overview_figure_finish(&with, &dg, 2), 0);
	figure_init(&without, 800, 0);
	without.legend = false;
	without.title = "";
	assert_int_equal(sp_overview_figure_plan(&without, rows, 2), 0);
	assert_int_equal(sp_overview_figure_finish(&without, &dg, 2), 0);
	assert_true(without.layout.title.h == 0);
	assert_true(without.layout.rw_legend.h == 0 && without.layout.dg_legend.h == 0);
	/* the plots keep their default heights: the image is smaller */
	assert_true(without.height < with.height);
	assert_true(without.layout.dg.h == with.layout.dg.h);
	sp_overview_figure_release(&with);
	sp_overview_figure_release(&without);
	release_pass();
}

static void test_no_room(void **state)
{
	struct sp_overview_figure fig;

	/* too narrow for the plots: refused before the pass */
	figure_init(&fig, 100, 0);
	assert_int_equal(sp_overview_figure_plan(&fig, rows, 2), -ERANGE);
	sp_overview_figure_release(&fig);

	/* too low for the two plots: refused once the legends are known */
	figure_init(&fig, 800, 120);
	assert_int_equal(sp_overview_figure_plan(&fig, rows, 2), 0);
	pass(&fig);
	assert_int_equal(sp_overview_figure_finish(&fig, &dg, 2), -ERANGE);
	sp_overview_figure_release(&fig);
	release_pass();
}

static void test_given_height_is_kept(void **state)
{
	struct sp_overview_figure fig;

	figure_init(&fig, 800, 900);
	assert_int_equal(sp_overview_figure_plan(&fig, rows, 2), 0);
	pass(&fig);
	assert_int_equal(sp_overview_figure_finish(&fig, &dg, 2), 0);
	assert_true(fig.height == 900);
	assert_true(fig.layout.dg_legend.y + fig.layout.dg_legend.h <= 900);
	sp_overview_figure_release(&fig);
	release_pass();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_and_draw),
		cmocka_unit_test(test_no_legend_no_title),
		cmocka_unit_test(test_no_room),
		cmocka_unit_test(test_given_height_is_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
