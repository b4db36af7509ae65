/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EXPLAIN_H
#define SP_EXPLAIN_H

/*
 * The worst scheduler decisions of a trace, each with what a figure needs
 * to explain it: `schedplot explain`.  A decision is a wait for a CPU
 * (struct sp_wait): a wakeup and where it put the task, or a preemption.
 * One consumer of the pass ranks every wait that counts (the scope,
 * doc/design.md "Scope") by what was asked:
 *
 *	placement		wakeups that left an idle previous CPU
 *				(SP_PLACE_MOVED_PREV_IDLE), longest wait first;
 *	wait			every wait, longest first;
 *	migration		waits that ended on another CPU than the task's
 *				previous one, longest first;
 *	idle-while-waiting	every wait, by the time during it at least one
 *				CPU of the scope ran its idle task;
 *	at			the wait of one task going on at a moment, else
 *				the one that began nearest to it.
 *
 * It keeps the best @top, each a "case": the CPUs involved (the task's
 * previous CPU, the waker's, the one the wakeup placed it on, the one it
 * ran on and, for idle-while-waiting, the CPU idle longest while it
 * waited), a window around the decision scaled to its story, and every run
 * on those CPUs inside the window, so that a figure can be drawn without
 * a second pass.  To have the runs before the decision at hand when a wait
 * ends, each CPU keeps its last runs (SP_EXPLAIN_RING_RUNS); a case's window
 * starts no earlier than what its CPUs still hold.  A case is complete
 * once every CPU of it has told a run ending after the window.
 *
 * Memory: SP_EXPLAIN_RING_RUNS runs in all, a few numbers per task and per
 * change of "every CPU busy", and the runs of @top windows.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/pidtab.h"
#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

struct sp_antagonists;

enum sp_explain_what {
	SP_EXPLAIN_PLACEMENT,
	SP_EXPLAIN_WAIT,
	SP_EXPLAIN_MIGRATION,
	SP_EXPLAIN_IDLE_WAIT,
	SP_EXPLAIN_AT,
	SP_EXPLAIN_NR_WHAT,
};

/* The roles of a CPU in a case (a CPU may have several). */
enum sp_explain_role {
	SP_ROLE_PREV = 1,	/* where the task ran before */
	SP_ROLE_WAKER = 2,	/* where its waker ran the wakeup */
	SP_ROLE_PLACED = 4,	/* the CPU the wakeup (or preemption) queued it on */
	SP_ROLE_RAN = 8,	/* where it ran next */
	SP_ROLE_IDLE = 16,	/* idle longest while it waited */
};

/*
 * Runs kept for the windows of the cases to come: this many over all
 * CPUs (12 MB), at least SP_EXPLAIN_RING_MIN and at most
 * SP_EXPLAIN_RING_MAX per CPU.
 */
#define SP_EXPLAIN_RING_RUNS	(1u << 19)
#define SP_EXPLAIN_RING_MIN	1024u
#define SP_EXPLAIN_RING_MAX	65536u
/* CPUs of a case at most: one per role. */
#define SP_EXPLAIN_MAX_ROWS 5
/* Other tasks a case names as what the task waited behind, at most. */
#define SP_EXPLAIN_MAX_BEHIND 3

struct sp_explain_run {
	uint64_t start_ns, end_ns;
	int32_t pid;
	uint32_t comm;		/* its name as it began (sp_model_str()) */
};

struct sp_explain_row {
	int cpu;
	unsigned int roles;		/* enum sp_explain_role bits */
	uint64_t known_ns;		/* runs are known from here on (window start or later) */
	struct sp_explain_run *runs;	/* in time order, overlapping the window */
	size_t nr_runs, alloc_runs;
	bool done;			/* a run ending after the window was told */
};

/* Another task that ran on the task's CPUs while it waited. */
struct sp_explain_behind {
	int32_t pid;
	uint32_t comm;
	uint64_t ns;			/* its time on those CPUs during the wait */
};

struct sp_explain_case {
	struct sp_wait w;		/* the decision */
	uint64_t score;			/* what it was ranked by */
	uint32_t comm;			/* the task's name as it ran next */
	uint32_t waker_comm;		/* its waker's, when a task woke it (0: none) */
	uint64_t t0_ns, t1_ns;		/* the window drawn */
	struct sp_explain_row rows[SP_EXPLAIN_MAX_ROWS];
	int nr_rows;

	/* the facts, set by sp_explain_finish() */
	uint64_t last_ran_ns;		/* the task's last run before, on prev_cpu: its end
					   (SP_NO_TS: not known) */
	uint64_t prev_busy_end_ns;	/* prev_cpu's last run of a task before the wakeup:
					   its end (SP_NO_TS: none known) */
	bool prev_idle_exact;		/* prev_cpu's runs are known back to that run */
	struct sp_explain_run prev_last_other;	/* prev_cpu's last run of another task
						   before the wakeup (pid -1: none known) */
	uint64_t mig_ns;		/* a migration while it waited (SP_NO_TS: none) */
	int mig_from, mig_to;
	uint64_t iww_ns;		/* time of the wait during which a CPU idled */
	int idle_cpu;			/* SP_ROLE_IDLE's CPU, -1: none */
	uint64_t idle_cpu_ns;		/* its idle time during the wait */
	uint64_t next_end_ns;		/* the end of the run that ended the wait (SP_NO_TS:
					   after the window) */
	/* who held the CPUs it was queued on meanwhile (antagonist.c), longest first */
	struct sp_explain_behind behind[SP_EXPLAIN_MAX_BEHIND];
	int nr_behind;
	uint64_t behind_other_ns;	/* the rest of what ran there meanwhile */

	/* private */
	bool open;
	uint64_t seq;			/* order of arrival, for ties */
};

struct sp_explain {
	/* settings, before sp_explain_init() */
	enum sp_explain_what what;
	size_t top;			/* cases kept (>= 1) */
	uint64_t at_ns;			/* SP_EXPLAIN_AT: the moment ... */
	int at_pid;			/* ... and the task */
	struct sp_scope scope;		/* the waits that count */
	int nr_cpus;			/* of the trace */
	int nr_counted;			/* CPUs of the scope: "every CPU busy" is this many running */
	uint64_t first_ns, end_ns;	/* the trace's span: windows stay inside */
	const struct sp_model *model;	/* for names */
	/*
	 * the runs of every CPU (antagonist.c), its consumer registered
	 * before this one: who the task waited behind
	 */
	struct sp_antagonists *hist;

	/* results, ordered by sp_explain_finish(): worst first */
	struct sp_explain_case *cases;
	size_t nr_cases;
	uint64_t nr_candidates;		/* waits of the kind asked for, in the scope */
	int error;			/* sticky -ENOMEM */

	/* private */
	struct sp_explain_ring *rings;	/* per CPU */
	struct sp_pidtab migs;		/* struct sp_explain_mig by pid: the last migration */
	uint64_t *busy_edges;		/* times "every CPU busy" began or ended, alternately */
	size_t nr_busy_edges, alloc_busy_edges;
	bool all_busy;			/* since the last edge */
	uint64_t last_step_ns;
	uint64_t seq;
};

/**
 * sp_explain_init - prepare, after filling in the settings
 * @x: the settings; results zeroed
 *
 * Return: 0, -EINVAL (no CPUs, top 0, no @x->hist) or -ENOMEM.
 */
int sp_explain_init(struct sp_explain *x);

/**
 * sp_explain_observer - the consumer of the pass that feeds @x
 * @x: initialised
 * @obs: filled in (run_info, steps, wait, migration, reset)
 */
void sp_explain_observer(struct sp_explain *x, struct sp_model_observer *obs);

/**
 * sp_explain_finish - close the cases, work out their facts, order them worst first
 * @x: after the pass
 *
 * Return: @x->error.
 */
int sp_explain_finish(struct sp_explain *x);

/**
 * sp_explain_release - free what @x holds (not the settings' pointers)
 * @x: zeroed or initialised
 */
void sp_explain_release(struct sp_explain *x);

/**
 * sp_explain_what_name - "placement", "wait", "migration", "idle-while-waiting", "at"
 * @what: an enum sp_explain_what
 *
 * Return: a static string.
 */
const char *sp_explain_what_name(enum sp_explain_what what);

/**
 * sp_explain_what_parse - the inverse of sp_explain_what_name() (not "at")
 * @name: the name
 *
 * Return: the kind, or SP_EXPLAIN_NR_WHAT when @name names none.
 */
enum sp_explain_what sp_explain_what_parse(const char *name);

/**
 * sp_explain_row_of - the row of a CPU in a case
 * @c: the case
 * @cpu: the CPU
 *
 * Return: its index, or -1 when the case does not show it.
 */
int sp_explain_row_of(const struct sp_explain_case *c, int cpu);

#endif /* SP_EXPLAIN_H */
