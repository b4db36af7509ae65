// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_radix_sort() against qsort() with the input position as the tie
 * break (a stable sort): narrow and wide spans, many equal timestamps,
 * none and one key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/trace/radix.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int by_ts_then_item(const void *a, const void *b)
{
	const struct sp_radix_key *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;
}

/* @n keys: base + a random offset below 2^bits (0: all equal), items in input order. */
static void check(size_t n, uint64_t base, unsigned int bits, uint64_t seed)
{
	struct sp_radix_key *keys = calloc(n + 1, sizeof(*keys));
	struct sp_radix_key *tmp = calloc(n + 1, sizeof(*tmp));
	struct sp_radix_key *want = calloc(n + 1, sizeof(*want));
	struct sp_radix_key *got;
	size_t i;

	assert_true(keys && tmp && want);
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(&seed);

		keys[i].ts = base + (bits >= 64 ? r : bits ? r & ((1ull << bits) - 1) : 0);
		keys[i].item = (uint32_t)i;
		want[i] = keys[i];
	}
	qsort(want, n, sizeof(*want), by_ts_then_item);
	got = sp_radix_sort(keys, tmp, n);
	assert_true(got == keys || got == tmp);
	for (i = 0; i < n; i++)
		if (got[i].ts != want[i].ts || got[i].item != want[i].item)
			fail_msg("n %zu, %u bits: key %zu is %llu/%u, expected %llu/%u", n, bits, i,
				 (unsigned long long)got[i].ts, got[i].item,
				 (unsigned long long)want[i].ts, want[i].item);
	free(keys);
	free(tmp);
	free(want);
}

static void test_spans(void **state)
{
	static const unsigned int bits[] = { 0, 1, 4, 11, 12, 22, 23, 33, 44, 63, 64 };
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		check(20000, 1700000000000000000ull, bits[i], 42 + i);
		check(20000, 0, bits[i], 7 + i);
	}
}

static void test_small(void **state)
{
	check(0, 5, 10, 1);
	check(1, 5, 10, 1);
	check(2, 5, 1, 3);
	check(3, UINT64_MAX - 8, 3, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
