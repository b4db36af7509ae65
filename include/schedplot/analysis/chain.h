/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CHAIN_H
#define SP_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/runorder.h"
#include "schedplot/model/scope.h"

struct sp_model;
struct sp_model_observer;
struct sp_run;

/*
 * The chain of a target task (doc/design.md "The chain of a target"):
 * its time over the window, from the start of the wait or sleep before
 * its first run there to the end of its last run, cut into what it did
 * and what it waited on: its runs; each wait for a CPU, split among the
 * tasks that held the CPU it then ran on (antagonist.c) and the rest,
 * when that CPU idled; each sleep, by its state and its waker (the task,
 * or the interrupt, whose wakeup ended it).  A gap whose state no record
 * gives (after a run a repair ended) is "not known".  The cause that took
 * most of a task's time other than its runs is its long pole.
 */

enum sp_chain_kind {
	SP_CHAIN_RAN,		/* it ran (who: -1) */
	SP_CHAIN_CPU,		/* it waited for a CPU held by who (-1: by no task, idle) */
	SP_CHAIN_SLEPT_S,	/* it slept interruptibly until who woke it */
	SP_CHAIN_SLEPT_D,	/* ... uninterruptibly (I/O, a lock) */
	SP_CHAIN_SLEPT_OTHER,	/* ... in another state (I, T, ...) */
	SP_CHAIN_UNKNOWN,	/* not known (a missed switch), until who woke it */
	SP_CHAIN_NR,
};

/* What a piece of a task's time went to: a kind, and who (a pid or SP_WAKER_*). */
struct sp_chain_cause {
	enum sp_chain_kind kind;
	int32_t who;
};

/* One piece of a target's time, kept for drawing (sp_chain.keep). */
struct sp_chain_piece {
	uint64_t t0_ns, t1_ns;
	int32_t pid;
	int32_t cause;		/* sp_chain_code() */
};

struct sp_chain {
	struct sp_antagonists *hist;	/* the runs, registered before this */
	struct sp_scope scope;		/* its window and tasks (not its CPUs) */
	/* (pid, cause code) -> time; (pid, SP_BEHIND_TOTAL) its time followed */
	struct sp_behind_table ns;
	struct sp_behind_table count;	/* (pid, cause code) -> pieces */
	bool keep;			/* keep the pieces (set before the pass) */
	struct sp_chain_piece *pieces;	/* in the order of the runs' ends */
	size_t nr_pieces, alloc_pieces;
	int error;			/* -ENOMEM: something was not counted */
	/* private: each task's runs put in order, for the gaps between them */
	struct sp_runorder order;
};

/**
 * sp_chain_code - a cause as a key of the tables
 * @c: the cause
 *
 * Return: a key >= 0 (who is kept in 23 bits: pids up to 2^22).
 */
int32_t sp_chain_code(struct sp_chain_cause c);

/**
 * sp_chain_cause_of - the cause of a key
 * @code: from sp_chain_code()
 *
 * Return: the cause.
 */
struct sp_chain_cause sp_chain_cause_of(int32_t code);

/**
 * sp_chain_kind_name - the kind as the tables word it
 * @kind: an enum sp_chain_kind
 *
 * Return: "ran", "cpu", "S", "D", "other" or "unknown".
 */
const char *sp_chain_kind_name(enum sp_chain_kind kind);

/**
 * sp_chain_init - follow the tasks of @scope
 * @ch: the chains
 * @hist: the runs of every CPU (its observer registered before this one)
 * @scope: the window and the tasks (copied); its CPUs do not narrow a chain
 * @keep: keep the pieces, for drawing
 */
void sp_chain_init(struct sp_chain *ch, struct sp_antagonists *hist,
		   const struct sp_scope *scope, bool keep);

/**
 * sp_chain_release - free what @ch holds
 * @ch: the chains
 */
void sp_chain_release(struct sp_chain *ch);

/**
 * sp_chain_add - one run: it, and the wait and sleep before it
 * @ch: the chains
 * @r: a run, in the order of the runs' ends (run_info)
 */
void sp_chain_add(struct sp_chain *ch, const struct sp_run *r);

/**
 * sp_chain_finish - count what the runs held back say: call after the pass
 * @ch: the chains
 */
void sp_chain_finish(struct sp_chain *ch);

/**
 * sp_chain_observer - the consumer that feeds @ch (run_info, reset)
 * @ch: the chains
 * @obs: filled in
 */
void sp_chain_observer(struct sp_chain *ch, struct sp_model_observer *obs);

/**
 * sp_chain_long_pole - what took most of a task's time other than its runs
 * @v: sp_behind_table_sorted() of @ch->ns
 * @nr: its entries
 * @pid: the task
 * @cause: set to the cause
 * @ns: set to its time
 * @total_ns: set to the task's time followed
 *
 * Return: true when the task has one.
 */
bool sp_chain_long_pole(const struct sp_behind_entry *v, size_t nr, int pid,
			struct sp_chain_cause *cause, uint64_t *ns, uint64_t *total_ns);

/**
 * sp_chain_cause_format - a cause in words, as stats and the tasks chart say it
 * @buf: the text
 * @size: its room
 * @c: the cause
 * @m: the model, to name a task (comm-pid)
 *
 * Return: @buf, e.g. "slept (S) until woken by pingpong-12", "waited for a
 * CPU held by kworker/0:1-9", "ran".
 */
const char *sp_chain_cause_format(char *buf, size_t size, struct sp_chain_cause c,
				  const struct sp_model *m);

#endif /* SP_CHAIN_H */
