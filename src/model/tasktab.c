// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasktab: the task table and its interned command names.  Pids are
 * looked up in an open-addressing table behind a direct-mapped cache
 * (sp_tasktab_find(), inline); names are kept once each, NUL separated,
 * and named by their offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/hashindex.h"
#include "schedplot/model/tasktab.h"

void sp_tasktab_init(struct sp_tasktab *tt, const struct sp_task *fresh)
{
	memset(tt, 0, sizeof(*tt));
	tt->fresh = *fresh;
}

void sp_tasktab_release(struct sp_tasktab *tt)
{
	SP_FREE_ALL(tt->v, tt->index, tt->strs, tt->str_index);
	memset(tt, 0, sizeof(*tt));
}

static uint32_t hash_u32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return x;
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* ---- interned strings ---- */

/* the hash of the name a string index slot holds (offset + 1) */
static uint32_t str_slot_hash(const void *data, uint32_t slot)
{
	const struct sp_tasktab *tt = data;

	return hash_str(tt->strs + slot - 1);
}

int sp_tasktab_intern(struct sp_tasktab *tt, const char *s, uint32_t *id)
{
	size_t len = strlen(s), i;

	if (!len) {
		*id = 0;
		return 0;
	}
	if ((tt->nr_str_ids + 1) * 2 > tt->alloc_str_index &&
	    sp_hashindex_rebuild(&tt->str_index, &tt->alloc_str_index,
				 tt->alloc_str_index ? tt->alloc_str_index * 2 : 256,
				 str_slot_hash, tt))
		return -ENOMEM;
	i = hash_str(s) & (tt->alloc_str_index - 1);
	while (tt->str_index[i]) {
		uint32_t off = tt->str_index[i] - 1;

		if (!strcmp(tt->strs + off, s)) {
			*id = off;
			return 0;
		}
		i = (i + 1) & (tt->alloc_str_index - 1);
	}
	if (tt->nr_strs_bytes + len + 2 > UINT32_MAX - 1)
		return -ENOMEM;
	if (sp_grow_array(&tt->strs, &tt->alloc_strs, tt->nr_strs_bytes + len + 2, 1))
		return -ENOMEM;
	if (!tt->nr_strs_bytes)
		tt->nr_strs_bytes = 1;	/* id 0 is the empty string */
	memcpy(tt->strs + tt->nr_strs_bytes, s, len + 1);
	*id = tt->nr_strs_bytes;
	tt->str_index[i] = tt->nr_strs_bytes + 1;
	tt->nr_strs_bytes += len + 1;
	tt->nr_str_ids++;
	return 0;
}

const char *sp_tasktab_str(const struct sp_tasktab *tt, uint32_t id)
{
	return id && id < tt->nr_strs_bytes ? tt->strs + id : "";
}

/* ---- task table ---- */

/* the hash of the pid a task index slot holds (v[] + 1) */
static uint32_t task_slot_hash(const void *data, uint32_t slot)
{
	const struct sp_tasktab *tt = data;

	return hash_u32(tt->v[slot - 1].pid);
}

struct sp_task *sp_tasktab_lookup(const struct sp_tasktab *tt, int pid, int32_t *slot)
{
	size_t i;

	if (!tt->alloc_index)
		return NULL;
	i = hash_u32(pid) & (tt->alloc_index - 1);
	while (tt->index[i]) {
		struct sp_task *t = &tt->v[tt->index[i] - 1];

		if (t->pid == pid) {
			*slot = tt->index[i];
			return t;
		}
		i = (i + 1) & (tt->alloc_index - 1);
	}
	return NULL;
}

struct sp_task *sp_tasktab_add(struct sp_tasktab *tt, int pid)
{
	struct sp_task *t;
	size_t i;

	if ((tt->nr + 1) * 2 > tt->alloc_index &&
	    sp_hashindex_rebuild(&tt->index, &tt->alloc_index,
				 tt->alloc_index ? tt->alloc_index * 2 : 1024, task_slot_hash, tt))
		return NULL;
	if (sp_grow_array(&tt->v, &tt->alloc, tt->nr + 1, sizeof(*tt->v)))
		return NULL;
	t = &tt->v[tt->nr];
	*t = tt->fresh;
	t->pid = pid;
	i = hash_u32(pid) & (tt->alloc_index - 1);
	while (tt->index[i])
		i = (i + 1) & (tt->alloc_index - 1);
	tt->index[i] = ++tt->nr;
	return t;
}

const char *sp_tasktab_comm(const struct sp_tasktab *tt, int pid)
{
	struct sp_task *t;

	if (pid == 0)
		return "<idle>";
	t = sp_tasktab_find(tt, pid);
	return t ? sp_tasktab_str(tt, t->comm) : "";
}

int sp_tasktab_tgid(const struct sp_tasktab *tt, int pid)
{
	const struct sp_task *t = sp_tasktab_find(tt, pid);
	size_t steps = 0;

	/* parents form a forest; the step limit only guards against pid reuse loops */
	while (t && !t->exec_seen && t->ppid > 0 && steps++ < tt->nr) {
		const struct sp_task *p = sp_tasktab_find(tt, t->ppid);

		if (!p)
			return t->ppid;
		t = p;
	}
	return t ? t->pid : pid;
}
