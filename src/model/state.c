// SPDX-License-Identifier: GPL-2.0-only
/*
 * state: the changes of state of tasks and CPUs (runs
 * begin and end, waits begin and end, wakeups and migrations held on the
 * CPU whose next sched record decides them), by the rules of
 * doc/design.md ("Exact semantics"): what the handling of each record
 * (sched.c) and the repairs of missed switches (repair.c) are built of.
 */
#include <errno.h>

#include "schedplot/base/alloc.h"

#include "held.h"
#include "model-internal.h"
#include "state.h"

/*
 * Whether a migration of @t now is a placement at wakeup: @t asleep, or
 * waiting from a wakeup that sched_waking stands for and not run since
 * (analysis/migrations.c says why).
 */
bool state_migration_at_wakeup(const struct sp_model *m, const struct sp_task *t)
{
	return !t || t->state == SP_TASK_OTHER ||
	       (t->state == SP_TASK_WAITING && t->wake_ns != SP_NO_TS && m->wakeup_from_waking);
}

/* ---- waits the trace contradicts (doc/design.md "Contradicted waits") ---- */

/*
 * Whether @c ran its idle task after @from and before @until, as far as
 * its last SP_IDLE_SEEN idle records tell: a wait that ends in the past
 * (a repair) is judged by those before its end; when all of them are
 * later, the answer is no.
 */
bool state_idle_between(const struct sp_model *m, int c, uint64_t from, uint64_t until)
{
	const struct sp_cpu *cpu;
	uint64_t span;
	int i;

	if (c < 0 || c >= m->nr_cpus || until <= from + 1)
		return false;
	cpu = &m->cpus[c];
	/* from < ts < until, in one unsigned compare: ts <= from wraps past span */
	span = until - from - 1;
	for (i = 0; i < SP_IDLE_SEEN; i++)
		if (cpu->idle_seen_ns[i] - from - 1 < span)
			return true;
	return false;
}

/* @t, waiting, is still where it was placed at @until: did that CPU idle meanwhile? */
void state_place_check(struct sp_model *m, struct sp_task *t, uint64_t until)
{
	uint64_t from = t->place_ns + SP_CONTRADICT_NS;

	/* most waits are shorter: state_idle_between()'s first test, without the call */
	if (!t->contradicted && until > from + 1 && state_idle_between(m, t->cpu, from, until))
		t->contradicted = true;
}

/* ---- state changes ---- */

static inline int wait_begin(struct sp_model *m, struct sp_task *t, uint64_t ts, int cpu)
{
	t->state = SP_TASK_WAITING;
	t->place_ns = ts;
	t->contradicted = false;
	t->wait_since_ns = ts;
	t->wait_seq = m->nr_records;
	t->cpu = cpu;
	t->wait_counted = sp_model_cpu_selected(m, cpu) && state_task_selected(m, t);
	return t->wait_counted ? held_change_add(m, ts, 0, 1) : 0;
}

/* wait_begin() out of line, where it is rare: inline, it weighs on state_run_end()'s registers */
static __attribute__((noinline)) int wait_begin_rare(struct sp_model *m, struct sp_task *t,
						     uint64_t ts, int cpu)
{
	return wait_begin(m, t, ts, cpu);
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
int state_wakeup_wait(struct sp_model *m, struct sp_task *t, uint64_t ts, int waker,
		      int waker_cpu, int place, bool prev_idle)
{
	t->wake_ns = ts;
	t->waker = waker;
	t->waker_cpu = waker_cpu;
	t->wake_target = place;
	t->wake_prev_idle = prev_idle;
	if (t->last_cpu >= 0) {
		struct sp_cpu *last = &m->cpus[t->last_cpu];

		if (last->nr_woken == last->alloc_woken &&
		    sp_grow_array(&last->woken, &last->alloc_woken, last->nr_woken + 1,
				  sizeof(*last->woken)))
			return -ENOMEM;
		last->woken[last->nr_woken++] = (uint32_t)(t - m->tasks.v);
	}
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
		ret = wait_begin_rare(m, t, ts, cpu->deferred_place);
	} else {
		ret = state_wakeup_wait(m, t, ts, cpu->deferred_waker, cpu->deferred_waker_cpu,
					cpu->deferred_place, next_pid == 0);
	}
	/* it began with its record, not now: a repair elsewhere judges it by that */
	t->wait_seq = cpu->deferred_wake_seq;
	return ret;
}

/* Hand the migration held on @cpu to the consumers, in the model's state now. */
__attribute__((noinline)) void state_deferred_mig_tell(struct sp_model *m, struct sp_cpu *cpu)
{
	uint64_t ts = cpu->deferred_mig_ns;
	int pid = cpu->deferred_mig_pid;

	cpu->deferred_mig_ns = SP_NO_TS;
	sp_model_tell_migration(m, ts, pid, cpu->deferred_mig_from, cpu->deferred_mig_to,
		       state_migration_at_wakeup(m, sp_model_task(m, pid)));
}

/*
 * The repair that ended @t's run on @cpu, or @t becoming current elsewhere,
 * shows it had left: the wakeup and the migration held for it happened, in
 * time order.
 */
int state_deferred_apply(struct sp_model *m, struct sp_cpu *cpu, struct sp_task *t,
			 int next_pid)
{
	int ret = 0;

	if (cpu->deferred_mig_ns != SP_NO_TS &&
	    (cpu->deferred_wake_ns == SP_NO_TS || cpu->deferred_mig_ns <= cpu->deferred_wake_ns))
		state_deferred_mig_apply(m, cpu);
	if (cpu->deferred_wake_ns != SP_NO_TS)
		ret = deferred_wake_apply(m, cpu, t, next_pid);
	state_deferred_mig_apply(m, cpu);
	return ret;
}

/*
 * @pid, not the idle task, (its task @t, or NULL to look it up) becomes
 * current on @c at @ts, after @seq records.
 */
int state_run_begin_task(struct sp_model *m, int c, int pid, uint64_t ts, uint64_t seq,
			 struct sp_task *t)
{
	struct sp_cpu *cpu = &m->cpus[c];
	struct sp_held *b;
	uint64_t ref;
	int ret = 0;

	state_run_reset(cpu, pid, ts);
	if (!t && !(t = sp_tasktab_get(&m->tasks, pid)))
		return -ENOMEM;
	cpu->cur_task = (uint32_t)(t - m->tasks.v) + 1;
	/*
	 * Current here while still held current on another CPU: a
	 * migration held there is told now, as of a task that left;
	 * a wakeup held there waits for that CPU's next sched record,
	 * which tells whether it found the task gone (wake_elsewhere()).
	 */
	if (t->state == SP_TASK_RUNNING && t->cpu != c && m->cpus[t->cpu].cur_pid == pid &&
	    m->cpus[t->cpu].deferred_mig_ns != SP_NO_TS) {
		t->state = SP_TASK_OTHER;
		state_deferred_mig_apply(m, &m->cpus[t->cpu]);
	}
	b = held_add_task(m, ts, HELD_BECAME, cpu->cur_task, t->comm, &ref);
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
		state_place_check(m, t, ts);
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
	cpu->run_counted = cpu->selected && state_task_selected(m, t);
	if (cpu->run_counted && !ret)
		ret = held_change_add(m, ts, 1, 0);
	return ret;
}

/*
 * c's current task stops being current at @ts; @ev is the sched_switch
 * that switched it out, NULL for a repair or the end of the trace.
 */
int state_run_end(struct sp_model *m, int c, uint64_t ts, enum state_end_how how,
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
	/* the idle task's runs only when a consumer wants them */
	if (TOLD(m, run_info) && (pid > 0 || m->pass.nr_run_info_idle)) {
		struct sp_held *h;
		uint64_t ref;
		struct sp_run r = {
			.start_ns = cpu->run_start_ns, .end_ns = ts, .cpu = c, .pid = pid,
			.wait_ns = cpu->run_wait_ns, .waker = cpu->run_waker,
			.prev_cpu = cpu->run_prev_cpu, .start_comm = cpu->run_comm,
			.end = ev ? SP_RUN_END_SWITCH : how == STATE_END_OF_TRACE ? SP_RUN_END_TRACE
									 : SP_RUN_END_REPAIR,
			.end_state = ev ? ev->prev_state : NULL,
			.end_runnable = ev && ev->prev_runnable,
		};

		h = held_add_task(m, cpu->run_start_ns, HELD_RUN, cpu->cur_task,
				  cpu->cur_task ? m->tasks.v[cpu->cur_task - 1].comm : 0, &ref);
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
	t = &m->tasks.v[cpu->cur_task - 1];
	t->run_ns += dur;
	/*
	 * A task waiting while current here (it became current elsewhere
	 * after this run began, and was switched out runnable there) takes
	 * the state the switch says, as any other: a switch-out runnable
	 * keeps it waiting, one in another state ends the wait.  So does a
	 * repair, if the wait began before the repair's time.
	 */
	if (t->state == SP_TASK_WAITING && how == STATE_END_OTHER &&
	    (ev || t->wait_seq <= cpu->last_sched_seq))
		return ret ? ret : wait_end(m, t, ts);
	/*
	 * A task that runs elsewhere by now is left alone.  A switch-out
	 * while runnable of a task held current on another CPU is held
	 * there, as a wakeup is: that CPU's next sched record tells whether
	 * the task had left it, and so waited from here.
	 */
	if (how == STATE_END_WAITING && t->state == SP_TASK_RUNNING && t->cpu != c &&
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
	if (how == STATE_END_OF_TRACE || t->state != SP_TASK_RUNNING || t->cpu != c)
		return ret;
	if (how == STATE_END_WAITING)
		return ret ? ret : wait_begin_rare(m, t, ts, c);
	t->state = SP_TASK_OTHER;
	return ret;
}
