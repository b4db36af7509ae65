/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_STATE_H
#define SP_MODEL_STATE_H

/*
 * The changes of state of tasks and CPUs (state.c): what the handling of
 * each sched record (sched.c) and the repairs of missed switches
 * (repair.c) are built of.  Private to the model: beside the sources, not
 * under include/.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/model/model.h"

/* How a run ends: the state its task is left in. */
enum state_end_how {
	STATE_END_OTHER,	/* not runnable (or a repair: as the records say) */
	STATE_END_WAITING,	/* switched out while runnable: it waits */
	STATE_END_OF_TRACE,	/* the trace ended */
};

/**
 * state_migration_at_wakeup - whether a migration of a task now is a placement at wakeup
 * @m: the model
 * @t: the task (NULL: not seen yet)
 *
 * Return: whether @t is asleep, or waiting from a wakeup that sched_waking
 * stands for and not run since (analysis/migrations.c says why).
 */
bool state_migration_at_wakeup(const struct sp_model *m, const struct sp_task *t);

/**
 * state_place_check - whether the CPU a waiting task was placed on idled since
 * @m: the model
 * @t: the task, waiting, still where it was placed
 * @until: now
 *
 * Marks the wait contradicted (doc/design.md "Contradicted waits") if it did.
 */
void state_place_check(struct sp_model *m, struct sp_task *t, uint64_t until);

/**
 * state_wakeup_wait - a wakeup makes a task wait
 * @m: the model
 * @t: the task
 * @ts: when
 * @waker: who woke it (a pid or SP_WAKER_*)
 * @waker_cpu: the CPU of the waker's record
 * @place: the CPU it was placed on
 * @prev_idle: the CPU it last ran on ran its idle task then
 *
 * Return: 0, or -ENOMEM.
 */
int state_wakeup_wait(struct sp_model *m, struct sp_task *t, uint64_t ts, int waker,
		      int waker_cpu, int place, bool prev_idle);

/**
 * state_run_begin - a task becomes current on a CPU
 * @m: the model
 * @c: the CPU
 * @pid: the task (0: the idle task)
 * @ts: when
 * @seq: records handled then
 * @t: @pid's task when the caller has it (it is not looked up again), else NULL
 *
 * Ends the task's wait, if it waited.  Return: 0, or -ENOMEM.
 */
static inline int state_run_begin(struct sp_model *m, int c, int pid, uint64_t ts, uint64_t seq,
				  struct sp_task *t);

/**
 * state_run_begin_task - a task other than the idle task becomes current on a CPU
 * @m: the model
 * @c: the CPU
 * @pid: the task, not 0
 * @ts: when
 * @seq: records handled then
 * @t: as for state_run_begin()
 *
 * The slow path of state_run_begin().  Return: 0, or -ENOMEM.
 */
int state_run_begin_task(struct sp_model *m, int c, int pid, uint64_t ts, uint64_t seq,
			 struct sp_task *t);

/**
 * state_run_end - a CPU's current task stops being current
 * @m: the model
 * @c: the CPU
 * @ts: when
 * @how: the state it is left in
 * @ev: the sched_switch that switched it out, NULL for a repair or the
 *      end of the trace
 *
 * Return: 0, or -ENOMEM.
 */
int state_run_end(struct sp_model *m, int c, uint64_t ts, enum state_end_how how,
		  const struct sp_event *ev);

/**
 * state_deferred_apply - the wakeup and migration held on a CPU happened
 * @m: the model
 * @cpu: the CPU they are held on
 * @t: its task, which a repair (or a becoming current elsewhere) shows had left
 * @next_pid: who was current on @cpu instead (-1: not known yet)
 *
 * Return: 0, or -ENOMEM.
 */
int state_deferred_apply(struct sp_model *m, struct sp_cpu *cpu, struct sp_task *t,
			 int next_pid);

/**
 * state_deferred_mig_tell - hand the migration held on a CPU to the consumers
 * @m: the model
 * @cpu: the CPU it is held on
 *
 * The slow path of state_deferred_mig_apply().
 */
void state_deferred_mig_tell(struct sp_model *m, struct sp_cpu *cpu);

/**
 * state_idle_between - whether a CPU ran its idle task between two times
 * @m: the model
 * @c: the CPU
 * @from: after this
 * @until: and before this
 *
 * As far as the CPU's last SP_IDLE_SEEN idle records tell (doc/design.md
 * "Contradicted waits").  Return: whether it did.
 */
bool state_idle_between(const struct sp_model *m, int c, uint64_t from, uint64_t until);

/* @pid's run on @cpu begins at @ts: what the CPU keeps of it, as for the idle task. */
static inline void state_run_reset(struct sp_cpu *cpu, int pid, uint64_t ts)
{
	cpu->cur_pid = pid;
	cpu->cur_task = 0;
	cpu->run_start_ns = ts;
	cpu->run_counted = false;
	cpu->run_wait_ns = 0;
	cpu->run_waker = -1;
	cpu->run_prev_cpu = -1;
	cpu->run_became = 0;
	cpu->run_comm = 0;	/* pid 0's; a task's is its held record's */
}

/* The idle task becomes current inline: nothing of it is held or counted. */
static inline int state_run_begin(struct sp_model *m, int c, int pid, uint64_t ts, uint64_t seq,
				  struct sp_task *t)
{
	if (pid != 0)
		return state_run_begin_task(m, c, pid, ts, seq, t);
	state_run_reset(&m->cpus[c], 0, ts);
	return 0;
}

/* The migration held on @cpu, if any, is told; called for every sched record. */
static inline void state_deferred_mig_apply(struct sp_model *m, struct sp_cpu *cpu)
{
	if (cpu->deferred_mig_ns != SP_NO_TS)
		state_deferred_mig_tell(m, cpu);
}

/* A record of @cpu at @ts ran in its idle task's context. */
static inline void state_idle_seen(struct sp_cpu *cpu, uint64_t ts)
{
	uint8_t last = (cpu->idle_seen_next + SP_IDLE_SEEN - 1) % SP_IDLE_SEEN;

	if (cpu->idle_seen_ns[last] == ts)
		return;
	cpu->idle_seen_ns[cpu->idle_seen_next] = ts;
	cpu->idle_seen_next = (cpu->idle_seen_next + 1) % SP_IDLE_SEEN;
}

/* Whether running(t) and waiting(t) count @t (the model's task filter). */
static inline bool state_task_selected(const struct sp_model *m, const struct sp_task *t)
{
	if (!m->filter.task)
		return true;
	return m->filter.task(m->filter.task_data, t->pid, sp_model_str(m, t->comm));
}

#endif /* SP_MODEL_STATE_H */
