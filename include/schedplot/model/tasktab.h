/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_TASKTAB_H
#define SP_MODEL_TASKTAB_H

/*
 * The task table (tasktab.c): the tasks a trace names, by pid, and their
 * command names, each kept once and named by an id.  The model embeds
 * one (sp_model.tasks) and keeps its own state of each task in it; the
 * table knows pids and names only.  The lookups are inline, as the model
 * calls them several times a record; their slow paths are not.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Slots of the direct-mapped cache in front of the table. */
#define SP_TASK_CACHE 4096

enum sp_task_state {
	SP_TASK_OTHER = 0,	/* sleeping, blocked, exited or unknown */
	SP_TASK_WAITING,	/* runnable, not current anywhere */
	SP_TASK_RUNNING,	/* current on task->cpu */
};

struct sp_task {
	int32_t pid;
	int32_t ppid;		/* parent from sched_process_fork, -1 when unknown */
	bool exec_seen;		/* ran sched_process_exec: leads a process of its own */
	uint32_t comm;		/* string id, see sp_tasktab_str() */
	uint64_t run_ns;
	uint64_t wait_ns;
	uint64_t wakeups;
	uint64_t migrations;
	/* tracking state */
	uint8_t state;		/* enum sp_task_state */
	bool wait_counted;	/* counted in waiting(t) (passes the filters) */
	int32_t cpu;		/* CPU it runs on, or was last placed on */
	uint64_t place_ns;	/* waiting: when it was placed on cpu (wakeup, migration) */
	bool contradicted;	/* waiting: a CPU it was placed on idled since (SP_CONTRADICT_NS) */
	uint64_t wait_since_ns;
	uint64_t wait_seq;	/* records handled when the wait began */
	uint64_t wake_ns;	/* start of a pending wakeup latency, SP_NO_TS if none */
	/* what the current wait will be reported with (struct sp_wait) */
	int32_t last_cpu;	/* where it last ran, -1 before its first run */
	int32_t waker;
	int32_t waker_cpu;
	int32_t wake_target;
	bool wake_prev_idle;
	/* its last becoming current while a repair may still precede it (index + 1, 0: none) */
	uint64_t became;
	/* its last migration held while a repair may still precede it (likewise) */
	uint64_t held_mig;
	/*
	 * the sched_waking of it since its last wakeup record, which began
	 * the next one: its waker and CPU (waking_cpu -1: none)
	 */
	int32_t waking_waker;
	int32_t waking_cpu;
	char last_comm[16];	/* the name last seen, to skip interning it again */
};

struct sp_tasktab {
	struct sp_task *v;		/* in the order first seen */
	size_t nr;
	size_t alloc;
	struct sp_task fresh;		/* what a task seen first starts as, but its pid */
	uint64_t renames;		/* names given or changed (sp_tasktab_name()) so far */
	/* private */
	uint32_t *index;		/* open-addressing pid -> v[] + 1 */
	int32_t cache[SP_TASK_CACHE];	/* pid % SP_TASK_CACHE -> v[] + 1 */
	size_t alloc_index;
	char *strs;			/* interned names, NUL separated */
	size_t nr_strs_bytes;
	size_t alloc_strs;
	uint32_t *str_index;		/* hash of offsets + 1 into strs */
	size_t alloc_str_index;
	size_t nr_str_ids;
};

/**
 * sp_tasktab_init - an empty table
 * @tt: the table
 * @fresh: what a task seen for the first time starts as (its pid is set)
 */
void sp_tasktab_init(struct sp_tasktab *tt, const struct sp_task *fresh);

/**
 * sp_tasktab_release - free what the table holds; it is then empty
 * @tt: the table
 */
void sp_tasktab_release(struct sp_tasktab *tt);

/**
 * sp_tasktab_intern - the id of a name, kept once
 * @tt: the table
 * @s: the name
 * @id: set to its id (sp_tasktab_str() gives it back; 0 for "")
 *
 * Return: 0, or -ENOMEM.
 */
int sp_tasktab_intern(struct sp_tasktab *tt, const char *s, uint32_t *id);

/**
 * sp_tasktab_str - the string behind an id
 * @tt: the table
 * @id: a string id (e.g. sp_task.comm)
 *
 * Return: the string ("" for id 0).
 */
const char *sp_tasktab_str(const struct sp_tasktab *tt, uint32_t id);

/**
 * sp_tasktab_lookup - the table's task for a pid, past the cache
 * @tt: the table
 * @pid: the task
 * @slot: the cache's slot for @pid: set to the task when found
 *
 * Return: the task, or NULL when the table has none.
 */
struct sp_task *sp_tasktab_lookup(const struct sp_tasktab *tt, int pid, int32_t *slot);

/**
 * sp_tasktab_add - a task for a pid seen for the first time
 * @tt: the table
 * @pid: the task
 *
 * Return: the task, a copy of @tt->fresh with @pid; NULL for ENOMEM.
 */
struct sp_task *sp_tasktab_add(struct sp_tasktab *tt, int pid);

/**
 * sp_tasktab_comm - a task's command name
 * @tt: the table
 * @pid: the task
 *
 * Return: its name, "<idle>" for pid 0, or "" when unknown.
 */
const char *sp_tasktab_comm(const struct sp_tasktab *tt, int pid);

/**
 * sp_tasktab_tgid - the process a task belongs to, as sp_model_tgid() says
 * @tt: the table
 * @pid: the task
 *
 * Return: the pid of the task leading @pid's process (@pid itself when
 * none is known).
 */
int sp_tasktab_tgid(const struct sp_tasktab *tt, int pid);

/*
 * The task for @pid, NULL when the table has none: through a
 * direct-mapped cache, as few tasks are busy at once.
 */
static inline struct sp_task *sp_tasktab_find(const struct sp_tasktab *tt, int pid)
{
	int32_t *slot = (int32_t *)&tt->cache[(uint32_t)pid % SP_TASK_CACHE];

	if (*slot && tt->v[*slot - 1].pid == pid)
		return &tt->v[*slot - 1];
	return sp_tasktab_lookup(tt, pid, slot);
}

/* The task for @pid, made on first sight.  Return: NULL for pid < 0 or ENOMEM. */
static inline struct sp_task *sp_tasktab_get(struct sp_tasktab *tt, int pid)
{
	struct sp_task *t;

	if (pid < 0)
		return NULL;
	t = sp_tasktab_find(tt, pid);
	return t ? t : sp_tasktab_add(tt, pid);
}

/*
 * The task's name is still @comm: two names per switch come through here.
 * With @block, @comm has 16 bytes to read (a record's char[16]): when they
 * equal the zero-padded copy, as on kernels that pad names, two word
 * compares decide.  Else glibc's strncmp() compares them in a few vector
 * steps, where a loop over the bytes took three times the instructions.
 */
static inline bool sp_tasktab_same_comm(const char last[16], const char *comm, bool block)
{
	return (block && !memcmp(last, comm, 16)) || !strncmp(last, comm, 16);
}

/*
 * Name @t, a task of the table, @comm; @block as for
 * sp_tasktab_same_comm().  Return: 0, or -ENOMEM.
 */
static inline int sp_tasktab_name(struct sp_tasktab *tt, struct sp_task *t, const char *comm,
				  bool block)
{
	/* names change rarely (exec, prctl): compare with the copy in the task first */
	if (t->comm && sp_tasktab_same_comm(t->last_comm, comm, block))
		return 0;
	tt->renames++;
	memset(t->last_comm, 0, sizeof(t->last_comm));
	memcpy(t->last_comm, comm, strnlen(comm, sizeof(t->last_comm)));
	return sp_tasktab_intern(tt, comm, &t->comm);
}

/*
 * Name @pid @comm (NULL, or pid 0 and below: nothing); @block as for
 * sp_tasktab_same_comm().  Return: 0, or -ENOMEM.
 */
static inline int sp_tasktab_set_comm(struct sp_tasktab *tt, int pid, const char *comm, bool block)
{
	struct sp_task *t;

	if (!comm || pid <= 0)
		return 0;
	t = sp_tasktab_get(tt, pid);
	if (!t)
		return -ENOMEM;
	return sp_tasktab_name(tt, t, comm, block);
}

#endif /* SP_MODEL_TASKTAB_H */
