// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core-by-time chart from synthetic events, checked on plot-area
 * pixels: a task's columns in its color, idle white, no data grey,
 * --target black, a cropped window, socket order, distinct colors by
 * command, and 256 rows.  No
 * rendered text is compared.
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

#include "schedplot/base/error.h"
#include "schedplot/draw/ink.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/topology.h"
#include "schedplot/views/datagraph.h"

/* The plot: 100 columns of 10 ns over [0, 1000), 2 rows of 20 px. */
#define PX 10
#define PY 10
#define PW 100
#define PH 40

static struct sp_model m;
static const char *daemon_comm = "daemon";	/* task 20's command */
static enum sp_color_by color_by = SP_COLOR_BY_PID;
static struct sp_timeline tl;
static struct sp_datagraph dg;
static struct sp_theme theme;
static cairo_surface_t *surf;

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	sp_timeline_add(data, cpu, pid, t0, t1);
}

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

/*
 * cpu0 (row 0, bottom): idle from 0, "worker" 10 runs 200..600, idle to 1000.
 * cpu1 (row 1, top): no records before 500; "daemon" 20 runs 700..1000.
 */
static void build(uint64_t t0, uint64_t t1, const int *rows, const int *row_socket,
		  bool (*is_target)(void *, int, const char *))
{
	uint64_t start[2] = { 0, 500 };
	struct sp_model_observer obs = { .run = on_run, .data = &tl };
	struct sp_datagraph_opts o = { .color_by = color_by };
	static const int numeric[2] = { 0, 1 };
	struct sp_pass pass;

	assert_int_equal(sp_timeline_init(&tl, t0, t1, PW, 2, rows ? rows : numeric, 2), 0);
	sp_pass_init_one(&pass, &obs);
	assert_int_equal(sp_model_init(&m, 2, start, 1000, false, &pass, NULL), 0);
	ev(0, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	ev(200, 0, SP_EV_SWITCH, 0, 0, "swapper/0", 10, "worker");
	ev(500, 1, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	ev(600, 0, SP_EV_SWITCH, 10, 10, "worker", 0, "swapper/0");
	ev(700, 1, SP_EV_SWITCH, 0, 0, "swapper/1", 20, daemon_comm);
	ev(1000, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	assert_int_equal(sp_model_finish(&m), 0);
	assert_int_equal(sp_timeline_finish(&tl), 0);

	o.is_target = is_target;
	o.row_socket = row_socket;
	assert_int_equal(sp_datagraph_init(&dg, &tl, &m, &o), 0);
	sp_theme_init(&theme, 0);
	surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, PX * 2 + PW, PY * 2 + PH);
	cairo_t *cr = cairo_create(surf);

	assert_int_equal(sp_datagraph_columns(cr, PW), PW);
	cairo_set_source_rgb(cr, 1, 0, 1);	/* magenta outside: nothing may leak */
	cairo_paint(cr);
	sp_datagraph_draw(cr, &theme, &(struct sp_rect){ PX, PY, PW, PH }, &dg);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_flush(surf);
}

static void teardown_all(void)
{
	cairo_surface_destroy(surf);
	sp_datagraph_release(&dg);
	sp_timeline_release(&tl);
	sp_model_release(&m);
}

/* The pixel at column @col of row @row (0 at the bottom), in the row's middle. */
static uint32_t pixel(int row, int col)
{
	unsigned char *data = cairo_image_surface_get_data(surf);
	int stride = cairo_image_surface_get_stride(surf);
	int y = PY + PH - row * (PH / 2) - PH / 4, x = PX + col;

	return *(uint32_t *)(data + (size_t)y * stride + (size_t)x * 4) & 0xffffff;
}

static uint32_t rgb(double r, double g, double b)
{
	return ((uint32_t)(r * 255 + 0.5) << 16) | ((uint32_t)(g * 255 + 0.5) << 8) |
	       (uint32_t)(b * 255 + 0.5);
}

static uint32_t palette(size_t index)
{
	double r, g, b;

	sp_palette_color(NULL, index, &r, &g, &b);
	return rgb(r, g, b);
}

/* Equal within one step per channel (cairo rounds colors its own way). */
static bool same_color(uint32_t a, uint32_t b)
{
	for (int shift = 0; shift <= 16; shift += 8) {
		int d = (int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff);

		if (d < -1 || d > 1)
			return false;
	}
	return true;
}

#define assert_color(a, b) assert_true(same_color((a), (b)))

static bool is_grey(uint32_t p)
{
	unsigned int r = p >> 16, g = (p >> 8) & 0xff, b = p & 0xff;

	return r == g && g == b && r > 0x80 && r < 0xe0;
}

#define WHITE 0xffffffu
#define BLACK 0x000000u

/* worker ran 400 ns over the trace, daemon 300: palette colors 0 and 1 */
static void test_task_columns_idle_no_data(void **state)
{
	int c;

	build(0, 1000, NULL, NULL, NULL);
	for (c = 0; c < 20; c++)
		assert_int_equal(pixel(0, c), WHITE);
	for (c = 20; c < 60; c++)
		assert_color(pixel(0, c), palette(0));
	for (c = 60; c < 100; c++)
		assert_int_equal(pixel(0, c), WHITE);
	for (c = 0; c < 50; c++)
		assert_true(is_grey(pixel(1, c)));
	for (c = 50; c < 70; c++)
		assert_int_equal(pixel(1, c), WHITE);
	for (c = 70; c < 100; c++)
		assert_color(pixel(1, c), palette(1));
	/* nothing outside the plot */
	unsigned char *data = cairo_image_surface_get_data(surf);

	assert_int_equal(*(uint32_t *)data & 0xffffff, 0xff00ff);
	assert_int_equal(*(uint32_t *)(data + (size_t)(PY + PH) * cairo_image_surface_get_stride(surf) +
				       (PX + PW) * 4) & 0xffffff, 0xff00ff);

	/* the legend: idle, no data, then tasks by time in the window */
	struct sp_legend legend;

	sp_datagraph_legend(&dg, &legend, 16);
	assert_int_equal(legend.nr_entries, 4);
	assert_int_equal(legend.nr_more, 0);
	assert_string_equal(legend.entries[0].label, "idle");
	assert_string_equal(legend.entries[1].label, "no data");
	assert_string_equal(legend.entries[2].label, "worker-10");
	assert_string_equal(legend.entries[3].label, "daemon-20");
	sp_datagraph_legend(&dg, &legend, 3);
	assert_int_equal(legend.nr_entries, 3);
	assert_int_equal(legend.nr_more, 1);
	teardown_all();
}

/*
 * Ink in proportion to time: over [0, 40000) a column is 400 ns, and
 * worker's 400 ns (200..600) fill columns 0 and 1 half each; over
 * [0, 4000000) column 0 is 40000 ns and worker's run 1% of it: not white,
 * the palest level of its color (the trace ends at 1000: no data after).  A column busy throughout is full color.
 */
static void test_ink_in_proportion(void **state)
{
	uint32_t half = 0, faint = 0;
	struct sp_rgb mix;
	const struct sp_rgb paper = { 1, 1, 1 };
	struct sp_rgb full;

	sp_palette_color(NULL, 0, &full.r, &full.g, &full.b);
	build(0, 40000, NULL, NULL, NULL);
	sp_ink_mix(&full, &paper, SP_INK_LEVELS / 2, &mix);
	half = rgb(mix.r, mix.g, mix.b);
	assert_color(pixel(0, 0), half);
	assert_color(pixel(0, 1), half);
	assert_int_equal(pixel(0, 2), WHITE);
	teardown_all();

	build(0, 4000000, NULL, NULL, NULL);
	sp_ink_mix(&full, &paper, SP_INK_MIN_LEVEL, &mix);
	faint = rgb(mix.r, mix.g, mix.b);
	assert_true(pixel(0, 0) != WHITE);
	assert_color(pixel(0, 0), faint);
	assert_true(is_grey(pixel(0, 1)));	/* the trace ended at 1000 */
	teardown_all();

	build(250, 550, NULL, NULL, NULL);
	for (int c = 0; c < 100; c++)
		assert_color(pixel(0, c), palette(0));
	teardown_all();
}

static bool only_worker(void *data, int pid, const char *comm)
{
	return !strcmp(comm, "worker");
}

static void test_target_makes_others_black(void **state)
{
	build(0, 1000, NULL, NULL, only_worker);
	assert_color(pixel(0, 30), palette(0));
	assert_int_equal(pixel(1, 80), BLACK);
	assert_int_equal(pixel(1, 60), WHITE);	/* idle stays white */
	teardown_all();
}

/* [200, 600): worker fills the whole bottom row; the top row is no data then idle */
static void test_cropped_window(void **state)
{
	int c;

	build(200, 600, NULL, NULL, NULL);
	for (c = 0; c < 100; c++)
		assert_color(pixel(0, c), palette(0));
	for (c = 0; c < 75; c++)
		assert_true(is_grey(pixel(1, c)));
	for (c = 75; c < 100; c++)
		assert_int_equal(pixel(1, c), WHITE);
	teardown_all();
}

/* cpu1 on socket 0, cpu0 on socket 1: socket order puts cpu0 on top */
static void test_socket_order_moves_rows(void **state)
{
	static const char text[] = "# CPU,Core,Socket,Node\n0,0,1,1\n1,1,0,0\n";
	struct sp_topology topo;
	struct sp_error err;
	bool cpus[2] = { true, true };
	int rows[2], sockets[2];

	assert_int_equal(sp_topology_parse(&topo, text, strlen(text), &err), 0);
	assert_int_equal(sp_topology_order(&topo, cpus, 2, rows, sockets), 2);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[1], 0);
	build(0, 1000, rows, sockets, NULL);
	assert_color(pixel(1, 30), palette(0));	/* worker, cpu0, now on top */
	assert_color(pixel(0, 80), palette(1));	/* daemon, cpu1, at the bottom */
	assert_true(is_grey(pixel(0, 10)));
	/* the socket boundary is drawn between the rows */
	unsigned char *data = cairo_image_surface_get_data(surf);
	int stride = cairo_image_surface_get_stride(surf);
	uint32_t mid = *(uint32_t *)(data + (size_t)(PY + PH / 2) * stride + (PX + 30) * 4);

	assert_int_not_equal(mid & 0xffffff, palette(0));
	assert_int_not_equal(mid & 0xffffff, WHITE);
	sp_topology_release(&topo);
	teardown_all();
}

static void test_topology_errors(void **state)
{
	static const char bad[] = "# CPU,Core,Socket,Node\n0,0,0,0\n1,x,0,0\n";
	static const char twice[] = "0,0,0,0\n0,1,0,0\n";
	static const char full[] =
		"# The following is the parsable format, which can be fed to other\n"
		"# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n"
		"0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n2,2,1,,,2,2,2,1\n";
	struct sp_topology topo;
	struct sp_error err;

	assert_int_equal(sp_topology_parse(&topo, bad, strlen(bad), &err), -EINVAL);
	assert_non_null(strstr(err.msg, "line 3"));
	assert_int_equal(sp_topology_parse(&topo, twice, strlen(twice), &err), -EINVAL);
	assert_non_null(strstr(err.msg, "line 2"));
	assert_int_equal(sp_topology_parse(&topo, "", 0, &err), -EINVAL);
	assert_int_equal(sp_topology_parse(&topo, full, strlen(full), &err), 0);
	assert_int_equal(topo.nr_cpus, 3);
	assert_int_equal(sp_topology_socket(&topo, 2), 1);
	assert_int_equal(topo.node[2], -1);
	assert_int_equal(sp_topology_socket(&topo, 7), -1);
	sp_topology_release(&topo);
}

/*
 * 256 CPUs, each running its own task for a stretch: the whole figure fits
 * the default height with rows of at least 3 px, every row in its color.
 * SP_TEST_IMAGE_DIR=dir keeps the picture to look at.
 */
/* The color of the key labelled @label. */
static struct sp_rgb key_color(const char *label)
{
	for (size_t i = 0; i < dg.nr_keys; i++)
		if (!strcmp(dg.keys[i].label, label))
			return dg.keys[i].color;
	fail_msg("no key %s", label);
	return (struct sp_rgb){ 0, 0, 0 };
}

/*
 * By command, two commands whose names hash to the same color still get
 * two colors: the busier one ("worker", 400 ns against 300) keeps its
 * own, the other takes the next.
 */
static void test_command_colors_distinct(void **state)
{
	size_t want = sp_string_color_index("worker"), i;
	static char name[16];
	struct sp_rgb w, d;
	double r, g, b;

	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "d%zu", i);
		if (sp_string_color_index(name) == want)
			break;
	}
	assert_true(i < 100000);
	daemon_comm = name;
	color_by = SP_COLOR_BY_COMMAND;
	build(0, 1000, NULL, NULL, NULL);
	daemon_comm = "daemon";
	color_by = SP_COLOR_BY_PID;

	w = key_color("worker");
	d = key_color(name);
	sp_palette_color(NULL, want, &r, &g, &b);
	assert_true(w.r == r && w.g == g && w.b == b);
	sp_palette_color(NULL, (want + 1) % SP_STRING_COLORS, &r, &g, &b);
	assert_true(d.r == r && d.g == g && d.b == b);
	assert_color(pixel(0, 30), rgb(w.r, w.g, w.b));
	assert_color(pixel(1, 80), rgb(d.r, d.g, d.b));
	teardown_all();
}

static void test_256_rows(void **state)
{
	enum { N = 256 };
	uint64_t *start = calloc(N, sizeof(*start));
	struct sp_model_observer obs = { .run = on_run, .data = &tl };
	struct sp_datagraph_opts o = { .color_by = SP_COLOR_BY_PID };
	struct sp_pass pass;
	struct sp_datagraph_figure fig = { .theme = &theme, .format = SP_FORMAT_PNG,
					   .width = 1600, .title = "256 CPUs", .legend = true };
	int rows[N], c;
	char comm[16];
	const char *dir = getenv("SP_TEST_IMAGE_DIR");

	assert_non_null(start);
	for (c = 0; c < N; c++)
		rows[c] = c;
	sp_theme_init(&theme, 0);
	assert_int_equal(sp_datagraph_figure_plan(&fig, rows, N), 0);
	assert_true(fig.nr_cols > 1000 && fig.nr_cols < 1600);
	assert_int_equal(sp_timeline_init(&tl, 0, 100000, fig.nr_cols, N, rows, N), 0);
	sp_pass_init_one(&pass, &obs);
	assert_int_equal(sp_model_init(&m, N, start, 100000, false, &pass, NULL), 0);
	for (c = 0; c < N; c++) {
		snprintf(comm, sizeof(comm), "task%d", c);
		ev(0, c, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
		ev(1000 + c * 100, c, SP_EV_SWITCH, 0, 0, "swapper", 100 + c, comm);
		ev(60000 + c * 100, c, SP_EV_SWITCH, 100 + c, 100 + c, comm, 0, "swapper");
	}
	ev(100000, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	assert_int_equal(sp_model_finish(&m), 0);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_datagraph_init(&dg, &tl, &m, &o), 0);
	assert_int_equal(sp_datagraph_figure_finish(&fig, &dg), 0);
	assert_true(fig.height > 768 && fig.height < 1200);
	assert_true(fig.layout.plot.h >= 3 * N);

	surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)fig.width, (int)fig.height);
	cairo_t *cr = cairo_create(surf);

	sp_datagraph_figure_draw(cr, &fig, &dg);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	/* the middle of every row, at 45% of the time, shows that row's task */
	unsigned char *data = cairo_image_surface_get_data(surf);
	int stride = cairo_image_surface_get_stride(surf);
	int x = (int)(fig.layout.plot.x + 0.45 * fig.layout.plot.w);

	for (c = 0; c < N; c++) {
		double y = fig.layout.plot.y + fig.layout.plot.h - (c + 0.5) * fig.layout.plot.h / N;
		uint32_t p = *(uint32_t *)(data + (size_t)y * stride + (size_t)x * 4) & 0xffffff;
		size_t k;

		for (k = SP_DG_NR_SPECIAL_KEYS; k < dg.nr_keys; k++)
			if (dg.keys[k].id == ((int64_t)1 << 40) + 100 + c)
				break;
		assert_true(k < dg.nr_keys);
		if (!same_color(p, rgb(dg.keys[k].color.r, dg.keys[k].color.g, dg.keys[k].color.b)))
			print_error("row %d: %06x at y %g x %d\n", c, p, y, x);
		assert_color(p, rgb(dg.keys[k].color.r, dg.keys[k].color.g, dg.keys[k].color.b));
	}
	if (dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/datagraph-256.png", dir);
		cairo_surface_write_to_png(surf, path);
	}
	free(start);
	teardown_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_columns_idle_no_data),
		cmocka_unit_test(test_ink_in_proportion),
		cmocka_unit_test(test_target_makes_others_black),
		cmocka_unit_test(test_cropped_window),
		cmocka_unit_test(test_socket_order_moves_rows),
		cmocka_unit_test(test_topology_errors),
		cmocka_unit_test(test_command_colors_distinct),
		cmocka_unit_test(test_256_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
