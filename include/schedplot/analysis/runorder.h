/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RUNORDER_H
#define SP_RUNORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/pidtab.h"
#include "schedplot/model/model.h"

/*
 * Each task's runs in the order of their ends.  The pass tells runs as
 * they are made final (run_info), and a run a repair ended is made final
 * when the repair is made: a little after a run of the same task that
 * ended later (doc/design.md "Missed switches").  A consumer that walks a
 * task's runs one after the other (sleeps, chains) hands each run here
 * and gets them back in order of (end, start, CPU), each task's up to
 * SP_RUNORDER_KEEP runs late, each with the task's run handed out before
 * it (the one that ended latest); sp_runorder_flush() hands out the rest.
 */

#define SP_RUNORDER_KEEP 3

/* Called with each run, in order per task, and the task's run before it (NULL: none). */
typedef void (*sp_runorder_fn)(void *data, const struct sp_run *prev, const struct sp_run *r);

/*
 * One task's runs held, for a consumer that keeps its own state per task
 * (zeroed: none held, none handed out).  The runs live in a ring of
 * slots: those held from head on, sorted, and just before them the one
 * handed out that ended latest, so that a run that comes in order is
 * copied once and moves no other.
 */
struct sp_runorder_task {
	uint8_t head;			/* slot of the held run that ends first */
	uint8_t nr;			/* runs held */
	bool has_last;			/* slot[head - 1] is the run handed out that ended latest */
	struct sp_run slot[SP_RUNORDER_KEEP + 1];
};

/**
 * sp_runorder_task_add - take @r; hand out the task's oldest when it holds too many
 * @t: the task's runs
 * @r: a run of the task
 * @fn: called with the runs handed out (the pointers hold until the next call on @t)
 * @data: handed to @fn
 */
void sp_runorder_task_add(struct sp_runorder_task *t, const struct sp_run *r, sp_runorder_fn fn,
			  void *data);

/**
 * sp_runorder_task_flush - hand out every run @t holds, in order
 * @t: the task's runs
 * @fn: called with each
 * @data: handed to @fn
 */
void sp_runorder_task_flush(struct sp_runorder_task *t, sp_runorder_fn fn, void *data);

/* Every task's runs, by pid. */
struct sp_runorder {
	struct sp_pidtab tasks;		/* pid, then struct sp_runorder_task */
	int error;			/* -ENOMEM: a run was handed out unordered */
};

/**
 * sp_runorder_add - take @r; hand out the task's oldest when it holds too many
 * @ro: the orders (zeroed to begin)
 * @r: a run (pid > 0)
 * @fn: called with the runs handed out
 * @data: handed to @fn
 */
void sp_runorder_add(struct sp_runorder *ro, const struct sp_run *r, sp_runorder_fn fn,
		     void *data);

/**
 * sp_runorder_flush - hand out every run held, each task's in order
 * @ro: the orders
 * @fn: called with each
 * @data: handed to @fn
 */
void sp_runorder_flush(struct sp_runorder *ro, sp_runorder_fn fn, void *data);

/**
 * sp_runorder_clear - forget every run held, keep the memory
 * @ro: the orders
 */
void sp_runorder_clear(struct sp_runorder *ro);

/**
 * sp_runorder_release - free what @ro holds
 * @ro: the orders
 */
void sp_runorder_release(struct sp_runorder *ro);

#endif /* SP_RUNORDER_H */
