// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which tasks --target and --target-process select; see
 * include/schedplot/model/target.h.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/model/model.h"
#include "schedplot/model/target.h"

/* A pattern that is a pid: digits only, and a pid's size. */
static bool as_pid(const char *pattern, int *pid)
{
	char *end;
	long v;

	if (*pattern < '0' || *pattern > '9')
		return false;
	v = strtol(pattern, &end, 10);
	if (*end || v > 0x3fffffff)
		return false;
	*pid = (int)v;
	return true;
}

static bool comm_match(const char *pattern, const char *comm)
{
	return !strcmp(pattern, comm) || !fnmatch(pattern, comm, 0);
}

bool sp_target_pattern_match(const struct sp_model *m, const char *pattern, bool process,
			     int pid, const char *comm)
{
	int want, tgid;

	if (!comm)
		comm = "";
	if (!process)
		return as_pid(pattern, &want) ? pid == want : comm_match(pattern, comm);
	if (pid <= 0)
		return false;
	tgid = sp_model_tgid(m, pid);
	if (as_pid(pattern, &want))
		return tgid == want;
	return comm_match(pattern, tgid == pid ? comm : sp_model_comm(m, tgid));
}

bool sp_target_match(const struct sp_target *tg, const struct sp_model *m, int pid,
		     const char *comm)
{
	int i;

	if (!tg->nr_tasks && !tg->nr_procs)
		return true;
	for (i = 0; i < tg->nr_tasks; i++)
		if (sp_target_pattern_match(m, tg->tasks[i], false, pid, comm))
			return true;
	for (i = 0; i < tg->nr_procs; i++)
		if (sp_target_pattern_match(m, tg->procs[i], true, pid, comm))
			return true;
	return false;
}

int sp_target_unmatched(const struct sp_target *tg, const struct sp_model *m, bool *unmatched)
{
	int i, n = 0;

	for (i = 0; i < tg->nr_tasks + tg->nr_procs; i++) {
		bool process = i >= tg->nr_tasks;
		const char *p = process ? tg->procs[i - tg->nr_tasks] : tg->tasks[i];
		size_t k;

		unmatched[i] = true;
		for (k = 0; k < m->nr_tasks && unmatched[i]; k++) {
			const struct sp_task *t = &m->tasks[k];

			if (t->pid > 0 &&
			    sp_target_pattern_match(m, p, process, t->pid, sp_model_str(m, t->comm)))
				unmatched[i] = false;
		}
		n += unmatched[i];
	}
	return n;
}
