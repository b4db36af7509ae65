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

/* Deeper than any process tree; a loop of bad fork records ends here too. */
#define TREE_MAX_DEPTH 1024

bool sp_target_tree_match(const struct sp_model *m, const char *pattern, int pid,
			  const char *comm)
{
	const struct sp_task *t;
	int depth;

	if (pid <= 0)
		return false;
	for (depth = 0; depth < TREE_MAX_DEPTH && pid > 0; depth++) {
		if (sp_target_pattern_match(m, pattern, false, pid,
					    depth ? sp_model_comm(m, pid) : comm))
			return true;
		t = sp_model_task(m, pid);
		if (!t || t->ppid == pid)
			return false;
		pid = t->ppid;
	}
	return false;
}

bool sp_target_match(const struct sp_target *tg, const struct sp_model *m, int pid,
		     const char *comm)
{
	int i;

	if (!tg->nr_tasks && !tg->nr_procs && !tg->nr_trees)
		return true;
	for (i = 0; i < tg->nr_tasks; i++)
		if (sp_target_pattern_match(m, tg->tasks[i], false, pid, comm))
			return true;
	for (i = 0; i < tg->nr_procs; i++)
		if (sp_target_pattern_match(m, tg->procs[i], true, pid, comm))
			return true;
	for (i = 0; i < tg->nr_trees; i++)
		if (sp_target_tree_match(m, tg->trees[i], pid, comm))
			return true;
	return false;
}

const char *sp_target_nth(const struct sp_target *tg, int i, const char **suffix)
{
	if (i < tg->nr_tasks) {
		*suffix = "";
		return tg->tasks[i];
	}
	if (i < tg->nr_tasks + tg->nr_procs) {
		*suffix = "-process";
		return tg->procs[i - tg->nr_tasks];
	}
	*suffix = "-tree";
	return tg->trees[i - tg->nr_tasks - tg->nr_procs];
}

int sp_target_unmatched(const struct sp_target *tg, const struct sp_model *m, bool *unmatched)
{
	int i, n = 0;

	for (i = 0; i < tg->nr_tasks + tg->nr_procs + tg->nr_trees; i++) {
		const char *suffix, *p = sp_target_nth(tg, i, &suffix);
		bool process = !strcmp(suffix, "-process");
		size_t k;

		unmatched[i] = true;
		/* a tree's root is a task the pattern selects as --target does */
		for (k = 0; k < m->tasks.nr && unmatched[i]; k++) {
			const struct sp_task *t = &m->tasks.v[k];

			if (t->pid > 0 &&
			    sp_target_pattern_match(m, p, process, t->pid, sp_model_str(m, t->comm)))
				unmatched[i] = false;
		}
		n += unmatched[i];
	}
	return n;
}
