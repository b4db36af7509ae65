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

struct sp_error;
struct sp_model_observer;
struct sp_reader;
struct sp_run;
struct sp_sleep_last;

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
 *
 * Where the trace names it, a sleep also has a blocking place: the kernel
 * function it blocked in (doc/design.md "Sleeps"), from the kernel stack
 * recorded with the switch that began it (ftrace:kernel_stack, the
 * stacktrace trigger on sched_switch: the first function that is not
 * scheduling) or from Android's sched_blocked_reason (its caller).
 */

enum sp_sleep_state {
	SP_SLEEP_S,		/* interruptible */
	SP_SLEEP_D,		/* uninterruptible */
	SP_SLEEP_OTHER,
	SP_SLEEP_NR,
};

/* How a trace names where a task blocked. */
enum sp_sleep_source {
	SP_SLEEP_STACK,		/* ftrace:kernel_stack after the switch, on its CPU */
	SP_SLEEP_REASON,	/* sched:sched_blocked_reason, told at the wakeup */
	SP_SLEEP_NR_SOURCES,
};

/* A task's sleeps in one state at one blocking place. */
struct sp_sleep_place {
	uint32_t place;		/* index in sp_sleeps.places */
	uint8_t state;		/* enum sp_sleep_state */
	uint64_t nr, ns;
};

/* One task's sleeps, by state, and by blocking place where known. */
struct sp_sleep_task {
	int32_t pid;
	uint64_t nr[SP_SLEEP_NR];
	uint64_t ns[SP_SLEEP_NR];
	struct sp_sleep_place *places;	/* in the order first seen */
	size_t nr_places, alloc_places;
};

struct sp_sleeps {
	/*
	 * the sleeps counted: begun inside the window, on a CPU of the set
	 * (where the task ran last), of a task of the set
	 */
	struct sp_scope scope;
	struct sp_sleep_task *tasks;	/* in the order first counted */
	size_t nr_tasks, alloc_tasks;
	/* (pid, waker) -> the number of its sleeps that waker ended, after sp_sleeps_finish() */
	struct sp_behind_table wakers;
	/* the blocking places named, each once; index = sp_sleep_place.place */
	char **places;
	size_t nr_places, alloc_places;
	/* a record that names places was seen (kernel_stack, sched_blocked_reason) */
	bool has_places;
	int error;			/* -ENOMEM: something was not counted */
	/* private: per pid, its index in tasks + 1, its runs put in order, its places */
	struct sp_pidtab last;		/* struct sp_sleep_last by pid */
	struct sp_sleep_last *cur;	/* the task of the runs sleep_before() is handed */
	uint32_t *place_hash;		/* open addressing over places: index + 1, 0 free */
	size_t alloc_place_hash;
	struct sp_reader *reader;	/* names addresses; NULL: no records asked for */
	bool functions_tried;		/* the reader's symbols were asked for */
	int req[SP_SLEEP_NR_SOURCES];	/* the reader's requests, -1: none */
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
 * sp_sleeps_finish - count the sleeps before the runs held back, and their wakers: call
 *	after the pass
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
 * sp_sleeps_request - ask the reader for the records that name blocking places
 * @sl: the counts, initialised
 * @r: the reader, before the pass; kept to name addresses
 * @err: filled in on failure
 *
 * Asks for ftrace:kernel_stack and sched:sched_blocked_reason, where the
 * trace has them in a layout read here; the kernel symbols the trace
 * saved load at the first such record.  A trace with neither is no error:
 * its sleeps have no places.
 *
 * Return: 0, or -ENOMEM.
 */
int sp_sleeps_request(struct sp_sleeps *sl, struct sp_reader *r, struct sp_error *err);

/**
 * sp_sleeps_place_seen - a record that names where @pid blocked
 * @sl: the counts
 * @source: what told it
 * @pid: the task
 * @cpu: the record's CPU (for SP_SLEEP_STACK: the CPU the task left)
 * @ts_ns: the record's time
 * @place: the function's name (copied)
 *
 * Call in time order, before the run that ends the sleep is added.  The
 * place is the sleep's that began at or before @ts_ns and ended after it
 * (a stack: on @cpu, before the task's next run began; a reason: before
 * that run); a stack names it before a reason.
 */
void sp_sleeps_place_seen(struct sp_sleeps *sl, enum sp_sleep_source source, int pid, int cpu,
			  uint64_t ts_ns, const char *place);

/**
 * sp_sleep_place_of_stack - the blocking place a kernel stack names
 * @names: the stack's functions, innermost first (NULL where unknown)
 * @nr: how many
 *
 * Return: the first that is neither tracing nor scheduling (the kernel's
 * scheduling functions, its .sched.text: schedule(), its timeouts, waits
 * on bits, completions, mutexes, semaphores; table in sleeps.c), or NULL.
 */
const char *sp_sleep_place_of_stack(const char *const *names, size_t nr);

/**
 * sp_sleep_task_places - a task's places, longest time first
 * @t: the task's sleeps
 * @out: filled with pointers into @t, at most @max
 * @max: room in @out
 *
 * Return: how many are in @out (ties: S before D before other, then the
 * place first seen).
 */
size_t sp_sleep_task_places(const struct sp_sleep_task *t, const struct sp_sleep_place **out,
			    size_t max);

/**
 * sp_sleeps_find - one task's sleeps
 * @sl: the counts
 * @pid: the task
 *
 * Return: its sleeps, or NULL when none was counted.
 */
const struct sp_sleep_task *sp_sleeps_find(const struct sp_sleeps *sl, int pid);

#endif /* SP_SLEEPS_H */
