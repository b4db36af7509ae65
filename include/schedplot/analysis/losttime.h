/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LOSTTIME_H
#define SP_LOSTTIME_H

#include <stddef.h>
#include <stdint.h>

#include "schedplot/model/scope.h"

struct sp_model;
struct sp_model_observer;
struct sp_lost_change;
struct sp_lost_cpu;
struct sp_lost_cursor;
struct sp_lost_lane;

/*
 * Lost time as SchedViz measures it (doc/design.md "Lost time"): at each
 * moment a CPU of the set is *idle* when it runs its idle task and no
 * task waits for it, *overloaded* when it runs another task and some
 * task waits for it (a task waits for the CPU it then ran on, as in
 * "Antagonists"); one that idles while a task waits for it is neither
 * (the scheduler is about to run the task), and so is one whose current
 * task is not known.  With I idle CPUs, O overloaded ones and W tasks
 * waiting for those O:
 *
 *	wall		the time during which I > 0 and O > 0
 *	per CPU		the integral of min(I, O)
 *	per thread	the integral of min(I, W)
 *
 * over the window given.  The waits counted are those of the scope's
 * tasks for the scope's CPUs, cut to the window; only the scope's CPUs
 * idle or overload.  A wait still open at the end of the trace is not
 * counted: the CPU it waits for is not known.
 *
 * The CPUs' stretches of idle and busy (consecutive runs of the same
 * kind merged) and the waits are kept as changes, 16 bytes each (one
 * where a stretch ends as the next begins), in time order as they come,
 * and swept: as the pass goes those before the model's settled time
 * (sp_model_settled()), the rest by sp_lost_time_finish().  So the
 * changes kept are those since the oldest wait still open began, or since
 * the last sched record of the CPU that has gone longest without one: a
 * bound that does not grow with the trace's length, unless a wait lasts
 * as long.
 */
struct sp_lost_counts {
	int idle, over, waiting;	/* I, O and W */
};

struct sp_lost_time {
	struct sp_scope scope;		/* which waits and CPUs count */
	uint64_t t0_ns, t1_ns;		/* the window integrated over */
	int nr_cpus;
	size_t sweep_every;		/* changes kept before a sweep is tried (tests lower it) */
	/* private: the changes not swept yet, and each CPU's stretch under way */
	const struct sp_model *model;	/* asked how far the pass is complete; NULL: not */
	struct sp_lost_lane *lanes;	/* each CPU's stretches and changes, then the waits' */
	size_t alloc_changes;		/* room for changes in the lanes */
	struct sp_lost_change *late;	/* a heap of those that came too late for their lane */
	size_t nr_late, alloc_late;
	ptrdiff_t sweep_in;		/* changes to keep before the next sweep is tried */
	/* a sweep's tournament of the CPUs' lanes, and its place in each */
	int nr_leaves;			/* nr_cpus rounded up to a power of 2 */
	uint64_t *next_ns;		/* each leaf's next change */
	int *losers;			/* the loser at each node; the winner at 0 */
	struct sp_lost_cursor *cursors;
	/* the sweep so far: each CPU's counts, I, O and W, the last change's time */
	struct sp_lost_cpu *swept;	/* nr_cpus entries */
	struct sp_lost_counts all;
	uint32_t waiters;		/* the tasks waiting for any CPU */
	uint64_t swept_ns;
	int error;			/* -ENOMEM: some change was not kept */
	/* summed by the sweeps, complete after sp_lost_time_finish() */
	uint64_t wall_ns;
	uint64_t per_cpu_ns;
	uint64_t per_thread_ns;
};

/**
 * sp_lost_time_init - measure from scratch
 * @lt: the measure
 * @scope: the waits and CPUs counted (copied; its window is not used)
 * @t0_ns: the window's start
 * @t1_ns: its end
 * @nr_cpus: the trace's CPUs
 * @model: the model of the pass that feeds @lt, asked now and then how far
 *         what it told is complete; NULL: everything is swept at the end
 *
 * Return: 0, or -ENOMEM.
 */
int sp_lost_time_init(struct sp_lost_time *lt, const struct sp_scope *scope, uint64_t t0_ns,
		      uint64_t t1_ns, int nr_cpus, const struct sp_model *model);

/**
 * sp_lost_time_release - free what @lt holds, and zero it
 * @lt: initialised (or zeroed) measure
 */
void sp_lost_time_release(struct sp_lost_time *lt);

/**
 * sp_lost_time_observer - the consumer of a pass that feeds @lt
 * @lt: the measure
 * @obs: filled in (run, wait, reset)
 */
void sp_lost_time_observer(struct sp_lost_time *lt, struct sp_model_observer *obs);

/**
 * sp_lost_time_finish - sweep the changes left: wall_ns, per_cpu_ns and per_thread_ns
 * @lt: the measure, after the pass
 *
 * Return: 0, or @lt->error (then the results are those of what was kept).
 */
int sp_lost_time_finish(struct sp_lost_time *lt);

#endif /* SP_LOSTTIME_H */
