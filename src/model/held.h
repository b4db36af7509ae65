/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_HELD_H
#define SP_MODEL_HELD_H

/*
 * What the model holds back while a repair may still reach before it
 * (doc/design.md "Missed switches"): the changes of running(t) and
 * waiting(t), kept sorted by time, and the wait, run and migration
 * records, kept in the order made; both are handed to the consumers once
 * no CPU can reach back before them.  Private to the model: beside the
 * sources, not under include/.  The fast paths are inline, as the model
 * calls them several times a record.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/model/model.h"

/* Past this many pending changes (times) the oldest are handed out anyway. */
#define SP_MAX_PENDING_CHANGES	(1u << 20)

struct sp_change {
	uint64_t ts;
	int32_t d_running;
	int32_t d_waiting;
};

enum held_kind { HELD_BECAME, HELD_RUN, HELD_MIGRATION };

/*
 * A task becoming current with the wait that ended then, a run record, or
 * a migration of a task current nowhere; final once no CPU can reach back
 * before @ts.
 */
struct sp_held {
	uint64_t ts;
	uint32_t task;		/* its task: index in tasks[] + 1, 0 for pid 0 */
	uint32_t comm;		/* the task's name when it was made */
	uint8_t kind;		/* enum held_kind */
	bool has_wait;		/* becoming current: a wait ended (w) */
	union {
		struct sp_run r;
		struct {		/* a migration of a task not current then */
			uint64_t mig_seq;	/* records handled then */
			uint64_t mig_prev;	/* the task's previous one, 0: none */
			int32_t mig_pid, mig_from, mig_to;
			bool mig_at_wakeup;
		};
		struct {
			struct sp_wait w;	/* pid, cpu and prev_cpu also without a wait */
			uint64_t seq;		/* records handled then (repairs: up to t_r's) */
			uint64_t prev;		/* the task's previous one, 0: none */
			uint64_t run;		/* its run's record when held, 0: none */
			uint64_t wait_seq;	/* records handled when the wait began */
			uint64_t made_seq;	/* records handled when this was made */
			uint64_t prev_from;	/* the previous one from w.prev_cpu, 0: none */
			int32_t cpu;		/* where it became current */
			bool wait_counted;
		};
	};
};

/**
 * held_change_insert - add a change of running(t)/waiting(t) in time order
 * @m: the model
 * @ts: its time
 * @d_running: by how much running(t) changes
 * @d_waiting: by how much waiting(t) changes
 *
 * The slow path of held_change_add().  Return: 0, or -ENOMEM.
 */
int held_change_insert(struct sp_model *m, uint64_t ts, int d_running, int d_waiting);

/**
 * held_flush - hand out the changes and held records older than @upto
 * @m: the model
 * @upto: no CPU can reach back before it any more
 */
void held_flush(struct sp_model *m, uint64_t upto);

/**
 * held_release - hand out the held records older than @upto, in the order made
 * @m: the model
 * @upto: as for held_flush()
 */
void held_release(struct sp_model *m, uint64_t upto);

/**
 * held_room - make room for one more held record
 * @m: the model
 *
 * Return: 0, or -ENOMEM.
 */
int held_room(struct sp_model *m);

/**
 * held_reach_back_limit - the earliest time any CPU can still reach back to
 * @m: the model
 * @now: the time of the record being added
 *
 * Return: that time.
 */
uint64_t held_reach_back_limit(const struct sp_model *m, uint64_t now);

/*
 * A change of running(t) or waiting(t) at @ts.  A switch makes two to
 * three at the same time (run_end, wait_begin, run_begin): one with the
 * time of the last pending change is added to it, as held_flush()
 * would sum them anyway; one later than it, with room, is appended.
 * Pending changes are all later than flushed_ns, so neither is ever a
 * late one.
 */
static inline int held_change_add(struct sp_model *m, uint64_t ts, int d_running, int d_waiting)
{
	size_t n = m->nr_changes;

	if (n > m->head_changes) {
		struct sp_change *last = &m->changes[n - 1];

		if (last->ts == ts) {
			last->d_running += d_running;
			last->d_waiting += d_waiting;
			return 0;
		}
		/* later than the last pending one, with room: appended here */
		if (last->ts < ts && n < m->alloc_changes &&
		    n - m->head_changes < SP_MAX_PENDING_CHANGES) {
			last[1] = (struct sp_change){ .ts = ts, .d_running = d_running,
						      .d_waiting = d_waiting };
			m->nr_changes = n + 1;
			return 0;
		}
	}
	return held_change_insert(m, ts, d_running, d_waiting);
}

/*
 * A new held record of the task @task (its index in tasks[] + 1, 0 for
 * pid 0) named @comm, final from @ts on; *@ref gets its number + 1.
 * Return: NULL for ENOMEM.
 */
static inline struct sp_held *held_add_task(struct sp_model *m, uint64_t ts, enum held_kind kind,
					    uint32_t task, uint32_t comm, uint64_t *ref)
{
	struct sp_held *h;

	if ((m->nr_held - m->head_held == m->alloc_held ||
	     m->nr_held - m->head_held >= SP_MAX_PENDING_CHANGES) && held_room(m))
		return NULL;
	*ref = m->nr_held + 1;
	h = &m->held[m->nr_held++ & (m->alloc_held - 1)];
	h->ts = ts;
	h->task = task;
	h->comm = comm;
	h->kind = kind;
	h->has_wait = false;
	return h;
}

/* held_add_task() of @t (NULL for pid 0). */
static inline struct sp_held *held_add(struct sp_model *m, uint64_t ts, enum held_kind kind,
				       const struct sp_task *t, uint64_t *ref)
{
	return held_add_task(m, ts, kind, t ? t - m->tasks.v + 1 : 0, t ? t->comm : 0, ref);
}

/* The held record @ref, NULL when none or already handed out. */
static inline struct sp_held *held_get(struct sp_model *m, uint64_t ref)
{
	if (!ref || ref - 1 < m->head_held)
		return NULL;
	return &m->held[(ref - 1) & (m->alloc_held - 1)];
}

#endif /* SP_MODEL_HELD_H */
