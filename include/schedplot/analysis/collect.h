/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_COLLECT_H
#define SP_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "schedplot/model/envelope.h"
#include "schedplot/model/model.h"

struct sp_stats;

/*
 * What the running-waiting and overview views collect in their one pass
 * over the trace: the model's step callbacks fan out to
 *
 *	- the envelope (per pixel column min..max, for drawing),
 *	- an sp_stats over the part of the window in which every CPU was
 *	  recording (the "idle while waiting" total, with the same code and
 *	  semantics as schedplot stats),
 *	- optionally a CSV stream of the change points.
 *
 * Other consumers of the same pass (the overview's datagraph timeline)
 * register beside it (sp_pass_add()).
 *
 * The CSV starts with a line "# start_ns=N", N the timestamp its times
 * count from (@csv_origin_ns, the trace's start, as in schedplot runs),
 * then the header.  Rows are "time_ns,running,waiting,lost" (time_ns
 * after start_ns): the first row at the
 * window's start with the values holding there, then one row per change
 * inside the window, and a last row at the window's end repeating the
 * values of the last segment, so every segment has both ends.  lost is
 * min(waiting, N - running) (sp_step_lost()): integrated over the
 * complete window it is stats' lost_cpu_ns.
 */
struct sp_rw_collect {
	struct sp_envelope env;
	struct sp_stats *stats;		/* over [max(t0, complete), t1], allocated */
	FILE *csv;			/* NULL: none; owned by the caller */
	uint64_t csv_origin_ns;		/* CSV times count from here; set before the pass */
	int csv_errno;			/* first failed CSV write */

	/* private */
	uint64_t stats_t0_ns;
	int running, waiting;		/* the values holding now */
	bool csv_started;
	bool csv_header;		/* the "# start_ns" and header lines are out */
};

/**
 * sp_rw_collect_init - prepare a collection over a window
 * @c: the collection
 * @t0_ns: window start
 * @t1_ns: window end, > @t0_ns
 * @nr_cols: envelope columns (at most @t1_ns - @t0_ns)
 * @nr_cpus: N, the CPUs counted
 * @complete_ns: start of the trace's complete window (every CPU recording)
 * @csv: an open stream for the CSV rows, or NULL (kept, not closed)
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sp_rw_collect_init(struct sp_rw_collect *c, uint64_t t0_ns, uint64_t t1_ns,
		       size_t nr_cols, int nr_cpus, uint64_t complete_ns, FILE *csv);

/**
 * sp_rw_collect_observer - the consumer of a pass that feeds @c
 * @c: the collection
 * @obs: filled in (steps and reset)
 */
void sp_rw_collect_observer(struct sp_rw_collect *c, struct sp_model_observer *obs);

/**
 * sp_rw_collect_reset - start over (the consumer's reset; @data is the collection)
 * @data: the collection
 *
 * Also truncates the CSV stream (when it is a file).
 */
void sp_rw_collect_reset(void *data);

/**
 * sp_rw_collect_finish - close the window: envelope, stats and the last CSV row
 * @c: the collection
 *
 * Return: 0, or the negative errno of a failed CSV write.
 */
int sp_rw_collect_finish(struct sp_rw_collect *c);

/**
 * sp_rw_collect_lost_fraction - lost CPU time over the capacity of the window
 * @c: a finished collection
 *
 * Only the complete part of the window counts (before it, a CPU without
 * records yet would look idle): lost_cpu_ns over N x that part.
 * Return: 0..1, 0 when there is no complete part.
 */
double sp_rw_collect_lost_fraction(const struct sp_rw_collect *c);

/**
 * sp_rw_collect_lost_cpu_ns - lost CPU time in the complete part of the window
 * @c: a finished collection
 *
 * Return: the integral of min(waiting, N - running), in CPU*ns.
 */
uint64_t sp_rw_collect_lost_cpu_ns(const struct sp_rw_collect *c);

/**
 * sp_rw_collect_shade_fraction - the share the view's corner note reports
 * @c: a finished collection
 *
 * The same as sp_rw_collect_lost_fraction(), now that the view draws lost
 * capacity rather than shading the time in which a task waited while a
 * CPU idled (that share is stats->idle_while_waiting_ns over the complete
 * part of the window); kept for callers not moved to the new name yet.
 * Return: 0..1.
 */
double sp_rw_collect_shade_fraction(const struct sp_rw_collect *c);

/**
 * sp_rw_collect_release - free what the collection holds
 * @c: the collection (zeroed, or initialised)
 */
void sp_rw_collect_release(struct sp_rw_collect *c);

#endif /* SP_COLLECT_H */
