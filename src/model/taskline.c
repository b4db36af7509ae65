// SPDX-License-Identifier: GPL-2.0-only
/*
 * The task line: what each task did in each pixel column of the window
 * (include/schedplot/model/taskline.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/muldiv.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"
#include "schedplot/model/taskline.h"

int sp_taskline_init(struct sp_taskline *tl, uint64_t t0_ns, uint64_t t1_ns,
		     unsigned int nr_cols, const bool *cpus, int nr_cpus, size_t max_runs)
{
	memset(tl, 0, sizeof(*tl));
	if (t1_ns <= t0_ns || !nr_cols)
		return -EINVAL;
	tl->window = (struct sp_cols){ .t0_ns = t0_ns, .t1_ns = t1_ns, .nr_cols = nr_cols };
	tl->cpus = cpus;
	tl->nr_cpus = nr_cpus;
	sp_runlist_init(&tl->runs, t0_ns, t1_ns, max_runs);
	tl->nr_index = 256;
	tl->index = calloc(tl->nr_index, sizeof(*tl->index));
	return tl->index ? 0 : -ENOMEM;
}

void sp_taskline_reset(struct sp_taskline *tl)
{
	for (size_t i = 0; i < tl->nr_tasks; i++)
		free(tl->tasks[i].cells);
	tl->nr_tasks = 0;
	tl->nr_pending = 0;
	if (tl->index)
		memset(tl->index, 0, tl->nr_index * sizeof(*tl->index));
	sp_runlist_reset(&tl->runs);
}

void sp_taskline_release(struct sp_taskline *tl)
{
	sp_taskline_reset(tl);
	free(tl->tasks);
	free(tl->pending);
	free(tl->index);
	sp_runlist_release(&tl->runs);
	memset(tl, 0, sizeof(*tl));
}

void sp_taskline_set_rule(struct sp_taskline *tl, enum sp_timeline_rule rule)
{
	tl->rule = rule;
}

void sp_taskline_reset_cb(void *data)
{
	sp_taskline_reset(data);
}

static size_t slot_of(const struct sp_taskline *tl, int pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (tl->nr_index - 1);

	while (tl->index[i] && tl->tasks[tl->index[i] - 1].pid != pid)
		i = (i + 1) & (tl->nr_index - 1);
	return i;
}

const struct sp_taskline_task *sp_taskline_find(const struct sp_taskline *tl, int pid)
{
	size_t i;

	if (!tl->index)
		return NULL;
	i = slot_of(tl, pid);
	return tl->index[i] ? &tl->tasks[tl->index[i] - 1] : NULL;
}

/* Keep the index at most half full. */
static int grow_index(struct sp_taskline *tl)
{
	size_t old_n = tl->nr_index;
	int32_t *old = tl->index;

	if (tl->nr_tasks + 1 <= old_n / 2)
		return 0;
	tl->index = sp_alloc_array(old_n * 2, sizeof(*tl->index));
	if (!tl->index) {
		tl->index = old;
		return -ENOMEM;
	}
	memset(tl->index, 0, old_n * 2 * sizeof(*tl->index));
	tl->nr_index = old_n * 2;
	for (size_t i = 0; i < old_n; i++)
		if (old[i])
			tl->index[slot_of(tl, tl->tasks[old[i] - 1].pid)] = old[i];
	free(old);
	return 0;
}

static struct sp_taskline_task *task_get(struct sp_taskline *tl, int pid)
{
	struct sp_taskline_task *task;
	size_t i = slot_of(tl, pid);

	if (tl->index[i])
		return &tl->tasks[tl->index[i] - 1];
	if (grow_index(tl) ||
	    sp_grow_array(&tl->tasks, &tl->alloc_tasks, tl->nr_tasks + 1, sizeof(*tl->tasks)))
		return NULL;
	task = &tl->tasks[tl->nr_tasks];
	memset(task, 0, sizeof(*task));
	task->pid = pid;
	task->first_ns = SP_NO_TS;
	task->blocked_since_ns = SP_NO_TS;
	task->cells = calloc(tl->window.nr_cols, sizeof(*task->cells));
	if (!task->cells)
		return NULL;
	tl->nr_tasks++;
	tl->index[slot_of(tl, pid)] = (int32_t)tl->nr_tasks;
	return task;
}

uint64_t sp_taskline_col_start(const struct sp_taskline *tl, unsigned int col)
{
	return sp_cols_start(&tl->window, col);
}

/* @have plus @add, at most the whole column, and never 0 once anything was added. */
static uint16_t share_add(uint16_t have, uint64_t add)
{
	uint64_t s = have + add;

	if (!s)
		s = 1;
	return (uint16_t)(s > SP_TASKLINE_SHARE_MAX ? SP_TASKLINE_SHARE_MAX : s);
}

/* @ns of @state in column @col: added to its share; a run also bids for the column's CPU. */
static void cell_add(const struct sp_taskline *tl, struct sp_taskline_cell *cell, unsigned int col,
		     unsigned int state, uint64_t ns)
{
	uint64_t w = sp_taskline_col_start(tl, col + 1) - sp_taskline_col_start(tl, col);
	/* rounded to nearest per piece: many short pieces add up to their time */
	uint64_t share = w ? sp_muldiv(ns, SP_TASKLINE_SHARE_MAX, w / 2, w) : SP_TASKLINE_SHARE_MAX;
	unsigned int cpu = state - SP_TASKLINE_CPU;

	if (!ns)
		return;
	if (state == SP_TASKLINE_WAIT) {
		cell->wait = share_add(cell->wait, share);
		return;
	}
	if (state == SP_TASKLINE_BLOCKED) {
		cell->blocked = share_add(cell->blocked, share);
		return;
	}
	if (cell->run && cell->cpu == cpu) {
		cell->cpu_run = share_add(cell->cpu_run, share);
	} else if (!cell->run || share > cell->cpu_run ||
		   (share == cell->cpu_run && cpu < cell->cpu)) {
		cell->cpu = (uint16_t)cpu;
		cell->cpu_run = share_add(0, share);
	}
	cell->run = share_add(cell->run, share);
}

/* A column spent whole in @state. */
static void cell_whole(struct sp_taskline_cell *cell, unsigned int state)
{
	if (state == SP_TASKLINE_WAIT) {
		*cell = (struct sp_taskline_cell){ .wait = SP_TASKLINE_SHARE_MAX };
		return;
	}
	if (state == SP_TASKLINE_BLOCKED) {
		*cell = (struct sp_taskline_cell){ .blocked = SP_TASKLINE_SHARE_MAX };
		return;
	}
	*cell = (struct sp_taskline_cell){ .run = SP_TASKLINE_SHARE_MAX,
					   .cpu = (uint16_t)(state - SP_TASKLINE_CPU),
					   .cpu_run = SP_TASKLINE_SHARE_MAX };
}

/* [t0, t1) in @state, clipped to the window. */
static void add_span(struct sp_taskline *tl, struct sp_taskline_task *task, unsigned int state,
		     uint64_t t0, uint64_t t1)
{
	unsigned int c0, c1;

	if (!sp_span_clip(&t0, &t1, tl->window.t0_ns, tl->window.t1_ns))
		return;
	if (t0 < task->first_ns)
		task->first_ns = t0;
	c0 = (unsigned int)sp_cols_of(&tl->window, t0);
	c1 = (unsigned int)sp_cols_of(&tl->window, t1 - 1);
	if (c0 == c1) {
		cell_add(tl, &task->cells[c0], c0, state, t1 - t0);
		return;
	}
	cell_add(tl, &task->cells[c0], c0, state, sp_taskline_col_start(tl, c0 + 1) - t0);
	for (unsigned int c = c0 + 1; c < c1; c++)
		cell_whole(&task->cells[c], state);
	cell_add(tl, &task->cells[c1], c1, state, t1 - sp_taskline_col_start(tl, c1));
}

/* The pending D sleep of a task not in the table: its index, or nr_pending. */
static size_t pending_find(const struct sp_taskline *tl, int pid)
{
	size_t i;

	for (i = 0; i < tl->nr_pending && tl->pending[i].pid != pid; i++)
		;
	return i;
}

/*
 * How @r ended: a sleep in state D begins at its end (kept with the task,
 * or in the pending list for a task not in the table), or none.
 */
static void blocked_note(struct sp_taskline *tl, struct sp_taskline_task *task,
			 const struct sp_run *r)
{
	bool blocked = r->end == SP_RUN_END_SWITCH && !r->end_runnable && r->end_state &&
		       r->end_state[0] == 'D';
	size_t i;

	if (task) {
		task->blocked_since_ns = blocked ? r->end_ns : SP_NO_TS;
		return;
	}
	i = pending_find(tl, r->pid);
	if (!blocked) {
		if (i < tl->nr_pending)
			tl->pending[i] = tl->pending[--tl->nr_pending];
		return;
	}
	if (i == tl->nr_pending) {
		if (sp_grow_array(&tl->pending, &tl->alloc_pending, tl->nr_pending + 1,
				  sizeof(*tl->pending))) {
			tl->error = -ENOMEM;
			return;
		}
		tl->nr_pending++;
	}
	tl->pending[i] = (struct sp_taskline_blocked){ r->pid, r->end_ns };
}

void sp_taskline_add(struct sp_taskline *tl, const struct sp_run *r)
{
	uint64_t w0 = r->start_ns - r->wait_ns, since = SP_NO_TS;
	bool run_in, wait_in, counted, blocked_in;
	struct sp_taskline_task *task;
	size_t p;

	if (r->pid <= 0 || tl->error)
		return;
	task = (struct sp_taskline_task *)sp_taskline_find(tl, r->pid);
	if (task) {
		since = task->blocked_since_ns;
	} else if ((p = pending_find(tl, r->pid)) < tl->nr_pending) {
		since = tl->pending[p].since_ns;
		tl->pending[p] = tl->pending[--tl->nr_pending];
	}
	counted = !tl->cpus || (r->cpu >= 0 && r->cpu < tl->nr_cpus && tl->cpus[r->cpu]);
	run_in = counted && r->end_ns > r->start_ns && r->start_ns < tl->window.t1_ns &&
		 r->end_ns > tl->window.t0_ns && r->cpu >= 0 && r->cpu < 65535 - SP_TASKLINE_CPU;
	wait_in = r->wait_ns && w0 < tl->window.t1_ns && r->start_ns > tl->window.t0_ns;
	/* the D sleep before it: from its last run's end until it became runnable */
	blocked_in = since != SP_NO_TS && since < w0 && since < tl->window.t1_ns && w0 > tl->window.t0_ns;
	if (!run_in && !wait_in && !blocked_in) {
		blocked_note(tl, task, r);
		return;
	}
	if (!task)
		task = task_get(tl, r->pid);
	if (!task) {
		tl->error = -ENOMEM;
		return;
	}
	if (blocked_in) {
		add_span(tl, task, SP_TASKLINE_BLOCKED, since, w0);
		task->blocked_ns += (w0 < tl->window.t1_ns ? w0 : tl->window.t1_ns) -
				    (since > tl->window.t0_ns ? since : tl->window.t0_ns);
	}
	blocked_note(tl, task, r);
	if (wait_in) {
		add_span(tl, task, SP_TASKLINE_WAIT, w0, r->start_ns);
		task->wait_ns += (r->start_ns < tl->window.t1_ns ? r->start_ns : tl->window.t1_ns) -
				 (w0 > tl->window.t0_ns ? w0 : tl->window.t0_ns);
	}
	if (run_in) {
		add_span(tl, task, SP_TASKLINE_CPU + (unsigned int)r->cpu, r->start_ns, r->end_ns);
		task->run_ns += (r->end_ns < tl->window.t1_ns ? r->end_ns : tl->window.t1_ns) -
				(r->start_ns > tl->window.t0_ns ? r->start_ns : tl->window.t0_ns);
		sp_runlist_add(&tl->runs, r);
	}
}

static void observer_run_info(void *data, const struct sp_run *r)
{
	sp_taskline_add(data, r);
}

void sp_taskline_observer(struct sp_taskline *tl, struct sp_model_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	obs->run_info = observer_run_info;
	obs->reset = sp_taskline_reset_cb;
	obs->data = tl;
}
