// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-pixel timeline from synthetic runs: dominance, runs shorter than
 * a column, no data, window clipping, ties, many tasks in one column, reset.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"

static struct sp_timeline tl;

/* One row per CPU in numeric order; 10 columns of 100 ns over [0, 1000). */
static void setup(uint64_t t0, uint64_t t1, unsigned int cols, int nr_cpus)
{
	int rows[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	assert_int_equal(sp_timeline_init(&tl, t0, t1, cols, nr_cpus, rows, (unsigned)nr_cpus), 0);
}

static void test_dominance(void **state)
{
	setup(0, 1000, 10, 1);
	sp_timeline_add(&tl, 0, 5, 0, 30);
	sp_timeline_add(&tl, 0, 6, 30, 100);		/* col 0: 6 has 70 of 100 */
	sp_timeline_add(&tl, 0, 5, 100, 160);
	sp_timeline_add(&tl, 0, 0, 160, 1000);		/* col 1: 5 has 60; then idle */
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), 6);
	assert_int_equal(sp_timeline_cell(&tl, 0, 1), 5);
	for (unsigned int c = 2; c < 10; c++)
		assert_int_equal(sp_timeline_cell(&tl, 0, c), 0);
	assert_int_equal(sp_timeline_total(&tl, 5), 90);
	assert_int_equal(sp_timeline_total(&tl, 6), 70);
	assert_int_equal(sp_timeline_total(&tl, 0), 840);
	assert_int_equal(tl.no_data_ns, 0);
	sp_timeline_release(&tl);
}

/* Many 6 ns runs of one task between 4 ns of idle: the task wins its columns. */
static void test_sub_pixel_runs(void **state)
{
	uint64_t t;

	setup(0, 1000, 10, 1);
	sp_timeline_add(&tl, 0, 0, 0, 300);
	for (t = 300; t < 500; t += 10) {
		sp_timeline_add(&tl, 0, 42, t, t + 6);
		sp_timeline_add(&tl, 0, 0, t + 6, t + 10);
	}
	sp_timeline_add(&tl, 0, 0, 500, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 2), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 3), 42);
	assert_int_equal(sp_timeline_cell(&tl, 0, 4), 42);
	assert_int_equal(sp_timeline_cell(&tl, 0, 5), 0);
	assert_int_equal(sp_timeline_total(&tl, 42), 120);
	sp_timeline_release(&tl);
}

/* A run of a single nanosecond still takes a column it dominates. */
static void test_tiny_columns(void **state)
{
	setup(0, 10, 10, 1);
	sp_timeline_add(&tl, 0, 7, 3, 4);
	sp_timeline_add(&tl, 0, 0, 4, 10);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 2), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 3), 7);
	assert_int_equal(sp_timeline_cell(&tl, 0, 4), 0);
	sp_timeline_release(&tl);
}

/* Before the first run and after the last: no data, competing like a task. */
static void test_no_data(void **state)
{
	setup(0, 1000, 10, 2);
	sp_timeline_add(&tl, 0, 0, 250, 700);	/* cpu0 starts late, ends early */
	sp_timeline_add(&tl, 1, 9, 0, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 1), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 2), 0);	/* 50/50: idle beats no data */
	assert_int_equal(sp_timeline_cell(&tl, 0, 6), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 7), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 9), SP_TIMELINE_NO_DATA);
	assert_int_equal(tl.no_data_ns, 250 + 300);
	for (unsigned int c = 0; c < 10; c++)
		assert_int_equal(sp_timeline_cell(&tl, 1, c), 9);
	sp_timeline_release(&tl);
}

/* Runs reaching out of the window are cut to it. */
static void test_window_clipping(void **state)
{
	setup(1000, 2000, 10, 1);
	sp_timeline_set_rule(&tl, SP_TIMELINE_LONGEST);
	sp_timeline_add(&tl, 0, 9, 500, 1500);
	sp_timeline_add(&tl, 0, 8, 1500, 1549);
	sp_timeline_add(&tl, 0, 0, 1549, 3000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	for (unsigned int c = 0; c < 5; c++)
		assert_int_equal(sp_timeline_cell(&tl, 0, c), 9);
	assert_int_equal(sp_timeline_cell(&tl, 0, 5), 0);	/* 51 idle against 49 */
	assert_int_equal(sp_timeline_busy_share(&tl, 0, 5), 32112);	/* 49% of 65535 */
	assert_int_equal(sp_timeline_total(&tl, 9), 500);
	assert_int_equal(sp_timeline_total(&tl, 0), 451);
	assert_int_equal(tl.no_data_ns, 0);
	sp_timeline_release(&tl);
}

/*
 * A task busy 10% of every 10 ns period, seen through 100 ns columns: under
 * the default rule every column names the task at a tenth of its ink; the
 * longest holder is idle everywhere (the white chart a zoomed-out trace
 * used to give).  A single nanosecond still counts; no data has its share.
 */
static void test_busy_share(void **state)
{
	uint64_t t;

	setup(0, 1000, 10, 2);
	for (t = 0; t < 1000; t += 10) {
		sp_timeline_add(&tl, 0, 42, t, t + 1);
		sp_timeline_add(&tl, 0, 0, t + 1, t + 10);
	}
	sp_timeline_add(&tl, 1, 0, 300, 550);	/* cpu1: no data until 300 */
	sp_timeline_add(&tl, 1, 7, 550, 551);
	sp_timeline_add(&tl, 1, 0, 551, 600);
	sp_timeline_add(&tl, 1, 7, 600, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	for (unsigned int c = 0; c < 10; c++) {
		assert_int_equal(sp_timeline_cell(&tl, 0, c), 42);
		assert_int_equal(sp_timeline_busy_share(&tl, 0, c), 6554);	/* 10% */
		assert_int_equal(sp_timeline_no_data_share(&tl, 0, c), 0);
	}
	assert_int_equal(sp_timeline_cell(&tl, 1, 0), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_busy_share(&tl, 1, 0), 0);
	assert_int_equal(sp_timeline_no_data_share(&tl, 1, 0), SP_TIMELINE_SHARE_MAX);
	assert_int_equal(sp_timeline_cell(&tl, 1, 4), 0);	/* idle, nothing ran */
	assert_int_equal(sp_timeline_busy_share(&tl, 1, 4), 0);
	assert_int_equal(sp_timeline_cell(&tl, 1, 5), 7);	/* 1 ns of 100 */
	assert_int_equal(sp_timeline_busy_share(&tl, 1, 5), 655);
	assert_int_equal(sp_timeline_busy_share(&tl, 1, 6), SP_TIMELINE_SHARE_MAX);
	sp_timeline_release(&tl);

	setup(0, 1000, 10, 1);
	sp_timeline_set_rule(&tl, SP_TIMELINE_LONGEST);
	for (t = 0; t < 1000; t += 10) {
		sp_timeline_add(&tl, 0, 42, t, t + 1);
		sp_timeline_add(&tl, 0, 0, t + 1, t + 10);
	}
	assert_int_equal(sp_timeline_finish(&tl), 0);
	for (unsigned int c = 0; c < 10; c++) {
		assert_int_equal(sp_timeline_cell(&tl, 0, c), 0);
		assert_int_equal(sp_timeline_busy_share(&tl, 0, c), 6554);
	}
	sp_timeline_release(&tl);

	/* 1 ns of a second-long column is still not nothing */
	setup(0, 1000000000, 1, 1);
	sp_timeline_add(&tl, 0, 0, 0, 500);
	sp_timeline_add(&tl, 0, 3, 500, 501);
	sp_timeline_add(&tl, 0, 0, 501, 1000000000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), 3);
	assert_int_equal(sp_timeline_busy_share(&tl, 0, 0), 1);
	sp_timeline_release(&tl);
}

/* Equal time: a task beats idle, the lower pid beats the higher. */
static void test_ties(void **state)
{
	setup(0, 200, 2, 1);
	sp_timeline_add(&tl, 0, 0, 0, 50);
	sp_timeline_add(&tl, 0, 30, 50, 100);
	sp_timeline_add(&tl, 0, 31, 100, 150);
	sp_timeline_add(&tl, 0, 30, 150, 200);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), 30);
	assert_int_equal(sp_timeline_cell(&tl, 0, 1), 30);
	sp_timeline_release(&tl);
}

/* More tasks in one column than slots: the one with 40% still wins. */
static void test_many_tasks_in_a_column(void **state)
{
	uint64_t t = 0;
	int i;

	setup(0, 1000, 1, 1);
	for (i = 0; i < 60; i++) {
		sp_timeline_add(&tl, 0, 1000 + i, t, t + 10);	/* 60 tasks, 10 ns each */
		t += 10;
		if (i % 3 == 0) {
			sp_timeline_add(&tl, 0, 77, t, t + 20);	/* 20 x 20 ns = 400 */
			t += 20;
		}
	}
	sp_timeline_add(&tl, 0, 0, t, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), 77);
	assert_int_equal(sp_timeline_total(&tl, 77), 400);
	sp_timeline_release(&tl);
}

/* Rows follow the order given; CPUs without a row are ignored. */
static void test_rows_and_reset(void **state)
{
	int rows[2] = { 3, 1 };

	assert_int_equal(sp_timeline_init(&tl, 0, 100, 4, 4, rows, 2), 0);
	sp_timeline_add(&tl, 3, 11, 0, 100);
	sp_timeline_add(&tl, 1, 12, 0, 100);
	sp_timeline_add(&tl, 0, 13, 0, 100);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), 11);
	assert_int_equal(sp_timeline_cell(&tl, 1, 3), 12);
	assert_int_equal(sp_timeline_total(&tl, 13), 0);

	sp_timeline_reset(&tl);
	assert_int_equal(sp_timeline_total(&tl, 11), 0);
	sp_timeline_add(&tl, 3, 14, 50, 100);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 0), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_cell(&tl, 0, 3), 14);
	assert_int_equal(sp_timeline_cell(&tl, 1, 0), SP_TIMELINE_NO_DATA);
	assert_int_equal(sp_timeline_total(&tl, 14), 50);
	assert_int_equal(tl.no_data_ns, 50 + 100);
	sp_timeline_release(&tl);
}

/* Through the model observer, the way sp_trace_run() feeds it. */
static void test_observer(void **state)
{
	struct sp_model_observer obs;

	setup(0, 1000, 10, 1);
	sp_timeline_observer(&tl, &obs);
	obs.run(obs.data, 0, 5, 0, 1000);
	sp_timeline_reset_cb(obs.data);
	obs.run(obs.data, 0, 6, 0, 1000);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	assert_int_equal(sp_timeline_cell(&tl, 0, 5), 6);
	assert_int_equal(sp_timeline_total(&tl, 5), 0);
	sp_timeline_release(&tl);
}

static void test_bad_arguments(void **state)
{
	int rows[2] = { 0, 0 };

	assert_int_equal(sp_timeline_init(&tl, 10, 10, 4, 1, rows, 1), -EINVAL);
	assert_int_equal(sp_timeline_init(&tl, 0, 10, 0, 1, rows, 1), -EINVAL);
	assert_int_equal(sp_timeline_init(&tl, 0, 10, 4, 2, rows, 2), -EINVAL);	/* repeat */
	rows[0] = 5;
	assert_int_equal(sp_timeline_init(&tl, 0, 10, 4, 2, rows, 1), -EINVAL);
	/* column edges: ceil(c * span / cols) */
	setup(0, 10, 3, 1);
	assert_int_equal(sp_timeline_col_start(&tl, 0), 0);
	assert_int_equal(sp_timeline_col_start(&tl, 1), 4);
	assert_int_equal(sp_timeline_col_start(&tl, 2), 7);
	assert_int_equal(sp_timeline_col_start(&tl, 3), 10);
	sp_timeline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dominance),
		cmocka_unit_test(test_sub_pixel_runs),
		cmocka_unit_test(test_tiny_columns),
		cmocka_unit_test(test_no_data),
		cmocka_unit_test(test_window_clipping),
		cmocka_unit_test(test_busy_share),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_many_tasks_in_a_column),
		cmocka_unit_test(test_rows_and_reset),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
