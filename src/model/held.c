// SPDX-License-Identifier: GPL-2.0-only
/*
 * held: the model's changes and records, held back and handed out in time
 * order once no repair can reach before them (held.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/ring.h"
#include "held.h"
#include "model-internal.h"

/* ---- running/waiting changes, reordered by time ---- */

/* Hand the steps collected to the consumers. */
static void steps_out(struct sp_model *m)
{
	if (m->nr_steps)
		TELL(m, steps, m->steps, m->nr_steps);
	m->nr_steps = 0;
}

/*
 * held_flush()'s counts, kept in locals, back in @m: the changes handed
 * out up to @i, the last of them at @ts (the steps are stored apart).
 */
static inline void flush_keep(struct sp_model *m, size_t i, uint64_t ts, int running,
			      int waiting)
{
	m->flushed_ns = ts;
	m->any_flushed = true;
	m->head_changes = i;
	m->running = running;
	m->waiting = waiting;
}

/*
 * Pending changes are kept sorted by time in changes[head..nr_changes).
 * Almost all arrive in time order and are appended; only repairs reach
 * back, and then only a little, so insertion scans from the end.
 */
void held_flush(struct sp_model *m, uint64_t upto)
{
	/*
	 * in locals: the steps written could alias the changes and the
	 * model's counts, which would be read again after each store
	 */
	const struct sp_change *c = m->changes;
	size_t i = m->head_changes, n = m->nr_changes, nr_steps = m->nr_steps;
	int running = m->running, waiting = m->waiting;

	while (i < n && c[i].ts < upto) {
		uint64_t ts = c[i].ts;
		int d_running = 0, d_waiting = 0;

		do {
			d_running += c[i].d_running;
			d_waiting += c[i].d_waiting;
			i++;
		} while (i < n && c[i].ts == ts);
		if (d_running | d_waiting) {
			running += d_running;
			waiting += d_waiting;
			m->steps[nr_steps++] = (struct sp_step){ .ts = ts, .running = running,
								 .waiting = waiting };
			if (nr_steps == SP_STEP_BATCH) {
				flush_keep(m, i, ts, running, waiting);
				m->nr_steps = nr_steps;
				steps_out(m);
				nr_steps = 0;
			}
		}
	}
	/* the last time handed out, once after the loop rather than at each */
	if (i > m->head_changes)
		flush_keep(m, i, c[i - 1].ts, running, waiting);
	m->nr_steps = nr_steps;
	steps_out(m);
	if (m->head_changes == m->nr_changes)
		m->head_changes = m->nr_changes = 0;
	held_release(m, upto);
}

__attribute__((noinline)) int held_change_insert(struct sp_model *m, uint64_t ts,
					      int d_running, int d_waiting)
{
	size_t i;

	if (m->any_flushed && ts <= m->flushed_ns) {
		/* only after the pending list overflowed: keep order, count it */
		sp_model_note_repair(m, SP_REPAIR_LATE_CHANGE, -1, ts, -1);
		ts = m->flushed_ns + 1;
	}
	if (m->nr_changes - m->head_changes >= SP_MAX_PENDING_CHANGES) {
		held_flush(m, m->changes[m->head_changes].ts + 1);
		if (ts <= m->flushed_ns) {
			sp_model_note_repair(m, SP_REPAIR_LATE_CHANGE, -1, ts, -1);
			ts = m->flushed_ns + 1;
		}
	}
	/* slide back only when that frees half: sliding for less is quadratic */
	if (m->nr_changes == m->alloc_changes && m->head_changes &&
	    m->head_changes >= m->alloc_changes / 2) {
		memmove(m->changes, m->changes + m->head_changes,
			(m->nr_changes - m->head_changes) * sizeof(*m->changes));
		m->nr_changes -= m->head_changes;
		m->head_changes = 0;
	}
	if (m->nr_changes == m->alloc_changes &&
	    sp_grow_array(&m->changes, &m->alloc_changes, m->nr_changes + 1,
			  sizeof(*m->changes)))
		return -ENOMEM;
	i = m->nr_changes++;
	while (i > m->head_changes && m->changes[i - 1].ts > ts) {
		m->changes[i] = m->changes[i - 1];
		i--;
	}
	m->changes[i].ts = ts;
	m->changes[i].d_running = d_running;
	m->changes[i].d_waiting = d_waiting;
	return 0;
}


/* ---- wait and run records, held while a repair may change them ---- */

/*
 * Hand the held records out, in the order made, while older than @upto.
 * A consumer that looks the task's name up gets the one it had when the
 * record was made, as if it had not been held.
 */
void held_release(struct sp_model *m, uint64_t upto)
{
	uint64_t i = m->head_held, n = m->nr_held;
	size_t mask = m->alloc_held - 1;

	/* no name changed since those made: no need to look the name up */
	if (m->tasks.renames != m->renames_seen) {
		m->renames_seen = m->tasks.renames;
		m->renamed_held = n;
	}
	for (; i < n && m->held[i & mask].ts < upto; i++) {
		const struct sp_held *h = &m->held[i & mask];
		struct sp_task *t = NULL;
		uint32_t comm = 0;

		if (h->kind == HELD_RUN ? !TOLD(m, run_info) :
		    h->kind == HELD_BECAME ? !h->has_wait || !TOLD(m, wait) : !TOLD(m, migration))
			continue;
		if (i < m->renamed_held && h->task && m->tasks.v[h->task - 1].comm != h->comm) {
			t = &m->tasks.v[h->task - 1];
			comm = t->comm;
			t->comm = h->comm;
		}
		if (h->kind == HELD_RUN)
			TELL(m, run_info, &h->r);
		else if (h->kind == HELD_BECAME)
			TELL(m, wait, &h->w);
		else
			sp_model_tell_migration(m, h->ts, h->mig_pid, h->mig_from, h->mig_to,
				       h->mig_at_wakeup);
		if (t)
			t->comm = comm;
	}
	m->head_held = i;
}

/*
 * Room for one more held record: the oldest handed out past
 * SP_MAX_PENDING_CHANGES, the ring doubled when full (its records keep
 * their numbers, in the slots the new mask gives them).  Return: 0 or
 * -ENOMEM.
 */
__attribute__((noinline)) int held_room(struct sp_model *m)
{
	size_t alloc = m->alloc_held ? m->alloc_held * 2 : 256;

	if (m->nr_held - m->head_held >= SP_MAX_PENDING_CHANGES)
		held_release(m, m->held[m->head_held & (m->alloc_held - 1)].ts + 1);
	if (m->nr_held - m->head_held < m->alloc_held)
		return 0;
	return sp_ring_regrow(&m->held, &m->alloc_held, m->head_held & (m->alloc_held - 1),
			      m->nr_held - m->head_held, alloc, m->head_held & (alloc - 1),
			      sizeof(*m->held));
}



/* The earliest time any CPU can still reach back to, given records up to @now. */
uint64_t held_reach_back_limit(const struct sp_model *m, uint64_t now)
{
	uint64_t limit = now;
	int c;

	for (c = 0; c < m->nr_cpus; c++) {
		const struct sp_cpu *cpu = &m->cpus[c];
		uint64_t t;

		if (!cpu->nr_records)
			continue;
		t = cpu->cur_pid < 0 ? cpu->start_ns : cpu->last_sched_ns;
		if (t < limit)
			limit = t;
	}
	return limit;
}

/*
 * What is still to be told can begin no earlier than: a CPU's reach back
 * (a repair at its last sched record ends its current run and begins
 * another, maybe a wait), a wakeup held on a CPU, a wait under way, a
 * wait held, and the record being added; a CPU with no records yet
 * begins its first run at its first record (cpu->start_ns).
 */
uint64_t sp_model_settled(const struct sp_model *m)
{
	uint64_t settled;
	size_t i;
	int c;

	if (!m->nr_records)
		return 0;
	settled = held_reach_back_limit(m, m->cpus[m->ev_cpu].last_ts_ns);
	for (c = 0; c < m->nr_cpus; c++) {
		const struct sp_cpu *cpu = &m->cpus[c];

		if (!cpu->nr_records && cpu->start_ns < settled)
			settled = cpu->start_ns;
		if (cpu->deferred_wake_ns < settled)
			settled = cpu->deferred_wake_ns;
	}
	for (i = 0; i < m->tasks.nr; i++)
		if (m->tasks.v[i].state == SP_TASK_WAITING && m->tasks.v[i].wait_since_ns < settled)
			settled = m->tasks.v[i].wait_since_ns;
	for (uint64_t j = m->head_held; j < m->nr_held; j++) {
		const struct sp_held *h = &m->held[j & (m->alloc_held - 1)];

		if (h->kind == HELD_BECAME && h->has_wait && h->w.start_ns < settled)
			settled = h->w.start_ns;
	}
	return settled;
}
