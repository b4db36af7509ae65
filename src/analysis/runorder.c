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
	int32_t pid;			/* 0: a free slot */
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

static size_t slot(const struct sp_runorder *ro, int pid)
{
	size_t mask = ro->alloc - 1, i = ((uint32_t)pid * 2654435761u) & mask;

	while (ro->tasks[i].pid && ro->tasks[i].pid != pid)
		i = (i + 1) & mask;
	return i;
}

/* @pid's entry, made on first sight; NULL for ENOMEM. */
static struct sp_runorder_task *task_get(struct sp_runorder *ro, int pid)
{
	size_t i;

	if ((ro->nr + 1) * 2 > ro->alloc) {
		struct sp_runorder_task *old = ro->tasks;
		size_t n = ro->alloc, alloc = n ? n * 2 : 64;

		ro->tasks = sp_alloc_array(alloc, sizeof(*ro->tasks));
		if (!ro->tasks) {
			ro->tasks = old;
			return NULL;
		}
		ro->alloc = alloc;
		for (size_t j = 0; j < n; j++)
			if (old[j].pid)
				ro->tasks[slot(ro, old[j].pid)] = old[j];
		free(old);
	}
	i = slot(ro, pid);
	if (!ro->tasks[i].pid) {
		ro->tasks[i].pid = pid;
		ro->tasks[i].nr = 0;
		ro->tasks[i].has_last = false;
		ro->nr++;
	}
	return &ro->tasks[i];
}

void sp_runorder_add(struct sp_runorder *ro, const struct sp_run *r, sp_runorder_fn fn,
		     void *data)
{
	struct sp_runorder_task *t = task_get(ro, r->pid);
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
	for (size_t i = 0; i < ro->alloc; i++) {
		struct sp_runorder_task *t = &ro->tasks[i];

		for (uint32_t k = 0; t->pid && k < t->nr; k++)
			hand_out(t, &t->runs[k], fn, data);
		t->nr = 0;
	}
}

void sp_runorder_clear(struct sp_runorder *ro)
{
	for (size_t i = 0; i < ro->alloc; i++)
		ro->tasks[i].pid = 0;
	ro->nr = 0;
	ro->error = 0;
}

void sp_runorder_release(struct sp_runorder *ro)
{
	free(ro->tasks);
	memset(ro, 0, sizeof(*ro));
}
