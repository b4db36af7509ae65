// SPDX-License-Identifier: GPL-2.0-only
/*
 * runorder: each task's runs put back in the order of their ends
 * (runorder.h), in a table by pid for the consumers that keep no state
 * of their own per task.
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
