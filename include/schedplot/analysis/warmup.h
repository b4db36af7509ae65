/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WARMUP_H
#define SP_WARMUP_H

/*
 * Warm-up: where, within one run, the series of the scheduler's numbers
 * settles.  The run's window is cut into SP_WARMUP_WINDOWS equal windows;
 * each window gets the average number of running tasks, of waiting tasks
 * and the median wakeup latency of the waits that began in it.  Each
 * series is truncated by MSER; the cut stands only when the windows it
 * drops differ from those it keeps (two-sided Mann-Whitney, p <=
 * SP_WARMUP_ALPHA), as MSER cuts noise too.  The run has settled where
 * the last of the three has.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_step;

#define SP_WARMUP_WINDOWS	50
/* MSER's cut stands when the windows it drops differ from the rest at this level */
#define SP_WARMUP_ALPHA		0.01

enum sp_warmup_series {
	SP_WARMUP_RUNNING,
	SP_WARMUP_WAITING,
	SP_WARMUP_LATENCY,
	SP_WARMUP_NR_SERIES,
};

struct sp_warmup_wait {
	uint32_t window;
	uint64_t dur_ns;
};

struct sp_warmup {
	uint64_t t0_ns, t1_ns;		/* the run's window */
	size_t nr;			/* windows */
	double *series[SP_WARMUP_NR_SERIES];	/* nr values each; latency NaN without waits */
	size_t settled[SP_WARMUP_NR_SERIES];	/* MSER's truncation, in windows */
	size_t end;			/* the largest of them */
	enum sp_warmup_series by;	/* the series that settled last */
	uint64_t end_ns;		/* from t0: where the steady state begins */
	/* gathering */
	uint64_t last_ns;
	int running, waiting;
	bool started;
	double *area[2];		/* running and waiting, task * ns per window */
	struct sp_warmup_wait *waits;
	size_t nr_waits, alloc_waits;
	int error;
};

/**
 * sp_mser - the truncation point of a series by MSER
 * @x: the series, in time order
 * @n: its length
 *
 * White's marginal standard error rule (White, "An effective truncation
 * heuristic for bias reduction in simulation output", Simulation 69(6),
 * 1997; Franklin and White, Winter Simulation Conference 2008): the d in
 * [0, n/2] minimising sum over i >= d of (x_i - mean of x_d..x_n-1)^2 /
 * (n - d)^2, the squared standard error of the mean of what is left.
 * Dropping the first d values trades their bias against the precision
 * the mean loses with them.  Ties go to the smallest d; a series that
 * never moves gives 0.
 *
 * Return: d, 0 for n < 4.
 */
size_t sp_mser(const double *x, size_t n);

/**
 * sp_warmup_init - start gathering one run
 * @w: the state
 * @t0_ns: start of the run's window
 * @t1_ns: its end, > @t0_ns
 * @nr: windows, >= 4
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sp_warmup_init(struct sp_warmup *w, uint64_t t0_ns, uint64_t t1_ns, size_t nr);

/* The running/waiting steps of the pass, in time order. */
void sp_warmup_steps(struct sp_warmup *w, const struct sp_step *steps, size_t n);

/* A wakeup wait that began at @start_ns; outside the window it is left out. */
void sp_warmup_wait(struct sp_warmup *w, uint64_t start_ns, uint64_t dur_ns);

/* Start again (the pass restarts). */
void sp_warmup_reset(struct sp_warmup *w);

/**
 * sp_warmup_finish - the series and where each settles
 * @w: the state, every step and wait given
 *
 * Return: 0, -ENOMEM (also for a failed sp_warmup_wait()).
 */
int sp_warmup_finish(struct sp_warmup *w);

/* sp_warmup_series_name - "running", "waiting", "wakeup latency" */
const char *sp_warmup_series_name(enum sp_warmup_series s);

void sp_warmup_release(struct sp_warmup *w);

#endif /* SP_WARMUP_H */
