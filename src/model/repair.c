// SPDX-License-Identifier: GPL-2.0-only
/*
 * repair: the repairs of missed switches (doc/design.md "Missed switches").
 *
 * Repairs reach into the past: when CPU c's tracked task T is not the
 * common_pid P of a sched record at time t, the switch was missed and is
 * placed at c's previous sched record t_r:
 *
 *      c:  ...sched(T)            other CPUs' records           sched(P)
 *             |<---- T ran ---->|                                  |
 *             t_r       (repaired: P runs from t_r)                t
 *
 * Other CPUs may already have produced running/waiting changes between t_r
 * and t, so changes go through a small heap and are only handed to the
 * consumers once no CPU can reach back before them any more: a CPU can
 * reach back to its last sched record (or, before its first one, to its
 * first record).  Wait and run records, and each task becoming current,
 * are held the same way (sp_held), in the order made.
 *
 * A repair acts at t_r for every CPU: records of other CPUs after t_r see
 * T gone and P current.  These kinds of them are decided again when the
 * repair becomes known at t:
 *
 *   - a wakeup of T in (t_r, t) found T current on c; it is held on c
 *     (deferred_wake_ns) and, once the repair shows T had left at t_r,
 *     makes T wait from its own time, until T's first becoming current
 *     after it: none yet, or one on another CPU in the meantime, which
 *     the repair reaches back to (wake_elsewhere()).  Without a repair T
 *     was still current, and the wakeup started nothing.  A switch-out
 *     of T while runnable on another CPU is held on c the same way;
 *   - repairs chain: a wait one repair makes began with its wakeup's
 *     record, and a repair on another CPU placed at or after that record
 *     ends it rather than cancels it;
 *   - a wait of P that began after c's record at t_r (a wakeup, or P
 *     switched out runnable elsewhere) never was: P was current on c;
 *   - P switched in elsewhere after t_r became current on c first: the
 *     wait that switch ended ends at t_r (repair_late_current());
 *   - a sched_migrate_task of T in (t_r, t) is held the same way and
 *     handed to the consumers once T's state at its time is known.
 */
#include "held.h"
#include "model-internal.h"
#include "repair.h"
#include "state.h"

/*
 * A repair made @pid current on @c from c's last sched record: its
 * migrations held since then moved a task that was current, not one
 * being placed at wakeup.
 */
static void migration_repair(struct sp_model *m, int c, const struct sp_task *t)
{
	uint64_t since = m->cpus[c].last_sched_seq;

	for (struct sp_held *h = held_get(m, t->held_mig); h && h->mig_seq > since;
	     h = held_get(m, h->mig_prev))
		h->mig_at_wakeup = false;
}

/*
 * c went idle, or stopped being idle, at its last sched record after all:
 * the wakeups since then of tasks that last ran on c saw it wrongly.
 * Those tasks are on c's list of the woken; one may have run since, or
 * have been woken again by a record older than c's last sched record
 * (a wakeup held on another CPU), so each is checked again.
 */
static void prev_idle_repair(struct sp_model *m, int c, bool idle)
{
	const struct sp_cpu *cpu = &m->cpus[c];
	uint64_t since = cpu->last_sched_seq;
	size_t i;

	for (i = 0; i < cpu->nr_woken; i++) {
		struct sp_task *t = &m->tasks.v[cpu->woken[i]];

		if (t->state == SP_TASK_WAITING && t->wake_ns != SP_NO_TS &&
		    t->last_cpu == c && t->wait_seq > since)
			t->wake_prev_idle = idle;
	}
	/*
	 * and those whose wait has ended since: still held, nothing after t_r
	 * is final; their becoming current was made after their wakeup
	 */
	for (struct sp_held *h = held_get(m, m->cpus[c].held_from);
	     h && h->made_seq > since; h = held_get(m, h->prev_from))
		if (h->has_wait && h->w.wait_class == SP_WAIT_WAKEUP && h->wait_seq > since)
			h->w.prev_idle = idle;
}

/*
 * @t, found current on @c by a repair placed after c's record at t_r,
 * became current on other CPUs after that record (first on d at T2 > t_r)
 * while the repair was not known yet.  In time order it became current on
 * c first:
 *
 *      d:      ...waiting...        |switched in (T2)  ...
 *      c:  sched(T) |<- t current (repaired) ------------->|  sched(t)
 *                  t_r
 *
 * so the wait that T2 ended ends at t_r on c (or never was, if it began
 * after t_r), the run on d begins with no wait and came from c, and what
 * followed T2 stands.  T2 and its records are still held: nothing after
 * t_r, c's last sched record, is final yet.
 * Return: 1 when c's run of @t has begun, 0 when not this case, or a
 * negative code.
 */
static int repair_late_current(struct sp_model *m, int c, struct sp_task *t)
{
	struct sp_cpu *cpu = &m->cpus[c], *on;
	uint64_t t_r = cpu->last_sched_ns, seq = cpu->last_sched_seq, ref = t->became;
	struct sp_held *b = held_get(m, ref), *p, *r = NULL;
	uint64_t wait_ns = 0;
	int ret = 0, waker = -1;

	if (!b || b->seq <= seq)
		return 0;
	/* the first after t_r; those handed out are older than t_r */
	while ((p = held_get(m, b->prev)) && p->seq > seq) {
		ref = b->prev;
		b = p;
	}
	if (b->cpu == c)
		return 0;
	on = &m->cpus[b->cpu];
	if (on->run_became != ref && TOLD(m, run_info) && !(r = held_get(m, b->run)))
		return 0;
	if (b->has_wait) {
		uint64_t since = b->w.start_ns, end = since + b->w.dur_ns;
		bool never = b->wait_seq > seq;	/* t was current on c when it began */
		uint64_t at = never || t_r < since ? since : t_r;

		t->wait_ns -= end - at;
		if (b->wait_counted)
			ret = held_change_add(m, at, 0, -1) ?: held_change_add(m, end, 0, 1);
		if (never) {
			b->has_wait = false;
		} else {
			wait_ns = at - since;
			waker = b->w.waker;
			b->w.dur_ns = wait_ns;
			/* shortened: judged again up to its new end */
			b->w.contradicted = b->w.contradicted &&
				state_idle_between(m, b->w.target_cpu, since + SP_CONTRADICT_NS, at);
			b->w.cpu = c;
		}
	}
	if (on->run_became == ref) {
		on->run_wait_ns = 0;
		on->run_waker = -1;
		on->run_prev_cpu = c;
	} else if (r) {
		r->r.wait_ns = 0;
		r->r.waker = -1;
		r->r.prev_cpu = c;
	}
	cpu->cur_pid = t->pid;
	cpu->cur_task = (uint32_t)(t - m->tasks.v) + 1;
	cpu->run_start_ns = t_r;
	cpu->run_became = 0;
	cpu->run_wait_ns = wait_ns;
	cpu->run_waker = waker;
	cpu->run_prev_cpu = b->w.prev_cpu;
	cpu->run_comm = b->comm;
	cpu->run_counted = cpu->selected && state_task_selected(m, t);
	if (!ret && cpu->run_counted)
		ret = held_change_add(m, t_r, 1, 0);
	return ret ? ret : 1;
}

/* Whether @t became current (anywhere) after the record counted by @seq, or at its repair. */
static bool became_since(struct sp_model *m, const struct sp_task *t, uint64_t seq)
{
	const struct sp_held *b = held_get(m, t->became);

	return b && b->seq >= seq;
}

/*
 * A repair on @cpu at t_r shows that its task @t had left it, while a
 * wakeup of @t at W > t_r is held there, and @t has meanwhile become
 * current on another CPU.  In time order the wakeup found @t gone and made
 * it wait, until it became current again: the first time after W, at X.
 *
 *      cpu:  sched(T) |               (repaired: T left at t_r)   sched(P)
 *                    t_r     W (wakeup of T, held here)
 *      d:                              |T switched in (X)
 *
 * That becoming is still held (nothing after t_r is final yet): it gets
 * the wait [W, X).  Before and after go by the records' order, in which
 * a repair acts after the record it is placed at: a becoming before the
 * wakeup's record means the wakeup found @t current there, and nothing
 * waited.
 */
static int wake_elsewhere(struct sp_model *m, struct sp_cpu *cpu, struct sp_task *t, int next_pid)
{
	uint64_t w_ns = cpu->deferred_wake_ns, seq = cpu->deferred_wake_seq, ref = t->became;
	struct sp_held *b = held_get(m, ref), *p, *r = NULL;
	struct sp_cpu *on;
	int ret = 0;

	cpu->deferred_wake_ns = SP_NO_TS;
	/* in the records' order: a repair acts after its record, the wakeup's too */
	if (!b || b->seq < seq)
		return 0;
	while ((p = held_get(m, b->prev)) && p->seq >= seq) {
		ref = b->prev;
		b = p;
	}
	if (b->has_wait || b->cpu == cpu - m->cpus)
		return 0;
	on = &m->cpus[b->cpu];
	if (on->run_became != ref && TOLD(m, run_info) && !(r = held_get(m, b->run)))
		return 0;
	b->has_wait = true;
	b->wait_seq = seq;
	b->wait_counted = sp_model_cpu_selected(m, cpu->deferred_place) && state_task_selected(m, t);
	b->w.start_ns = w_ns;
	b->w.dur_ns = b->ts > w_ns ? b->ts - w_ns : 0;
	b->w.wait_class = cpu->deferred_preempt ? SP_WAIT_PREEMPT : SP_WAIT_WAKEUP;
	b->w.waker = cpu->deferred_preempt ? SP_WAKER_NONE : cpu->deferred_waker;
	b->w.waker_cpu = cpu->deferred_preempt ? -1 : cpu->deferred_waker_cpu;
	b->w.target_cpu = cpu->deferred_preempt ? b->w.prev_cpu : cpu->deferred_place;
	b->w.prev_idle = !cpu->deferred_preempt && next_pid == 0;
	b->w.contradicted = state_idle_between(m, b->w.target_cpu, w_ns + SP_CONTRADICT_NS, b->ts);
	t->wait_ns += b->w.dur_ns;
	if (b->wait_counted)
		ret = held_change_add(m, w_ns, 0, 1) ?: held_change_add(m, b->ts, 0, -1);
	if (on->run_became == ref) {
		on->run_wait_ns = b->w.dur_ns;
		on->run_waker = b->w.waker;
	} else if (r) {
		r->r.wait_ns = b->w.dur_ns;
		r->r.waker = b->w.waker;
	}
	return ret;
}

/*
 * c's current task T was not current at the sched record that names @pid:
 * T left, and @pid came, at c's previous sched record t_r.
 */
int repair_missed_switch(struct sp_model *m, int c, int pid)
{
	struct sp_cpu *cpu = &m->cpus[c];
	uint64_t t_r = cpu->last_sched_ns;
	struct sp_task *t;
	int ret;

	sp_model_note_repair(m, SP_REPAIR_MISSED_SWITCH, c, t_r, pid);
	if ((cpu->cur_pid == 0) != (pid == 0))
		prev_idle_repair(m, c, pid == 0);
	t = cpu->cur_pid > 0 ? sp_tasktab_get(&m->tasks, cpu->cur_pid) : NULL;
	ret = state_run_end(m, c, t_r, STATE_END_OTHER, NULL);
	if (!ret && t && cpu->deferred_wake_ns != SP_NO_TS &&
	    became_since(m, t, cpu->deferred_wake_seq))
		ret = wake_elsewhere(m, cpu, t, pid);	/* current elsewhere meanwhile */
	else if (!ret && t && t->state == SP_TASK_OTHER)
		ret = state_deferred_apply(m, cpu, t, pid);
	state_deferred_mig_apply(m, cpu);
	t = pid > 0 ? sp_tasktab_get(&m->tasks, pid) : NULL;
	if (t)
		migration_repair(m, c, t);
	if (!ret && t) {
		ret = repair_late_current(m, c, t);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	if (!ret && t && t->state == SP_TASK_WAITING && t->wait_seq > cpu->last_sched_seq) {
		/* its wait began while it was current here: cancel it */
		t->state = SP_TASK_OTHER;
		t->wake_ns = SP_NO_TS;
		if (t->wait_counted)
			ret = held_change_add(m, t->wait_since_ns, 0, -1);
	}
	return ret ? ret : state_run_begin(m, c, pid, t_r, cpu->last_sched_seq, t);
}
