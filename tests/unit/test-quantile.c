// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact nearest-rank quantiles: the rank is ceil(p * n), 1-based.  Checked
 * against the worked examples of the nearest-rank method in Wikipedia's
 * "Percentile" article, and against properties: a constant added to every
 * sample moves every quantile by it; the sort agrees with qsort() on
 * random values of every magnitude; the summary selected without sorting
 * is the sorted one's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/analysis/quantile.h"

static void fill(struct sp_samples *s, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sp_samples_add(s, v[i]), 0);
	assert_int_equal(sp_samples_sort(s), 0);
}

/* Wikipedia, "Percentile", nearest-rank method, first example. */
static void test_reference_five(void **state)
{
	static const uint64_t v[] = { 50, 15, 40, 35, 20 };
	struct sp_samples s = { 0 };

	fill(&s, v, 5);
	assert_int_equal(sp_samples_quantile(&s, 5, 100), 15);
	assert_int_equal(sp_samples_quantile(&s, 30, 100), 20);
	assert_int_equal(sp_samples_quantile(&s, 40, 100), 20);
	assert_int_equal(sp_samples_quantile(&s, 50, 100), 35);
	assert_int_equal(sp_samples_quantile(&s, 100, 100), 50);
	sp_samples_release(&s);
}

/* Wikipedia, "Percentile", nearest-rank method, second example. */
static void test_reference_ten(void **state)
{
	static const uint64_t v[] = { 20, 3, 16, 6, 15, 7, 13, 8, 10, 8 };
	struct sp_samples s = { 0 };

	fill(&s, v, 10);
	assert_int_equal(sp_samples_quantile(&s, 25, 100), 7);
	assert_int_equal(sp_samples_quantile(&s, 50, 100), 8);
	assert_int_equal(sp_samples_quantile(&s, 75, 100), 15);
	assert_int_equal(sp_samples_quantile(&s, 100, 100), 20);
	/* p = 0 is the smallest sample, rank 1 */
	assert_int_equal(sp_samples_quantile(&s, 0, 100), 3);
	sp_samples_release(&s);
}

/* 0.99 * 100 is 99.00000000000001 in doubles: the rank must still be 99. */
static void test_rank_in_integers(void **state)
{
	struct sp_samples s = { 0 };
	struct sp_summary sum;

	for (uint64_t i = 1; i <= 100; i++)
		assert_int_equal(sp_samples_add(&s, i), 0);
	assert_int_equal(sp_samples_summarize(&s, &sum), 0);
	assert_int_equal(sum.p99, 99);
	assert_int_equal(sum.p90, 90);
	assert_int_equal(sum.p50, 50);
	assert_int_equal(sum.p999, 100);	/* ceil(99.9) */
	assert_int_equal(sum.min, 1);
	assert_int_equal(sum.max, 100);
	assert_int_equal(sum.mean, 50);		/* 50.5 rounded down */
	sp_samples_release(&s);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The radix sort equals qsort(), whatever bytes the values differ in. */
static void test_sort_matches_qsort(void **state)
{
	static const int shifts[] = { 0, 8, 20, 40, 63 };
	uint64_t x = 88172645463325252ull;

	for (size_t k = 0; k < sizeof(shifts) / sizeof(shifts[0]); k++) {
		struct sp_samples s = { 0 };
		uint64_t *want = calloc(5000, sizeof(*want));

		assert_non_null(want);
		for (int i = 0; i < 5000; i++) {
			want[i] = (rnd(&x) >> shifts[k]) | 0x1000;	/* a byte all share */
			assert_int_equal(sp_samples_add(&s, want[i]), 0);
		}
		qsort(want, 5000, sizeof(*want), cmp_u64);
		assert_int_equal(sp_samples_sort(&s), 0);
		assert_memory_equal(s.v, want, 5000 * sizeof(*want));
		free(want);
		sp_samples_release(&s);
	}
}

/* Adding a constant to every sample moves every quantile by it. */
static void test_shift_property(void **state)
{
	struct sp_samples a = { 0 }, b = { 0 };
	struct sp_summary sa, sb;
	uint64_t x = 12345;

	for (int i = 0; i < 777; i++) {
		uint64_t v = rnd(&x) % 1000000;

		assert_int_equal(sp_samples_add(&a, v), 0);
		assert_int_equal(sp_samples_add(&b, v + 4242), 0);
	}
	sp_samples_summarize(&a, &sa);
	sp_samples_summarize(&b, &sb);
	assert_int_equal(sb.min, sa.min + 4242);
	assert_int_equal(sb.p50, sa.p50 + 4242);
	assert_int_equal(sb.p90, sa.p90 + 4242);
	assert_int_equal(sb.p99, sa.p99 + 4242);
	assert_int_equal(sb.p999, sa.p999 + 4242);
	assert_int_equal(sb.max, sa.max + 4242);
	assert_int_equal(sb.mean, sa.mean + 4242);
	sp_samples_release(&a);
	sp_samples_release(&b);
}

static void test_empty(void **state)
{
	struct sp_samples s = { 0 };
	struct sp_summary sum;

	assert_int_equal(sp_samples_summarize(&s, &sum), 0);
	assert_int_equal(sum.n, 0);
	assert_int_equal(sum.max, 0);
	assert_int_equal(sp_samples_quantile(&s, 1, 2), 0);
	sp_samples_release(&s);
}

/*
 * The summary without a sort selects the same numbers as the sort gives:
 * every count up to 1100 (the ranks of p99.9 and max part at 1000), and
 * random, sorted, reversed, constant and few-valued samples, and a pattern
 * of many equal values around others.
 */
static void test_summary_matches_sort(void **state)
{
	uint64_t x = 2463534242ull;

	for (int kind = 0; kind < 6; kind++) {
		for (size_t n = 0; n <= 1100; n += n < 40 ? 1 : 37) {
			struct sp_samples a = { 0 }, b = { 0 };
			struct sp_summary want, got;

			for (size_t i = 0; i < n; i++) {
				uint64_t v = kind == 0 ? rnd(&x) >> 20 :
					     kind == 1 ? i * 3 :
					     kind == 2 ? (n - i) * 7 :
					     kind == 3 ? 42 :
					     kind == 4 ? rnd(&x) % 3 :
					     (i % 5 ? 1000 : rnd(&x) % 2000);

				assert_int_equal(sp_samples_add(&a, v), 0);
				assert_int_equal(sp_samples_add(&b, v), 0);
			}
			assert_int_equal(sp_samples_summarize(&a, &want), 0);
			assert_int_equal(sp_samples_summary(&b, &got), 0);
			assert_memory_equal(&got, &want, sizeof(want));
			sp_samples_release(&a);
			sp_samples_release(&b);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_five),
		cmocka_unit_test(test_reference_ten),
		cmocka_unit_test(test_rank_in_integers),
		cmocka_unit_test(test_sort_matches_qsort),
		cmocka_unit_test(test_shift_property),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_summary_matches_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
