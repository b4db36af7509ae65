/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_ENVELOPE_H
#define SP_ENVELOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/muldiv.h"

struct sp_model_observer;
struct sp_step;

/*
 * The running/waiting step functions reduced to pixel columns, so drawing
 * costs the same for ten events or a hundred million.  The window
 * [t0, t1) is cut into nr_cols columns; column i holds the times t with
 *
 *	floor((t - t0) * nr_cols / (t1 - t0)) == i
 *
 * (as in the datagraph's timeline, so both views cut time alike).  Each
 * column keeps the smallest and largest value each function takes anywhere in
 * it, the value carried in from before the column included:
 *
 *	running  2 ────┐    ┌─┐ (1 µs)    ┌──────
 *	         1     └────┘ └───────────┘
 *	columns  |  0  |  1  |  2  |  3  |  4  |
 *	min..max  2..2  1..2  1..2  1..1  1..2
 *
 * A spike of one nanosecond reaches its height in its column.  Each column
 * also keeps the integral of each function over it (task-nanoseconds), so
 * its time average can be drawn inside the min..max range, and how long,
 * inside it, some task waited while some CPU idled (waiting >= 1 and
 * running < N).
 *
 * Lost capacity, lost(t) = min(waiting(t), N - running(t)) (sp_step_lost()),
 * is drawn as a band from running(t) up to running(t) + lost(t).  A column
 * keeps the band's extent over the times inside it at which lost(t) >= 1:
 * from the smallest running(t) to the largest running(t) + lost(t) there,
 * so a lost spike of one nanosecond reaches its height too.
 *
 * Pure data: fed by the model's steps callback, in time order, through
 * sp_envelope_step(); memory is O(columns).
 */
struct sp_envelope_col {
	int run_min, run_max;
	int wait_min, wait_max;
	uint64_t shade_ns;		/* waiting >= 1 and running < N, inside the column */
	int lost_lo, lost_hi;		/* the lost band; lost_hi == 0: no lost capacity */
	int lost_max;			/* the largest lost(t) inside the column */
	uint64_t run_area, wait_area;	/* integrals over the column, task-ns */
};

struct sp_envelope {
	struct sp_cols window;		/* the window and its columns */
	int nr_cpus;			/* N */
	struct sp_envelope_col *cols;
	/* over the whole window, valid after sp_envelope_finish() */
	int running_max;
	int waiting_max;
	int lost_max;
	uint64_t shade_ns;

	/* private */
	uint64_t last_ns;		/* the current values hold from here */
	int running;
	int waiting;
	bool finished;
	size_t col;			/* the column last touched, spanning */
	uint64_t col_start, col_end;	/* [col_start, col_end); empty before any */
};

/**
 * sp_envelope_init - prepare an envelope of a window
 * @e: the envelope
 * @t0_ns: window start
 * @t1_ns: window end (exclusive)
 * @nr_cols: columns; at most @t1_ns - @t0_ns, so every column is at least
 *	     one nanosecond wide (callers with a shorter window take fewer)
 * @nr_cpus: N, for the "some CPU idles" test
 *
 * Before the first step both functions are 0.
 * Return: 0, -EINVAL (empty window, no columns, more columns than
 * nanoseconds) or -ENOMEM.
 */
int sp_envelope_init(struct sp_envelope *e, uint64_t t0_ns, uint64_t t1_ns, size_t nr_cols,
		     int nr_cpus);

/**
 * sp_envelope_release - free the columns (the struct itself stays)
 * @e: the envelope (may be one whose init failed)
 */
void sp_envelope_release(struct sp_envelope *e);

/**
 * sp_envelope_reset - forget every step, as right after sp_envelope_init()
 * @e: the envelope
 *
 * For sp_trace_run(), which may make its pass twice.
 */
void sp_envelope_reset(struct sp_envelope *e);

/**
 * sp_envelope_step - the functions change at @ts_ns (calls in time order)
 * @e: the envelope
 * @ts_ns: time of the change; may lie before or after the window
 * @running: running(t) from @ts_ns on
 * @waiting: waiting(t) from @ts_ns on
 */
void sp_envelope_step(struct sp_envelope *e, uint64_t ts_ns, int running, int waiting);

/**
 * sp_envelope_steps - sp_envelope_step() for each of @n steps
 * @e: the envelope
 * @steps: in time order, after those given before
 * @n: how many
 */
void sp_envelope_steps(struct sp_envelope *e, const struct sp_step *steps, size_t n);

/**
 * sp_envelope_finish - carry the last values to the end of the window
 * @e: the envelope
 *
 * Fills every column not reached yet and computes the window totals.
 * Calling it again does nothing.
 */
void sp_envelope_finish(struct sp_envelope *e);

/**
 * sp_envelope_observer - the consumer of a pass that feeds @e
 * @e: the envelope
 * @obs: filled in (steps and reset; the others are left NULL)
 */
void sp_envelope_observer(struct sp_envelope *e, struct sp_model_observer *obs);

/**
 * sp_envelope_col_start - where a column starts
 * @e: the envelope
 * @i: column, 0..nr_cols (nr_cols gives t1)
 *
 * Return: the timestamp.
 */
uint64_t sp_envelope_col_start(const struct sp_envelope *e, size_t i);

/**
 * sp_envelope_col_of - the column holding a timestamp
 * @e: the envelope
 * @ts_ns: a time in [t0, t1)
 *
 * Return: the column index.
 */
size_t sp_envelope_col_of(const struct sp_envelope *e, uint64_t ts_ns);

/**
 * sp_envelope_shade_fraction - how much of a column violated work conservation
 * @e: a finished envelope
 * @i: the column
 *
 * Return: 0..1, the part of the column in which waiting >= 1 and running < N.
 */
double sp_envelope_shade_fraction(const struct sp_envelope *e, size_t i);

/**
 * sp_envelope_col_mean - time averages of running and waiting in a column
 * @e: a finished envelope
 * @i: the column
 * @running: set to the average of running(t) over the column
 * @waiting: set to the average of waiting(t) over the column
 *
 * Each lies in the column's min..max range of its function.
 */
void sp_envelope_col_mean(const struct sp_envelope *e, size_t i, double *running,
			  double *waiting);

#endif /* SP_ENVELOPE_H */
