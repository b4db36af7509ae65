// SPDX-License-Identifier: GPL-2.0-only
/*
 * ring: the moving of a ring's items into a larger array (ring.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/ring.h"

int sp_ring_regrow(void *array, size_t *alloc, size_t head, size_t nr, size_t new_alloc,
		   size_t new_head, size_t size)
{
	char **ptr = array, *v;
	size_t from = head, to = new_head;

	if (new_head == head && head + nr <= *alloc)
		return sp_resize_array(array, alloc, new_alloc, size);
	if (new_alloc > SIZE_MAX / size)
		return -ENOMEM;
	v = malloc(new_alloc * size);
	if (!v)
		return -ENOMEM;
	/* at most three pieces: each ends where the old or the new ring wraps */
	while (nr) {
		size_t n = nr;

		if (n > *alloc - from)
			n = *alloc - from;
		if (n > new_alloc - to)
			n = new_alloc - to;
		memcpy(v + to * size, *ptr + from * size, n * size);
		from = from + n == *alloc ? 0 : from + n;
		to = to + n == new_alloc ? 0 : to + n;
		nr -= n;
	}
	free(*ptr);
	*ptr = v;
	*alloc = new_alloc;
	return 0;
}
