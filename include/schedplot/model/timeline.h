/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TIMELINE_H
#define SP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_model_observer;

/*
 * Per-pixel aggregation of the model's runs, for the core-by-time views.
 * The window [t0, t1) is cut into nr_cols columns and every drawn CPU gets
 * a row; for each row and column the timeline keeps the pid that held most
 * of that column's time.  Idle (pid 0) competes like any task, and so does
 * the time no run covers ("no data": before a CPU's first record, or while
 * its current task is unknown), as SP_TIMELINE_NO_DATA.
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

struct sp_timeline_slot {
	int32_t pid;
	uint64_t ns;
};

/* The column in progress of one row. */
struct sp_timeline_acc {
	int64_t col;			/* -1: none */
	uint64_t covered_ns;		/* time accounted for, from t0 */
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
	uint64_t t0_ns, t1_ns;
	unsigned int nr_cols;
	unsigned int nr_rows;
	int nr_cpus;
	int *row_of_cpu;		/* nr_cpus entries: row, or -1 when not drawn */
	int *cpu_of_row;		/* nr_rows entries */
	int32_t *cells;			/* [row * nr_cols + col]: pid or SP_TIMELINE_NO_DATA */
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
 * sp_timeline_cell - the pid that held a row's column longest
 * @tl: a finished timeline
 * @row: the row
 * @col: the column
 *
 * Return: the pid, 0 for idle, or SP_TIMELINE_NO_DATA.
 */
static inline int32_t sp_timeline_cell(const struct sp_timeline *tl, unsigned int row,
				       unsigned int col)
{
	return tl->cells[(size_t)row * tl->nr_cols + col];
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
