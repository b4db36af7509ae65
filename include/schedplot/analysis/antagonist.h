/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_ANTAGONIST_H
#define SP_ANTAGONIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/model/scope.h"

struct sp_model;
struct sp_model_observer;
struct sp_wait;

/*
 * Antagonists (doc/design.md "Antagonists"): for a wait for a CPU, the
 * tasks that ran on the CPU it was waiting for (the CPU it then ran on)
 * while it waited, and for how long.  A consumer of the pass keeps each
 * CPU's recent runs (struct sp_antagonists, fed by its run callback);
 * any other consumer asks it about a wait as the wait is told
 * (sp_antagonists_query()): the pass tells a run as it ends, and a wait
 * only once no repair can change it, so every run a wait needs has been
 * told by then.  A table (struct sp_behind_table) sums them per waiting
 * task, for "waited behind".
 */

/* One antagonist of a wait, or of a task's waits: who, and for how long. */
struct sp_behind {
	int32_t pid;
	uint64_t ns;
};

struct sp_antagonist_run;

/* Each CPU's recent runs (of tasks other than idle), oldest first. */
struct sp_antagonists {
	int nr_cpus;
	size_t keep;			/* runs kept per CPU at most */
	struct sp_antagonist_cpu {
		struct sp_antagonist_run *runs;	/* a ring of alloc entries */
		size_t head, nr, alloc;
		size_t finger;		/* where the last query's search ended */
		uint64_t dropped_ns;	/* the end of the last run dropped, 0: none */
	} *cpus;
	uint64_t nr_partial;		/* queries that reached before the runs kept */
	/*
	 * set by the caller when every query comes from a wait the pass tells
	 * later: runs before sp_model_settled() are dropped; NULL: kept
	 */
	const struct sp_model *model;
	int error;			/* -ENOMEM: a run could not be kept */
	/*
	 * the query's scratch: pid -> time, open addressing; used[] the
	 * slots the last query filled, so that a query costs what it
	 * finds, not the size the largest one grew the table to
	 */
	struct sp_behind *sums;
	size_t alloc_sums, nr_sums;
	size_t *used;
};

/**
 * sp_antagonists_init - keep each CPU's runs for the queries
 * @a: the history
 * @nr_cpus: CPUs of the trace
 *
 * Keeps up to 2^22 runs over all CPUs (at least 4096 per CPU): a wait that
 * began before its CPU's oldest kept run is answered for the part kept,
 * and counted in nr_partial.
 *
 * Return: 0 or -ENOMEM.
 */
int sp_antagonists_init(struct sp_antagonists *a, int nr_cpus);

/**
 * sp_antagonists_release - free what @a holds
 * @a: the history (initialised, or zeroed)
 */
void sp_antagonists_release(struct sp_antagonists *a);

/**
 * sp_antagonists_observer - the consumer that feeds @a (run, reset)
 * @a: the history
 * @obs: filled in
 */
void sp_antagonists_observer(struct sp_antagonists *a, struct sp_model_observer *obs);

/**
 * sp_antagonists_query - who held @cpu during [@t0, @t1) other than @pid
 * @a: the history
 * @cpu: the CPU waited for
 * @pid: the waiting task (its own runs do not count)
 * @t0: the wait's start
 * @t1: its end
 * @top: room for @max antagonists, longest first (ties: lower pid first)
 * @max: how many to give at most
 * @nr: set to how many antagonists there were in all
 * @total_ns: set to their time together (at most @t1 - @t0; the rest the
 *	CPU was idle or not known)
 *
 * Return: how many were written to @top (0 also when out of memory,
 * which @a->error then says).
 */
size_t sp_antagonists_query(struct sp_antagonists *a, int cpu, int pid, uint64_t t0,
			    uint64_t t1, struct sp_behind *top, size_t max, size_t *nr,
			    uint64_t *total_ns);

/**
 * sp_antagonists_of_wait - sp_antagonists_query() for a wait
 * @a: the history
 * @w: the wait (its cpu, pid, start and length)
 * @top: room for @max antagonists
 * @max: how many at most
 * @nr: set to how many there were in all
 * @total_ns: set to their time together
 *
 * Return: how many were written to @top.
 */
size_t sp_antagonists_of_wait(struct sp_antagonists *a, const struct sp_wait *w,
			      struct sp_behind *top, size_t max, size_t *nr, uint64_t *total_ns);

/* Per waiting task: its waits' time, and who it waited behind, summed. */
struct sp_behind_pair {
	int32_t waiter, antagonist;	/* waiter INT32_MIN: an empty slot */
	uint64_t ns;
};

/* The key of a waiter's own total in a table. */
#define SP_BEHIND_TOTAL INT32_MIN

struct sp_behind_table {
	struct sp_behind_pair *pairs;	/* open addressing on (waiter, antagonist) */
	size_t nr, alloc;
	int error;			/* -ENOMEM: a sum was lost */
};

/* The slot a pair's probe begins at; @mask: the slots - 1. */
static inline size_t sp_behind_hash(int32_t waiter, int32_t antagonist, size_t mask)
{
	return (((uint64_t)(uint32_t)waiter * 0x9e3779b97f4a7c15ull) ^
		((uint32_t)antagonist * 2654435761u)) & mask;
}

/* sp_behind_table_add() of a pair not in the table, or when it must grow first. */
void sp_behind_table_insert(struct sp_behind_table *t, int waiter, int antagonist, uint64_t ns);

/**
 * sp_behind_table_add - count one wait of @waiter: @ns behind @antagonist
 * @t: the table (zeroed to begin)
 * @waiter: the waiting task
 * @antagonist: a task that held the CPU meanwhile (any key but
 *	SP_BEHIND_TOTAL), or SP_BEHIND_TOTAL for the wait's own length (the
 *	denominator of the shares)
 * @ns: the time
 *
 * Inline, as it is called for every wait and sleep: a pair seen before
 * costs its lookup.
 */
static inline void sp_behind_table_add(struct sp_behind_table *t, int waiter, int antagonist,
				       uint64_t ns)
{
	/* the table grows when half full, before it looks */
	if ((t->nr + 1) * 2 <= t->alloc) {
		size_t mask = t->alloc - 1, i;

		for (i = sp_behind_hash(waiter, antagonist, mask); t->pairs[i].waiter != INT32_MIN;
		     i = (i + 1) & mask) {
			if (t->pairs[i].waiter == waiter && t->pairs[i].antagonist == antagonist) {
				t->pairs[i].ns += ns;
				return;
			}
		}
	}
	sp_behind_table_insert(t, waiter, antagonist, ns);
}

/* One sum of a table: what @waiter waited behind @antagonist (SP_BEHIND_TOTAL: its waits' time). */
struct sp_behind_entry {
	int32_t waiter;
	int32_t antagonist;
	uint64_t ns;
};

/**
 * sp_behind_table_sorted - every sum, sorted: by waiter, its waits' time
 * first, then longest first (ties: lower antagonist first)
 * @t: the table
 * @nr: set to the number of entries
 *
 * Return: a new array the caller frees, or NULL (out of memory, or empty:
 * then *@nr is 0).
 */
struct sp_behind_entry *sp_behind_table_sorted(const struct sp_behind_table *t, size_t *nr);

/**
 * sp_behind_of - the sums of one waiter in a sorted array
 * @v: from sp_behind_table_sorted()
 * @nr: its entries
 * @waiter: the task (or key) looked for
 * @wait_ns: set to its waits' time (0 when none)
 * @nr_of: set to how many antagonists follow
 *
 * Return: its first antagonist's entry (the @nr_of that follow are its),
 * or NULL when it has none.
 */
const struct sp_behind_entry *sp_behind_of(const struct sp_behind_entry *v, size_t nr,
					   int waiter, uint64_t *wait_ns, size_t *nr_of);

/**
 * sp_behind_table_clear - forget every sum, keep the memory
 * @t: the table
 */
void sp_behind_table_clear(struct sp_behind_table *t);

/**
 * sp_behind_table_release - free what @t holds
 * @t: the table
 */
void sp_behind_table_release(struct sp_behind_table *t);

/**
 * sp_behind_table_each - call @fn for every (waiter, antagonist, ns), in no order
 * @t: the table
 * @fn: the function (antagonist SP_BEHIND_TOTAL: the waiter's wait time)
 * @data: handed to @fn
 */
void sp_behind_table_each(const struct sp_behind_table *t,
			  void (*fn)(void *data, int waiter, int antagonist, uint64_t ns),
			  void *data);

/*
 * The consumer that fills a table: for each wait the scope counts, its
 * length (SP_BEHIND_TOTAL) and the time of each of its antagonists.
 */
#define SP_BEHIND_HINTS 1024	/* a power of 2 */

struct sp_waited_behind {
	struct sp_antagonists *hist;	/* the runs, registered before or after */
	struct sp_scope scope;
	struct sp_behind_table table;
	/*
	 * private: by a waiter's pid modulo SP_BEHIND_HINTS, the slot of the
	 * table where its total was last seen (checked before it is used)
	 */
	uint32_t total_at[SP_BEHIND_HINTS];
};

/**
 * sp_waited_behind_observer - the consumer that feeds @wb (wait, reset)
 * @wb: its history and scope set, the rest zeroed
 * @obs: filled in
 */
void sp_waited_behind_observer(struct sp_waited_behind *wb, struct sp_model_observer *obs);

#endif /* SP_ANTAGONIST_H */
