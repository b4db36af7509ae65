/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TASKLINE_H
#define SP_TASKLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/muldiv.h"
#include "schedplot/model/runlist.h"
#include "schedplot/model/timeline.h"

struct sp_model_observer;
struct sp_run;

/*
 * Per-pixel aggregation of the model's runs seen from the tasks: for every
 * task and pixel column of the window, what the task did for most of the
 * column: ran on a CPU (which one), waited for a CPU, or neither (slept).
 * Columns are cut as the timeline cuts them (base/muldiv.h sp_col_of()).
 *
 * Fed by the model's run_info callback: a run [start, end) on a CPU, and
 * the wait that ended as it began, [start - wait_ns, start).  Each column
 * keeps the task's share of it running and its share waiting (each exact
 * to a 65535th per piece, and never 0 when the task ran or waited there at
 * all), and the CPU it ran on: a piece on another CPU with a larger share
 * than the CPU's so far takes the column, one on the same CPU adds to it.
 * The rest of the column the task slept (or was not yet born); the part
 * of it in which it slept uninterruptibly (a sleep that began with a
 * switch-out in state D, until it next became runnable) is kept as a share
 * of its own, blocked.  Views ink
 * a cell in proportion to its shares (draw/ink.h) under
 * SP_TIMELINE_BUSIEST, or draw its dominant state whole under
 * SP_TIMELINE_LONGEST.
 *
 * Memory: 8 bytes per column for every task with a run or a wait inside
 * the window, O(tasks x columns), never O(events); plus, when asked for, up
 * to max_runs runs kept whole (struct sp_runlist, for SVG titles).
 */

/* Cell states: SP_TASKLINE_CPU + cpu for a run on a CPU. */
enum {
	SP_TASKLINE_SLEEP,
	SP_TASKLINE_WAIT,
	SP_TASKLINE_BLOCKED,	/* slept in state D */
	SP_TASKLINE_CPU,
};

#define SP_TASKLINE_SHARE_MAX 65535u

/* One task's column: shares of SP_TASKLINE_SHARE_MAX. */
struct sp_taskline_cell {
	uint16_t run;		/* ran, on any CPU counted */
	uint16_t wait;		/* waited for a CPU */
	uint16_t cpu;		/* the CPU it ran on longest (when run > 0) */
	uint16_t cpu_run;	/* its share on that CPU */
	uint16_t blocked;	/* slept in state D (uninterruptible: I/O, a lock) */
};

struct sp_taskline_task {
	int32_t pid;
	uint64_t run_ns;	/* ran inside the window, on the CPUs counted */
	uint64_t wait_ns;	/* waited inside the window */
	uint64_t first_ns;	/* start of its first run or wait inside the window */
	uint64_t blocked_ns;	/* slept in state D inside the window */
	/* its last run's end, when a sleep in state D began there, else SP_NO_TS */
	uint64_t blocked_since_ns;
	struct sp_taskline_cell *cells;	/* per column */
};

struct sp_taskline {
	struct sp_cols window;		/* the window and its columns */
	enum sp_timeline_rule rule;	/* how views draw a cell, see above */
	const bool *cpus;		/* nr_cpus entries, true: counted; NULL: all */
	int nr_cpus;
	struct sp_taskline_task *tasks;
	size_t nr_tasks;
	size_t alloc_tasks;
	int32_t *index;			/* open addressing: pid -> tasks index + 1, 0 free */
	size_t nr_index;		/* a power of two */
	struct sp_runlist runs;		/* the runs counted, while few */
	/*
	 * the tasks not in @tasks whose last run, before the window, ended
	 * in state D: pid and that end, in no order
	 */
	struct sp_taskline_blocked {
		int32_t pid;
		uint64_t since_ns;
	} *pending;
	size_t nr_pending, alloc_pending;
	int error;			/* the first failed allocation, -ENOMEM */
};

/**
 * sp_taskline_init - prepare an empty task line
 * @tl: the task line
 * @t0_ns: window start
 * @t1_ns: window end (> @t0_ns)
 * @nr_cols: pixel columns (>= 1)
 * @cpus: the CPUs whose runs count (kept by reference), NULL for all
 * @nr_cpus: entries of @cpus
 * @max_runs: runs to keep whole at most (0: none)
 *
 * Return: 0, -EINVAL for a bad window or column count, or -ENOMEM.
 */
int sp_taskline_init(struct sp_taskline *tl, uint64_t t0_ns, uint64_t t1_ns,
		     unsigned int nr_cols, const bool *cpus, int nr_cpus, size_t max_runs);

/**
 * sp_taskline_release - free what the task line holds
 * @tl: initialised or zeroed
 */
void sp_taskline_release(struct sp_taskline *tl);

/**
 * sp_taskline_reset - forget what was added (the model starts the pass over)
 * @tl: the task line
 */
void sp_taskline_reset(struct sp_taskline *tl);

/**
 * sp_taskline_add - add a run and the wait before it
 * @tl: the task line
 * @r: the run (pid 0's runs are ignored)
 */
void sp_taskline_add(struct sp_taskline *tl, const struct sp_run *r);

/**
 * sp_taskline_observer - the consumer of a pass that feeds @tl
 * @tl: the task line
 * @obs: filled in (run_info, reset and data; the others NULL)
 */
void sp_taskline_observer(struct sp_taskline *tl, struct sp_model_observer *obs);

/**
 * sp_taskline_reset_cb - sp_taskline_reset() for sp_trace_run()'s reset
 * @data: the task line
 */
void sp_taskline_reset_cb(void *data);

/**
 * sp_taskline_find - a task's line
 * @tl: the task line
 * @pid: the task
 *
 * Return: the task, or NULL when it neither ran nor waited in the window.
 */
const struct sp_taskline_task *sp_taskline_find(const struct sp_taskline *tl, int pid);

/**
 * sp_taskline_col_start - the first timestamp of a column
 * @tl: the task line
 * @col: 0..nr_cols (nr_cols gives t1)
 *
 * Return: the timestamp.
 */
uint64_t sp_taskline_col_start(const struct sp_taskline *tl, unsigned int col);

/**
 * sp_taskline_set_rule - how views draw the cells
 * @tl: the task line
 * @rule: SP_TIMELINE_BUSIEST (sp_taskline_init()'s), or SP_TIMELINE_LONGEST
 */
void sp_taskline_set_rule(struct sp_taskline *tl, enum sp_timeline_rule rule);

/**
 * sp_taskline_state - what a task did for most of a column while it did anything
 * @cell: the cell
 *
 * Return: SP_TASKLINE_CPU + its CPU when it ran at least as long as it
 * waited and ran at all, SP_TASKLINE_WAIT when it waited longer,
 * SP_TASKLINE_BLOCKED when it did neither but slept in state D,
 * SP_TASKLINE_SLEEP when it did none of these.
 */
static inline unsigned int sp_taskline_state(const struct sp_taskline_cell *cell)
{
	if (cell->run && cell->run >= cell->wait)
		return SP_TASKLINE_CPU + cell->cpu;
	if (cell->wait)
		return SP_TASKLINE_WAIT;
	return cell->blocked ? SP_TASKLINE_BLOCKED : SP_TASKLINE_SLEEP;
}

#endif /* SP_TASKLINE_H */
