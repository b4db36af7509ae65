// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time and integer ticks and row-label thinning, checked as numbers and
 * strings (never as rendered pixels).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/draw/axes.h"

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL

static bool is_125(uint64_t v, int *exp10)
{
	int e = 0;

	if (!v)
		return false;
	while (v % 10 == 0) {
		v /= 10;
		e++;
	}
	*exp10 = e;
	return v == 1 || v == 2 || v == 5;
}

/* Structure every tick set must have, whatever the window. */
static void check_ticks(const struct sp_time_ticks *t, uint64_t t0, uint64_t t1, uint64_t origin)
{
	int exp10 = 0;

	assert_true(is_125(t->step_ns, &exp10));
	assert_in_range(t->nr_ticks, 4, 12);
	assert_string_equal(t->unit, "s");
	for (unsigned int i = 0; i < t->nr_ticks; i++) {
		const char *label = t->ticks[i].label;
		const char *dot = strchr(label, '.');
		uint64_t rel = t->ticks[i].ts_ns - origin;
		char *end;
		unsigned long long ip = strtoull(label, &end, 10);

		assert_true(t->ticks[i].ts_ns >= t0 && t->ticks[i].ts_ns <= t1);
		assert_int_equal((t->ticks[i].ts_ns - origin) % t->step_ns, 0);
		if (i) {
			assert_int_equal(t->ticks[i].ts_ns - t->ticks[i - 1].ts_ns, t->step_ns);
			assert_string_not_equal(label, t->ticks[i - 1].label);
		}
		/* Seconds with the decimals that name the steps, none from 1 s up. */
		assert_int_equal(ip, rel / NS_PER_S);
		if (exp10 >= 9) {
			assert_null(dot);
			assert_int_equal(*end, '\0');
			continue;
		}
		assert_ptr_equal(end, dot);
		assert_int_equal(strlen(dot + 1), 9 - exp10);
		assert_int_equal(strtoull(dot + 1, NULL, 10) * (uint64_t)pow(10, exp10),
				 rel % NS_PER_S);
	}
}

static void test_time_ticks_windows(void **state)
{
	static const uint64_t spans[] = {
		1 * NS_PER_US, 1500, 2500, 7 * NS_PER_US, 10 * NS_PER_US, 33 * NS_PER_US,
		100 * NS_PER_US, 999 * NS_PER_US, 1 * NS_PER_MS, 2500 * NS_PER_US,
		10 * NS_PER_MS, 42 * NS_PER_MS, 120 * NS_PER_MS, 999 * NS_PER_MS, NS_PER_S,
		2 * NS_PER_S, 7300 * NS_PER_MS, 10 * NS_PER_S, 60 * NS_PER_S, 100 * NS_PER_S,
		333 * NS_PER_S, 600 * NS_PER_S,
	};
	static const uint64_t origins[] = { 0, 12345678901ULL };
	static const uint64_t offsets[] = { 0, 1, 777, 123456789 };
	struct sp_time_ticks t;
	unsigned int nr = 0;

	for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++)
		for (size_t o = 0; o < 2; o++)
			for (size_t f = 0; f < 4; f++)
				for (unsigned int max = 8; max <= 10; max++) {
					uint64_t t0 = origins[o] + offsets[f];
					uint64_t t1 = t0 + spans[s];

					assert_int_equal(sp_time_ticks_compute(&t, t0, t1,
									       origins[o], max),
							 0);
					assert_true(t.nr_ticks <= max);
					check_ticks(&t, t0, t1, origins[o]);
					nr++;
				}
	assert_true(nr > 500);
}

static void expect_labels(uint64_t t0, uint64_t t1, uint64_t origin, const char *title,
			  const char *const *labels, unsigned int nr)
{
	struct sp_time_ticks t;

	assert_int_equal(sp_time_ticks_compute(&t, t0, t1, origin, 10), 0);
	assert_string_equal(t.title, title);
	assert_int_equal(t.nr_ticks, nr);
	for (unsigned int i = 0; i < nr; i++)
		assert_string_equal(t.ticks[i].label, labels[i]);
}

static void test_time_ticks_labels(void **state)
{
	static const char *const one_s[] = { "0.0", "0.2", "0.4", "0.6", "0.8", "1.0" };
	static const char *const ten_min[] = { "0", "100", "200", "300", "400", "500", "600" };
	static const char *const one_us[] = { "0.0000000", "0.0000002", "0.0000004",
					      "0.0000006", "0.0000008", "0.0000010" };
	static const char *const ms120[] = { "0.00", "0.02", "0.04", "0.06", "0.08", "0.10",
					     "0.12" };
	static const char *const zoom[] = { "100.0004", "100.0006", "100.0008", "100.0010",
					    "100.0012" };
	static const char *const abs_s[] = { "436.3", "436.4", "436.5", "436.6", "436.7" };
	uint64_t o = 1000 * NS_PER_S;

	expect_labels(o, o + NS_PER_S, o, "time since the trace start (s)", one_s, 6);
	expect_labels(o, o + 600 * NS_PER_S, o, "time since the trace start (s)", ten_min, 7);
	expect_labels(o, o + NS_PER_US, o, "time since the trace start (s)", one_us, 6);
	expect_labels(o, o + 120 * NS_PER_MS, o, "time since the trace start (s)", ms120, 7);
	/* A narrow window far from the origin: labels still differ, in seconds. */
	expect_labels(o + 100 * NS_PER_S + 300 * NS_PER_US, o + 100 * NS_PER_S + 1300 * NS_PER_US,
		      o, "time since the trace start (s)", zoom, 5);
	/* Absolute timestamps (origin 0). */
	expect_labels(436250 * NS_PER_MS, 436750 * NS_PER_MS, 0, "trace timestamp (s)", abs_s, 5);
}

static void test_time_ticks_bad(void **state)
{
	struct sp_time_ticks t;

	assert_int_equal(sp_time_ticks_compute(&t, 10, 10, 0, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 5, 0, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 11, 10), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 0, 1), -EINVAL);
	assert_int_equal(sp_time_ticks_compute(&t, 10, 20, 0, SP_MAX_TICKS + 1), -EINVAL);
	/* A 1 ns window still gets ticks. */
	assert_int_equal(sp_time_ticks_compute(&t, 10, 11, 0, 10), 0);
	assert_int_equal(t.nr_ticks, 2);
	assert_int_equal(t.step_ns, 1);
}

/* Ticks around a moment: signed, in the step's unit, a true minus sign. */
static void expect_relative(uint64_t t0, uint64_t t1, uint64_t origin, unsigned int max,
			    const char *title, const char *const *labels, unsigned int n)
{
	struct sp_time_ticks t;

	assert_int_equal(sp_time_ticks_relative(&t, t0, t1, origin, max, "the wakeup"), 0);
	assert_string_equal(t.title, title);
	assert_int_equal(t.nr_ticks, n);
	for (unsigned int i = 0; i < n; i++) {
		assert_string_equal(t.ticks[i].label, labels[i]);
		assert_true(t.ticks[i].ts_ns >= t0 && t.ticks[i].ts_ns <= t1);
	}
}

static void test_time_ticks_relative(void **state)
{
	static const char *const us[] = { "\u2212600", "\u2212400", "\u2212200", "0", "200",
					   "400", "600" };
	static const char *const ms[] = { "\u22121", "0", "1", "2", "3" };
	static const char *const half[] = { "\u2212500", "0", "500", "1000", "1500", "2000" };
	static const char *const after[] = { "5", "10", "15" };
	uint64_t o = 1000 * NS_PER_S;
	struct sp_time_ticks t;

	/* the talk's window: 0.65 ms before the wakeup to 0.7 ms after */
	expect_relative(o - 650 * NS_PER_US, o + 700 * NS_PER_US, o, 10,
			"time since the wakeup (\u00b5s)", us, 7);
	expect_relative(o - 1500 * NS_PER_US, o + 3200 * NS_PER_US, o, 6,
			"time since the wakeup (ms)", ms, 5);
	/* a step under a millisecond reads in microseconds, whole */
	expect_relative(o - 700 * NS_PER_US, o + 2200 * NS_PER_US, o, 6,
			"time since the wakeup (\u00b5s)", half, 6);
	/* the moment need not be inside the window */
	expect_relative(o + 3 * NS_PER_MS, o + 17 * NS_PER_MS, o, 4,
			"time since the wakeup (ms)", after, 3);
	assert_int_equal(sp_time_ticks_relative(&t, 10, 10, 0, 10, "x"), -EINVAL);
	assert_int_equal(sp_time_ticks_relative(&t, 10, 20, 0, 1, "x"), -EINVAL);
}

static void test_int_ticks(void **state)
{
	struct sp_int_ticks t;
	static const struct {
		long long max;
		unsigned int max_ticks;
		long long step, top;
	} cases[] = {
		{ 0, 6, 1, 1 },	  { 1, 6, 1, 1 },	  { 5, 6, 1, 5 },   { 7, 6, 2, 8 },
		{ 37, 6, 10, 40 }, { 1000, 6, 200, 1000 }, { 512, 8, 100, 600 },
		{ 3, 2, 5, 5 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(sp_int_ticks_compute(&t, cases[i].max, cases[i].max_ticks), 0);
		assert_int_equal(t.step, cases[i].step);
		assert_int_equal(t.top, cases[i].top);
		assert_true(t.nr_ticks <= cases[i].max_ticks);
		assert_int_equal(t.nr_ticks, t.top / t.step + 1);
		assert_string_equal(t.ticks[0].label, "0");
		assert_int_equal(t.ticks[t.nr_ticks - 1].value, t.top);
	}
	assert_int_equal(sp_int_ticks_compute(&t, 10, 1), -EINVAL);
}

static void check_rows(size_t nr_rows, double plot_h, double label_h, unsigned int expect)
{
	double row_h = plot_h / (double)nr_rows;
	unsigned int k = sp_category_label_step(nr_rows, row_h, label_h);

	assert_int_equal(k, expect);
	assert_int_equal(k & (k - 1), 0);	/* 1, 2, 4, ... */
	/* Labels never overlap and no smaller step would do. */
	assert_true(k * row_h >= label_h);
	if (k > 1)
		assert_true(k / 2 * row_h < label_h);
}

static void test_category_label_step(void **state)
{
	check_rows(2, 400, 13, 1);
	check_rows(64, 400, 13, 4);
	check_rows(512, 400, 13, 32);
	check_rows(512, 2000, 13, 4);
	check_rows(64, 64 * 13, 13, 1);
	/* Not even one label per axis fits: only row 0. */
	assert_int_equal(sp_category_label_step(4, 1, 100), 4);
	assert_int_equal(sp_category_label_step(1, 1, 100), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_ticks_windows),
		cmocka_unit_test(test_time_ticks_labels),
		cmocka_unit_test(test_time_ticks_bad),
		cmocka_unit_test(test_time_ticks_relative),
		cmocka_unit_test(test_int_ticks),
		cmocka_unit_test(test_category_label_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
