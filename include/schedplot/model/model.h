/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_H
#define SP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/model/tasktab.h"
#include "schedplot/trace/event.h"

/*
 * The scheduler model of doc/design.md ("Exact semantics"), built in one
 * streaming pass: events go in one at a time, in trace order, and the model
 * tells the consumers of the pass (struct sp_pass) about finished runs (a task on a CPU from t0 to t1),
 * changes of the running/waiting step functions (in time order, one step per
 * timestamp, handed over many at a time) and wakeup latencies.  Memory grows
 * with tasks and CPUs, not with events.
 */

#define SP_NO_TS UINT64_MAX

/*
 * A waker (doc/design.md "The waker"): a pid, or one of these.  An
 * interrupt's waker is the interrupt, not the task it interrupted.
 */
#define SP_WAKER_NONE		(-1)	/* no wakeup: a preemption, or no wait */
#define SP_WAKER_IRQ		(-2)	/* a hard interrupt */
#define SP_WAKER_SOFTIRQ	(-3)	/* a softirq */
/*
 * A wait is contradicted (doc/design.md "Contradicted waits") when the CPU
 * it was placed on runs its idle task this long after the placement
 */
#define SP_CONTRADICT_NS	1000000
/* Idle records each CPU remembers, to judge waits that end in the past (repairs). */
#define SP_IDLE_SEEN		8
#define SP_STEP_BATCH 256

enum sp_repair_kind {
	SP_REPAIR_MISSED_SWITCH,	/* common_pid differed from the tracked task */
	SP_REPAIR_PREV_MISMATCH,	/* sched_switch prev_pid differed from the tracked task */
	SP_REPAIR_TIME_BACKWARDS,	/* a CPU's timestamps went backwards */
	SP_REPAIR_LATE_CHANGE,		/* a repair reached further back than the reorder window */
	SP_REPAIR_NR_KINDS,
};

struct sp_held;

struct sp_cpu {
	uint64_t start_ns;	/* first record of any event, SP_NO_TS if none */
	uint64_t last_ts_ns;	/* last record seen */
	uint64_t last_sched_ns;	/* last sched record, SP_NO_TS before the first */
	uint64_t busy_ns;
	uint64_t nr_records;
	uint64_t nr_switches;	/* sched_switch records */
	int32_t cur_pid;	/* current task, -1 while unknown */
	uint32_t cur_task;	/* its index in the task table + 1, 0 for pid 0 (or none) */
	uint64_t run_start_ns;	/* when cur_pid became current */
	bool selected;		/* counted in running(t) */
	bool run_counted;	/* cur_pid counted in running(t) */
	uint64_t last_sched_seq;	/* records handled up to the last sched record */
	/*
	 * A wakeup of cur_pid seen on another CPU after c's last sched record:
	 * whether cur_pid was still current then is known only at c's next
	 * sched record (a missed switch is placed at the last one).  The
	 * first such wakeup, SP_NO_TS when none.
	 */
	uint64_t deferred_wake_ns;
	uint64_t deferred_wake_seq;	/* records handled up to that wakeup's */
	bool deferred_preempt;		/* it is a switch-out while runnable, not a wakeup */
	int32_t deferred_place;
	int32_t deferred_waker;
	int32_t deferred_waker_cpu;
	/*
	 * Likewise the first sched_migrate_task of cur_pid seen elsewhere:
	 * handed to the consumers once c's next sched record tells whether
	 * cur_pid had left (its class depends on it), SP_NO_TS when none.
	 */
	uint64_t deferred_mig_ns;
	int32_t deferred_mig_pid;
	int32_t deferred_mig_from;
	int32_t deferred_mig_to;
	/* what the current run will be reported with (struct sp_run) */
	uint64_t run_wait_ns;
	int32_t run_waker;
	int32_t run_prev_cpu;
	uint64_t run_became;	/* the current run's becoming current (sp_task.became) */
	uint32_t run_comm;	/* the task's name as the current run began (a string id) */
	/* the last held becoming current of a task that ran here before (0: none) */
	uint64_t held_from;
	/*
	 * the tasks (indices into the task table) woken since the last sched
	 * record that last ran here: those whose wakeup a repair of this CPU
	 * can reach back to, so that it need not look at every task
	 */
	uint32_t *woken;
	size_t nr_woken, alloc_woken;
	/*
	 * the last SP_IDLE_SEEN timestamps (distinct) of its records with
	 * common_pid 0, a ring; idle_seen_next is the slot to write next
	 */
	uint64_t idle_seen_ns[SP_IDLE_SEEN];
	uint8_t idle_seen_next;
};

enum sp_wait_class {
	SP_WAIT_WAKEUP,		/* it became waiting through a wakeup */
	SP_WAIT_PREEMPT,	/* through a switch-out while runnable */
};

/*
 * One wait for a CPU: from the moment a task became waiting to the moment
 * it next became current (doc/design.md "Exact semantics").  pid 0 never
 * waits; a wait still open at the end of the trace is no wait here.
 */
struct sp_wait {
	uint64_t start_ns;
	uint64_t dur_ns;
	int32_t pid;
	int32_t cpu;		/* where it then ran */
	int32_t prev_cpu;	/* where it ran last before, -1 if nowhere yet */
	int32_t waker;		/* wakeups: the waker (a pid or SP_WAKER_*); else SP_WAKER_NONE */
	int32_t waker_cpu;	/* wakeups: the CPU of the waker's record; else -1 */
	int32_t target_cpu;	/* wakeups: the CPU the wakeup placed it on; else prev_cpu */
	uint8_t wait_class;	/* enum sp_wait_class */
	bool prev_idle;		/* wakeups: prev_cpu ran its idle task at the wakeup */
	/*
	 * a CPU it was placed on (target_cpu, or where a migration moved it)
	 * was seen running its idle task more than SP_CONTRADICT_NS after the
	 * placement while it waited (doc/design.md "Contradicted waits")
	 */
	bool contradicted;
};

enum sp_run_end {
	SP_RUN_END_SWITCH,	/* a sched_switch switched it out */
	SP_RUN_END_REPAIR,	/* a repair: the switch was missed */
	SP_RUN_END_TRACE,	/* still current at the end of the trace */
};

/*
 * One run with what surrounds it: how it ended, and the wait that ended
 * when it began.  Runs of no length are reported too (a task switched in
 * at the trace's last timestamp, or in and out at one timestamp): their
 * waits ended.
 */
struct sp_run {
	uint64_t start_ns;
	uint64_t end_ns;
	int32_t cpu;
	int32_t pid;
	uint64_t wait_ns;	/* the wait (struct sp_wait) that ended as it began, 0 if none */
	int32_t waker;		/* that wait's waker, SP_WAKER_NONE if none (or no wait) */
	int32_t prev_cpu;	/* where it ran last before, -1 if nowhere yet (and for pid 0) */
	/*
	 * the task's name as the run began (sp_model_str()), which the wait
	 * that ended then is told with; 0 when unknown (or pid 0)
	 */
	uint32_t start_comm;
	uint8_t end;		/* enum sp_run_end */
	/*
	 * SP_RUN_END_SWITCH: the switch's prev_state as trace-cmd prints it
	 * (sp_event.prev_state); NULL when not known (or another end)
	 */
	const char *end_state;
	bool end_runnable;	/* SP_RUN_END_SWITCH: prev_state was runnable */
};

/* A change of the step functions: from @ts on, @running tasks run and @waiting wait. */
struct sp_step {
	uint64_t ts;
	int running;
	int waiting;
};

/**
 * sp_step_lost - lost capacity: CPUs that could run a waiting task and do not
 * @nr_cpus: N, the CPUs counted
 * @running: running(t)
 * @waiting: waiting(t)
 *
 * Return: min(@waiting, @nr_cpus - @running), never below 0.
 */
static inline int sp_step_lost(int nr_cpus, int running, int waiting)
{
	int idle = nr_cpus - running;
	int lost = waiting < idle ? waiting : idle;

	return lost > 0 ? lost : 0;
}

/*
 * One consumer of a pass: the callbacks it uses.  Any member may be NULL,
 * and a NULL one costs nothing: sp_pass_add() files each callback given in
 * an array of its own, and the model calls only what is filed.  The
 * timestamps are those the model uses: a record's own, or the CPU's
 * previous one when its clock went backwards.
 */
struct sp_model_observer {
	/* @pid ran on @cpu during [@t0, @t1); per CPU in time order */
	void (*run)(void *data, int cpu, int pid, uint64_t t0, uint64_t t1);
	/*
	 * The same run, told after run() with how it ended and the wait
	 * before it, also when it has no length (run() is not told of
	 * those); @r is valid during the call only.  Told once no repair
	 * can change it any more, in the order of the runs' ends
	 */
	void (*run_info)(void *data, const struct sp_run *r);
	/*
	 * @n steps in time order, after those of the previous call; in
	 * batches, as a call per step costs more than most consumers do
	 */
	void (*steps)(void *data, const struct sp_step *steps, size_t n);
	/*
	 * A wait ended: the task became current (wakeup and preemption
	 * waits).  Told once no repair can change it any more, in the order
	 * of the ends
	 */
	void (*wait)(void *data, const struct sp_wait *w);
	/*
	 * A wakeup record the model takes as one (sched_wakeup and
	 * sched_wakeup_new, or sched_waking where it stands in for
	 * sched_wakeup), whether or not it made @wakee wait: @waker is its
	 * waker (a pid or SP_WAKER_*, doc/design.md "The waker"), told on
	 * the CPU sp_model.waker_cpu, @target_cpu the CPU it names (-1 when
	 * it names none).  Called as the record is added, in trace order, the
	 * model's state of @wakee already updated.
	 */
	void (*wakeup)(void *data, uint64_t ts_ns, int waker, int wakee, int target_cpu);
	/*
	 * A sched_migrate_task record: @pid moved from @from_cpu to @to_cpu
	 * (-1: not said).  Called when the model's state of @pid at @ts_ns is
	 * known (sp_model.mig_at_wakeup tells it during the call): at once
	 * for a task current on the record's CPU; for one held current on
	 * another CPU, at that CPU's next sched record; for one current
	 * nowhere, once no repair can reach back before it.  So not always in
	 * trace order.
	 */
	void (*migration)(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu);
	/*
	 * A record of an event asked for by name (SP_EV_EXTRA,
	 * sp_reader_request_event()); @ev and its values are valid during
	 * the call only
	 */
	void (*extra)(void *data, const struct sp_event *ev);
	/*
	 * A record that passed a watch's filter (ev->watched, sp_reader_watch()),
	 * of any event, sched ones too; told as it is added, before the model
	 * applies it; @ev and its values are valid during the call only
	 */
	void (*watch)(void *data, const struct sp_event *ev);
	/*
	 * The pass starts again from the trace's first record (sp_trace_run()
	 * makes a second one when sched_waking stands in for sched_wakeup):
	 * forget what the first one told
	 */
	void (*reset)(void *data);
	void *data;
	/*
	 * run_info() wants no run of the idle task (pid 0): when no
	 * consumer does, the model does not hold them for it, half the runs
	 */
	bool run_info_no_idle;
};

/*
 * An observer telling @obj's hooks, named as in an initializer and the
 * others NULL: SP_MODEL_OBSERVER(x, .run = on_run, .reset = on_reset).
 */
#define SP_MODEL_OBSERVER(obj, ...) ((struct sp_model_observer){ __VA_ARGS__, .data = (obj) })

/* Consumers a pass tells at most, per callback. */
#define SP_PASS_MAX_CONSUMERS 16

/*
 * The consumers of one pass over a trace, any number of them, each
 * registered with sp_pass_add(): per callback an array of (function,
 * data), in the order registered, which is the order they are told in,
 * ended by a NULL function.  A callback no consumer uses costs the model
 * one test.  Plain data: copied into the model by sp_model_init().
 */
struct sp_pass {
	struct {
		void (*fn)(void *data, int cpu, int pid, uint64_t t0, uint64_t t1);
		void *data;
	} run[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, const struct sp_run *r);
		void *data;
	} run_info[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, const struct sp_step *steps, size_t n);
		void *data;
	} steps[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, const struct sp_wait *w);
		void *data;
	} wait[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, uint64_t ts_ns, int waker, int wakee, int target_cpu);
		void *data;
	} wakeup[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu);
		void *data;
	} migration[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, const struct sp_event *ev);
		void *data;
	} extra[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data, const struct sp_event *ev);
		void *data;
	} watch[SP_PASS_MAX_CONSUMERS + 1];
	struct {
		void (*fn)(void *data);
		void *data;
	} reset[SP_PASS_MAX_CONSUMERS + 1];
	uint8_t nr_run, nr_run_info, nr_steps, nr_wait, nr_wakeup, nr_migration, nr_extra,
		nr_watch, nr_reset;
	uint8_t nr_run_info_idle;	/* run_info consumers that want the idle task's runs */
	int error;		/* sticky: an sp_pass_add() that failed (sp_trace_run() fails) */
};

/**
 * sp_pass_init - a pass with no consumer yet
 * @p: the pass
 */
void sp_pass_init(struct sp_pass *p);

/**
 * sp_pass_init_one - a pass with one consumer
 * @p: the pass
 * @obs: the consumer (copied; NULL: none)
 */
void sp_pass_init_one(struct sp_pass *p, const struct sp_model_observer *obs);

/**
 * sp_pass_add - register a consumer: each callback it sets is filed
 * @p: the pass
 * @obs: the consumer's callbacks and data (copied); NULL adds nothing
 *
 * Consumers are told in the order they were added, callback by callback;
 * none needs to know of another.
 *
 * Return: 0, or -ENOSPC when a callback has SP_PASS_MAX_CONSUMERS
 * consumers already (then nothing of @obs is filed, and @p->error says
 * so, for whoever makes the pass).
 */
int sp_pass_add(struct sp_pass *p, const struct sp_model_observer *obs);

/**
 * sp_pass_reset - tell every consumer that the pass starts again
 * @p: the pass (NULL: none)
 */
void sp_pass_reset(const struct sp_pass *p);

/* What running(t) and waiting(t) count; all tasks and CPUs when NULL. */
struct sp_model_filter {
	const bool *cpus;	/* nr_cpus entries, NULL for all */
	bool (*task)(void *data, int pid, const char *comm);
	void *task_data;
};

/* One repair, for -v: where and when, and the task it made current. */
struct sp_repair_note {
	int kind;			/* enum sp_repair_kind */
	int cpu;			/* -1: not tied to a CPU (late change) */
	uint64_t ts_ns;			/* when it acts: for a missed switch, the CPU's
					   previous sched record */
	int pid;			/* the task made current (missed switch), the
					   switch's prev_pid (mismatch), else -1 */
};

/* Repairs noted unless keep_repair_notes says otherwise. */
#define SP_MODEL_REPAIR_NOTES 10

struct sp_model {
	int nr_cpus;
	struct sp_cpu *cpus;
	uint64_t end_ns;		/* last record over all CPUs */
	uint64_t window_start_ns;	/* complete window: [window_start_ns, end_ns] */
	uint64_t first_ns;		/* min over CPUs of start_ns */
	uint64_t nr_records;
	uint64_t nr_sched_records;
	uint64_t nr_migrations;
	uint64_t nr_waits_open;		/* waits still open at the end: no sample */
	uint64_t nr_by_type[SP_EV_NR_TYPES];
	uint64_t repairs[SP_REPAIR_NR_KINDS];
	/* the first keep_repair_notes repairs, in the order made, for -v */
	struct sp_repair_note *repair_notes;
	size_t nr_repair_notes, alloc_repair_notes, keep_repair_notes;
	bool wakeup_from_waking;	/* sched_waking stands in for sched_wakeup */
	/*
	 * During a migration callback: whether the task was being placed at
	 * wakeup (asleep, or waiting from a wakeup sched_waking stands for and
	 * not run since) at the record's time, repairs found later included.
	 */
	bool mig_at_wakeup;
	int32_t ev_cpu;			/* the CPU of the record being added, for consumers */
	int32_t waker;			/* the wakeup being told: its waker ... */
	int32_t waker_cpu;		/* ... and the waker's CPU */

	struct sp_tasktab tasks;	/* the tasks by pid, and their names */

	/* private */
	struct sp_pass pass;		/* the consumers told */
	struct sp_model_filter filter;
	struct sp_change *changes;	/* pending step changes, sorted by time */
	size_t head_changes;		/* first pending one */
	size_t nr_changes;
	size_t alloc_changes;
	uint64_t flushed_ns;		/* last step handed to the consumers */
	struct sp_step steps[SP_STEP_BATCH];	/* not handed over yet */
	size_t nr_steps;
	bool any_flushed;
	/*
	 * Run records and tasks becoming current (with the waits that ended
	 * then) that a repair may still change, in the order made: not
	 * handed to the consumers yet.  A ring: the records ever made are
	 * counted, those from head_held up to nr_held are pending, record i
	 * is held[i & (alloc_held - 1)] (alloc_held a power of two)
	 */
	struct sp_held *held;
	uint64_t head_held;
	uint64_t nr_held;
	size_t alloc_held;
	/*
	 * held records numbered below renamed_held may have been made
	 * before a task's name changed (tasks.renames was renames_seen)
	 */
	uint64_t renamed_held;
	uint64_t renames_seen;
	int running;
	int waiting;
	uint64_t flush_mask;		/* the flush point is recomputed when records & it is 0 */
	bool finished;
};

/**
 * sp_model_init - prepare a model for one pass over a trace
 * @m: the model
 * @nr_cpus: CPUs in the trace header
 * @start_ns: per CPU, the first record's timestamp (SP_NO_TS: no records)
 * @end_ns: the last record's timestamp over all CPUs
 * @wakeup_from_waking: use sched_waking as the wakeup (no sched_wakeup records)
 * @pass: the consumers told (copied; NULL: none)
 * @filter: what running/waiting count (copied; may be NULL)
 *
 * Return: 0, or -ENOMEM / -EINVAL.
 */
int sp_model_init(struct sp_model *m, int nr_cpus, const uint64_t *start_ns, uint64_t end_ns,
		  bool wakeup_from_waking, const struct sp_pass *pass,
		  const struct sp_model_filter *filter);

/**
 * sp_model_release - free what the model holds (the struct itself stays)
 * @m: the model
 */
void sp_model_release(struct sp_model *m);

/**
 * sp_model_add - feed one record, in trace order
 * @m: the model
 * @ev: the record
 *
 * Return: 0, or -ENOMEM.
 */
int sp_model_add(struct sp_model *m, const struct sp_event *ev);

/**
 * sp_model_finish - close the open runs and waits at the end of the trace
 * @m: the model
 *
 * Return: 0, or -ENOMEM.
 */
int sp_model_finish(struct sp_model *m);

/**
 * sp_model_settled - how far what the consumers were told is complete
 * @m: the model, during the pass (a consumer's callbacks may ask)
 *
 * Every wait that begins before the time returned has been told, and so
 * has every run that begins before it but each CPU's current one
 * (sp_model_current()), which lasts until that time at least.  A
 * consumer that keeps what it is told until it can sum it in time order
 * (analysis/losttime.c) may sum what lies before it.  It looks at every
 * task: ask now and then, not for each record.
 *
 * Return: that time (0 before the first record).
 */
uint64_t sp_model_settled(const struct sp_model *m);

/**
 * sp_model_current - a CPU's current task and since when
 * @m: the model
 * @cpu: the CPU, a valid one
 * @since_ns: set to when it became current
 *
 * During run() of @cpu, the task whose run is told.
 *
 * Return: its pid (0: the idle task), or -1 while not known.
 */
static inline int sp_model_current(const struct sp_model *m, int cpu, uint64_t *since_ns)
{
	*since_ns = m->cpus[cpu].run_start_ns;
	return m->cpus[cpu].cur_pid;
}

/**
 * sp_waker_format - a waker as runs and latency write it
 * @buf: room for the text
 * @size: its size (12 is enough)
 * @waker: a pid or SP_WAKER_*
 *
 * Return: @buf, holding the pid, "irq", "softirq" or "-1".
 */
const char *sp_waker_format(char *buf, size_t size, int waker);

/**
 * sp_model_task - look up a task
 * @m: the model
 * @pid: the task
 *
 * Return: the task, or NULL when the trace never named it.
 */
static inline struct sp_task *sp_model_task(const struct sp_model *m, int pid)
{
	return sp_tasktab_find(&m->tasks, pid);
}

/**
 * sp_model_tgid - the process a task belongs to
 * @m: the model
 * @pid: the task
 *
 * Sched events carry no thread group id, so it is inferred from
 * sched_process_fork and sched_process_exec: a task that ran exec leads
 * its own process; a task forked during the trace that never ran exec
 * belongs to its parent's process (a thread, or a forked copy of the
 * program, which groups with it too); any other task (forked before the
 * trace started, or never named by a fork) is its own process.
 *
 * Return: the pid of the task leading @pid's process (@pid itself when
 * none is known).
 */
static inline int sp_model_tgid(const struct sp_model *m, int pid)
{
	return sp_tasktab_tgid(&m->tasks, pid);
}

/**
 * sp_model_str - the string behind an id
 * @m: the model
 * @id: a string id (e.g. sp_task.comm)
 *
 * Return: the string ("" for id 0).
 */
static inline const char *sp_model_str(const struct sp_model *m, uint32_t id)
{
	return sp_tasktab_str(&m->tasks, id);
}

/**
 * sp_model_comm - a task's command name
 * @m: the model
 * @pid: the task
 *
 * Return: its name, "<idle>" for pid 0, or "" when unknown.
 */
static inline const char *sp_model_comm(const struct sp_model *m, int pid)
{
	return sp_tasktab_comm(&m->tasks, pid);
}

/**
 * sp_model_set_comm - name a task (e.g. from the file's saved cmdlines)
 * @m: the model
 * @pid: the task
 * @comm: its name
 *
 * Return: 0, or -ENOMEM.
 */
static inline int sp_model_set_comm(struct sp_model *m, int pid, const char *comm)
{
	return sp_tasktab_set_comm(&m->tasks, pid, comm, false);
}

/**
 * sp_model_nr_repairs - all repairs of all kinds
 * @m: the model
 *
 * Return: the count.
 */
uint64_t sp_model_nr_repairs(const struct sp_model *m);

/**
 * sp_repair_name - short name of a repair kind, for stats and messages
 * @kind: an sp_repair_kind
 *
 * Return: a static string.
 */
const char *sp_repair_name(enum sp_repair_kind kind);

/**
 * sp_run_end_name - how a run ended, as runs and export write it
 * @r: the run
 *
 * Return: the switch's prev_state ("R" runnable or "?" when the record had
 * no text for it), "repair", or "end" (the end of the trace).
 */
const char *sp_run_end_name(const struct sp_run *r);

#endif /* SP_MODEL_H */
