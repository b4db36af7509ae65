// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_muldiv()'s long division, used where the compiler has no 128-bit
 * integer (32-bit hosts), checked against the 128-bit arithmetic of this
 * host on edge values and a million random ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#define SP_MULDIV_PORTABLE
#include "schedplot/base/muldiv.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check(uint64_t a, uint64_t b, uint64_t add, uint64_t c)
{
	unsigned __int128 want = ((unsigned __int128)a * b + add) / c;

	if (want >> 64)
		return;		/* outside the contract: the quotient must fit */
	if (sp_muldiv(a, b, add, c) != (uint64_t)want)
		fail_msg("sp_muldiv(%llu, %llu, %llu, %llu) = %llu, expected %llu",
			 (unsigned long long)a, (unsigned long long)b, (unsigned long long)add,
			 (unsigned long long)c, (unsigned long long)sp_muldiv(a, b, add, c),
			 (unsigned long long)want);
}

static void test_edges(void **state)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 1000, 1600, 0xffffffffull, 0x100000000ull, 0x100000001ull,
		1000000000ull, 600000000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
		0xfffffffffffffffeull, 0xffffffffffffffffull,
	};
	size_t n = sizeof(v) / sizeof(v[0]);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			for (size_t k = 0; k < n; k++)
				for (size_t l = 0; l < n; l++)
					if (v[l])
						check(v[i], v[j], v[k], v[l]);
}

static void test_random(void **state)
{
	uint64_t s = 88172645463325252ull;

	for (int i = 0; i < 1000000; i++) {
		uint64_t a = rnd(&s) >> (rnd(&s) % 64), b = rnd(&s) >> (rnd(&s) % 64);
		uint64_t add = rnd(&s) >> (rnd(&s) % 64), c = rnd(&s) >> (rnd(&s) % 64);

		check(a, b, add, c ? c : 1);
	}
}

/* The uses: a column from a timestamp and a column's first nanosecond. */
static void test_columns(void **state)
{
	uint64_t span = 3600ull * 1000000000ull, cols = 1600;

	for (uint64_t col = 0; col <= cols; col++) {
		uint64_t start = sp_muldiv(span, col, cols - 1, cols);

		assert_int_equal(sp_muldiv(start, cols, 0, span), col);
		if (start)
			assert_int_equal(sp_muldiv(start - 1, cols, 0, span), col - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
