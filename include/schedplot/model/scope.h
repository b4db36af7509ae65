/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SCOPE_H
#define SP_SCOPE_H

/*
 * What a command counts: a window of time, a set of CPUs and a set of
 * tasks (--min/--max/--time, --cpus, --target/--target-process), resolved
 * once against the trace and read by every consumer of the pass through
 * the predicates below, so that stats, latency, runs and the views count
 * the same things for the same options (doc/design.md, "Scope").
 *
 *	a wait		counts when it began inside the window, on its way to
 *			a CPU in the set (the CPU it then ran on), of a task
 *			in the set;
 *	a run		when it overlaps the window (one of no length: when it
 *			lies inside it), on a CPU in the set, of a task in it;
 *	a migration	when it happened inside the window, from or to a CPU
 *			in the set, of a task in it.
 *
 * The model's running(t) and waiting(t) count the CPUs and tasks of the
 * set (sp_model_filter); the window cuts their integrals.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/model/model.h"

struct sp_reader;
struct sp_target;

struct sp_scope {
	uint64_t t0_ns, t1_ns;		/* the window, both ends inside */
	const bool *cpus;		/* nr_cpus entries; NULL: every CPU */
	int nr_cpus;
	const struct sp_target *target;	/* NULL (or no patterns): every task */
	const struct sp_model *model;	/* names the tasks for @target */
	const struct sp_reader *reader;	/* names those @model has not (saved cmdlines), or NULL */
};

/**
 * sp_scope_init - the scope of all CPUs and tasks over a window
 * @s: the scope
 * @t0_ns: window start
 * @t1_ns: window end (UINT64_MAX: to the end of the trace)
 */
void sp_scope_init(struct sp_scope *s, uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_scope_narrowed - whether the scope leaves out CPUs or tasks
 * @s: the scope
 *
 * Return: true when some CPU or task is not in it.
 */
bool sp_scope_narrowed(const struct sp_scope *s);

/**
 * sp_scope_time - whether a moment lies inside the window
 * @s: the scope
 * @ts_ns: the moment
 *
 * Return: true when t0 <= @ts_ns <= t1.
 */
static inline bool sp_scope_time(const struct sp_scope *s, uint64_t ts_ns)
{
	return ts_ns >= s->t0_ns && ts_ns <= s->t1_ns;
}

/**
 * sp_scope_cpu - whether a CPU is in the scope
 * @s: the scope
 * @cpu: the CPU (-1: unknown, in the scope only when every CPU is)
 *
 * Return: true when it is.
 */
static inline bool sp_scope_cpu(const struct sp_scope *s, int cpu)
{
	return !s->cpus || (cpu >= 0 && cpu < s->nr_cpus && s->cpus[cpu]);
}

/**
 * sp_scope_comm - a task's name, as the scope matches it
 * @s: the scope
 * @pid: the task
 *
 * Return: the name s->model gives it now, else the one the trace's saved
 * cmdlines give it, else "".
 */
const char *sp_scope_comm(const struct sp_scope *s, int pid);

/**
 * sp_scope_task - whether a task is in the scope
 * @s: the scope
 * @pid: the task, named as sp_scope_comm() names it
 *
 * Return: true when it is.
 */
bool sp_scope_task(const struct sp_scope *s, int pid);

/**
 * sp_scope_wait - whether a wait counts
 * @s: the scope
 * @w: the wait, as the model tells it
 *
 * Inline: it is asked of every wait, by several consumers.
 *
 * Return: true when it began inside the window, ended on a CPU of the
 * scope, and its task is one of the scope.
 */
static inline bool sp_scope_wait(const struct sp_scope *s, const struct sp_wait *w)
{
	return sp_scope_time(s, w->start_ns) && sp_scope_cpu(s, w->cpu) &&
	       (!s->target || sp_scope_task(s, w->pid));
}

/**
 * sp_scope_run - whether a run counts
 * @s: the scope
 * @r: the run, as the model tells it
 *
 * Return: true when it overlaps the window (one of no length: lies inside
 * it), ran on a CPU of the scope, and its task is one of the scope, by
 * the name it had as the run began (@r->start_comm).
 */
bool sp_scope_run(const struct sp_scope *s, const struct sp_run *r);

/**
 * sp_scope_migration - whether a migration counts
 * @s: the scope
 * @ts_ns: when
 * @pid: the task moved
 * @from_cpu: from (-1: not said)
 * @to_cpu: to (-1: not said)
 *
 * Return: true when inside the window, from or to a CPU of the scope,
 * of a task of the scope.
 */
bool sp_scope_migration(const struct sp_scope *s, uint64_t ts_ns, int pid, int from_cpu,
			int to_cpu);

/**
 * sp_scope_filter - what the model's running(t) and waiting(t) count
 * @s: the scope (kept by reference in @f)
 * @f: filled in: the scope's CPUs and tasks
 */
void sp_scope_filter(const struct sp_scope *s, struct sp_model_filter *f);

#endif /* SP_SCOPE_H */
