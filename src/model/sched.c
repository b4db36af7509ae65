// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched: the model's entry, record by record.  Each record keeps its
 * CPU's clock; a sched record whose common_pid is not its CPU's current
 * task shows a missed switch, repaired first (repair.c); then what the
 * record changes (state.c); the changes are handed out once no repair can
 * precede them (held.c).
 */
#include <errno.h>

#include "held.h"
#include "model-internal.h"
#include "repair.h"
#include "state.h"

static bool is_wakeup(const struct sp_model *m, enum sp_event_type type)
{
	if (type == SP_EV_WAKEUP_NEW)
		return true;
	return type == (m->wakeup_from_waking ? SP_EV_WAKING : SP_EV_WAKEUP);
}

/* Who ran the code @ev was written by: its common_pid, or the interrupt it served. */
static int record_waker(const struct sp_event *ev)
{
	if (ev->ctx == SP_CTX_IRQ)
		return SP_WAKER_IRQ;
	if (ev->ctx == SP_CTX_SOFTIRQ)
		return SP_WAKER_SOFTIRQ;
	return ev->common_pid;
}

/*
 * A sched_waking that is not the wakeup: it began the next wakeup record
 * of its task, which its waker is taken from (doc/design.md "The waker").
 */
static int handle_waking(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t = sp_tasktab_get(&m->tasks, ev->pid);

	if (!t)
		return ev->pid < 0 ? 0 : -ENOMEM;
	t->waking_waker = record_waker(ev);
	t->waking_cpu = ev->cpu;
	return 0;
}

/*
 * The waker of wakeup record @ev of @t, and its CPU: the sched_waking
 * that began it, else the record itself.
 */
static void wakeup_waker(struct sp_task *t, const struct sp_event *ev, int *waker, int *cpu)
{
	if (t->waking_cpu >= 0 && ev->type != SP_EV_WAKING) {
		*waker = t->waking_waker;
		*cpu = t->waking_cpu;
	} else {
		*waker = record_waker(ev);
		*cpu = ev->cpu;
	}
	t->waking_cpu = -1;
}

static int handle_wakeup(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t = sp_tasktab_get(&m->tasks, ev->pid);
	int place = ev->target_cpu, waker, waker_cpu;

	if (!t)
		return ev->pid < 0 ? 0 : -ENOMEM;
	wakeup_waker(t, ev, &waker, &waker_cpu);
	m->waker = waker;
	m->waker_cpu = waker_cpu;
	if (ev->comm && ev->pid > 0 && sp_tasktab_name(&m->tasks, t, ev->comm, ev->comm16))
		return -ENOMEM;
	t->wakeups++;
	if (place < 0 || place >= m->nr_cpus)
		place = ev->cpu;
	if (t->state == SP_TASK_RUNNING && t->cpu != ev->cpu) {
		struct sp_cpu *on = &m->cpus[t->cpu];

		/* decided at t->cpu's next sched record */
		if (on->cur_pid == ev->pid && on->deferred_wake_ns == SP_NO_TS) {
			on->deferred_wake_ns = ev->ts_ns;
			on->deferred_wake_seq = m->nr_records;
			on->deferred_preempt = false;
			on->deferred_place = place;
			on->deferred_waker = waker;
			on->deferred_waker_cpu = waker_cpu;
		}
		return 0;
	}
	if (t->state != SP_TASK_OTHER)
		return 0;
	return state_wakeup_wait(m, t, ev->ts_ns, waker, waker_cpu, place,
				 t->last_cpu >= 0 && m->cpus[t->last_cpu].cur_pid == 0);
}

static int handle_migrate(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t = sp_tasktab_get(&m->tasks, ev->pid);
	bool counted;

	m->nr_migrations++;
	if (!t)
		return ev->pid < 0 ? 0 : -ENOMEM;
	if (ev->comm && ev->pid > 0 && sp_tasktab_name(&m->tasks, t, ev->comm, ev->comm16))
		return -ENOMEM;
	t->migrations++;
	if (ev->target_cpu < 0 || ev->target_cpu >= m->nr_cpus || t->state != SP_TASK_WAITING)
		return 0;
	/* a waiting task moved to another run queue: it may leave the counted CPUs */
	state_place_check(m, t, ev->ts_ns);
	t->cpu = ev->target_cpu;
	t->place_ns = ev->ts_ns;
	counted = sp_model_cpu_selected(m, t->cpu) && state_task_selected(m, t);
	if (counted == t->wait_counted)
		return 0;
	t->wait_counted = counted;
	return held_change_add(m, ev->ts_ns, 0, counted ? 1 : -1);
}

/*
 * A migration of a task held current on another CPU: whether it had left
 * (a placement at wakeup) or not is known at that CPU's next sched record.
 */
static bool migrate_held(struct sp_model *m, const struct sp_event *ev)
{
	const struct sp_task *t = sp_model_task(m, ev->pid);
	struct sp_cpu *on;

	if (!t || t->state != SP_TASK_RUNNING || t->cpu == ev->cpu)
		return false;
	on = &m->cpus[t->cpu];
	if (on->cur_pid != ev->pid || on->deferred_mig_ns != SP_NO_TS)
		return false;
	on->deferred_mig_ns = ev->ts_ns;
	on->deferred_mig_pid = ev->pid;
	on->deferred_mig_from = ev->orig_cpu;
	on->deferred_mig_to = ev->target_cpu;
	return true;
}

/*
 * A migration of a task current nowhere is held: a repair found later may
 * show the task was current on a CPU at its time after all
 * (migration_repair()).  Others are told at once.
 */
static int migration_add(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t = sp_model_task(m, ev->pid);
	bool at_wakeup = state_migration_at_wakeup(m, t);
	struct sp_held *h;
	uint64_t ref;

	if (!t || t->state == SP_TASK_RUNNING || !TOLD(m, migration)) {
		sp_model_tell_migration(m, ev->ts_ns, ev->pid, ev->orig_cpu, ev->target_cpu, at_wakeup);
		return 0;
	}
	h = held_add(m, ev->ts_ns, HELD_MIGRATION, t, &ref);
	if (!h)
		return -ENOMEM;
	h->mig_seq = m->nr_records;
	h->mig_prev = t->held_mig;
	t->held_mig = ref;
	h->mig_pid = ev->pid;
	h->mig_from = ev->orig_cpu;
	h->mig_to = ev->target_cpu;
	h->mig_at_wakeup = at_wakeup;
	return 0;
}

static int handle_fork(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *child;

	if (ev->comm && sp_tasktab_set_comm(&m->tasks, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	if (ev->other_comm && sp_tasktab_set_comm(&m->tasks, ev->other_pid, ev->other_comm, ev->comm16))
		return -ENOMEM;
	child = sp_tasktab_get(&m->tasks, ev->other_pid);
	if (child)
		child->ppid = ev->pid;
	return 0;
}

static int handle_exec(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t;

	if (ev->comm && sp_tasktab_set_comm(&m->tasks, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	t = sp_tasktab_get(&m->tasks, ev->pid);
	if (t)
		t->exec_seen = true;
	return 0;
}

/* The next task is looked up once, as it is named, and handed on to become current. */
static int handle_switch(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_cpu *cpu = &m->cpus[ev->cpu];
	struct sp_task *next = NULL;
	int ret;

	if (sp_tasktab_set_comm(&m->tasks, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	if (ev->other_comm && ev->other_pid > 0 &&
	    (!(next = sp_tasktab_get(&m->tasks, ev->other_pid)) ||
	     sp_tasktab_name(&m->tasks, next, ev->other_comm, ev->comm16)))
		return -ENOMEM;
	cpu->nr_switches++;
	if (ev->pid != cpu->cur_pid)
		sp_model_note_repair(m, SP_REPAIR_PREV_MISMATCH, ev->cpu, ev->ts_ns, ev->pid);
	ret = state_run_end(m, ev->cpu, ev->ts_ns,
			    ev->prev_runnable ? STATE_END_WAITING : STATE_END_OTHER, ev);
	if (ret)
		return ret;
	if (ev->other_pid < 0)
		return 0;
	return state_run_begin(m, ev->cpu, ev->other_pid, ev->ts_ns, m->nr_records, next);
}

int sp_model_add(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_event fixed;
	struct sp_cpu *cpu;
	int c = ev->cpu, ret = 0;

	if (c < 0 || c >= m->nr_cpus || m->finished)
		return -EINVAL;
	cpu = &m->cpus[c];
	m->ev_cpu = c;
	m->nr_records++;
	if (cpu->nr_records++ == 0) {
		if (cpu->start_ns == SP_NO_TS || ev->ts_ns < cpu->start_ns)
			cpu->start_ns = ev->ts_ns;
		cpu->last_ts_ns = ev->ts_ns;
	}
	if (ev->ts_ns < cpu->last_ts_ns) {
		/* keep each CPU's clock monotonic; the record still counts */
		sp_model_note_repair(m, SP_REPAIR_TIME_BACKWARDS, c, ev->ts_ns, -1);
		fixed = *ev;
		fixed.ts_ns = cpu->last_ts_ns;
		ev = &fixed;
	}
	cpu->last_ts_ns = ev->ts_ns;
	if (ev->ts_ns > m->end_ns)
		m->end_ns = ev->ts_ns;
	if (ev->watched)
		TELL(m, watch, ev);
	if (ev->common_pid == 0)
		state_idle_seen(cpu, ev->ts_ns);
	if (!sp_event_is_sched(ev) || ev->type >= SP_EV_NR_TYPES) {
		if (ev->type == SP_EV_EXTRA)
			TELL(m, extra, ev);
		goto out;
	}

	m->nr_sched_records++;
	m->nr_by_type[ev->type]++;
	if (cpu->cur_pid < 0 && cpu->last_sched_ns == SP_NO_TS) {
		ret = state_run_begin(m, c, ev->common_pid, cpu->start_ns, m->nr_records, NULL);
	} else if (ev->common_pid != cpu->cur_pid) {
		ret = repair_missed_switch(m, c, ev->common_pid);
	}
	cpu->deferred_wake_ns = SP_NO_TS;	/* no repair: its task was current */
	state_deferred_mig_apply(m, cpu);
	if (ret)
		return ret;

	switch (ev->type) {
	case SP_EV_SWITCH:
		ret = handle_switch(m, ev);
		break;
	case SP_EV_WAKEUP:
	case SP_EV_WAKEUP_NEW:
	case SP_EV_WAKING:
		if (!is_wakeup(m, ev->type)) {
			ret = ev->type == SP_EV_WAKING ? handle_waking(m, ev) : 0;
			break;
		}
		m->waker = record_waker(ev);
		m->waker_cpu = c;
		ret = handle_wakeup(m, ev);
		if (!ret)
			TELL(m, wakeup, ev->ts_ns, m->waker, ev->pid, ev->target_cpu);
		break;
	case SP_EV_MIGRATE:
		ret = handle_migrate(m, ev);
		if (!ret && migrate_held(m, ev))
			break;
		if (!ret)
			ret = migration_add(m, ev);
		break;
	case SP_EV_FORK:
		ret = handle_fork(m, ev);
		break;
	case SP_EV_EXEC:
		ret = handle_exec(m, ev);
		break;
	case SP_EV_EXIT:
		ret = sp_tasktab_set_comm(&m->tasks, ev->pid, ev->comm, ev->comm16);
		break;
	default:
		break;
	}
	cpu->last_sched_ns = ev->ts_ns;
	cpu->last_sched_seq = m->nr_records;
	cpu->nr_woken = 0;
out:
	if (!(m->nr_records & m->flush_mask))
		held_flush(m, held_reach_back_limit(m, ev->ts_ns));
	return ret;
}

int sp_model_finish(struct sp_model *m)
{
	size_t i;
	int c, ret;

	if (m->finished)
		return 0;
	for (c = 0; c < m->nr_cpus; c++) {
		state_deferred_mig_apply(m, &m->cpus[c]);	/* no repair followed */
		ret = state_run_end(m, c, m->end_ns, STATE_END_OF_TRACE, NULL);
		if (ret)
			return ret;
	}
	for (i = 0; i < m->tasks.nr; i++) {
		struct sp_task *t = &m->tasks.v[i];

		if (t->state != SP_TASK_WAITING)
			continue;
		m->nr_waits_open++;
		if (m->end_ns > t->wait_since_ns)
			t->wait_ns += m->end_ns - t->wait_since_ns;
	}
	held_flush(m, UINT64_MAX);
	m->finished = true;
	return 0;
}
