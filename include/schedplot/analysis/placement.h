/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_PLACEMENT_H
#define SP_PLACEMENT_H

#include <stdint.h>

#include "schedplot/analysis/latency.h"

struct sp_wait;

/*
 * The placement diagnosis of every wakeup: was the task's previous CPU
 * idle when it was woken, and did it run next there or elsewhere?  Counted
 * over the wakeup waits (a wakeup of a task that was asleep, doc/design.md)
 * that ended, of tasks that had run before, by where they ran next
 * (sp_placement_of()), with the time they waited.
 */
struct sp_placement_count {
	uint64_t nr;
	uint64_t wait_ns;
};

struct sp_placement_stats {
	uint64_t t0_ns, t1_ns;		/* waits that began in [t0, t1] */
	/* SP_PLACE_STAYED, SP_PLACE_MOVED_PREV_IDLE, SP_PLACE_MOVED_PREV_BUSY */
	struct sp_placement_count by[SP_PLACE_MOVED_PREV_BUSY + 1];
};

/**
 * sp_placement_init - count the waits that begin in [@t0_ns, @t1_ns]
 * @p: the counts
 * @t0_ns: window start
 * @t1_ns: window end
 */
void sp_placement_init(struct sp_placement_stats *p, uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_placement_add - count one wait (the model's wait callback)
 * @p: the counts
 * @w: the wait; preemption waits and first runs are not counted
 *
 * Inline: stats counts every wait.
 *
 * Return: its enum sp_placement (also when not counted).
 */
static inline enum sp_placement sp_placement_add(struct sp_placement_stats *p,
						 const struct sp_wait *w)
{
	enum sp_placement pl = sp_placement_of(w);

	if (pl <= SP_PLACE_MOVED_PREV_BUSY && w->start_ns >= p->t0_ns && w->start_ns <= p->t1_ns) {
		p->by[pl].nr++;
		p->by[pl].wait_ns += w->dur_ns;
	}
	return pl;
}

/**
 * sp_placement_add_inside - sp_placement_add() for a wait known to begin
 * in [t0_ns, t1_ns] (one a scope of that window took): its start is not
 * tested again
 * @p: the counts
 * @w: the wait
 */
static inline void sp_placement_add_inside(struct sp_placement_stats *p,
					   const struct sp_wait *w)
{
	enum sp_placement pl = sp_placement_of(w);

	if (pl <= SP_PLACE_MOVED_PREV_BUSY) {
		p->by[pl].nr++;
		p->by[pl].wait_ns += w->dur_ns;
	}
}

#endif /* SP_PLACEMENT_H */
