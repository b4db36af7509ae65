// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasks: the model's task table and its interned command names.  Pids
 * are looked up in an open-addressing table behind a direct-mapped cache
 * (tasks.h's task_find(), inline); names are kept once each, NUL
 * separated, and named by their offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"
#include "tasks.h"

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

static int str_index_rebuild(struct sp_model *m, size_t alloc)
{
	uint32_t *index = sp_alloc_array(alloc, sizeof(*index));
	size_t off;

	if (!index)
		return -ENOMEM;
	/* offset 0 is the empty string; index entries are offset + 1 */
	for (off = 1; off < m->nr_strs_bytes; off += strlen(m->strs + off) + 1) {
		size_t i = hash_str(m->strs + off) & (alloc - 1);

		while (index[i])
			i = (i + 1) & (alloc - 1);
		index[i] = off + 1;
	}
	free(m->str_index);
	m->str_index = index;
	m->alloc_str_index = alloc;
	return 0;
}

int sp_model_intern(struct sp_model *m, const char *s, uint32_t *id)
{
	size_t len = strlen(s), i;

	if (!len) {
		*id = 0;
		return 0;
	}
	if ((m->nr_str_ids + 1) * 2 > m->alloc_str_index &&
	    str_index_rebuild(m, m->alloc_str_index ? m->alloc_str_index * 2 : 256))
		return -ENOMEM;
	i = hash_str(s) & (m->alloc_str_index - 1);
	while (m->str_index[i]) {
		uint32_t off = m->str_index[i] - 1;

		if (!strcmp(m->strs + off, s)) {
			*id = off;
			return 0;
		}
		i = (i + 1) & (m->alloc_str_index - 1);
	}
	if (m->nr_strs_bytes + len + 2 > UINT32_MAX - 1)
		return -ENOMEM;
	if (sp_grow_array(&m->strs, &m->alloc_strs, m->nr_strs_bytes + len + 2, 1))
		return -ENOMEM;
	if (!m->nr_strs_bytes)
		m->nr_strs_bytes = 1;	/* id 0 is the empty string */
	memcpy(m->strs + m->nr_strs_bytes, s, len + 1);
	*id = m->nr_strs_bytes;
	m->str_index[i] = m->nr_strs_bytes + 1;
	m->nr_strs_bytes += len + 1;
	m->nr_str_ids++;
	return 0;
}

const char *sp_model_str(const struct sp_model *m, uint32_t id)
{
	return id && id < m->nr_strs_bytes ? m->strs + id : "";
}

/* ---- task table ---- */

static int task_index_rebuild(struct sp_model *m, size_t alloc)
{
	int32_t *index = sp_alloc_array(alloc, sizeof(*index));
	size_t t;

	if (!index)
		return -ENOMEM;
	for (t = 0; t < m->nr_tasks; t++) {
		size_t i = hash_u32(m->tasks[t].pid) & (alloc - 1);

		while (index[i])
			i = (i + 1) & (alloc - 1);
		index[i] = t + 1;
	}
	free(m->task_index);
	m->task_index = index;
	m->alloc_index = alloc;
	return 0;
}

struct sp_task *sp_model_task_lookup(const struct sp_model *m, int pid, int32_t *slot)
{
	size_t i;

	if (!m->alloc_index)
		return NULL;
	i = hash_u32(pid) & (m->alloc_index - 1);
	while (m->task_index[i]) {
		struct sp_task *t = &m->tasks[m->task_index[i] - 1];

		if (t->pid == pid) {
			*slot = m->task_index[i];
			return t;
		}
		i = (i + 1) & (m->alloc_index - 1);
	}
	return NULL;
}

struct sp_task *sp_model_task(const struct sp_model *m, int pid)
{
	return task_find(m, pid);
}

struct sp_task *sp_model_task_new(struct sp_model *m, int pid)
{
	struct sp_task *t;
	size_t i;

	if ((m->nr_tasks + 1) * 2 > m->alloc_index &&
	    task_index_rebuild(m, m->alloc_index ? m->alloc_index * 2 : 1024))
		return NULL;
	if (sp_grow_array(&m->tasks, &m->alloc_tasks, m->nr_tasks + 1, sizeof(*m->tasks)))
		return NULL;
	t = &m->tasks[m->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->ppid = -1;
	t->cpu = -1;
	t->last_cpu = -1;
	t->wake_ns = SP_NO_TS;
	t->waker = SP_WAKER_NONE;
	t->waker_cpu = -1;
	t->waking_cpu = -1;
	i = hash_u32(pid) & (m->alloc_index - 1);
	while (m->task_index[i])
		i = (i + 1) & (m->alloc_index - 1);
	m->task_index[i] = ++m->nr_tasks;
	return t;
}

int sp_model_set_comm(struct sp_model *m, int pid, const char *comm)
{
	return set_comm(m, pid, comm, false);
}

const char *sp_model_comm(const struct sp_model *m, int pid)
{
	struct sp_task *t;

	if (pid == 0)
		return "<idle>";
	t = sp_model_task(m, pid);
	return t ? sp_model_str(m, t->comm) : "";
}

int sp_model_tgid(const struct sp_model *m, int pid)
{
	const struct sp_task *t = sp_model_task(m, pid);
	size_t steps = 0;

	/* parents form a forest; the step limit only guards against pid reuse loops */
	while (t && !t->exec_seen && t->ppid > 0 && steps++ < m->nr_tasks) {
		const struct sp_task *p = sp_model_task(m, t->ppid);

		if (!p)
			return t->ppid;
		t = p;
	}
	return t ? t->pid : pid;
}

const char *sp_waker_format(char *buf, size_t size, int waker)
{
	if (waker == SP_WAKER_IRQ)
		snprintf(buf, size, "irq");
	else if (waker == SP_WAKER_SOFTIRQ)
		snprintf(buf, size, "softirq");
	else
		snprintf(buf, size, "%d", waker < 0 ? -1 : waker);
	return buf;
}
