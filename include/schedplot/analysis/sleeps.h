/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SLEEPS_H
#define SP_SLEEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/runorder.h"
#include "schedplot/base/pidtab.h"
#include "schedplot/model/scope.h"

struct sp_model_observer;
struct sp_run;

/*
 * Why tasks slept (doc/design.md "Sleeps"): a sleep runs from a task's
 * switch-out in a state other than runnable to the moment it next became
 * runnable (the start of the wait before its next run, or that run).  Its
 * state is the switch's prev_state: S (interruptible: waiting for an
 * event), D (uninterruptible: I/O, a lock), or another (I, the idle
 * kernel threads' TASK_IDLE; T, t, X, Z, P, ...); its waker is that of
 * the wakeup that ended it.  A run that ended through a repair or at the
 * end of the trace begins no sleep: its state is not known.  A sleep still
 * going on at the end of the trace is no sleep here.
 */

enum sp_sleep_state {
	SP_SLEEP_S,		/* interruptible */
	SP_SLEEP_D,		/* uninterruptible */
	SP_SLEEP_OTHER,
	SP_SLEEP_NR,
};

/* One task's sleeps, by state. */
struct sp_sleep_task {
	int32_t pid;
	uint64_t nr[SP_SLEEP_NR];
	uint64_t ns[SP_SLEEP_NR];
};

struct sp_sleeps {
	/*
	 * the sleeps counted: begun inside the window, on a CPU of the set
	 * (where the task ran last), of a task of the set
	 */
	struct sp_scope scope;
	struct sp_sleep_task *tasks;	/* in the order first counted */
	size_t nr_tasks, alloc_tasks;
	/* (pid, waker) -> the number of its sleeps that waker ended */
	struct sp_behind_table wakers;
	int error;			/* -ENOMEM: something was not counted */
	/* private: each task's runs put in order; per pid, its index in tasks + 1 */
	struct sp_runorder order;
	struct sp_pidtab last;		/* struct sp_sleep_last by pid */
};

/**
 * sp_sleep_state_of - the class of a switch-out's state
 * @state: prev_state as trace-cmd prints it ("S", "D", "R+", ...), or NULL
 *
 * Return: SP_SLEEP_S for "S...", SP_SLEEP_D for "D..." (also "D|K"),
 * SP_SLEEP_OTHER for anything else.
 */
enum sp_sleep_state sp_sleep_state_of(const char *state);

/**
 * sp_sleep_state_name - "S", "D" or "other"
 * @s: an enum sp_sleep_state
 *
 * Return: a static string.
 */
const char *sp_sleep_state_name(enum sp_sleep_state s);

/**
 * sp_sleeps_init - count from scratch
 * @sl: the counts
 * @scope: what counts (copied)
 */
void sp_sleeps_init(struct sp_sleeps *sl, const struct sp_scope *scope);

/**
 * sp_sleeps_release - free what @sl holds
 * @sl: the counts
 */
void sp_sleeps_release(struct sp_sleeps *sl);

/**
 * sp_sleeps_add - one run: the sleep before it, if any, is counted
 * @sl: the counts
 * @r: a run, as the pass tells it (run_info); each task's are put in
 *	order of their ends, a few held back until sp_sleeps_finish()
 */
void sp_sleeps_add(struct sp_sleeps *sl, const struct sp_run *r);

/**
 * sp_sleeps_finish - count the sleeps before the runs held back: call after the pass
 * @sl: the counts
 */
void sp_sleeps_finish(struct sp_sleeps *sl);

/**
 * sp_sleeps_observer - the consumer that feeds @sl (run_info, reset)
 * @sl: the counts
 * @obs: filled in
 */
void sp_sleeps_observer(struct sp_sleeps *sl, struct sp_model_observer *obs);

/**
 * sp_sleeps_find - one task's sleeps
 * @sl: the counts
 * @pid: the task
 *
 * Return: its sleeps, or NULL when none was counted.
 */
const struct sp_sleep_task *sp_sleeps_find(const struct sp_sleeps *sl, int pid);

#endif /* SP_SLEEPS_H */
