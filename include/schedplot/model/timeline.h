/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TIMELINE_H
#define SP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/muldiv.h"

struct sp_model_observer;

/*
 * Per-pixel aggregation of the model's runs, for the core-by-time views.
 * The window [t0, t1) is cut into nr_cols columns and every drawn CPU gets
 * a row; for each row and column the timeline keeps a pid and two shares
 * of the column: the time some task ran (busy) and the time no run covers
 * ("no data": before a CPU's first record, or while its current task is
 * unknown, SP_TIMELINE_NO_DATA); the rest is idle (pid 0).
 *
 * Which pid a cell keeps depends on the rule.  SP_TIMELINE_BUSIEST (the
 * default) keeps the task with most of the busy time, so that a column in
 * which anything ran names a task however short its runs were; idle or no
 * data only where no task ran.  A view inks such a cell in proportion to
 * its busy share (draw/ink.h), and a pattern finer than a column becomes
 * an even tint rather than false blocks.  SP_TIMELINE_LONGEST keeps
 * whatever held the column longest, idle and no data competing like any
 * task: the rule for values that are not tasks (frequencies, idle states)
 * and the old look of the charts (`--aggregate longest`).
 *
 * Column c covers the times t with floor((t - t0) * nr_cols / (t1 - t0)) == c:
 *
 *	t0                                                         t1
 *	|   col 0   |   col 1   |   col 2   |  ...  | col nr_cols-1 |
 *	    [--A--][B]                 A holds col 0 even though B's
 *	             [-----------------C--...       run starts in it
 *
 * Runs arrive per CPU in time order (CPUs interleaved).  A row keeps only
 * the column in progress: up to SP_TIMELINE_SLOTS (pid, time) pairs,
 * exact while a column of a row holds no more tasks than that; beyond, the
 * pair with least time is replaced (the Space-Saving rule), which still
 * keeps every task holding more than 1/SP_TIMELINE_SLOTS of the column.
 * Columns a run covers whole are written directly.  Memory is
 * O(rows x columns + tasks), never O(events).
 *
 * Ties go to a task over idle over no data, and between tasks to the
 * lower pid, so the result does not depend on the order of equal runs.
 */

#define SP_TIMELINE_NO_DATA (-1)
#define SP_TIMELINE_SLOTS 16
#define SP_TIMELINE_SHARE_MAX 65535u	/* a share of the whole column */

/* Which pid a cell keeps; see above. */
enum sp_timeline_rule {
	SP_TIMELINE_BUSIEST,
	SP_TIMELINE_LONGEST,
};

struct sp_timeline_slot {
	int32_t pid;
	uint64_t ns;
};

/* The column in progress of one row. */
struct sp_timeline_acc {
	int64_t col;			/* -1: none */
	uint64_t covered_ns;		/* time accounted for, from t0 */
	uint64_t busy_ns, no_data_ns;	/* of the column in progress, exact */
	uint64_t seen_col;		/* the column last looked up, spanning */
	uint64_t seen_start, seen_end;	/* [seen_start, seen_end); empty at first */
	unsigned int nr_slots;
	struct sp_timeline_slot slots[SP_TIMELINE_SLOTS];
};

struct sp_timeline_total {
	int32_t pid;			/* SP_TIMELINE_NO_DATA marks a free entry */
	uint64_t ns;
};

struct sp_timeline {
	struct sp_cols window;		/* the window and its columns */
	unsigned int nr_rows;
	int nr_cpus;
	int *row_of_cpu;		/* nr_cpus entries: row, or -1 when not drawn */
	int *cpu_of_row;		/* nr_rows entries */
	enum sp_timeline_rule rule;
	int32_t *cells;			/* [row * nr_cols + col]: pid or SP_TIMELINE_NO_DATA */
	uint16_t *busy;			/* [row * nr_cols + col]: busy share, > 0 if any */
	uint16_t *no_data;		/* [row * nr_cols + col]: no-data share, > 0 if any */
	uint64_t no_data_ns;		/* time of no data inside the window, all rows */

	/* private */
	struct sp_timeline_acc *acc;	/* per row */
	struct sp_timeline_total *totals;	/* open addressing by pid */
	size_t alloc_totals;
	size_t nr_totals;
	int error;			/* sticky -ENOMEM from sp_timeline_add() */
	bool finished;
};

/**
 * sp_timeline_init - prepare an empty timeline
 * @tl: the timeline
 * @t0_ns: window start
 * @t1_ns: window end, > @t0_ns
 * @nr_cols: pixel columns (>= 1)
 * @nr_cpus: CPUs in the trace
 * @cpu_of_row: the CPU drawn in each row (each in 0..@nr_cpus-1, no repeats)
 * @nr_rows: rows (>= 1)
 *
 * Return: 0, -EINVAL for bad arguments, or -ENOMEM.
 */
int sp_timeline_init(struct sp_timeline *tl, uint64_t t0_ns, uint64_t t1_ns,
		     unsigned int nr_cols, int nr_cpus, const int *cpu_of_row,
		     unsigned int nr_rows);

/**
 * sp_timeline_set_rule - choose which pid a cell keeps
 * @tl: an initialised timeline, before its first run
 * @rule: SP_TIMELINE_BUSIEST (what sp_timeline_init() sets) or SP_TIMELINE_LONGEST
 */
void sp_timeline_set_rule(struct sp_timeline *tl, enum sp_timeline_rule rule);

/**
 * sp_timeline_release - free what the timeline holds (the struct stays)
 * @tl: the timeline (zeroed or initialised)
 */
void sp_timeline_release(struct sp_timeline *tl);

/**
 * sp_timeline_reset - forget every run, keeping the window, rows and memory
 * @tl: the timeline
 *
 * For a pass made again (see sp_trace_run()).
 */
void sp_timeline_reset(struct sp_timeline *tl);

/**
 * sp_timeline_add - account one run
 * @tl: the timeline
 * @cpu: the CPU (runs of CPUs without a row are ignored)
 * @pid: the task, 0 for idle
 * @t0_ns: run start
 * @t1_ns: run end
 *
 * Runs of one CPU must come in time order; overlaps with time already
 * accounted are cut off.  Out of memory is remembered for
 * sp_timeline_finish().
 */
void sp_timeline_add(struct sp_timeline *tl, int cpu, int pid, uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_timeline_finish - close every row: the time after its last run is no data
 * @tl: the timeline
 *
 * Return: 0, or -ENOMEM when a run could not be accounted.
 */
int sp_timeline_finish(struct sp_timeline *tl);

/**
 * sp_timeline_observer - the consumer of a pass whose run() feeds @tl
 * @tl: the timeline
 * @obs: filled in (only run, reset and data are set)
 */
void sp_timeline_observer(struct sp_timeline *tl, struct sp_model_observer *obs);

/**
 * sp_timeline_reset_cb - sp_timeline_reset() with the signature sp_trace_run() wants
 * @data: the timeline
 */
void sp_timeline_reset_cb(void *data);

/**
 * sp_timeline_cell - the pid a row's column keeps (see the rules above)
 * @tl: a finished timeline
 * @row: the row
 * @col: the column
 *
 * Return: the pid, 0 for idle, or SP_TIMELINE_NO_DATA.
 */
static inline int32_t sp_timeline_cell(const struct sp_timeline *tl, unsigned int row,
				       unsigned int col)
{
	return tl->cells[(size_t)row * tl->window.nr_cols + col];
}

/**
 * sp_timeline_busy_share - the share of a row's column during which a task ran
 * @tl: a finished timeline
 * @row: the row
 * @col: the column
 *
 * Return: 0 (no task ran) to SP_TIMELINE_SHARE_MAX (busy throughout),
 * rounded to nearest but never to 0 when a task ran at all.
 */
static inline unsigned int sp_timeline_busy_share(const struct sp_timeline *tl, unsigned int row,
						  unsigned int col)
{
	return tl->busy[(size_t)row * tl->window.nr_cols + col];
}

/**
 * sp_timeline_no_data_share - the share of a row's column that no run covers
 * @tl: a finished timeline
 * @row: the row
 * @col: the column
 *
 * Return: 0 to SP_TIMELINE_SHARE_MAX, rounded as sp_timeline_busy_share().
 */
static inline unsigned int sp_timeline_no_data_share(const struct sp_timeline *tl,
						     unsigned int row, unsigned int col)
{
	return tl->no_data[(size_t)row * tl->window.nr_cols + col];
}

/**
 * sp_timeline_total - time a task ran inside the window on the rows drawn
 * @tl: the timeline
 * @pid: the task (0: idle time)
 *
 * Return: the time in ns (0 for a task never seen).
 */
uint64_t sp_timeline_total(const struct sp_timeline *tl, int pid);

/**
 * sp_timeline_for_each_total - visit every task with time inside the window
 * @tl: the timeline
 * @fn: called with each pid and its time, in no particular order
 * @data: handed to @fn
 */
void sp_timeline_for_each_total(const struct sp_timeline *tl,
				void (*fn)(void *data, int pid, uint64_t ns), void *data);

/**
 * sp_timeline_col_start - the first timestamp of a column
 * @tl: the timeline
 * @col: 0..nr_cols (nr_cols gives t1)
 *
 * Return: the timestamp.
 */
uint64_t sp_timeline_col_start(const struct sp_timeline *tl, unsigned int col);

#endif /* SP_TIMELINE_H */
