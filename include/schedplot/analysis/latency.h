/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LATENCY_H
#define SP_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "schedplot/analysis/quantile.h"
#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

struct sp_antagonists;

/*
 * The distribution of waits for a CPU (struct sp_wait, one per wait), split
 * into groups by what explains them, as the samples of `schedplot latency`.
 * Every sample's length is kept (4 bytes below 4.29 s), nothing else:
 * quantiles are exact, memory grows with waits, not records.  The longest waits and a
 * time-by-length histogram are kept in fixed room.
 */

enum sp_latency_by {
	SP_LAT_BY_NONE,		/* one group */
	SP_LAT_BY_CLASS,	/* wakeup, preempt */
	SP_LAT_BY_COMMAND,
	SP_LAT_BY_PID,
	SP_LAT_BY_CPU,		/* the CPU it then ran on */
	SP_LAT_BY_PLACEMENT,	/* enum sp_placement */
	SP_LAT_BY_SOCKET,	/* the socket of the CPU it then ran on */
	SP_LAT_BY_WAKER,	/* its waker (doc/design.md "The waker"); preemptions apart */
	SP_LAT_BY_ANTAGONIST,	/* the task that held its CPU longest while it waited */
};

/* Where a wakeup put the task, against where it ran before. */
enum sp_placement {
	SP_PLACE_STAYED,	/* ran again on its previous CPU */
	SP_PLACE_MOVED_PREV_IDLE,	/* moved although its previous CPU was idle */
	SP_PLACE_MOVED_PREV_BUSY,	/* moved, its previous CPU busy */
	SP_PLACE_FIRST_RUN,	/* had not run before */
	SP_PLACE_PREEMPTED,	/* not a wakeup: a preemption wait */
	SP_PLACE_NR,
};

/* Log2 buckets of the time-by-length histogram: 1 ns .. 2^40 ns (as the view's). */
#define SP_LAT_NR_LOG2		41

struct sp_latency_group {
	int64_t key;			/* class, string id, pid, CPU, placement, socket */
	struct sp_samples samples[2];	/* by enum sp_wait_class; emptied by finish */
	struct sp_samples all;		/* both classes, sorted, moved here by sp_latency_finish() */
	struct sp_summary sum;		/* of all */
	struct sp_wait max;		/* the longest wait */
	uint64_t nr_contradicted;	/* its waits the trace contradicts (sp_wait.contradicted) */
};

struct sp_latency {
	/* settings, before the pass */
	enum sp_latency_by by;
	unsigned int class_mask;	/* 1 << enum sp_wait_class kept */
	/*
	 * the waits that count (sp_scope_wait()); its window is also that of
	 * the time histogram
	 */
	struct sp_scope scope;
	int nr_cpus;			/* of the trace, for socket */
	const int *socket;		/* nr_cpus entries or NULL: the topology */
	const struct sp_model *model;	/* for commands */
	struct sp_antagonists *antagonists;	/* for SP_LAT_BY_ANTAGONIST: the runs */
	size_t nr_slowest;		/* the longest waits to keep */
	size_t nr_time_cols;		/* columns of the time-by-length histogram, 0: none */
	FILE *csv;			/* every sample as a CSV row, or NULL */
	uint64_t csv_origin_ns;		/* CSV times count from here */

	/* results */
	struct sp_latency_group *groups;
	size_t nr_groups;
	struct sp_summary classes[2];	/* by enum sp_wait_class, by sp_latency_finish() */
	uint64_t nr_contradicted[2];	/* by class: the waits the trace contradicts */
	struct sp_wait *slowest;	/* nr_slowest_kept, longest first after finish */
	size_t nr_slowest_kept;
	uint32_t *time_hist;		/* nr_time_cols x SP_LAT_NR_LOG2 counts */
	int error;			/* -ENOMEM, or -errno of a CSV write */

	/* private */
	size_t alloc_groups;
	uint32_t *index;		/* open addressing, key -> groups[] + 1 */
	size_t alloc_index;
	size_t last_group;		/* the group of the last wait added */
};

/**
 * sp_latency_init - prepare, after filling in the settings
 * @l: the settings; results zeroed
 *
 * Return: 0 or -ENOMEM.
 */
int sp_latency_init(struct sp_latency *l);

/**
 * sp_latency_add - count one wait
 * @l: the collection
 * @w: the wait
 *
 * Failures are kept in @l->error.
 */
void sp_latency_add(struct sp_latency *l, const struct sp_wait *w);

/**
 * sp_latency_reset - forget every wait (a pass made again), keep the settings
 * @l: the collection
 */
void sp_latency_reset(struct sp_latency *l);

/**
 * sp_latency_finish - sort and summarise every group and class
 * @l: the collection
 *
 * Groups end sorted by number of waits, largest first (ties by key).
 *
 * Return: @l->error.
 */
int sp_latency_finish(struct sp_latency *l);

/**
 * sp_latency_group_name - a group's label for legends and text
 * @l: the collection
 * @g: one of its groups
 * @buf: room for the name
 * @len: its size
 *
 * Return: @buf.
 */
const char *sp_latency_group_name(const struct sp_latency *l, const struct sp_latency_group *g,
				  char *buf, size_t len);

/**
 * sp_placement_of - where a wait's wakeup put the task
 * @w: the wait
 *
 * Inline: stats asks it of every wait.
 *
 * Return: an enum sp_placement.
 */
static inline enum sp_placement sp_placement_of(const struct sp_wait *w)
{
	if (w->wait_class != SP_WAIT_WAKEUP)
		return SP_PLACE_PREEMPTED;
	if (w->prev_cpu < 0)
		return SP_PLACE_FIRST_RUN;
	if (w->cpu == w->prev_cpu)
		return SP_PLACE_STAYED;
	return w->prev_idle ? SP_PLACE_MOVED_PREV_IDLE : SP_PLACE_MOVED_PREV_BUSY;
}

/**
 * sp_placement_name - "stayed", "moved_prev_idle", ...
 * @p: an enum sp_placement
 *
 * Return: a static string.
 */
const char *sp_placement_name(enum sp_placement p);

/**
 * sp_latency_release - free what @l holds (not the settings' pointers)
 * @l: the collection
 */
void sp_latency_release(struct sp_latency *l);

#endif /* SP_LATENCY_H */
