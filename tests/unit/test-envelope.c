// SPDX-License-Identifier: GPL-2.0-only
/*
 * The running/waiting envelope from synthetic steps: spikes survive any
 * zoom, values carry into the next column, shade fractions, the lost
 * band and totals agree with sp_stats, and a reset starts over.
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

#include <cmocka.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/analysis/stats.h"
#include "schedplot/model/envelope.h"
#include "schedplot/model/model.h"

#define SEC 1000000000ull
#define US 1000ull

static void assert_col(const struct sp_envelope *e, size_t i, int rmin, int rmax, int wmin,
		       int wmax)
{
	const struct sp_envelope_col *c = &e->cols[i];

	if (c->run_min != rmin || c->run_max != rmax || c->wait_min != wmin ||
	    c->wait_max != wmax)
		fail_msg("column %zu: running %d..%d waiting %d..%d, expected %d..%d %d..%d", i,
			 c->run_min, c->run_max, c->wait_min, c->wait_max, rmin, rmax, wmin, wmax);
}

/* Columns split the window exactly, and col_of() agrees with col_start(). */
static void test_columns(void **state)
{
	struct sp_envelope e;
	size_t i;

	assert_int_equal(sp_envelope_init(&e, 1000, 1000 + 10007, 1000, 4), 0);
	assert_int_equal(sp_envelope_col_start(&e, 0), 1000);
	assert_int_equal(sp_envelope_col_start(&e, 1000), 11007);
	for (i = 0; i < 1000; i++) {
		uint64_t cs = sp_envelope_col_start(&e, i), ce = sp_envelope_col_start(&e, i + 1);

		assert_true(ce > cs);
		assert_int_equal(sp_envelope_col_of(&e, cs), i);
		assert_int_equal(sp_envelope_col_of(&e, ce - 1), i);
	}
	sp_envelope_release(&e);

	assert_int_equal(sp_envelope_init(&e, 10, 10, 1, 1), -EINVAL);
	assert_int_equal(sp_envelope_init(&e, 10, 20, 11, 1), -EINVAL);	/* < 1 ns a column */
	assert_int_equal(sp_envelope_init(&e, 10, 20, 0, 1), -EINVAL);
	assert_int_equal(sp_envelope_init(&e, 10, 20, 10, 1), 0);
	sp_envelope_release(&e);
}

/* A 1 µs spike of 40 waiting tasks in a 10-minute window, 1000 columns. */
static void test_spike_survives(void **state)
{
	uint64_t t0 = 5 * SEC, t1 = t0 + 600 * SEC, spike = t0 + 123456789012ull;
	struct sp_envelope e;
	size_t col, i;

	assert_int_equal(sp_envelope_init(&e, t0, t1, 1000, 8), 0);
	sp_envelope_step(&e, t0 - SEC, 8, 0);		/* before the window: carried in */
	sp_envelope_step(&e, spike, 8, 40);
	sp_envelope_step(&e, spike + US, 8, 0);
	sp_envelope_finish(&e);

	col = sp_envelope_col_of(&e, spike);
	assert_int_equal(col, (size_t)(123456789012ull * 1000 / (600 * SEC)));
	for (i = 0; i < e.window.nr_cols; i++) {
		if (i == col)
			assert_col(&e, i, 8, 8, 0, 40);
		else
			assert_col(&e, i, 8, 8, 0, 0);
	}
	assert_int_equal(e.waiting_max, 40);
	assert_int_equal(e.running_max, 8);
	/* all CPUs busy: no work-conservation violation */
	assert_int_equal(e.shade_ns, 0);
	sp_envelope_release(&e);
}

/* A value set in one column holds in the next ones; a change counts in both ranges. */
static void test_carried_in(void **state)
{
	struct sp_envelope e;

	/* 10 columns of 100 ns over [0, 1000) */
	assert_int_equal(sp_envelope_init(&e, 0, 1000, 10, 4), 0);
	sp_envelope_step(&e, 0, 2, 0);
	sp_envelope_step(&e, 150, 3, 1);	/* inside column 1 */
	sp_envelope_step(&e, 500, 1, 0);	/* exactly at column 5's start */
	sp_envelope_step(&e, 2000, 4, 4);	/* after the window: ignored */
	sp_envelope_finish(&e);

	assert_col(&e, 0, 2, 2, 0, 0);
	assert_col(&e, 1, 2, 3, 0, 1);
	assert_col(&e, 2, 3, 3, 1, 1);
	assert_col(&e, 4, 3, 3, 1, 1);
	assert_col(&e, 5, 1, 1, 0, 0);		/* the change at its start is not carried in */
	assert_col(&e, 9, 1, 1, 0, 0);
	assert_int_equal(e.running_max, 3);
	assert_int_equal(e.waiting_max, 1);
	sp_envelope_release(&e);
}

/* Before the first step both functions are 0; steps before t0 set the start value. */
static void test_before_first_step(void **state)
{
	struct sp_envelope e;

	assert_int_equal(sp_envelope_init(&e, 100, 200, 4, 2), 0);
	sp_envelope_step(&e, 160, 1, 0);
	sp_envelope_finish(&e);
	assert_col(&e, 0, 0, 0, 0, 0);
	assert_col(&e, 2, 0, 1, 0, 0);
	assert_col(&e, 3, 1, 1, 0, 0);
	sp_envelope_release(&e);
}

/*
 * N = 2.  Shade where waiting >= 1 and running < 2:
 *	[0, 250):    running 1, waiting 1  -> shaded
 *	[250, 600):  running 2, waiting 3  -> not (all CPUs busy)
 *	[600, 1000): running 0, waiting 0  -> not (nobody waits)
 * Columns of 100 ns: 0, 1 fully shaded, 2 half, the rest none.
 */
static void test_shade(void **state)
{
	struct sp_envelope e;
	struct sp_stats s;
	size_t i;

	assert_int_equal(sp_envelope_init(&e, 0, 1000, 10, 2), 0);
	sp_stats_init(&s, 0, 1000, 2);
	sp_envelope_step(&e, 0, 1, 1);
	sp_stats_step(&s, 0, 1, 1);
	sp_envelope_step(&e, 250, 2, 3);
	sp_stats_step(&s, 250, 2, 3);
	sp_envelope_step(&e, 600, 0, 0);
	sp_stats_step(&s, 600, 0, 0);
	sp_envelope_finish(&e);
	sp_stats_finish(&s);

	assert_true(sp_envelope_shade_fraction(&e, 0) == 1.0);
	assert_true(sp_envelope_shade_fraction(&e, 1) == 1.0);
	assert_true(sp_envelope_shade_fraction(&e, 2) == 0.5);
	for (i = 3; i < 10; i++)
		assert_true(sp_envelope_shade_fraction(&e, i) == 0.0);
	assert_int_equal(e.shade_ns, 250);
	assert_int_equal(e.shade_ns, s.idle_while_waiting_ns);
	sp_envelope_release(&e);
}

/*
 * N = 8.  The lost band runs from running to running + min(waiting, N - running):
 *	[0, 300):     running 5, waiting 10  -> lost 3, band 5..8
 *	[300, 450):   running 2, waiting 1   -> lost 1, band 2..3
 *	[450, 451):   running 8, waiting 4   -> lost 0 (every CPU busy)
 *	[451, 1000):  running 6, waiting 1   -> lost 1, band 6..7
 * Columns of 100 ns; column 4 holds two bands and 1 ns without one.
 */
static void test_lost_band(void **state)
{
	static const int lo[10] = { 5, 5, 5, 2, 2, 6, 6, 6, 6, 6 };
	static const int hi[10] = { 8, 8, 8, 3, 7, 7, 7, 7, 7, 7 };
	static const int lmax[10] = { 3, 3, 3, 1, 1, 1, 1, 1, 1, 1 };
	struct sp_envelope e;
	struct sp_stats s;
	size_t i;

	assert_int_equal(sp_envelope_init(&e, 0, 1000, 10, 8), 0);
	sp_stats_init(&s, 0, 1000, 8);
	sp_envelope_step(&e, 0, 5, 10);
	sp_stats_step(&s, 0, 5, 10);
	sp_envelope_step(&e, 300, 2, 1);
	sp_stats_step(&s, 300, 2, 1);
	sp_envelope_step(&e, 450, 8, 4);
	sp_stats_step(&s, 450, 8, 4);
	sp_envelope_step(&e, 451, 6, 1);
	sp_stats_step(&s, 451, 6, 1);
	sp_envelope_finish(&e);
	sp_stats_finish(&s);

	for (i = 0; i < 10; i++) {
		assert_int_equal(e.cols[i].lost_lo, lo[i]);
		assert_int_equal(e.cols[i].lost_hi, hi[i]);
		assert_int_equal(e.cols[i].lost_max, lmax[i]);
	}
	assert_int_equal(e.lost_max, 3);
	assert_int_equal(s.lost_cpu_ns, 300 * 3 + 150 * 1 + 549 * 1);
	assert_true(sp_stats_lost_fraction(&s) == 1599.0 / 8000.0);
	/* every CPU busy, or nobody waiting: no band */
	assert_int_equal(sp_step_lost(8, 8, 4), 0);
	assert_int_equal(sp_step_lost(8, 3, 0), 0);
	assert_int_equal(sp_step_lost(8, 9, 2), 0);
	sp_envelope_release(&e);
}

/* The lost band of a value holding inside a column, brute force. */
static void band_add(int n, int r, int w, int *lo, int *hi, int *lmax)
{
	int lost = w < n - r ? w : n - r;

	if (lost < 1)
		return;
	*lo = r < *lo ? r : *lo;
	*hi = r + lost > *hi ? r + lost : *hi;
	*lmax = lost > *lmax ? lost : *lmax;
}

/* Random steps against a brute-force envelope and sp_stats. */
#define NR_RANDOM 5000

static void test_random_against_stats(void **state)
{
	static uint64_t ts[NR_RANDOM];
	static int rv[NR_RANDOM], wv[NR_RANDOM];
	struct sp_envelope e;
	struct sp_stats s;
	unsigned int seed = 1;
	uint64_t t = 0;
	size_t i;
	int k;

	assert_int_equal(sp_envelope_init(&e, 10000, 900000, 777, 4), 0);
	sp_stats_init(&s, 10000, 900000, 4);
	for (k = 0; k < NR_RANDOM; k++) {
		t += 1 + rand_r(&seed) % 400;
		ts[k] = t;
		rv[k] = rand_r(&seed) % 5;
		wv[k] = rand_r(&seed) % 7;
		sp_envelope_step(&e, ts[k], rv[k], wv[k]);
		sp_stats_step(&s, ts[k], rv[k], wv[k]);
	}
	sp_envelope_finish(&e);
	sp_stats_finish(&s);
	assert_int_equal(e.shade_ns, s.idle_while_waiting_ns);
	assert_true(s.lost_cpu_ns >= s.idle_while_waiting_ns);
	assert_true(s.lost_cpu_ns <= 4 * s.idle_while_waiting_ns);
	assert_int_equal(e.running_max, s.running_max);
	assert_int_equal(e.waiting_max, s.waiting_max);

	for (i = 0; i < e.window.nr_cols; i++) {
		uint64_t cs = sp_envelope_col_start(&e, i), ce = sp_envelope_col_start(&e, i + 1);
		int rmin = 99, rmax = -1, wmin = 99, wmax = -1, r = 0, w = 0;
		int blo = 99, bhi = 0, lmax = 0;

		for (k = 0; k < NR_RANDOM && ts[k] < ce; k++) {
			if (ts[k] > cs) {
				/* the value before this change held inside the column */
				rmin = r < rmin ? r : rmin;
				rmax = r > rmax ? r : rmax;
				wmin = w < wmin ? w : wmin;
				wmax = w > wmax ? w : wmax;
				band_add(4, r, w, &blo, &bhi, &lmax);
			}
			r = rv[k];
			w = wv[k];
		}
		rmin = r < rmin ? r : rmin;
		rmax = r > rmax ? r : rmax;
		wmin = w < wmin ? w : wmin;
		wmax = w > wmax ? w : wmax;
		band_add(4, r, w, &blo, &bhi, &lmax);
		assert_col(&e, i, rmin, rmax, wmin, wmax);
		assert_int_equal(e.cols[i].lost_hi, bhi);
		if (bhi)
			assert_int_equal(e.cols[i].lost_lo, blo);
		assert_int_equal(e.cols[i].lost_max, lmax);
	}
	sp_envelope_release(&e);
}

/* A reset forgets everything, as sp_trace_run()'s second pass needs. */
static void test_reset(void **state)
{
	struct sp_envelope e;
	size_t i;

	assert_int_equal(sp_envelope_init(&e, 0, 1000, 10, 1), 0);
	sp_envelope_step(&e, 0, 0, 5);
	sp_envelope_step(&e, 500, 1, 9);
	sp_envelope_reset(&e);
	sp_envelope_step(&e, 300, 1, 0);
	sp_envelope_finish(&e);
	for (i = 0; i < 3; i++)
		assert_col(&e, i, 0, 0, 0, 0);
	for (i = 3; i < 10; i++)
		assert_col(&e, i, 1, 1, 0, 0);
	assert_int_equal(e.waiting_max, 0);
	assert_int_equal(e.shade_ns, 0);
	sp_envelope_finish(&e);		/* again: nothing changes */
	assert_int_equal(e.running_max, 1);
	sp_envelope_release(&e);
}

/* Column means: the time averages, inside each column's min..max. */
static void test_col_mean(void **state)
{
	struct sp_envelope e;
	double run, wait;

	assert_int_equal(sp_envelope_init(&e, 0, 400, 4, 2), 0);	/* columns of 100 ns */
	sp_envelope_step(&e, 0, 2, 4);
	sp_envelope_step(&e, 25, 1, 0);		/* column 0: 2 for 25 ns, then 1 */
	sp_envelope_step(&e, 150, 0, 3);	/* column 1: 1 then 0; waiting 0 then 3 */
	sp_envelope_finish(&e);
	sp_envelope_col_mean(&e, 0, &run, &wait);
	assert_true(fabs(run - 1.25) < 1e-12 && fabs(wait - 1.0) < 1e-12);
	sp_envelope_col_mean(&e, 1, &run, &wait);
	assert_true(fabs(run - 0.5) < 1e-12 && fabs(wait - 1.5) < 1e-12);
	sp_envelope_col_mean(&e, 3, &run, &wait);
	assert_true(run == 0 && wait == 3);
	sp_envelope_release(&e);
}

/*
 * Where to look: the five longest stretches of idle while waiting (N = 2),
 * stretches of different values but unbroken counted as one, and the five
 * longest waits, longest first, earlier first on ties.
 */
static void test_stats_top(void **state)
{
	static const uint64_t len[] = { 30, 10, 70, 50, 20, 60, 40 };
	struct sp_stats s;
	uint64_t t = 1000;

	sp_stats_init(&s, 0, 100000, 2);
	sp_stats_step(&s, 0, 2, 0);
	for (size_t i = 0; i < 7; i++) {
		/* one idle CPU with one waiting, then two idle with three waiting */
		sp_stats_step(&s, t, 1, 1);
		sp_stats_step(&s, t + len[i] / 2, 0, 3);
		sp_stats_step(&s, t + len[i], 2, 0);
		t += 1000;
	}
	sp_stats_finish(&s);
	assert_int_equal(s.nr_iww_top, SP_STATS_TOP);
	assert_int_equal(s.iww_top[0].dur_ns, 70);
	assert_int_equal(s.iww_top[0].start_ns, 3000);
	assert_int_equal(s.iww_top[0].waiting_max, 3);
	assert_int_equal(s.iww_top[0].idle_max, 2);
	assert_int_equal(s.iww_top[1].dur_ns, 60);
	assert_int_equal(s.iww_top[4].dur_ns, 30);
	assert_int_equal(s.idle_while_waiting_ns, 280);

	for (int i = 0; i < 8; i++) {
		struct sp_wait w = { .start_ns = 100 * i, .dur_ns = i % 3 == 0 ? 500 : 10 * i,
				     .pid = 10 + i, .cpu = 1 };

		sp_stats_wait(&s, &w);
	}
	assert_int_equal(s.nr_waits_top, SP_STATS_TOP);
	/* 500 three times (i = 0, 3, 6: earlier first), then 70 (i = 7), 50 (i = 5) */
	assert_int_equal(s.waits_top[0].pid, 10);
	assert_int_equal(s.waits_top[1].pid, 13);
	assert_int_equal(s.waits_top[2].pid, 16);
	assert_int_equal(s.waits_top[3].pid, 17);
	assert_int_equal(s.waits_top[4].pid, 15);
	sp_stats_release(&s);
}

/* The collection: fan-out to envelope, stats and CSV; reset truncates the CSV. */
static void test_collect_csv(void **state)
{
	struct sp_model_observer obs;
	struct sp_rw_collect c;
	char buf[512];
	size_t n;
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(sp_rw_collect_init(&c, 100, 1000, 9, 2, 0, f), 0);
	c.csv_origin_ns = 40;		/* the trace's start: times count from it */
	sp_rw_collect_observer(&c, &obs);
	obs.steps(obs.data, &(struct sp_step){ 50, 1, 7 }, 1);
	sp_rw_collect_reset(obs.data);
	obs.steps(obs.data, &(struct sp_step){ 50, 1, 0 }, 1);
	obs.steps(obs.data, (struct sp_step[]){
		{ 100, 1, 1 },		/* at t0: the first row's value */
		{ 400, 2, 1 },
		{ 1000, 0, 0 },		/* at t1: outside */
	}, 3);
	assert_int_equal(sp_rw_collect_finish(&c), 0);

	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	assert_string_equal(buf, "# start_ns=40\ntime_ns,running,waiting,lost\n60,1,1,1\n"
			    "360,2,1,0\n960,2,1,0\n");
	/* [100, 400) running 1 < N with 1 waiting: 300 of 900 ns, one CPU lost */
	assert_int_equal(c.stats->idle_while_waiting_ns, 300);
	assert_int_equal(sp_rw_collect_lost_cpu_ns(&c), 300);
	/* 300 CPU*ns of 2 x 900 */
	assert_true(sp_rw_collect_lost_fraction(&c) > 1.0 / 6 - 1e-12);
	assert_true(sp_rw_collect_lost_fraction(&c) < 1.0 / 6 + 1e-12);
	assert_true(sp_rw_collect_shade_fraction(&c) == sp_rw_collect_lost_fraction(&c));
	assert_int_equal(c.env.shade_ns, 300);
	sp_rw_collect_release(&c);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_spike_survives),
		cmocka_unit_test(test_carried_in),
		cmocka_unit_test(test_before_first_step),
		cmocka_unit_test(test_shade),
		cmocka_unit_test(test_lost_band),
		cmocka_unit_test(test_random_against_stats),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_col_mean),
		cmocka_unit_test(test_stats_top),
		cmocka_unit_test(test_collect_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
