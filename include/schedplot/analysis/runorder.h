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

/* The ring's slots, a power of 2, and a task's @i-th from head. */
#define SP_RUNORDER_SLOTS	(SP_RUNORDER_KEEP + 1)
#define SP_RUNORDER_SLOT(t, i)	(&(t)->slot[((t)->head + (i)) & (SP_RUNORDER_SLOTS - 1)])

_Static_assert((SP_RUNORDER_SLOTS & (SP_RUNORDER_SLOTS - 1)) == 0,
	       "the ring's size is a power of 2");

/* The order handed out: by end, then start, then CPU. */
static inline bool sp_runorder_before(const struct sp_run *a, const struct sp_run *b)
{
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns;
	return a->cpu < b->cpu;
}

/* Hand out the oldest run held with the task's run before it; it is last when it ended latest. */
static inline __attribute__((always_inline)) void
sp_runorder_task_hand_out(struct sp_runorder_task *t, sp_runorder_fn fn, void *data)
{
	struct sp_run *run = SP_RUNORDER_SLOT(t, 0);
	struct sp_run *last = t->has_last ? SP_RUNORDER_SLOT(t, SP_RUNORDER_SLOTS - 1) : NULL;

	fn(data, last, run);
	/* its slot comes before the runs held: last's */
	if (last && run->end_ns < last->end_ns)
		*run = *last;
	t->head = (t->head + 1) & (SP_RUNORDER_SLOTS - 1);
	t->nr--;
	t->has_last = true;
}

/**
 * sp_runorder_task_add - take @r; hand out the task's oldest when it holds too many
 * @t: the task's runs
 * @r: a run of the task
 * @fn: called with the runs handed out (the pointers hold until the next call on @t)
 * @data: handed to @fn
 *
 * Inline, always, as it runs once a run of every task: a consumer's @fn
 * is inlined into it, and it into the consumer.
 */
static inline __attribute__((always_inline)) void
sp_runorder_task_add(struct sp_runorder_task *t, const struct sp_run *r, sp_runorder_fn fn,
		     void *data)
{
	unsigned int i;

	if (t->nr == SP_RUNORDER_KEEP &&
	    !sp_runorder_before(r, SP_RUNORDER_SLOT(t, SP_RUNORDER_KEEP - 1))) {
		/* in order, as most come: the oldest goes, @r is the newest */
		sp_runorder_task_hand_out(t, fn, data);
		*SP_RUNORDER_SLOT(t, SP_RUNORDER_KEEP - 1) = *r;
		t->nr++;
		return;
	}
	if (t->nr == SP_RUNORDER_KEEP) {
		/* the oldest goes, unless @r ends before it */
		if (sp_runorder_before(r, SP_RUNORDER_SLOT(t, 0))) {
			struct sp_run *last = t->has_last ?
				SP_RUNORDER_SLOT(t, SP_RUNORDER_SLOTS - 1) : NULL;

			fn(data, last, r);
			if (!last || r->end_ns >= last->end_ns) {
				*SP_RUNORDER_SLOT(t, SP_RUNORDER_SLOTS - 1) = *r;
				t->has_last = true;
			}
			return;
		}
		sp_runorder_task_hand_out(t, fn, data);
	}
	/* insertion from the back: most runs come in order */
	for (i = t->nr; i > 0 && sp_runorder_before(r, SP_RUNORDER_SLOT(t, i - 1)); i--)
		*SP_RUNORDER_SLOT(t, i) = *SP_RUNORDER_SLOT(t, i - 1);
	*SP_RUNORDER_SLOT(t, i) = *r;
	t->nr++;
}

/**
 * sp_runorder_task_flush - hand out every run @t holds, in order
 * @t: the task's runs
 * @fn: called with each
 * @data: handed to @fn
 */
static inline void sp_runorder_task_flush(struct sp_runorder_task *t, sp_runorder_fn fn,
					  void *data)
{
	while (t->nr)
		sp_runorder_task_hand_out(t, fn, data);
}

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
