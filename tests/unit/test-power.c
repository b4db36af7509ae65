// SPDX-License-Identifier: GPL-2.0-only
/*
 * Power state from synthetic power:cpu_frequency and power:cpu_idle
 * records: unknown before a CPU's first event, records about one CPU fired
 * on another, the window of the mean, cpu_idle's exit value; then the
 * datagraph's power layers checked on plot-area pixels: a row's pixel at a
 * time has the scale's color of the frequency then, unknown frequency is
 * hatched, merged rows keep the task on top, idle time is shaded by
 * C-state.  No rendered text is compared.
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
#include <cmocka.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-power.h"

#define FREQ 0		/* request indices the tracker is told */
#define IDLE 1
#define EXIT 4294967295ull

static void power_ev(struct sp_power *p, uint64_t ts, int fired_on, int req, uint64_t state,
		     uint64_t cpu_id)
{
	union sp_value v[2] = { { .u64 = state }, { .u64 = cpu_id } };
	struct sp_event e = {
		.ts_ns = ts, .cpu = fired_on, .type = SP_EV_EXTRA, .extra = (uint16_t)req,
		.pid = -1, .other_pid = -1, .target_cpu = -1, .orig_cpu = -1, .values = v,
	};

	sp_power_add(p, &e);
}

static void init_power(struct sp_power *p, uint64_t w0, uint64_t w1)
{
	assert_int_equal(sp_power_init(p, 2, w0, w1), 0);
	p->request[SP_POWER_FREQ] = FREQ;
	p->request[SP_POWER_IDLE] = IDLE;
}

/* The time-weighted mean over the window, from each CPU's first event on. */
static void test_mean_frequency(void **state)
{
	struct sp_power p;
	uint64_t known;

	init_power(&p, 100, 1000);
	power_ev(&p, 50, 1, FREQ, 500000, 0);		/* before the window */
	power_ev(&p, 200, 0, FREQ, 1000000, 1);		/* about CPU 1, fired on CPU 0 */
	power_ev(&p, 600, 1, FREQ, 2000000, 1);
	power_ev(&p, 700, 1, FREQ, 2000000, 7);		/* a CPU the trace lacks */
	sp_power_finish(&p, 1000);
	assert_true(sp_power_mean_khz(&p, 0, &known) == 500000);
	assert_int_equal(known, 900);
	assert_true(sp_power_mean_khz(&p, 1, &known) == 1500000);
	assert_int_equal(known, 800);
	assert_int_equal(p.nr_events[SP_POWER_FREQ], 3);
	sp_power_release(&p);

	/* never known in the window */
	init_power(&p, 0, 100);
	power_ev(&p, 100, 0, FREQ, 1000000, 0);
	sp_power_finish(&p, 1000);
	assert_true(sp_power_mean_khz(&p, 0, &known) == 0);
	assert_int_equal(known, 0);
	assert_true(sp_power_mean_khz(&p, 1, &known) == 0);
	sp_power_release(&p);
}

/*
 * The time-weighted spread: the population standard deviation of the
 * frequency, each value counted for the time it held, over the mean.
 * Reference: Wikipedia's "Standard deviation" example, the eight values
 * 2 4 4 4 5 5 7 9 have mean 5 and population standard deviation 2; held
 * 100 ns each (GHz as kHz), CPU 0 2 4 4 4 and CPU 1 5 5 7 9, they give
 * spread 2/5 = 0.4.  Properties: CPU 0 alone (2 4 4 4: mean 3.5, variance
 * 0.75) gives sqrt(0.75)/3.5; a frequency that stands still gives exactly
 * 0; doubling every frequency changes no spread; CPUs with no known
 * frequency give nothing.
 */
static void test_frequency_spread(void **state)
{
	bool only0[2] = { true, false }, only1[2] = { false, true };
	struct sp_power p;
	double mean, spread, mean2, spread2;

	(void)state;
	init_power(&p, 0, 400);
	power_ev(&p, 0, 0, FREQ, 2000000, 0);
	power_ev(&p, 100, 0, FREQ, 4000000, 0);
	power_ev(&p, 0, 1, FREQ, 5000000, 1);
	power_ev(&p, 200, 1, FREQ, 7000000, 1);
	power_ev(&p, 300, 0, FREQ, 9000000, 1);		/* about CPU 1, fired on CPU 0 */
	sp_power_finish(&p, 400);
	assert_int_equal(sp_power_spread(&p, NULL, &mean, &spread), 800);
	assert_true(fabs(mean - 5000000) < 1e-6);
	assert_true(fabs(spread - 0.4) < 1e-12);
	assert_int_equal(sp_power_spread(&p, only0, &mean, &spread), 400);
	assert_true(fabs(mean - 3500000) < 1e-6);
	assert_true(fabs(spread - sqrt(0.75) / 3.5) < 1e-12);
	sp_power_release(&p);

	/* still: exactly 0, whatever the frequency */
	init_power(&p, 0, 1000);
	power_ev(&p, 0, 0, FREQ, 2400000, 0);
	power_ev(&p, 0, 1, FREQ, 2400000, 1);
	power_ev(&p, 333, 0, FREQ, 2400000, 0);
	sp_power_finish(&p, 1000);
	assert_int_equal(sp_power_spread(&p, NULL, &mean, &spread), 2000);
	assert_true(mean == 2400000 && spread == 0);
	sp_power_release(&p);

	/* doubled: the same spread; never known: nothing */
	init_power(&p, 0, 400);
	power_ev(&p, 0, 0, FREQ, 1600000, 0);
	power_ev(&p, 100, 0, FREQ, 800000, 0);
	sp_power_finish(&p, 400);
	sp_power_spread(&p, NULL, &mean, &spread);
	assert_true(spread > 0);
	assert_int_equal(sp_power_spread(&p, only1, &mean2, &spread2), 0);
	assert_true(mean2 == 0 && spread2 == 0);
	sp_power_release(&p);
	init_power(&p, 0, 400);
	power_ev(&p, 0, 0, FREQ, 3200000, 0);
	power_ev(&p, 100, 0, FREQ, 1600000, 0);
	sp_power_finish(&p, 400);
	sp_power_spread(&p, NULL, &mean2, &spread2);
	assert_true(fabs(mean2 - 2 * mean) < 1e-6 && fabs(spread2 - spread) < 1e-12);
	sp_power_release(&p);
}

/* Runs of constant value to a timeline: C-state + 1, 0 after an exit, no data before. */
static void test_idle_runs(void **state)
{
	static const int rows[2] = { 0, 1 };
	struct sp_timeline tl;
	struct sp_power p;

	init_power(&p, 0, 1000);
	assert_int_equal(sp_timeline_init(&tl, 0, 1000, 10, 2, rows, 2), 0);
	p.tl[SP_POWER_IDLE] = &tl;
	power_ev(&p, 200, 0, IDLE, 2, 0);
	power_ev(&p, 400, 0, IDLE, EXIT, 0);
	power_ev(&p, 600, 0, IDLE, 0, 0);
	power_ev(&p, 800, 0, IDLE, EXIT & 0xffffffffull, 0);
	sp_power_finish(&p, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(p.max_idle_state, 2);
	assert_int_equal(sp_timeline_cell(&tl, 0, 1), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 2), 3);
	assert_int_equal(sp_timeline_cell(&tl, 0, 3), 3);
	assert_int_equal(sp_timeline_cell(&tl, 0, 4), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 6), 1);
	assert_int_equal(sp_timeline_cell(&tl, 0, 9), 0);
	assert_int_equal(sp_timeline_cell(&tl, 1, 5), SP_TIMELINE_NO_DATA);
	sp_timeline_release(&tl);
	sp_power_release(&p);
}

/* The plot: 100 columns of 10 ns over [0, 1000), 2 rows of 20 px. */
#define PX 10
#define PY 10
#define PW 100
#define PH 40

static struct sp_model m;
static struct sp_timeline tl, ftl, itl;
static struct sp_power pw;
static struct sp_dg_power layers;
static struct sp_datagraph dg;
static struct sp_theme theme;
static cairo_surface_t *surf;

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	sp_timeline_add(data, cpu, pid, t0, t1);
}

static void on_extra(void *data, const struct sp_event *ev)
{
	(void)data;
	sp_power_add(&pw, ev);
}

static void sched(uint64_t ts, int cpu, int type, int common, int pid, const char *comm,
		  int other, const char *other_comm)
{
	struct sp_event e = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = (uint8_t)type,
		.pid = pid, .other_pid = other, .comm = comm, .other_comm = other_comm,
		.target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &e), 0);
}

static void power(uint64_t ts, int cpu, int req, uint64_t state, uint64_t cpu_id)
{
	union sp_value v[2] = { { .u64 = state }, { .u64 = cpu_id } };
	struct sp_event e = {
		.ts_ns = ts, .cpu = cpu, .common_pid = 0, .type = SP_EV_EXTRA,
		.extra = (uint16_t)req, .pid = -1, .other_pid = -1, .target_cpu = -1,
		.orig_cpu = -1, .values = v,
	};

	assert_int_equal(sp_model_add(&m, &e), 0);
}

/*
 * cpu0 (row 0): idle, "worker" 10 runs 200..600, idle; frequency unknown
 * before 300, then 800 MHz, 2000 MHz from 500; C-state 1 from 650 to 800.
 * cpu1 (row 1): idle all along; 1200 MHz from 0 (told on cpu0); C-state
 * 0 from 100, C-state 1 from 300.
 */
static void build(enum sp_dg_freq_mode mode, bool idle_states, bool grey)
{
	static const int rows[2] = { 0, 1 };
	uint64_t start[2] = { 0, 0 };
	struct sp_model_observer obs = { .run = on_run, .extra = on_extra, .data = &tl };
	struct sp_pass p;
	struct sp_datagraph_opts o = { .color_by = SP_COLOR_BY_PID };

	assert_int_equal(sp_timeline_init(&tl, 0, 1000, PW, 2, rows, 2), 0);
	assert_int_equal(sp_timeline_init(&ftl, 0, 1000, PW, 2, rows, 2), 0);
	assert_int_equal(sp_timeline_init(&itl, 0, 1000, PW, 2, rows, 2), 0);
	init_power(&pw, 0, 1000);
	pw.tl[SP_POWER_FREQ] = &ftl;
	pw.tl[SP_POWER_IDLE] = &itl;
	sp_pass_init_one(&p, &obs);
	assert_int_equal(sp_model_init(&m, 2, start, 1000, false, &p, NULL), 0);
	sched(0, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	sched(0, 1, SP_EV_WAKEUP, 0, 30, "sleeper", 0, NULL);	/* cpu1 runs its idle task */
	sp_power_add(&pw, &(struct sp_event){ .type = SP_EV_OTHER });
	power(0, 0, FREQ, 1200000, 1);
	power(100, 1, IDLE, 0, 1);
	sched(200, 0, SP_EV_SWITCH, 0, 0, "swapper/0", 10, "worker");
	power(300, 0, FREQ, 800000, 0);
	power(300, 1, IDLE, 1, 1);
	power(500, 0, FREQ, 2000000, 0);
	sched(600, 0, SP_EV_SWITCH, 10, 10, "worker", 0, "swapper/0");
	power(650, 0, IDLE, 1, 0);
	power(800, 0, IDLE, EXIT, 0);
	sched(1000, 0, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	sched(1000, 1, SP_EV_OTHER, 0, 0, NULL, 0, NULL);
	assert_int_equal(sp_model_finish(&m), 0);
	sp_power_finish(&pw, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_finish(&ftl), 0);
	assert_int_equal(sp_timeline_finish(&itl), 0);

	sp_dg_power_init(&layers, mode, &ftl, idle_states, &itl, pw.max_idle_state, grey);
	o.power = &layers;
	assert_int_equal(sp_datagraph_init(&dg, &tl, &m, &o), 0);
	sp_theme_init(&theme, 0);
	surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, PX * 2 + PW, PY * 2 + PH);
	cairo_t *cr = cairo_create(surf);

	cairo_set_source_rgb(cr, 1, 0, 1);
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
	sp_timeline_release(&ftl);
	sp_timeline_release(&itl);
	sp_power_release(&pw);
	sp_model_release(&m);
}

/* The pixel at column @col of row @row (0 at the bottom), @frac down from its top. */
static uint32_t pixel_at(int row, int col, double frac)
{
	unsigned char *data = cairo_image_surface_get_data(surf);
	int stride = cairo_image_surface_get_stride(surf);
	int y = PY + PH - (row + 1) * (PH / 2) + (int)(frac * (PH / 2)), x = PX + col;

	return *(uint32_t *)(data + (size_t)y * stride + (size_t)x * 4) & 0xffffff;
}

static uint32_t pixel(int row, int col)
{
	return pixel_at(row, col, 0.5);
}

static uint32_t rgb(const struct sp_rgb *c)
{
	return ((uint32_t)(c->r * 255 + 0.5) << 16) | ((uint32_t)(c->g * 255 + 0.5) << 8) |
	       (uint32_t)(c->b * 255 + 0.5);
}

static uint32_t freq_color(int64_t khz)
{
	struct sp_rgb c;

	sp_dg_power_freq_color(&layers, khz, &c);
	return rgb(&c);
}

static uint32_t idle_color(int state)
{
	struct sp_rgb c;

	sp_dg_power_idle_color(&layers, state, &c);
	return rgb(&c);
}

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

static double lightness(uint32_t p)
{
	return 0.2126 * (p >> 16) + 0.7152 * ((p >> 8) & 0xff) + 0.0722 * (p & 0xff);
}

/* Hatched: only the two greys of the hatch, both present. */
static void assert_hatched(int row, int c0, int c1, double frac)
{
	uint32_t a = pixel_at(row, c0, frac), b = a;
	int c;

	for (c = c0; c < c1; c++) {
		uint32_t p = pixel_at(row, c, frac);
		unsigned int r = p >> 16, g = (p >> 8) & 0xff, bl = p & 0xff;

		assert_true(r == g && g == bl && r > 0x80 && r < 0xe0);
		if (p != a)
			b = p;
	}
	assert_true(a != b);
}

static void test_rows_by_frequency(void **state)
{
	int c;

	build(SP_DG_FREQ_ROWS, false, false);
	assert_int_equal(layers.lo_khz, 800000);
	assert_int_equal(layers.hi_khz, 2000000);
	assert_hatched(0, 0, 30, 0.5);
	for (c = 30; c < 50; c++)
		assert_color(pixel(0, c), freq_color(800000));
	for (c = 50; c < 100; c++)
		assert_color(pixel(0, c), freq_color(2000000));
	for (c = 0; c < 100; c++)
		assert_color(pixel(1, c), freq_color(1200000));
	/* the same in the whole height of the row: the tasks are gone */
	assert_color(pixel_at(0, 40, 0.1), freq_color(800000));
	assert_color(pixel_at(0, 40, 0.9), freq_color(800000));
	/* a sequential scale: lighter with the frequency, also in grey */
	assert_true(lightness(freq_color(800000)) < lightness(freq_color(1200000)));
	assert_true(lightness(freq_color(1200000)) < lightness(freq_color(2000000)));

	/* the legend: a color bar from 800 to 2000 MHz in the rows' colors, unknown */
	struct sp_legend legend;
	struct sp_rgb mid;

	sp_datagraph_legend(&dg, &legend, 16);
	assert_int_equal(legend.nr_entries, 0);
	assert_null(legend.title);
	assert_non_null(legend.bar);
	assert_string_equal(legend.bar->title, "CPU frequency (MHz)");
	assert_true(legend.bar->lo == 800 && legend.bar->hi == 2000);
	assert_string_equal(legend.bar->unknown_label, "unknown");
	legend.bar->color(legend.bar->data, 1200, &mid);
	assert_int_equal(rgb(&mid), freq_color(1200000));
	teardown_all();
}

/* One frequency in the window: the scale spans 100 MHz either side of it. */
static void test_one_frequency(void **state)
{
	static const int rows[1] = { 0 };
	struct sp_timeline one;
	struct sp_dg_power lone;
	struct sp_rgb c, mid;

	(void)state;
	assert_int_equal(sp_timeline_init(&one, 0, 1000, PW, 1, rows, 1), 0);
	sp_timeline_add(&one, 0, 850000, 0, 1000);
	assert_int_equal(sp_timeline_finish(&one), 0);
	sp_dg_power_init(&lone, SP_DG_FREQ_ROWS, &one, false, NULL, -1, false);
	assert_true(lone.any_freq);
	assert_int_equal(lone.lo_khz, 750000);
	assert_int_equal(lone.hi_khz, 950000);
	assert_true(lone.bar.lo == 750 && lone.bar.hi == 950);
	assert_null(lone.bar.unknown_label);
	/* the middle of the ramp, on the bar as in the rows */
	sp_dg_power_freq_color(&lone, 850000, &c);
	sp_palette_ramp_color(0.5, false, &mid);
	assert_int_equal(rgb(&c), rgb(&mid));
	lone.bar.color(lone.bar.data, 850, &c);
	assert_int_equal(rgb(&c), rgb(&mid));
	sp_timeline_release(&one);
}

static void test_grey_ramp(void **state)
{
	build(SP_DG_FREQ_ROWS, false, true);
	uint32_t lo = freq_color(800000), hi = freq_color(2000000);

	assert_true((lo >> 16) == (lo & 0xff) && (hi >> 16) == (hi & 0xff));
	assert_true(lightness(lo) < lightness(hi));
	assert_color(pixel(0, 60), hi);
	teardown_all();
}

static void test_merged(void **state)
{
	double r, g, b;
	uint32_t worker;
	int c;

	build(SP_DG_FREQ_MERGED, false, false);
	sp_palette_color(NULL, 0, &r, &g, &b);
	worker = rgb(&(struct sp_rgb){ r, g, b });
	/* top half: idle white, worker, white; bottom half: the frequency */
	for (c = 0; c < 20; c++)
		assert_int_equal(pixel_at(0, c, 0.25), 0xffffff);
	for (c = 20; c < 60; c++)
		assert_color(pixel_at(0, c, 0.25), worker);
	assert_hatched(0, 0, 30, 0.75);
	for (c = 30; c < 50; c++)
		assert_color(pixel_at(0, c, 0.75), freq_color(800000));
	for (c = 60; c < 100; c++) {
		assert_int_equal(pixel_at(0, c, 0.25), 0xffffff);
		assert_color(pixel_at(0, c, 0.75), freq_color(2000000));
	}
	teardown_all();
}

static void test_idle_states(void **state)
{
	double r, g, b;
	int c;

	build(SP_DG_FREQ_OFF, true, false);
	sp_palette_color(NULL, 0, &r, &g, &b);
	/* cpu0: idle out of any known C-state, worker, C-state 1, out of it */
	for (c = 0; c < 20; c++)
		assert_int_equal(pixel(0, c), 0xffffff);
	for (c = 20; c < 60; c++)
		assert_color(pixel(0, c), rgb(&(struct sp_rgb){ r, g, b }));
	for (c = 60; c < 65; c++)
		assert_int_equal(pixel(0, c), 0xffffff);
	for (c = 65; c < 80; c++)
		assert_color(pixel(0, c), idle_color(1));
	for (c = 80; c < 100; c++)
		assert_int_equal(pixel(0, c), 0xffffff);
	/* cpu1: unknown, C-state 0, C-state 1: light to dark grey */
	for (c = 0; c < 10; c++)
		assert_int_equal(pixel(1, c), 0xffffff);
	for (c = 10; c < 30; c++)
		assert_color(pixel(1, c), idle_color(0));
	for (c = 30; c < 100; c++)
		assert_color(pixel(1, c), idle_color(1));
	assert_true(lightness(idle_color(0)) > lightness(idle_color(1)));
	assert_true(lightness(idle_color(1)) > 0x60);

	struct sp_legend legend;

	sp_datagraph_legend(&dg, &legend, 16);
	assert_string_equal(legend.entries[0].label, "idle state 0");
	assert_string_equal(legend.entries[1].label, "idle state 1");
	assert_string_equal(legend.entries[2].label, "idle");
	teardown_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_frequency),
		cmocka_unit_test(test_frequency_spread),
		cmocka_unit_test(test_idle_runs),
		cmocka_unit_test(test_rows_by_frequency),
		cmocka_unit_test(test_one_frequency),
		cmocka_unit_test(test_grey_ramp),
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_idle_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
