/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_STATS_H
#define SP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/quantile.h"

#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

struct sp_model_observer;
struct sp_power;
struct sp_step;

/*
 * The numbers behind the running/waiting view, integrated from the model's
 * step changes over the complete window [t0, end], and the wakeup latency
 * distribution, exact: every latency is kept (4 bytes each below 4.29 s) and the
 * quantiles are nearest-rank.  Pure data: fed by the model's pass
 * callbacks.
 *
 * Lost capacity: lost(t) = min(waiting(t), N - running(t)), the CPUs that
 * could have run a waiting task and did not.  Its integral, lost_cpu_ns,
 * is CPU time (sp_step_lost() gives lost(t)); sp_stats_lost_fraction() puts it over the window's
 * capacity, N x (end - t0).
 */
/* Pointers kept by sp_stats: the longest of each kind, at most SP_STATS_TOP. */
#define SP_STATS_TOP 5

/* A stretch of idle while waiting: waiting(t) >= 1 and running(t) < N throughout. */
struct sp_stats_iww {
	uint64_t start_ns, dur_ns;
	int waiting_max;		/* the most tasks waiting in it */
	int idle_max;			/* the most idle CPUs in it, N - running(t) */
};

struct sp_stats {
	uint64_t t0_ns;
	uint64_t end_ns;
	int nr_cpus;			/* N: running < N means some CPU idles */
	/* step function state */
	uint64_t last_ns;
	int running;
	int waiting;
	bool started;
	/* results over [t0, end] */
	uint64_t running_area;		/* integral of running(t) dt, task*ns */
	uint64_t waiting_area;
	int running_max;
	int waiting_max;
	uint64_t idle_while_waiting_ns;
	uint64_t lost_cpu_ns;		/* integral of lost(t) dt, CPU*ns (below) */
	/*
	 * wakeup latency: of the waits the scope counts (sp_scope_wait());
	 * every wait from sp_stats_init(), kept by sp_stats_reset()
	 */
	struct sp_scope scope;
	struct sp_samples lat;
	int lat_error;			/* -ENOMEM when a latency could not be kept */
	struct sp_summary latency;	/* of lat, by sp_stats_finish() */
	/*
	 * set by the caller, or NULL: fed the power events (SP_EV_EXTRA
	 * records), for per-CPU mean frequencies; kept by sp_stats_reset(),
	 * which resets it too
	 */
	struct sp_power *power;
	/*
	 * Where to look: the longest stretches of idle while waiting inside
	 * [t0, end], and the longest waits (any class) the scope counts;
	 * longest first, earlier first on ties.
	 */
	struct sp_stats_iww iww_top[SP_STATS_TOP];
	size_t nr_iww_top;
	struct sp_wait waits_top[SP_STATS_TOP];
	size_t nr_waits_top;
	/*
	 * the waits the scope counts that the trace contradicts
	 * (sp_wait.contradicted), their time, and the longest of them
	 */
	uint64_t nr_contradicted;
	uint64_t contradicted_ns;
	struct sp_wait contradicted_max;
	struct sp_stats_iww iww_open;	/* the stretch under way (dur_ns unused) */
	bool in_iww;
};

/**
 * sp_stats_init - start collecting over [@t0_ns, @end_ns]
 * @s: the stats
 * @t0_ns: start of the complete window
 * @end_ns: end of the trace
 * @nr_cpus: CPUs counted by running(t)
 */
void sp_stats_init(struct sp_stats *s, uint64_t t0_ns, uint64_t end_ns, int nr_cpus);

/**
 * sp_stats_reset - start again over the same window, keeping the memory
 * @s: initialised stats
 */
void sp_stats_reset(struct sp_stats *s);

/**
 * sp_stats_release - free what @s holds
 * @s: initialised stats
 */
void sp_stats_release(struct sp_stats *s);

/**
 * sp_stats_observer - the consumer of a pass that feeds @s
 * @s: the stats, its power set (or not) already
 * @obs: filled in (steps, wait, reset, and extra with a power; run is left NULL)
 */
void sp_stats_observer(struct sp_stats *s, struct sp_model_observer *obs);

/**
 * sp_stats_step - the step function changes at @ts (in time order)
 * @s: the stats
 * @ts: time of the change
 * @running: running(t) from @ts on
 * @waiting: waiting(t) from @ts on
 */
void sp_stats_step(struct sp_stats *s, uint64_t ts, int running, int waiting);

/**
 * sp_stats_steps - sp_stats_step() for each of @n steps
 * @s: the stats
 * @steps: in time order, after those given before
 * @n: how many
 */
void sp_stats_steps(struct sp_stats *s, const struct sp_step *steps, size_t n);

/**
 * sp_stats_latency - keep one wakeup latency
 * @s: the stats
 * @dur_ns: the latency
 *
 * Out of memory, the latency is lost and @s->lat_error says so.
 */
void sp_stats_latency(struct sp_stats *s, uint64_t dur_ns);

/**
 * sp_stats_wait - count one finished wait: its latency (a wakeup's), and
 * whether it is among the longest
 * @s: the stats
 * @w: the wait (any class)
 *
 * Waits s->scope does not count (sp_scope_wait()) are ignored.
 */
void sp_stats_wait(struct sp_stats *s, const struct sp_wait *w);

/**
 * sp_stats_finish - integrate up to the end of the window, summarise latency
 * @s: the stats
 */
void sp_stats_finish(struct sp_stats *s);

/**
 * sp_stats_running_avg - time average of running(t) over the window
 * @s: finished stats
 *
 * Return: the average (0 for an empty window).
 */
double sp_stats_running_avg(const struct sp_stats *s);

/**
 * sp_stats_waiting_avg - time average of waiting(t) over the window
 * @s: finished stats
 *
 * Return: the average (0 for an empty window).
 */
double sp_stats_waiting_avg(const struct sp_stats *s);

/**
 * sp_stats_lost_fraction - lost CPU time as a share of the window's capacity
 * @s: finished stats
 *
 * Return: lost_cpu_ns / (N x (end - t0)), 0..1; 0 for an empty window or
 * no CPUs.
 */
double sp_stats_lost_fraction(const struct sp_stats *s);

#endif /* SP_STATS_H */
