/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_TASKS_H
#define SP_MODEL_TASKS_H

/*
 * The model's task table and interned names (tasks.c), as the model's own
 * files use them: the lookups inline, as the model calls them several
 * times a record, and their slow paths.  Private: beside the sources, not
 * under include/.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "schedplot/model/model.h"

/**
 * sp_model_intern - the id of a name, kept once
 * @m: the model
 * @s: the name
 * @id: set to its id (sp_model_str() gives it back; 0 for "")
 *
 * Return: 0, or -ENOMEM.
 */
int sp_model_intern(struct sp_model *m, const char *s, uint32_t *id);

/**
 * sp_model_task_lookup - the table's task for a pid, past the cache
 * @m: the model
 * @pid: the task
 * @slot: the cache's slot for @pid: set to the task when found
 *
 * Return: the task, or NULL when the table has none.
 */
struct sp_task *sp_model_task_lookup(const struct sp_model *m, int pid, int32_t *slot);

/**
 * sp_model_task_new - a task for a pid seen for the first time
 * @m: the model
 * @pid: the task
 *
 * Return: the task, or NULL for ENOMEM.
 */
struct sp_task *sp_model_task_new(struct sp_model *m, int pid);

/* A direct-mapped cache in front of the table: few tasks are busy at once. */
static inline struct sp_task *task_find(const struct sp_model *m, int pid)
{
	int32_t *slot = (int32_t *)&m->task_cache[(uint32_t)pid % SP_TASK_CACHE];

	if (*slot && m->tasks[*slot - 1].pid == pid)
		return &m->tasks[*slot - 1];
	return sp_model_task_lookup(m, pid, slot);
}

/*
 * The task for @pid, created on first sight; inline, as it is looked up
 * several times a record.  Return: NULL for pid < 0 or ENOMEM.
 */
static inline struct sp_task *task_get(struct sp_model *m, int pid)
{
	struct sp_task *t;

	if (pid < 0)
		return NULL;
	t = task_find(m, pid);
	return t ? t : sp_model_task_new(m, pid);
}

/*
 * The task's name is still @comm: two names per switch come through here.
 * With @block, @comm has 16 bytes to read (a record's char[16]): when they
 * equal the zero-padded copy, as on kernels that pad names, two word
 * compares decide.  Else glibc's strncmp() compares them in a few vector
 * steps, where a loop over the bytes took three times the instructions.
 */
static inline bool same_comm(const char last[16], const char *comm, bool block)
{
	return (block && !memcmp(last, comm, 16)) || !strncmp(last, comm, 16);
}

static inline int set_comm(struct sp_model *m, int pid, const char *comm, bool block)
{
	struct sp_task *t;

	if (!comm || pid <= 0)
		return 0;
	t = task_get(m, pid);
	if (!t)
		return -ENOMEM;
	/* names change rarely (exec, prctl): compare with the copy in the task first */
	if (t->comm && same_comm(t->last_comm, comm, block))
		return 0;
	memset(t->last_comm, 0, sizeof(t->last_comm));
	memcpy(t->last_comm, comm, strnlen(comm, sizeof(t->last_comm)));
	return sp_model_intern(m, comm, &t->comm);
}

#endif /* SP_MODEL_TASKS_H */
