// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_hashindex_rebuild(): every item is found again after the index grows,
 * including when all keys hash alike (one long probe run that wraps), and
 * a failed rebuild leaves nothing changed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/base/hashindex.h"

struct items {
	const uint32_t *keys;
	uint32_t mask;		/* of the hash: 0 makes every key collide */
};

static uint32_t key_hash(const void *data, uint32_t slot)
{
	const struct items *it = data;

	return (it->keys[slot - 1] * 2654435761u) & it->mask;
}

/* where the probe for item @n's key ends: its slot, or 0 when not found */
static uint32_t find(const uint32_t *slots, size_t alloc, const struct items *it, uint32_t n)
{
	size_t i = key_hash(it, n + 1) & (alloc - 1);

	while (slots[i]) {
		if (it->keys[slots[i] - 1] == it->keys[n])
			return slots[i];
		i = (i + 1) & (alloc - 1);
	}
	return 0;
}

static void add(uint32_t *slots, size_t alloc, const struct items *it, uint32_t n)
{
	size_t i = key_hash(it, n + 1) & (alloc - 1);

	while (slots[i])
		i = (i + 1) & (alloc - 1);
	slots[i] = n + 1;
}

static void grow_and_find(uint32_t mask)
{
	uint32_t keys[1000];
	struct items it = { keys, mask };
	uint32_t *slots = NULL;
	size_t alloc = 0;

	for (uint32_t n = 0; n < 1000; n++) {
		keys[n] = n * 7 + 3;
		if ((n + 1) * 2 > alloc)
			assert_int_equal(sp_hashindex_rebuild(&slots, &alloc, alloc ? alloc * 2 : 4,
							      key_hash, &it), 0);
		add(slots, alloc, &it, n);
	}
	assert_int_equal(alloc, 2048);
	for (uint32_t n = 0; n < 1000; n++)
		assert_int_equal(find(slots, alloc, &it, n), n + 1);
	free(slots);
}

static void test_grow(void **state)
{
	grow_and_find(UINT32_MAX);
}

static void test_all_collide(void **state)
{
	grow_and_find(0);
}

static void test_no_memory(void **state)
{
	uint32_t keys[1] = { 5 };
	struct items it = { keys, UINT32_MAX };
	uint32_t *slots = NULL;
	uint32_t *before;
	size_t alloc = 0;

	assert_int_equal(sp_hashindex_rebuild(&slots, &alloc, 4, key_hash, &it), 0);
	add(slots, alloc, &it, 0);
	before = slots;
	assert_int_equal(sp_hashindex_rebuild(&slots, &alloc, SIZE_MAX / 2, key_hash, &it),
			 -ENOMEM);
	assert_ptr_equal(slots, before);
	assert_int_equal(alloc, 4);
	assert_int_equal(find(slots, alloc, &it, 0), 1);
	free(slots);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_all_collide),
		cmocka_unit_test(test_no_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
