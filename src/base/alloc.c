// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"

void *sp_alloc_array(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

int sp_resize_array(void *array, size_t *alloc, size_t n, size_t size)
{
	void **ptr = array;
	void *p;

	if (n > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*ptr, n * size);
	if (!p)
		return -ENOMEM;
	*ptr = p;
	*alloc = n;
	return 0;
}

int sp_grow_array_uninit(void *array, size_t *alloc, size_t need, size_t size)
{
	size_t new_alloc = *alloc ? *alloc : 16;

	if (need <= *alloc)
		return 0;
	while (new_alloc < need) {
		if (new_alloc > SIZE_MAX / 2)
			return -ENOMEM;
		new_alloc *= 2;
	}
	return sp_resize_array(array, alloc, new_alloc, size);
}

int sp_grow_array(void *array, size_t *alloc, size_t need, size_t size)
{
	void **ptr = array;
	size_t was = *alloc;
	int ret = sp_grow_array_uninit(array, alloc, need, size);

	if (!ret && *alloc > was)
		memset((char *)*ptr + was * size, 0, (*alloc - was) * size);
	return ret;
}
