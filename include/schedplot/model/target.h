/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TARGET_H
#define SP_TARGET_H

/*
 * Which tasks --target and --target-process select.  A --target pattern
 * selects a task whose command matches it (a shell glob, fnmatch(3)) or,
 * when it is a number, the task of that pid (a thread id); a
 * --target-process pattern selects every task of a process
 * (sp_model_tgid()): by the leader's pid when it is a number, else by the
 * leader's command.  A task is a target when any pattern selects it.
 */

#include <stdbool.h>

struct sp_model;

/* The patterns, borrowed from the caller. */
struct sp_target {
	char *const *tasks;		/* --target */
	int nr_tasks;
	char *const *procs;		/* --target-process */
	int nr_procs;
};

/**
 * sp_target_pattern_match - whether one pattern selects a task
 * @m: the model (for the task's process)
 * @pattern: the pattern
 * @process: @pattern is a --target-process one
 * @pid: the task
 * @comm: its command name ("" or NULL when unknown)
 *
 * Return: true when @pattern selects the task.
 */
bool sp_target_pattern_match(const struct sp_model *m, const char *pattern, bool process,
			     int pid, const char *comm);

/**
 * sp_target_match - whether a task is a target
 * @tg: the patterns
 * @m: the model
 * @pid: the task
 * @comm: its command name ("" or NULL when unknown)
 *
 * Return: true when any pattern selects the task, or when there are none.
 */
bool sp_target_match(const struct sp_target *tg, const struct sp_model *m, int pid,
		     const char *comm);

/**
 * sp_target_unmatched - the patterns that select no task of a model
 * @tg: the patterns
 * @m: the model, after its pass
 * @unmatched: nr_tasks + nr_procs entries, set to true for each pattern
 *	       (--target ones first) that selects no task but the idle one
 *
 * Return: how many patterns select no task.
 */
int sp_target_unmatched(const struct sp_target *tg, const struct sp_model *m, bool *unmatched);

#endif /* SP_TARGET_H */
