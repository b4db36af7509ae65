// SPDX-License-Identifier: GPL-2.0-only
/*
 * runorder: each task's runs put back in the order of their ends
 * (runorder.h): a few held per task, sorted by insertion from the back,
 * where a run that came in order goes at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/runorder.h"
#include "schedplot/base/alloc.h"

/* An entry of sp_runorder.tasks. */
struct runorder_entry {
	int32_t pid;			/* first: the key */
	struct sp_runorder_task t;
};

/* The ring's slots: a power of 2. */
#define SLOTS		(SP_RUNORDER_KEEP + 1)
#define SLOT(t, i)	(&(t)->slot[((t)->head + (i)) & (SLOTS - 1)])

_Static_assert((SLOTS & (SLOTS - 1)) == 0, "the ring's size is a power of 2");

static bool run_before(const struct sp_run *a, const struct sp_run *b)
{
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns;
	return a->cpu < b->cpu;
}

/* Hand out the oldest run held with the task's run before it; it is last when it ended latest. */
static void hand_out_oldest(struct sp_runorder_task *t, sp_runorder_fn fn, void *data)
{
	struct sp_run *run = SLOT(t, 0), *last = t->has_last ? SLOT(t, SLOTS - 1) : NULL;

	fn(data, last, run);
	/* its slot comes before the runs held: last's */
	if (last && run->end_ns < last->end_ns)
		*run = *last;
	t->head = (t->head + 1) & (SLOTS - 1);
	t->nr--;
	t->has_last = true;
}

void sp_runorder_task_add(struct sp_runorder_task *t, const struct sp_run *r, sp_runorder_fn fn,
			  void *data)
{
	unsigned int i;

	if (t->nr == SP_RUNORDER_KEEP) {
		/* the oldest goes, unless @r ends before it */
		if (run_before(r, SLOT(t, 0))) {
			struct sp_run *last = t->has_last ? SLOT(t, SLOTS - 1) : NULL;

			fn(data, last, r);
			if (!last || r->end_ns >= last->end_ns) {
				*SLOT(t, SLOTS - 1) = *r;
				t->has_last = true;
			}
			return;
		}
		hand_out_oldest(t, fn, data);
	}
	/* insertion from the back: most runs come in order */
	for (i = t->nr; i > 0 && run_before(r, SLOT(t, i - 1)); i--)
		*SLOT(t, i) = *SLOT(t, i - 1);
	*SLOT(t, i) = *r;
	t->nr++;
}

void sp_runorder_task_flush(struct sp_runorder_task *t, sp_runorder_fn fn, void *data)
{
	while (t->nr)
		hand_out_oldest(t, fn, data);
}

void sp_runorder_add(struct sp_runorder *ro, const struct sp_run *r, sp_runorder_fn fn,
		     void *data)
{
	struct runorder_entry *e = sp_pidtab_get(&ro->tasks, r->pid, sizeof(*e), 64);

	if (!e) {
		ro->error = -ENOMEM;
		fn(data, NULL, r);
		return;
	}
	sp_runorder_task_add(&e->t, r, fn, data);
}

void sp_runorder_flush(struct sp_runorder *ro, sp_runorder_fn fn, void *data)
{
	struct runorder_entry *tasks = ro->tasks.slots;

	for (size_t i = 0; i < ro->tasks.alloc; i++)
		if (tasks[i].pid)
			sp_runorder_task_flush(&tasks[i].t, fn, data);
}

void sp_runorder_clear(struct sp_runorder *ro)
{
	sp_pidtab_clear(&ro->tasks, sizeof(struct runorder_entry));
	ro->error = 0;
}

void sp_runorder_release(struct sp_runorder *ro)
{
	sp_pidtab_release(&ro->tasks);
	ro->error = 0;
}
