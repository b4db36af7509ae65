// SPDX-License-Identifier: GPL-2.0-only
/*
 * envelope: the running/waiting step functions reduced to per-column
 * min..max ranges and work-conservation time, for drawing at any zoom.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/muldiv.h"
#include "schedplot/model/envelope.h"
#include "schedplot/model/model.h"

uint64_t sp_envelope_col_start(const struct sp_envelope *e, size_t i)
{
	return sp_cols_start(&e->window, i);
}

/* The column holding @ts_ns; from t1 on, the last one. */
size_t sp_envelope_col_of(const struct sp_envelope *e, uint64_t ts_ns)
{
	size_t i = (size_t)sp_cols_of(&e->window, ts_ns);

	return i < e->window.nr_cols ? i : e->window.nr_cols - 1;
}

int sp_envelope_init(struct sp_envelope *e, uint64_t t0_ns, uint64_t t1_ns, size_t nr_cols,
		     int nr_cpus)
{
	memset(e, 0, sizeof(*e));
	if (t1_ns <= t0_ns || !nr_cols || nr_cols > t1_ns - t0_ns || nr_cols > UINT_MAX)
		return -EINVAL;
	e->cols = sp_alloc_array(nr_cols, sizeof(*e->cols));
	if (!e->cols)
		return -ENOMEM;
	e->window = (struct sp_cols){ .t0_ns = t0_ns, .t1_ns = t1_ns, .nr_cols = (unsigned int)nr_cols };
	e->nr_cpus = nr_cpus;
	e->last_ns = t0_ns;
	return 0;
}

void sp_envelope_release(struct sp_envelope *e)
{
	free(e->cols);
	e->cols = NULL;
	e->window.nr_cols = 0;
}

void sp_envelope_reset(struct sp_envelope *e)
{
	memset(e->cols, 0, e->window.nr_cols * sizeof(*e->cols));
	e->running_max = 0;
	e->waiting_max = 0;
	e->lost_max = 0;
	e->shade_ns = 0;
	e->last_ns = e->window.t0_ns;
	e->running = 0;
	e->waiting = 0;
	e->finished = false;
	e->col = 0;
	e->col_start = e->col_end = 0;
}

/* Column @i saw the current values for @dur_ns. */
static inline void col_add(struct sp_envelope *e, size_t i, uint64_t dur_ns, bool first)
{
	struct sp_envelope_col *c = &e->cols[i];

	if (first) {
		c->run_min = c->run_max = e->running;
		c->wait_min = c->wait_max = e->waiting;
	} else {
		if (e->running < c->run_min)
			c->run_min = e->running;
		if (e->running > c->run_max)
			c->run_max = e->running;
		if (e->waiting < c->wait_min)
			c->wait_min = e->waiting;
		if (e->waiting > c->wait_max)
			c->wait_max = e->waiting;
	}
	c->run_area += (uint64_t)e->running * dur_ns;
	c->wait_area += (uint64_t)e->waiting * dur_ns;
	if (e->waiting >= 1 && e->running < e->nr_cpus) {
		int lost = sp_step_lost(e->nr_cpus, e->running, e->waiting);

		c->shade_ns += dur_ns;
		if (!c->lost_hi) {
			c->lost_lo = e->running;
			c->lost_hi = e->running + lost;
		} else {
			if (e->running < c->lost_lo)
				c->lost_lo = e->running;
			if (e->running + lost > c->lost_hi)
				c->lost_hi = e->running + lost;
		}
		if (lost > c->lost_max)
			c->lost_max = lost;
	}
}

/*
 * The current values hold over [e->last_ns, @upto): account for them in
 * every column that interval touches.  A column is first touched at its
 * start (the value carried in), so "first" is "the interval begins at the
 * column's start".
 */
static void advance_slow(struct sp_envelope *e, uint64_t upto)
{
	uint64_t a = e->last_ns, b = upto < e->window.t1_ns ? upto : e->window.t1_ns;

	if (a < e->window.t0_ns)
		a = e->window.t0_ns;
	if (a >= b)
		goto out;
	/* most steps stay in the column of the last one: no division then */
	if (a < e->col_start || a >= e->col_end) {
		e->col = sp_envelope_col_of(e, a);
		e->col_start = sp_envelope_col_start(e, e->col);
		e->col_end = sp_envelope_col_start(e, e->col + 1);
	}
	for (;;) {
		uint64_t end = b < e->col_end ? b : e->col_end;

		col_add(e, e->col, end - a, a == e->col_start);
		if (b <= e->col_end)
			break;
		a = e->col_end;
		e->col++;
		e->col_start = e->col_end;
		e->col_end = sp_envelope_col_start(e, e->col + 1);
	}
out:
	if (upto > e->last_ns)
		e->last_ns = upto;
}

/* advance_slow(), with the usual case first: an interval inside the current column. */
static inline void advance(struct sp_envelope *e, uint64_t upto)
{
	uint64_t a = e->last_ns;

	if (upto <= a)
		return;
	if (a >= e->col_start && upto <= e->col_end) {
		col_add(e, e->col, upto - a, a == e->col_start);
		e->last_ns = upto;
		return;
	}
	advance_slow(e, upto);
}

void sp_envelope_steps(struct sp_envelope *e, const struct sp_step *steps, size_t n)
{
	size_t i;

	if (e->finished)
		return;
	for (i = 0; i < n; i++) {
		advance(e, steps[i].ts);
		e->running = steps[i].running;
		e->waiting = steps[i].waiting;
	}
}

void sp_envelope_step(struct sp_envelope *e, uint64_t ts_ns, int running, int waiting)
{
	struct sp_step s = { .ts = ts_ns, .running = running, .waiting = waiting };

	sp_envelope_steps(e, &s, 1);
}

void sp_envelope_finish(struct sp_envelope *e)
{
	size_t i;

	if (e->finished)
		return;
	advance_slow(e, e->window.t1_ns);
	e->finished = true;
	for (i = 0; i < e->window.nr_cols; i++) {
		const struct sp_envelope_col *c = &e->cols[i];

		if (c->run_max > e->running_max)
			e->running_max = c->run_max;
		if (c->wait_max > e->waiting_max)
			e->waiting_max = c->wait_max;
		if (c->lost_max > e->lost_max)
			e->lost_max = c->lost_max;
		e->shade_ns += c->shade_ns;
	}
}

static void envelope_on_reset(void *data)
{
	sp_envelope_reset(data);
}

static void envelope_on_steps(void *data, const struct sp_step *steps, size_t n)
{
	sp_envelope_steps(data, steps, n);
}

void sp_envelope_observer(struct sp_envelope *e, struct sp_model_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	obs->steps = envelope_on_steps;
	obs->reset = envelope_on_reset;
	obs->data = e;
}

double sp_envelope_shade_fraction(const struct sp_envelope *e, size_t i)
{
	uint64_t w = sp_envelope_col_start(e, i + 1) - sp_envelope_col_start(e, i);

	return w ? (double)e->cols[i].shade_ns / (double)w : 0.0;
}

void sp_envelope_col_mean(const struct sp_envelope *e, size_t i, double *running,
			  double *waiting)
{
	const struct sp_envelope_col *c = &e->cols[i];
	uint64_t w = sp_envelope_col_start(e, i + 1) - sp_envelope_col_start(e, i);

	*running = w ? (double)c->run_area / (double)w : c->run_min;
	*waiting = w ? (double)c->wait_area / (double)w : c->wait_min;
	/* rounding must not carry a mean out of its range */
	*running = fmin(fmax(*running, c->run_min), c->run_max);
	*waiting = fmin(fmax(*waiting, c->wait_min), c->wait_max);
}
