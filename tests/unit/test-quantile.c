// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact nearest-rank quantiles: the rank is ceil(p * n), 1-based.  Checked
 * against the worked examples of the nearest-rank method in Wikipedia's
 * "Percentile" article, and against properties: a constant added to every
 * sample moves every quantile by it; the sort agrees with qsort() on
 * random values of every magnitude; the summary selected without sorting
 * is the sorted one's.  Samples are kept in 4 bytes below 2^32 ns and in
 * 8 bytes apart above: every number must be that of the plain uint64_t
 * reference (a sort with qsort() and the rank read off), at the border too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
		for (int i = 0; i < 5000; i++)
			assert_int_equal(sp_samples_at(&s, (size_t)i), want[i]);
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

/* The summary of @n values by @value(i) equals the one read off their sort. */
static void summary_as_sorted(size_t n, uint64_t (*value)(size_t i, size_t n, uint64_t *x),
			      uint64_t *x)
{
	struct sp_samples a = { 0 }, b = { 0 };
	struct sp_summary want, got;

	for (size_t i = 0; i < n; i++) {
		uint64_t v = value(i, n, x);

		assert_int_equal(sp_samples_add(&a, v), 0);
		assert_int_equal(sp_samples_add(&b, v), 0);
	}
	assert_int_equal(sp_samples_summarize(&a, &want), 0);
	assert_int_equal(sp_samples_summary(&b, &got), 0);
	assert_memory_equal(&got, &want, sizeof(want));
	sp_samples_release(&a);
	sp_samples_release(&b);
}

static int kind;	/* the shape the value functions below give */

/* random, sorted, reversed, constant, few-valued, many equal around others */
static uint64_t few_value(size_t i, size_t n, uint64_t *x)
{
	return kind == 0 ? rnd(x) >> 20 :
	       kind == 1 ? i * 3 :
	       kind == 2 ? (n - i) * 7 :
	       kind == 3 ? 42 :
	       kind == 4 ? rnd(x) % 3 :
	       (i % 5 ? 1000 : rnd(x) % 2000);
}

/* nine decades, bunched with a long tail, constant, two values, some wide */
static uint64_t many_value(size_t i, size_t n, uint64_t *x)
{
	uint64_t r = rnd(x);

	(void)i;
	(void)n;
	return kind == 0 ? (r >> 40) >> (r % 33) :
	       kind == 1 ? 5000 + (r % 100 ? r % 64 : (r >> 20) % 100000000) :
	       kind == 2 ? 777 :
	       kind == 3 ? (r & 1 ? 3000000 : 12) :
	       (r % 1000 ? (r >> 44) : (1ull << 32) + (r >> 50));
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

	for (kind = 0; kind < 6; kind++)
		for (size_t n = 0; n <= 1100; n += n < 40 ? 1 : 37)
			summary_as_sorted(n, few_value, &x);
}

/*
 * Many samples (the summary then counts them by magnitude and selects in
 * the buckets of the ranks) give the sort's numbers too: spread over nine
 * decades, bunched near one value with a long tail, constant (too many in
 * one bucket: it selects over them all), two values, and a few wide ones
 * among them; up to 300000 values.
 */
static void test_summary_many_matches_sort(void **state)
{
	static const size_t sizes[] = { 65535, 65536, 70001, 300000 };
	uint64_t x = 88172645463325252ull;

	for (kind = 0; kind < 5; kind++)
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
			summary_as_sorted(sizes[z], many_value, &x);
}

/* The reference: @n values sorted with qsort(), and the nearest rank read off. */
static void reference(uint64_t *v, size_t n, struct sp_summary *sum)
{
	static const uint64_t p[][2] = { { 1, 2 }, { 9, 10 }, { 99, 100 }, { 999, 1000 } };
	uint64_t *q[] = { &sum->p50, &sum->p90, &sum->p99, &sum->p999 };
	uint64_t total = 0;

	memset(sum, 0, sizeof(*sum));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		total += v[i];
	for (int i = 0; i < 4; i++) {
		uint64_t rank = (p[i][0] * n + p[i][1] - 1) / p[i][1];

		*q[i] = v[(rank ? rank : 1) - 1];
	}
	sum->n = n;
	sum->min = v[0];
	sum->max = v[n - 1];
	sum->mean = total / n;
}

/*
 * Values around 2^32 ns, where the store changes from 4 to 8 bytes: the
 * sort, the summary with and without sorting, and each quantile equal the
 * uint64_t reference, whatever share of the samples is wide (none, a few,
 * half, all).
 */
static void test_wide_matches_reference(void **state)
{
	static const unsigned int wide_per_mille[] = { 0, 1, 30, 500, 1000 };
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (size_t w = 0; w < sizeof(wide_per_mille) / sizeof(wide_per_mille[0]); w++) {
		for (size_t n = 1; n <= 3000; n = n * 3 + 1) {
			struct sp_samples a = { 0 }, b = { 0 };
			struct sp_summary want, got;
			uint64_t *ref = calloc(n, sizeof(*ref));

			assert_non_null(ref);
			for (size_t i = 0; i < n; i++) {
				uint64_t r = rnd(&x);

				/* near the border, on either side, or anywhere below */
				ref[i] = r % 1000 < wide_per_mille[w] ?
					 (1ull << 32) + (r >> 40) % 70 - (r % 7 == 0) :
					 r % 3 ? (1ull << 32) - 1 - (r >> 40) % 50 : (r >> 34);
				if (wide_per_mille[w] == 1000)
					ref[i] |= 1ull << 32;
				assert_int_equal(sp_samples_add(&a, ref[i]), 0);
				assert_int_equal(sp_samples_add(&b, ref[i]), 0);
			}
			assert_int_equal(a.nr, n);
			assert_int_equal(a.nr_v + a.nr_wide, n);
			reference(ref, n, &want);
			assert_int_equal(sp_samples_summary(&a, &got), 0);
			assert_memory_equal(&got, &want, sizeof(want));
			assert_int_equal(sp_samples_summarize(&b, &got), 0);
			assert_memory_equal(&got, &want, sizeof(want));
			for (size_t i = 0; i < n; i++)
				assert_int_equal(sp_samples_at(&b, i), ref[i]);
			for (uint64_t p = 0; p <= 100; p += 7)
				assert_int_equal(sp_samples_quantile(&b, p, 100),
						 ref[(p * n + 99) / 100 ? (p * n + 99) / 100 - 1 : 0]);
			free(ref);
			sp_samples_release(&a);
			sp_samples_release(&b);
		}
	}
}

/* The exact border: 2^32 - 1 is the largest narrow value, 2^32 the first wide one. */
static void test_border(void **state)
{
	static const uint64_t v[] = { 1ull << 32, (1ull << 32) - 1, UINT64_MAX, 0, 1ull << 33 };
	struct sp_samples s = { 0 };
	struct sp_summary sum;

	fill(&s, v, 5);
	assert_int_equal(s.nr_v, 2);
	assert_int_equal(s.nr_wide, 3);
	assert_int_equal(sp_samples_at(&s, 0), 0);
	assert_int_equal(sp_samples_at(&s, 1), (1ull << 32) - 1);
	assert_int_equal(sp_samples_at(&s, 2), 1ull << 32);
	assert_int_equal(sp_samples_at(&s, 3), 1ull << 33);
	assert_int_equal(sp_samples_at(&s, 4), UINT64_MAX);
	assert_int_equal(sp_samples_quantile(&s, 1, 2), 1ull << 32);
	sp_samples_summarize(&s, &sum);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.max, UINT64_MAX);
	assert_int_equal(sum.p50, 1ull << 32);
	sp_samples_release(&s);
}

/*
 * Several sets summarised as one (the classes over latency's groups) and
 * merged into one: both equal the reference of the joined values.
 */
static void test_sets_and_merge(void **state)
{
	uint64_t x = 362436069;

	for (size_t nr_sets = 1; nr_sets <= 5; nr_sets++) {
		struct sp_samples s[5] = { 0 };
		const struct sp_samples *sets[5];
		struct sp_summary want, got;
		uint64_t ref[6000];
		size_t n = 0;

		for (size_t k = 0; k < nr_sets; k++) {
			size_t len = k == 1 ? 0 : rnd(&x) % 1200;	/* one empty set */

			for (size_t i = 0; i < len; i++) {
				uint64_t r = rnd(&x);

				ref[n] = r % 50 ? (r >> 20) % (k + 1) * 100000 + r % 997 :
					 (1ull << 32) + r % 5000;
				assert_int_equal(sp_samples_add(&s[k], ref[n++]), 0);
			}
			assert_int_equal(sp_samples_sort(&s[k]), 0);
			sets[k] = &s[k];
		}
		reference(ref, n, &want);
		sp_samples_summarize_sets(sets, nr_sets, &got);
		assert_memory_equal(&got, &want, sizeof(want));
		for (size_t k = 1; k < nr_sets; k++) {
			assert_int_equal(sp_samples_merge(&s[0], &s[k]), 0);
			assert_int_equal(s[k].nr, 0);
		}
		assert_int_equal(s[0].nr, n);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(sp_samples_at(&s[0], i), ref[i]);
		sp_samples_summarize(&s[0], &got);
		assert_memory_equal(&got, &want, sizeof(want));
		sp_samples_release(&s[0]);
	}
}

/* Cleared samples are empty and take new ones; release of empty samples is fine. */
static void test_clear_and_empty(void **state)
{
	struct sp_samples s = { 0 }, e = { 0 };
	const struct sp_samples *sets[2] = { &e, &e };
	struct sp_summary sum;

	assert_int_equal(sp_samples_add(&s, 5), 0);
	assert_int_equal(sp_samples_add(&s, 1ull << 40), 0);
	sp_samples_clear(&s);
	assert_int_equal(s.nr, 0);
	assert_int_equal(sp_samples_summary(&s, &sum), 0);
	assert_int_equal(sum.n, 0);
	assert_int_equal(sp_samples_add(&s, 7), 0);
	assert_int_equal(sp_samples_summary(&s, &sum), 0);
	assert_int_equal(sum.n, 1);
	assert_int_equal(sum.p999, 7);
	assert_int_equal(sum.mean, 7);
	sp_samples_summarize_sets(sets, 2, &sum);
	assert_int_equal(sum.n, 0);
	assert_int_equal(sum.max, 0);
	assert_int_equal(sp_samples_sort(&e), 0);
	assert_int_equal(sp_samples_merge(&s, &e), 0);
	assert_int_equal(s.nr, 1);
	sp_samples_release(&s);
	sp_samples_release(&e);
}

/* The in-place sort on many values with few differing bytes and many equal ones. */
static void test_sort_large(void **state)
{
	static const uint32_t masks[] = { 0xffffffffu, 0x00ffff00u, 0x0000ffffu, 0x3u, 0xff000000u };
	uint64_t x = 521288629;

	for (size_t k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		struct sp_samples s = { 0 };
		size_t n = 200000;
		uint64_t *want = calloc(n, sizeof(*want));

		assert_non_null(want);
		for (size_t i = 0; i < n; i++) {
			want[i] = (rnd(&x) & masks[k]) | 0x10;
			assert_int_equal(sp_samples_add(&s, want[i]), 0);
		}
		qsort(want, n, sizeof(*want), cmp_u64);
		assert_int_equal(sp_samples_sort(&s), 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(s.v[i], want[i]);
		free(want);
		sp_samples_release(&s);
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
		cmocka_unit_test(test_summary_many_matches_sort),
		cmocka_unit_test(test_wide_matches_reference),
		cmocka_unit_test(test_border),
		cmocka_unit_test(test_sets_and_merge),
		cmocka_unit_test(test_clear_and_empty),
		cmocka_unit_test(test_sort_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
