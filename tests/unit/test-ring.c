// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_ring_regrow(): the items keep their order from the new head on,
 * whether they wrapped in the old array, wrap in the new one, or both;
 * items numbered by a power-of-2 mask keep their numbers' slots; a failed
 * regrow leaves the ring as it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/base/ring.h"

struct item {
	uint64_t n;
	uint32_t check;
};

static struct item item(uint64_t n)
{
	return (struct item){ n, (uint32_t)(n * 2654435761u) };
}

/* @nr items from @first on at @head of @v, wrapping at @alloc */
static void fill(struct item *v, size_t alloc, size_t head, size_t nr, uint64_t first)
{
	for (size_t i = 0; i < nr; i++)
		v[(head + i) % alloc] = item(first + i);
}

static void expect(const struct item *v, size_t alloc, size_t head, size_t nr, uint64_t first)
{
	for (size_t i = 0; i < nr; i++) {
		const struct item *it = &v[(head + i) % alloc];

		assert_int_equal(it->n, first + i);
		assert_int_equal(it->check, item(first + i).check);
	}
}

/* Every old head, count and new head of a ring of 8 grown to 8, 11 and 16. */
static void test_every_layout(void **state)
{
	static const size_t grown[] = { 8, 11, 16 };

	for (size_t g = 0; g < sizeof(grown) / sizeof(*grown); g++)
		for (size_t head = 0; head < 8; head++)
			for (size_t nr = 0; nr <= 8; nr++)
				for (size_t to = 0; to < grown[g]; to++) {
					struct item *v = malloc(8 * sizeof(*v));
					size_t alloc = 8;

					assert_non_null(v);
					fill(v, alloc, head, nr, 100);
					assert_int_equal(sp_ring_regrow(&v, &alloc, head, nr, grown[g],
									to, sizeof(*v)), 0);
					assert_int_equal(alloc, grown[g]);
					expect(v, alloc, to, nr, 100);
					free(v);
				}
}

/* From no array: a first one, which the next regrow may extend in place. */
static void test_from_nothing(void **state)
{
	struct item *v = NULL;
	size_t alloc = 0;

	assert_int_equal(sp_ring_regrow(&v, &alloc, 0, 0, 4, 0, sizeof(*v)), 0);
	assert_non_null(v);
	assert_int_equal(alloc, 4);
	fill(v, alloc, 0, 4, 7);
	assert_int_equal(sp_ring_regrow(&v, &alloc, 0, 4, 8, 0, sizeof(*v)), 0);
	assert_int_equal(alloc, 8);
	expect(v, alloc, 0, 4, 7);
	free(v);
}

/*
 * Items numbered 0, 1, ..., item n at slot n & (alloc - 1): added and
 * dropped at uneven rates, the array doubled when full with each number
 * at the slot the new mask gives it; every item kept is where its number
 * says.
 */
static void test_numbered(void **state)
{
	struct item *v = NULL;
	size_t alloc = 0;
	uint64_t head = 0, nr = 0;

	for (unsigned int round = 0; round < 5000; round++) {
		unsigned int add = 1 + round % 7, drop = round % 5;

		for (unsigned int k = 0; k < add; k++) {
			if (nr - head == alloc) {
				size_t new_alloc = alloc ? alloc * 2 : 4;

				assert_int_equal(sp_ring_regrow(&v, &alloc,
								alloc ? head & (alloc - 1) : 0,
								nr - head, new_alloc,
								head & (new_alloc - 1), sizeof(*v)),
						 0);
			}
			v[nr & (alloc - 1)] = item(nr);
			nr++;
		}
		for (unsigned int k = 0; k < drop && head < nr; k++)
			head++;
		for (uint64_t n = head; n < nr; n++) {
			assert_int_equal(v[n & (alloc - 1)].n, n);
			assert_int_equal(v[n & (alloc - 1)].check, item(n).check);
		}
	}
	free(v);
}

static void test_no_memory(void **state)
{
	struct item *v = malloc(4 * sizeof(*v)), *before = v;
	size_t alloc = 4;

	assert_non_null(v);
	fill(v, alloc, 3, 4, 1);
	assert_int_equal(sp_ring_regrow(&v, &alloc, 3, 4, SIZE_MAX / 2, 0, sizeof(*v)), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(alloc, 4);
	expect(v, alloc, 3, 4, 1);
	/* in place too */
	assert_int_equal(sp_ring_regrow(&v, &alloc, 0, 3, SIZE_MAX / 2, 0, sizeof(*v)), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(alloc, 4);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_layout),
		cmocka_unit_test(test_from_nothing),
		cmocka_unit_test(test_numbered),
		cmocka_unit_test(test_no_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
