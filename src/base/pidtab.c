// SPDX-License-Identifier: GPL-2.0-only
/*
 * pidtab: entries keyed by pid, open addressing (pidtab.h).  Fibonacci
 * hashing spreads the pids, which come mostly consecutive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/pidtab.h"

static void *entry(void *slots, size_t i, size_t size)
{
	return (char *)slots + i * size;
}

static int32_t pid_at(const void *e)
{
	int32_t pid;

	memcpy(&pid, e, sizeof(pid));
	return pid;
}

/* The slot of @pid in @slots of @alloc: its entry, or the free slot for it. */
static size_t slot_of(void *slots, size_t alloc, int32_t pid, size_t size)
{
	size_t mask = alloc - 1, i = sp_pidtab_home(pid, alloc);
	int32_t at;

	while ((at = pid_at(entry(slots, i, size))) && at != pid)
		i = (i + 1) & mask;
	return i;
}

void *sp_pidtab_find(const struct sp_pidtab *t, int32_t pid, size_t size)
{
	void *e;

	if (!t->alloc)
		return NULL;
	e = entry(t->slots, slot_of(t->slots, t->alloc, pid, size), size);
	return pid_at(e) ? e : NULL;
}

void *sp_pidtab_get(struct sp_pidtab *t, int32_t pid, size_t size, size_t min_alloc)
{
	void *e;

	if ((t->nr + 1) * 2 > t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : min_alloc;
		void *slots = sp_alloc_array(alloc, size);

		if (!slots)
			return NULL;
		for (size_t j = 0; j < t->alloc; j++) {
			const void *old = entry(t->slots, j, size);

			if (pid_at(old))
				memcpy(entry(slots, slot_of(slots, alloc, pid_at(old), size), size),
				       old, size);
		}
		free(t->slots);
		t->slots = slots;
		t->alloc = alloc;
	}
	e = entry(t->slots, slot_of(t->slots, t->alloc, pid, size), size);
	if (!pid_at(e)) {
		memcpy(e, &pid, sizeof(pid));
		t->nr++;
	}
	return e;
}

void sp_pidtab_clear(struct sp_pidtab *t, size_t size)
{
	if (t->slots)
		memset(t->slots, 0, t->alloc * size);
	t->nr = 0;
}

void sp_pidtab_release(struct sp_pidtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
