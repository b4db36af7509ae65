// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleeps: each task's sleeps by the state it was switched out in, and who
 * ended them (doc/design.md "Sleeps").  Each task's runs are put in the
 * order of their ends (runorder.c): the sleep before a run began at the
 * end of the task's run before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/sleeps.h"
#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"

/* A task's place in the counts. */
struct sp_sleep_last {
	int32_t pid;			/* first: the key in sp_sleeps.last */
	uint32_t task;			/* index in tasks + 1, 0: none yet */
};

enum sp_sleep_state sp_sleep_state_of(const char *state)
{
	if (state && state[0] == 'S')
		return SP_SLEEP_S;
	if (state && state[0] == 'D')
		return SP_SLEEP_D;
	return SP_SLEEP_OTHER;
}

const char *sp_sleep_state_name(enum sp_sleep_state s)
{
	static const char *const names[SP_SLEEP_NR] = { "S", "D", "other" };

	return s < SP_SLEEP_NR ? names[s] : "other";
}

void sp_sleeps_init(struct sp_sleeps *sl, const struct sp_scope *scope)
{
	memset(sl, 0, sizeof(*sl));
	sl->scope = *scope;
}

void sp_sleeps_release(struct sp_sleeps *sl)
{
	free(sl->tasks);
	sp_pidtab_release(&sl->last);
	sp_runorder_release(&sl->order);
	sp_behind_table_release(&sl->wakers);
	memset(sl, 0, sizeof(*sl));
}


/* The sleep between @prev, the task's run before, and @r, if there was one. */
static void sleep_before(void *data, const struct sp_run *prev, const struct sp_run *r)
{
	struct sp_sleeps *sl = data;
	struct sp_sleep_last *l;
	struct sp_sleep_task *t;
	enum sp_sleep_state state;
	uint64_t woke;

	/* a run ended by a repair or by the trace's end begins no sleep */
	if (!prev || prev->end != SP_RUN_END_SWITCH || prev->end_runnable)
		return;
	/* it became runnable again at the start of its wait, else of its run */
	woke = r->start_ns - (r->wait_ns < r->start_ns ? r->wait_ns : r->start_ns);
	if (woke < prev->end_ns || !sp_scope_time(&sl->scope, prev->end_ns) ||
	    !sp_scope_cpu(&sl->scope, prev->cpu) ||
	    (sl->scope.target && !sp_scope_task(&sl->scope, r->pid)))
		return;
	l = sp_pidtab_get(&sl->last, r->pid, sizeof(*l), 256);
	if (!l) {
		sl->error = -ENOMEM;
		return;
	}
	if (!l->task) {
		if (sp_grow_array(&sl->tasks, &sl->alloc_tasks, sl->nr_tasks + 1,
				  sizeof(*sl->tasks))) {
			sl->error = -ENOMEM;
			return;
		}
		sl->tasks[sl->nr_tasks] = (struct sp_sleep_task){ .pid = r->pid };
		l->task = (uint32_t)++sl->nr_tasks;
	}
	t = &sl->tasks[l->task - 1];
	state = sp_sleep_state_of(prev->end_state);
	t->nr[state]++;
	t->ns[state] += woke - prev->end_ns;
	if (r->waker != SP_WAKER_NONE)
		sp_behind_table_add(&sl->wakers, r->pid, r->waker, 1);
	if (sl->wakers.error)
		sl->error = sl->wakers.error;
}

void sp_sleeps_add(struct sp_sleeps *sl, const struct sp_run *r)
{
	if (r->pid <= 0)
		return;
	sp_runorder_add(&sl->order, r, sleep_before, sl);
	if (sl->order.error)
		sl->error = sl->order.error;
}

void sp_sleeps_finish(struct sp_sleeps *sl)
{
	sp_runorder_flush(&sl->order, sleep_before, sl);
}

const struct sp_sleep_task *sp_sleeps_find(const struct sp_sleeps *sl, int pid)
{
	const struct sp_sleep_last *l = sp_pidtab_find(&sl->last, pid, sizeof(*l));

	return l && l->task ? &sl->tasks[l->task - 1] : NULL;
}

static void obs_run_info(void *data, const struct sp_run *r)
{
	sp_sleeps_add(data, r);
}

static void obs_reset(void *data)
{
	struct sp_sleeps *sl = data;
	struct sp_scope scope = sl->scope;

	sp_sleeps_release(sl);
	sp_sleeps_init(sl, &scope);
}

void sp_sleeps_observer(struct sp_sleeps *sl, struct sp_model_observer *obs)
{
	*obs = (struct sp_model_observer){
		.run_info = obs_run_info,
		.reset = obs_reset,
		.data = sl,
	};
}
