// SPDX-License-Identifier: GPL-2.0-only
/*
 * hashindex: the making anew of an open-addressing index (hashindex.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/hashindex.h"

int sp_hashindex_rebuild(uint32_t **slots, size_t *alloc, size_t new_alloc,
			 uint32_t (*hash)(const void *data, uint32_t slot), const void *data)
{
	uint32_t *index = sp_alloc_array(new_alloc, sizeof(*index));
	size_t mask = new_alloc - 1;

	if (!index)
		return -ENOMEM;
	for (size_t j = 0; j < *alloc; j++) {
		uint32_t slot = (*slots)[j];
		size_t i;

		if (!slot)
			continue;
		i = hash(data, slot) & mask;
		while (index[i])
			i = (i + 1) & mask;
		index[i] = slot;
	}
	free(*slots);
	*slots = index;
	*alloc = new_alloc;
	return 0;
}
