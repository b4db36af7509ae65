/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TARGET_H
#define SP_TARGET_H

/*
 * Which tasks --target and --target-process select.  A --target pattern
 * selects a task whose command matches it (a shell glob, fnmatch(3)) or,
 * when it is a number, the task of that pid (a thread id); a
 * --target-process pattern selects every task of a process
 * (sp_model_tgid()): by the leader's pid when it is a number, else by the
 * leader's command.  A --target-tree pattern selects a task as --target
 * does and every task forked from it, at any depth, whatever commands
 * they run (trace-cmd record -c): the children of make that run exec
 * (cc1, as) too.  A task is a target when any pattern selects it.
 */

#include <stdbool.h>

struct sp_model;

/* The patterns, borrowed from the caller. */
struct sp_target {
	char *const *tasks;		/* --target */
	int nr_tasks;
	char *const *procs;		/* --target-process */
	int nr_procs;
	char *const *trees;		/* --target-tree */
	int nr_trees;
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
 * sp_target_tree_match - whether a --target-tree pattern selects a task
 * @m: the model (for the task's parents, from sched_process_fork)
 * @pattern: the pattern: a pid, or a command glob
 * @pid: the task
 * @comm: its command name ("" or NULL when unknown)
 *
 * Return: true when @pattern selects the task or one of its ancestors.
 */
bool sp_target_tree_match(const struct sp_model *m, const char *pattern, int pid,
			  const char *comm);

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
 * sp_target_nth - one pattern, counting --target, --target-process and
 *		   --target-tree ones in turn (as sp_target_unmatched() does)
 * @tg: the patterns
 * @i: 0 .. nr_tasks + nr_procs + nr_trees - 1
 * @suffix: set to "", "-process" or "-tree": the option's name after --target
 *
 * Return: the pattern.
 */
const char *sp_target_nth(const struct sp_target *tg, int i, const char **suffix);

/**
 * sp_target_unmatched - the patterns that select no task of a model
 * @tg: the patterns
 * @m: the model, after its pass
 * @unmatched: nr_tasks + nr_procs + nr_trees entries, set to true for each
 *	       pattern (--target ones first, --target-tree ones last) that
 *	       selects no task but the idle one
 *
 * Return: how many patterns select no task.
 */
int sp_target_unmatched(const struct sp_target *tg, const struct sp_model *m, bool *unmatched);

#endif /* SP_TARGET_H */
