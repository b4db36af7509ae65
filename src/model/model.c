// SPDX-License-Identifier: GPL-2.0-only
/*
 * model: sched records -> per-CPU runs, task table, running/waiting steps.
 * The rules are those of doc/design.md ("Exact semantics").
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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "held.h"
#include "model-internal.h"

/* Count a repair, and keep its note while fewer than keep_repair_notes are. */
void sp_model_note_repair(struct sp_model *m, int kind, int cpu, uint64_t ts_ns, int pid)
{
	m->repairs[kind]++;
	if (m->nr_repair_notes < m->keep_repair_notes &&
	    sp_grow_array(&m->repair_notes, &m->alloc_repair_notes, m->nr_repair_notes + 1,
			  sizeof(*m->repair_notes)) == 0)
		m->repair_notes[m->nr_repair_notes++] = (struct sp_repair_note){
			.kind = kind, .cpu = cpu, .ts_ns = ts_ns, .pid = pid };
}

static const char *const repair_names[SP_REPAIR_NR_KINDS] = {
	[SP_REPAIR_MISSED_SWITCH] = "missed_switch",
	[SP_REPAIR_PREV_MISMATCH] = "prev_pid_mismatch",
	[SP_REPAIR_TIME_BACKWARDS] = "time_backwards",
	[SP_REPAIR_LATE_CHANGE] = "late_change",
};

const char *sp_repair_name(enum sp_repair_kind kind)
{
	return kind < SP_REPAIR_NR_KINDS ? repair_names[kind] : "unknown";
}

const char *sp_run_end_name(const struct sp_run *r)
{
	switch (r->end) {
	case SP_RUN_END_SWITCH:
		return r->end_state ? r->end_state : r->end_runnable ? "R" : "?";
	case SP_RUN_END_REPAIR:
		return "repair";
	default:
		return "end";
	}
}


/*
 * Whether a migration of @t now is a placement at wakeup: @t asleep, or
 * waiting from a wakeup that sched_waking stands for and not run since
 * (analysis/migrations.c says why).
 */
static bool migration_at_wakeup(const struct sp_model *m, const struct sp_task *t)
{
	return !t || t->state == SP_TASK_OTHER ||
	       (t->state == SP_TASK_WAITING && t->wake_ns != SP_NO_TS && m->wakeup_from_waking);
}

/* ---- filters ---- */

static bool cpu_selected(const struct sp_model *m, int cpu)
{
	if (!m->filter.cpus)
		return true;
	return cpu >= 0 && cpu < m->nr_cpus && m->filter.cpus[cpu];
}

static bool task_selected(const struct sp_model *m, const struct sp_task *t)
{
	if (!m->filter.task)
		return true;
	return m->filter.task(m->filter.task_data, t->pid, sp_model_str(m, t->comm));
}

/* ---- waits the trace contradicts (doc/design.md "Contradicted waits") ---- */

/* A record of @cpu at @ts ran in its idle task's context. */
static inline void idle_seen(struct sp_cpu *cpu, uint64_t ts)
{
	uint8_t last = (cpu->idle_seen_next + SP_IDLE_SEEN - 1) % SP_IDLE_SEEN;

	if (cpu->idle_seen_ns[last] == ts)
		return;
	cpu->idle_seen_ns[cpu->idle_seen_next] = ts;
	cpu->idle_seen_next = (cpu->idle_seen_next + 1) % SP_IDLE_SEEN;
}

/*
 * Whether @c ran its idle task after @from and before @until, as far as
 * its last SP_IDLE_SEEN idle records tell: a wait that ends in the past
 * (a repair) is judged by those before its end; when all of them are
 * later, the answer is no.
 */
static bool idle_between(const struct sp_model *m, int c, uint64_t from, uint64_t until)
{
	const struct sp_cpu *cpu;
	int i;

	if (c < 0 || c >= m->nr_cpus)
		return false;
	cpu = &m->cpus[c];
	for (i = 0; i < SP_IDLE_SEEN; i++) {
		uint64_t ts = cpu->idle_seen_ns[i];

		if (ts > from && ts < until)
			return true;
	}
	return false;
}

/* @t, waiting, is still where it was placed at @until: did that CPU idle meanwhile? */
static void place_check(struct sp_model *m, struct sp_task *t, uint64_t until)
{
	if (!t->contradicted &&
	    idle_between(m, t->cpu, t->place_ns + SP_CONTRADICT_NS, until))
		t->contradicted = true;
}

/* ---- state changes ---- */

static int wait_begin(struct sp_model *m, struct sp_task *t, uint64_t ts, int cpu)
{
	t->state = SP_TASK_WAITING;
	t->place_ns = ts;
	t->contradicted = false;
	t->wait_since_ns = ts;
	t->wait_seq = m->nr_records;
	t->cpu = cpu;
	t->wait_counted = cpu_selected(m, cpu) && task_selected(m, t);
	return t->wait_counted ? held_change_add(m, ts, 0, 1) : 0;
}

static int wait_end(struct sp_model *m, struct sp_task *t, uint64_t ts)
{
	if (ts < t->wait_since_ns)
		ts = t->wait_since_ns;
	t->wait_ns += ts - t->wait_since_ns;
	t->state = SP_TASK_OTHER;
	return t->wait_counted ? held_change_add(m, ts, 0, -1) : 0;
}

/* A wakeup at @ts by @waker on @waker_cpu makes @t wait, placed on @place. */
static int wakeup_wait(struct sp_model *m, struct sp_task *t, uint64_t ts, int waker,
		       int waker_cpu, int place, bool prev_idle)
{
	t->wake_ns = ts;
	t->waker = waker;
	t->waker_cpu = waker_cpu;
	t->wake_target = place;
	t->wake_prev_idle = prev_idle;
	return wait_begin(m, t, ts, place);
}

/*
 * The wakeup held on @cpu for its current task @t happened: @t waits from
 * it.  @next_pid: who was current on @cpu instead (-1: not known yet).
 */
static int deferred_wake_apply(struct sp_model *m, struct sp_cpu *cpu, struct sp_task *t,
			       int next_pid)
{
	uint64_t ts = cpu->deferred_wake_ns;
	int ret;

	cpu->deferred_wake_ns = SP_NO_TS;
	if (cpu->deferred_preempt) {
		t->wake_ns = SP_NO_TS;
		ret = wait_begin(m, t, ts, cpu->deferred_place);
	} else {
		ret = wakeup_wait(m, t, ts, cpu->deferred_waker, cpu->deferred_waker_cpu,
				  cpu->deferred_place, next_pid == 0);
	}
	/* it began with its record, not now: a repair elsewhere judges it by that */
	t->wait_seq = cpu->deferred_wake_seq;
	return ret;
}

/* Hand the migration held on @cpu to the consumers, in the model's state now. */
static __attribute__((noinline)) void deferred_mig_tell(struct sp_model *m, struct sp_cpu *cpu)
{
	uint64_t ts = cpu->deferred_mig_ns;
	int pid = cpu->deferred_mig_pid;

	cpu->deferred_mig_ns = SP_NO_TS;
	sp_model_tell_migration(m, ts, pid, cpu->deferred_mig_from, cpu->deferred_mig_to,
		       migration_at_wakeup(m, sp_model_task(m, pid)));
}

/* Called for every sched record: the test inline, the rare telling not. */
static inline void deferred_mig_apply(struct sp_model *m, struct sp_cpu *cpu)
{
	if (cpu->deferred_mig_ns != SP_NO_TS)
		deferred_mig_tell(m, cpu);
}

/*
 * The repair that ended @t's run on @cpu, or @t becoming current elsewhere,
 * shows it had left: the wakeup and the migration held for it happened, in
 * time order.
 */
static int deferred_apply(struct sp_model *m, struct sp_cpu *cpu, struct sp_task *t,
			  int next_pid)
{
	int ret = 0;

	if (cpu->deferred_mig_ns != SP_NO_TS &&
	    (cpu->deferred_wake_ns == SP_NO_TS || cpu->deferred_mig_ns <= cpu->deferred_wake_ns))
		deferred_mig_apply(m, cpu);
	if (cpu->deferred_wake_ns != SP_NO_TS)
		ret = deferred_wake_apply(m, cpu, t, next_pid);
	deferred_mig_apply(m, cpu);
	return ret;
}

/* @pid becomes current on @c at @ts, after @seq records. */
static int run_begin(struct sp_model *m, int c, int pid, uint64_t ts, uint64_t seq)
{
	struct sp_cpu *cpu = &m->cpus[c];
	struct sp_task *t = NULL;
	int ret = 0;

	cpu->cur_pid = pid;
	cpu->run_start_ns = ts;
	cpu->run_counted = false;
	cpu->run_wait_ns = 0;
	cpu->run_waker = -1;
	cpu->run_prev_cpu = -1;
	cpu->run_became = 0;
	cpu->run_comm = 0;	/* pid 0's; a task's is its held record's */
	if (pid != 0) {
		struct sp_held *b;
		uint64_t ref;

		t = task_get(m, pid);
		if (!t)
			return -ENOMEM;
		/*
		 * Current here while still held current on another CPU: a
		 * migration held there is told now, as of a task that left;
		 * a wakeup held there waits for that CPU's next sched record,
		 * which tells whether it found the task gone (wake_elsewhere()).
		 */
		if (t->state == SP_TASK_RUNNING && t->cpu != c && m->cpus[t->cpu].cur_pid == pid &&
		    m->cpus[t->cpu].deferred_mig_ns != SP_NO_TS) {
			t->state = SP_TASK_OTHER;
			deferred_mig_apply(m, &m->cpus[t->cpu]);
		}
		b = held_add(m, ts, HELD_BECAME, t, &ref);
		if (!b)
			return -ENOMEM;
		cpu->run_comm = b->comm;
		b->w.pid = pid;
		b->w.cpu = c;
		b->w.prev_cpu = t->last_cpu;
		b->made_seq = m->nr_records;
		b->prev_from = 0;
		if (t->last_cpu >= 0) {
			b->prev_from = m->cpus[t->last_cpu].held_from;
			m->cpus[t->last_cpu].held_from = ref;
		}
		b->seq = seq;
		b->prev = t->became;
		b->run = 0;
		b->cpu = c;
		t->became = cpu->run_became = ref;
		if (t->state == SP_TASK_WAITING && !ret) {
			uint64_t since = t->wait_since_ns;

			bool woken = t->wake_ns != SP_NO_TS;

			b->has_wait = true;
			b->wait_seq = t->wait_seq;
			b->wait_counted = t->wait_counted;
			b->w.start_ns = since;
			b->w.dur_ns = ts > since ? ts - since : 0;
			b->w.wait_class = woken ? SP_WAIT_WAKEUP : SP_WAIT_PREEMPT;
			b->w.waker = woken ? t->waker : SP_WAKER_NONE;
			b->w.waker_cpu = woken ? t->waker_cpu : -1;
			b->w.target_cpu = woken ? t->wake_target : t->last_cpu;
			b->w.prev_idle = woken && t->wake_prev_idle;
			place_check(m, t, ts);
			b->w.contradicted = t->contradicted;
			ret = wait_end(m, t, ts);
			cpu->run_wait_ns = b->w.dur_ns;
			cpu->run_waker = b->w.waker;
		}
		t->wake_ns = SP_NO_TS;
		cpu->run_prev_cpu = t->last_cpu;
		t->last_cpu = c;
		t->state = SP_TASK_RUNNING;
		t->cpu = c;
		cpu->run_counted = cpu->selected && task_selected(m, t);
	}
	if (cpu->run_counted && !ret)
		ret = held_change_add(m, ts, 1, 0);
	return ret;
}

enum run_end_how { END_OTHER, END_WAITING, END_OF_TRACE };

/*
 * c's current task stops being current at @ts; @ev is the sched_switch
 * that switched it out, NULL for a repair or the end of the trace.
 */
static int run_end(struct sp_model *m, int c, uint64_t ts, enum run_end_how how,
		   const struct sp_event *ev)
{
	struct sp_cpu *cpu = &m->cpus[c];
	int pid = cpu->cur_pid, ret = 0;
	struct sp_task *t;
	uint64_t dur;

	if (pid < 0)
		return 0;
	if (ts < cpu->run_start_ns)
		ts = cpu->run_start_ns;
	dur = ts - cpu->run_start_ns;
	if (dur)
		TELL(m, run, c, pid, cpu->run_start_ns, ts);
	if (TOLD(m, run_info)) {
		const struct sp_task *rt = pid > 0 ? task_find(m, pid) : NULL;
		struct sp_held *h;
		uint64_t ref;
		struct sp_run r = {
			.start_ns = cpu->run_start_ns, .end_ns = ts, .cpu = c, .pid = pid,
			.wait_ns = cpu->run_wait_ns, .waker = cpu->run_waker,
			.prev_cpu = cpu->run_prev_cpu, .start_comm = cpu->run_comm,
			.end = ev ? SP_RUN_END_SWITCH : how == END_OF_TRACE ? SP_RUN_END_TRACE
									 : SP_RUN_END_REPAIR,
			.end_state = ev ? ev->prev_state : NULL,
			.end_runnable = ev && ev->prev_runnable,
		};

		h = held_add(m, cpu->run_start_ns, HELD_RUN, rt, &ref);
		if (!h)
			return -ENOMEM;
		h->r = r;
		if ((h = held_get(m, cpu->run_became)))
			h->run = ref;
	}
	if (cpu->run_counted)
		ret = held_change_add(m, ts, -1, 0);
	cpu->cur_pid = -1;
	cpu->run_counted = false;
	if (pid == 0)
		return ret;
	cpu->busy_ns += dur;
	t = task_get(m, pid);
	if (!t)
		return -ENOMEM;
	t->run_ns += dur;
	/*
	 * A task waiting while current here (it became current elsewhere
	 * after this run began, and was switched out runnable there) takes
	 * the state the switch says, as any other: a switch-out runnable
	 * keeps it waiting, one in another state ends the wait.  So does a
	 * repair, if the wait began before the repair's time.
	 */
	if (t->state == SP_TASK_WAITING && how == END_OTHER &&
	    (ev || t->wait_seq <= cpu->last_sched_seq))
		return ret ? ret : wait_end(m, t, ts);
	/*
	 * A task that runs elsewhere by now is left alone.  A switch-out
	 * while runnable of a task held current on another CPU is held
	 * there, as a wakeup is: that CPU's next sched record tells whether
	 * the task had left it, and so waited from here.
	 */
	if (how == END_WAITING && t->state == SP_TASK_RUNNING && t->cpu != c &&
	    m->cpus[t->cpu].cur_pid == pid && m->cpus[t->cpu].deferred_wake_ns == SP_NO_TS) {
		struct sp_cpu *on = &m->cpus[t->cpu];

		on->deferred_wake_ns = ts;
		on->deferred_wake_seq = m->nr_records;
		on->deferred_preempt = true;
		on->deferred_place = c;
		on->deferred_waker = SP_WAKER_NONE;
		on->deferred_waker_cpu = -1;
		return ret;
	}
	if (how == END_OF_TRACE || t->state != SP_TASK_RUNNING || t->cpu != c)
		return ret;
	if (how == END_WAITING)
		return ret ? ret : wait_begin(m, t, ts, c);
	t->state = SP_TASK_OTHER;
	return ret;
}

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
	struct sp_task *t = task_get(m, ev->pid);

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
	struct sp_task *t = task_get(m, ev->pid);
	int place = ev->target_cpu, waker, waker_cpu;

	if (!t)
		return ev->pid < 0 ? 0 : -ENOMEM;
	wakeup_waker(t, ev, &waker, &waker_cpu);
	m->waker = waker;
	m->waker_cpu = waker_cpu;
	if (ev->comm && set_comm(m, ev->pid, ev->comm, ev->comm16))
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
	return wakeup_wait(m, t, ev->ts_ns, waker, waker_cpu, place,
			   t->last_cpu >= 0 && m->cpus[t->last_cpu].cur_pid == 0);
}

static int handle_migrate(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t = task_get(m, ev->pid);
	bool counted;

	m->nr_migrations++;
	if (!t)
		return ev->pid < 0 ? 0 : -ENOMEM;
	if (ev->comm && set_comm(m, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	t->migrations++;
	if (ev->target_cpu < 0 || ev->target_cpu >= m->nr_cpus || t->state != SP_TASK_WAITING)
		return 0;
	/* a waiting task moved to another run queue: it may leave the counted CPUs */
	place_check(m, t, ev->ts_ns);
	t->cpu = ev->target_cpu;
	t->place_ns = ev->ts_ns;
	counted = cpu_selected(m, t->cpu) && task_selected(m, t);
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
	bool at_wakeup = migration_at_wakeup(m, t);
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

static int handle_fork(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *child;

	if (ev->comm && set_comm(m, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	if (ev->other_comm && set_comm(m, ev->other_pid, ev->other_comm, ev->comm16))
		return -ENOMEM;
	child = task_get(m, ev->other_pid);
	if (child)
		child->ppid = ev->pid;
	return 0;
}

static int handle_exec(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_task *t;

	if (ev->comm && set_comm(m, ev->pid, ev->comm, ev->comm16))
		return -ENOMEM;
	t = task_get(m, ev->pid);
	if (t)
		t->exec_seen = true;
	return 0;
}


static int handle_switch(struct sp_model *m, const struct sp_event *ev)
{
	struct sp_cpu *cpu = &m->cpus[ev->cpu];
	int ret;

	if (set_comm(m, ev->pid, ev->comm, ev->comm16) ||
	    set_comm(m, ev->other_pid, ev->other_comm, ev->comm16))
		return -ENOMEM;
	cpu->nr_switches++;
	if (ev->pid != cpu->cur_pid)
		sp_model_note_repair(m, SP_REPAIR_PREV_MISMATCH, ev->cpu, ev->ts_ns, ev->pid);
	ret = run_end(m, ev->cpu, ev->ts_ns, ev->prev_runnable ? END_WAITING : END_OTHER, ev);
	if (ret)
		return ret;
	if (ev->other_pid < 0)
		return 0;
	return run_begin(m, ev->cpu, ev->other_pid, ev->ts_ns, m->nr_records);
}

/*
 * c went idle, or stopped being idle, at its last sched record after all:
 * the wakeups since then of tasks that last ran on c saw it wrongly.
 * Rare (a repair that starts or ends the idle task), so a look at every
 * task is affordable.
 */
static void prev_idle_repair(struct sp_model *m, int c, bool idle)
{
	uint64_t since = m->cpus[c].last_sched_seq;
	size_t i;

	for (i = 0; i < m->nr_tasks; i++) {
		struct sp_task *t = &m->tasks[i];

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
				idle_between(m, b->w.target_cpu, since + SP_CONTRADICT_NS, at);
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
	cpu->run_start_ns = t_r;
	cpu->run_became = 0;
	cpu->run_wait_ns = wait_ns;
	cpu->run_waker = waker;
	cpu->run_prev_cpu = b->w.prev_cpu;
	cpu->run_comm = b->comm;
	cpu->run_counted = cpu->selected && task_selected(m, t);
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
	b->wait_counted = cpu_selected(m, cpu->deferred_place) && task_selected(m, t);
	b->w.start_ns = w_ns;
	b->w.dur_ns = b->ts > w_ns ? b->ts - w_ns : 0;
	b->w.wait_class = cpu->deferred_preempt ? SP_WAIT_PREEMPT : SP_WAIT_WAKEUP;
	b->w.waker = cpu->deferred_preempt ? SP_WAKER_NONE : cpu->deferred_waker;
	b->w.waker_cpu = cpu->deferred_preempt ? -1 : cpu->deferred_waker_cpu;
	b->w.target_cpu = cpu->deferred_preempt ? b->w.prev_cpu : cpu->deferred_place;
	b->w.prev_idle = !cpu->deferred_preempt && next_pid == 0;
	b->w.contradicted = idle_between(m, b->w.target_cpu, w_ns + SP_CONTRADICT_NS, b->ts);
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
static int repair(struct sp_model *m, int c, int pid)
{
	struct sp_cpu *cpu = &m->cpus[c];
	uint64_t t_r = cpu->last_sched_ns;
	struct sp_task *t;
	int ret;

	sp_model_note_repair(m, SP_REPAIR_MISSED_SWITCH, c, t_r, pid);
	if ((cpu->cur_pid == 0) != (pid == 0))
		prev_idle_repair(m, c, pid == 0);
	t = cpu->cur_pid > 0 ? task_get(m, cpu->cur_pid) : NULL;
	ret = run_end(m, c, t_r, END_OTHER, NULL);
	if (!ret && t && cpu->deferred_wake_ns != SP_NO_TS &&
	    became_since(m, t, cpu->deferred_wake_seq))
		ret = wake_elsewhere(m, cpu, t, pid);	/* current elsewhere meanwhile */
	else if (!ret && t && t->state == SP_TASK_OTHER)
		ret = deferred_apply(m, cpu, t, pid);
	deferred_mig_apply(m, cpu);
	t = pid > 0 ? task_get(m, pid) : NULL;
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
	return ret ? ret : run_begin(m, c, pid, t_r, cpu->last_sched_seq);
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
		idle_seen(cpu, ev->ts_ns);
	if (!sp_event_is_sched(ev) || ev->type >= SP_EV_NR_TYPES) {
		if (ev->type == SP_EV_EXTRA)
			TELL(m, extra, ev);
		goto out;
	}

	m->nr_sched_records++;
	m->nr_by_type[ev->type]++;
	if (cpu->cur_pid < 0 && cpu->last_sched_ns == SP_NO_TS) {
		ret = run_begin(m, c, ev->common_pid, cpu->start_ns, m->nr_records);
	} else if (ev->common_pid != cpu->cur_pid) {
		ret = repair(m, c, ev->common_pid);
	}
	cpu->deferred_wake_ns = SP_NO_TS;	/* no repair: its task was current */
	deferred_mig_apply(m, cpu);
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
		ret = set_comm(m, ev->pid, ev->comm, ev->comm16);
		break;
	default:
		break;
	}
	cpu->last_sched_ns = ev->ts_ns;
	cpu->last_sched_seq = m->nr_records;
out:
	if (!(m->nr_records & (held_flush_interval(m) - 1)))
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
		deferred_mig_apply(m, &m->cpus[c]);	/* no repair followed */
		ret = run_end(m, c, m->end_ns, END_OF_TRACE, NULL);
		if (ret)
			return ret;
	}
	for (i = 0; i < m->nr_tasks; i++) {
		struct sp_task *t = &m->tasks[i];

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

uint64_t sp_model_nr_repairs(const struct sp_model *m)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < SP_REPAIR_NR_KINDS; k++)
		n += m->repairs[k];
	return n;
}

int sp_model_init(struct sp_model *m, int nr_cpus, const uint64_t *start_ns, uint64_t end_ns,
		  bool wakeup_from_waking, const struct sp_pass *pass,
		  const struct sp_model_filter *filter)
{
	int c;

	memset(m, 0, sizeof(*m));
	if (nr_cpus <= 0)
		return -EINVAL;
	m->cpus = sp_alloc_array(nr_cpus, sizeof(*m->cpus));
	if (!m->cpus)
		return -ENOMEM;
	m->nr_cpus = nr_cpus;
	m->keep_repair_notes = SP_MODEL_REPAIR_NOTES;
	m->end_ns = end_ns;
	m->first_ns = SP_NO_TS;
	m->window_start_ns = 0;
	m->wakeup_from_waking = wakeup_from_waking;
	if (pass)
		m->pass = *pass;
	if (filter)
		m->filter = *filter;
	for (c = 0; c < nr_cpus; c++) {
		struct sp_cpu *cpu = &m->cpus[c];

		cpu->start_ns = start_ns ? start_ns[c] : SP_NO_TS;
		cpu->last_sched_ns = SP_NO_TS;
		cpu->deferred_wake_ns = SP_NO_TS;
		cpu->deferred_mig_ns = SP_NO_TS;
		cpu->cur_pid = -1;
		cpu->selected = cpu_selected(m, c);
		if (cpu->start_ns == SP_NO_TS)
			continue;
		if (cpu->start_ns < m->first_ns)
			m->first_ns = cpu->start_ns;
		if (cpu->start_ns > m->window_start_ns)
			m->window_start_ns = cpu->start_ns;
	}
	return 0;
}

void sp_model_release(struct sp_model *m)
{
	free(m->cpus);
	free(m->tasks);
	free(m->task_index);
	free(m->strs);
	free(m->str_index);
	free(m->changes);
	free(m->held);
	free(m->repair_notes);
	memset(m, 0, sizeof(*m));
}
