// SPDX-License-Identifier: GPL-2.0-only
/*
 * scope: the window, CPUs and tasks a command counts, and the one set of
 * predicates every consumer reads them through.
 */
#include <string.h>

#include "schedplot/model/scope.h"
#include "schedplot/model/target.h"
#include "schedplot/trace/reader.h"

void sp_scope_init(struct sp_scope *s, uint64_t t0_ns, uint64_t t1_ns)
{
	memset(s, 0, sizeof(*s));
	s->t0_ns = t0_ns;
	s->t1_ns = t1_ns;
}

static bool has_target(const struct sp_scope *s)
{
	return s->target && (s->target->nr_tasks || s->target->nr_procs || s->target->nr_trees);
}

bool sp_scope_narrowed(const struct sp_scope *s)
{
	int c;

	if (has_target(s))
		return true;
	for (c = 0; s->cpus && c < s->nr_cpus; c++)
		if (!s->cpus[c])
			return true;
	return false;
}

/* @comm, else the name the saved cmdlines give @pid, else "" */
static const char *named(const struct sp_scope *s, int pid, const char *comm)
{
	if ((!comm || !*comm) && s->reader)
		comm = sp_reader_comm(s->reader, pid);
	return comm ? comm : "";
}

const char *sp_scope_comm(const struct sp_scope *s, int pid)
{
	return named(s, pid, s->model ? sp_model_comm(s->model, pid) : "");
}

bool sp_scope_task(const struct sp_scope *s, int pid)
{
	return !has_target(s) || sp_target_match(s->target, s->model, pid, sp_scope_comm(s, pid));
}

bool sp_scope_run(const struct sp_scope *s, const struct sp_run *r)
{
	if (r->start_ns > s->t1_ns || r->end_ns < s->t0_ns)
		return false;
	/* a run that only touches the window's edge lies outside it */
	if (r->end_ns > r->start_ns && (r->start_ns == s->t1_ns || r->end_ns == s->t0_ns))
		return false;
	if (!sp_scope_cpu(s, r->cpu))
		return false;
	/* by its name as it began, as the wait that ended then is judged */
	return !has_target(s) ||
	       sp_target_match(s->target, s->model, r->pid,
			       named(s, r->pid, s->model && r->start_comm ?
				     sp_model_str(s->model, r->start_comm) : NULL));
}

bool sp_scope_migration(const struct sp_scope *s, uint64_t ts_ns, int pid, int from_cpu,
			int to_cpu)
{
	return sp_scope_time(s, ts_ns) && (sp_scope_cpu(s, from_cpu) || sp_scope_cpu(s, to_cpu)) &&
	       sp_scope_task(s, pid);
}

static bool filter_task(void *data, int pid, const char *comm)
{
	const struct sp_scope *s = data;

	return sp_target_match(s->target, s->model, pid, comm);
}

void sp_scope_filter(const struct sp_scope *s, struct sp_model_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->cpus = s->cpus;
	if (has_target(s)) {
		f->task = filter_task;
		f->task_data = (void *)s;
	}
}
