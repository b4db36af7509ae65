// SPDX-License-Identifier: GPL-2.0-only
/*
 * runorder: each task's runs put back in the order of their ends
 * (runorder.h): a few held per task, sorted by insertion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/runorder.h"
#include "schedplot/base/alloc.h"

struct sp_runorder_task {
	int32_t pid;			/* first: the key in sp_runorder.tasks */
	uint32_t nr;
	bool has_last;
	struct sp_run last;		/* the run handed out that ended latest */
	struct sp_run runs[SP_RUNORDER_KEEP];	/* sorted, the first ending first */
};

/* Hand @r out with the task's run before it. */
static void hand_out(struct sp_runorder_task *t, const struct sp_run *r, sp_runorder_fn fn,
		     void *data)
{
	struct sp_run run = *r;

	fn(data, t->has_last ? &t->last : NULL, &run);
	if (!t->has_last || run.end_ns >= t->last.end_ns) {
		t->last = run;
		t->has_last = true;
	}
}

static bool run_before(const struct sp_run *a, const struct sp_run *b)
{
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns;
	return a->cpu < b->cpu;
}

void sp_runorder_add(struct sp_runorder *ro, const struct sp_run *r, sp_runorder_fn fn,
		     void *data)
{
	struct sp_runorder_task *t = sp_pidtab_get(&ro->tasks, r->pid, sizeof(*t), 64);
	struct sp_run first;
	uint32_t i;

	if (!t) {
		ro->error = -ENOMEM;
		fn(data, NULL, r);
		return;
	}
	if (t->nr == SP_RUNORDER_KEEP) {
		/* the oldest goes, unless @r ends before it */
		if (run_before(r, &t->runs[0])) {
			hand_out(t, r, fn, data);
			return;
		}
		first = t->runs[0];
		memmove(t->runs, t->runs + 1, --t->nr * sizeof(*t->runs));
		hand_out(t, &first, fn, data);
	}
	for (i = t->nr; i > 0 && run_before(r, &t->runs[i - 1]); i--)
		t->runs[i] = t->runs[i - 1];
	t->runs[i] = *r;
	t->nr++;
}

void sp_runorder_flush(struct sp_runorder *ro, sp_runorder_fn fn, void *data)
{
	struct sp_runorder_task *tasks = ro->tasks.slots;

	for (size_t i = 0; i < ro->tasks.alloc; i++) {
		struct sp_runorder_task *t = &tasks[i];

		for (uint32_t k = 0; t->pid && k < t->nr; k++)
			hand_out(t, &t->runs[k], fn, data);
		t->nr = 0;
	}
}

void sp_runorder_clear(struct sp_runorder *ro)
{
	sp_pidtab_clear(&ro->tasks, sizeof(struct sp_runorder_task));
	ro->error = 0;
}

void sp_runorder_release(struct sp_runorder *ro)
{
	sp_pidtab_release(&ro->tasks);
	ro->error = 0;
}
