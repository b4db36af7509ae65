// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats: integrals and extremes of the running/waiting step functions over
 * the complete window, and the exact wakeup latency distribution.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "schedplot/analysis/stats.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"

void sp_stats_init(struct sp_stats *s, uint64_t t0_ns, uint64_t end_ns, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->t0_ns = t0_ns;
	s->end_ns = end_ns;
	s->nr_cpus = nr_cpus;
	s->last_ns = t0_ns;
	sp_scope_init(&s->scope, 0, UINT64_MAX);
}

void sp_stats_reset(struct sp_stats *s)
{
	struct sp_samples lat = s->lat;
	struct sp_scope scope = s->scope;
	struct sp_power *power = s->power;

	sp_samples_clear(&lat);
	sp_stats_init(s, s->t0_ns, s->end_ns, s->nr_cpus);
	s->lat = lat;
	s->scope = scope;
	s->power = power;
	if (power)
		sp_power_reset(power);
}

void sp_stats_release(struct sp_stats *s)
{
	sp_samples_release(&s->lat);
}

/*
 * Keep @v among the @n (at most SP_STATS_TOP) longest of @top, sorted longest
 * first.  Once @top is full, most are no longer than its last: one test.
 */
#define TOP_KEEP(top, n, v)							\
	do {									\
		size_t i_;							\
										\
		if ((n) == SP_STATS_TOP &&					\
		    (top)[SP_STATS_TOP - 1].dur_ns >= (v).dur_ns)		\
			break;							\
		i_ = (n) < SP_STATS_TOP ? (n)++ : SP_STATS_TOP;			\
		while (i_ > 0 && (top)[i_ - 1].dur_ns < (v).dur_ns) {		\
			if (i_ < SP_STATS_TOP)					\
				(top)[i_] = (top)[i_ - 1];			\
			i_--;							\
		}								\
		if (i_ < SP_STATS_TOP)						\
			(top)[i_] = (v);					\
	} while (0)

/* The stretch of idle while waiting under way ended at @end_ns. */
static void iww_close(struct sp_stats *s, uint64_t end_ns)
{
	struct sp_stats_iww v = s->iww_open;

	if (!s->in_iww)
		return;
	s->in_iww = false;
	v.dur_ns = end_ns - v.start_ns;
	TOP_KEEP(s->iww_top, s->nr_iww_top, v);
}

/* Account for the current values holding over [s->last_ns, @upto). */
static inline void integrate(struct sp_stats *s, uint64_t upto)
{
	uint64_t from = s->last_ns > s->t0_ns ? s->last_ns : s->t0_ns;
	uint64_t to = upto < s->end_ns ? upto : s->end_ns;

	if (to > from) {
		uint64_t dur = to - from;

		s->running_area += dur * (uint64_t)s->running;
		s->waiting_area += dur * (uint64_t)s->waiting;
		if (s->waiting > 0 && s->running < s->nr_cpus) {
			s->idle_while_waiting_ns += dur;
			if (!s->in_iww) {
				s->in_iww = true;
				s->iww_open = (struct sp_stats_iww){ .start_ns = from };
			}
			if (s->waiting > s->iww_open.waiting_max)
				s->iww_open.waiting_max = s->waiting;
			if (s->nr_cpus - s->running > s->iww_open.idle_max)
				s->iww_open.idle_max = s->nr_cpus - s->running;
		} else {
			iww_close(s, from);
		}
		s->lost_cpu_ns += dur * (uint64_t)sp_step_lost(s->nr_cpus, s->running, s->waiting);
	}
	/* a value counts for the maxima if it holds at any t in [t0, end] */
	if (upto > s->t0_ns && s->last_ns <= s->end_ns) {
		if (s->running > s->running_max)
			s->running_max = s->running;
		if (s->waiting > s->waiting_max)
			s->waiting_max = s->waiting;
	}
	if (upto > s->last_ns)
		s->last_ns = upto;
}

/*
 * integrate() for each step of a batch, with the step function and the
 * integrals in locals: the stores into @s could alias @steps, which would
 * make the compiler reload everything per step.  The stretches of idle
 * while waiting are kept in @s as integrate() keeps them.
 */
void sp_stats_steps(struct sp_stats *s, const struct sp_step *steps, size_t n)
{
	uint64_t t0 = s->t0_ns, end = s->end_ns, last, run_area, wait_area, iww, lost;
	int nr_cpus = s->nr_cpus, running, waiting, running_max, waiting_max;
	size_t i = 0;

	if (!n)
		return;
	if (!s->started) {
		/* nothing held before the first step */
		if (steps[0].ts > s->last_ns)
			s->last_ns = steps[0].ts;
		s->started = true;
		s->running = steps[0].running;
		s->waiting = steps[0].waiting;
		i = 1;
	}
	last = s->last_ns;
	running = s->running;
	waiting = s->waiting;
	run_area = s->running_area;
	wait_area = s->waiting_area;
	iww = s->idle_while_waiting_ns;
	lost = s->lost_cpu_ns;
	running_max = s->running_max;
	waiting_max = s->waiting_max;
	for (; i < n; i++) {
		uint64_t ts = steps[i].ts;
		uint64_t from = last > t0 ? last : t0;
		uint64_t to = ts < end ? ts : end;

		if (to > from) {
			uint64_t dur = to - from;
			int idle = nr_cpus - running;

			run_area += dur * (uint64_t)running;
			wait_area += dur * (uint64_t)waiting;
			/* lost(t) is above 0 exactly while idle while waiting holds */
			if (waiting > 0 && idle > 0) {
				iww += dur;
				lost += dur * (uint64_t)(waiting < idle ? waiting : idle);
				if (!s->in_iww) {
					s->in_iww = true;
					s->iww_open = (struct sp_stats_iww){ .start_ns = from };
				}
				if (waiting > s->iww_open.waiting_max)
					s->iww_open.waiting_max = waiting;
				if (idle > s->iww_open.idle_max)
					s->iww_open.idle_max = idle;
			} else if (s->in_iww) {
				iww_close(s, from);
			}
		}
		/* a value counts for the maxima if it holds at any t in [t0, end] */
		if (ts > t0 && last <= end) {
			if (running > running_max)
				running_max = running;
			if (waiting > waiting_max)
				waiting_max = waiting;
		}
		if (ts > last)
			last = ts;
		running = steps[i].running;
		waiting = steps[i].waiting;
	}
	s->last_ns = last;
	s->running = running;
	s->waiting = waiting;
	s->running_area = run_area;
	s->waiting_area = wait_area;
	s->idle_while_waiting_ns = iww;
	s->lost_cpu_ns = lost;
	s->running_max = running_max;
	s->waiting_max = waiting_max;
}

void sp_stats_step(struct sp_stats *s, uint64_t ts, int running, int waiting)
{
	struct sp_step step = { .ts = ts, .running = running, .waiting = waiting };

	sp_stats_steps(s, &step, 1);
}

void sp_stats_latency(struct sp_stats *s, uint64_t dur_ns)
{
	if (sp_samples_add(&s->lat, dur_ns))
		s->lat_error = -ENOMEM;
}

void sp_stats_finish(struct sp_stats *s)
{
	/* selected, not sorted (sorted already by compare); exact either way */
	(void)sp_samples_summary(&s->lat, &s->latency);
	integrate(s, s->end_ns);
	iww_close(s, s->end_ns);
	/* the value at t = end holds too */
	if (s->last_ns <= s->end_ns && s->end_ns >= s->t0_ns) {
		if (s->running > s->running_max)
			s->running_max = s->running;
		if (s->waiting > s->waiting_max)
			s->waiting_max = s->waiting;
	}
}

double sp_stats_running_avg(const struct sp_stats *s)
{
	if (s->end_ns <= s->t0_ns)
		return s->running;
	return (double)s->running_area / (double)(s->end_ns - s->t0_ns);
}

double sp_stats_waiting_avg(const struct sp_stats *s)
{
	if (s->end_ns <= s->t0_ns)
		return s->waiting;
	return (double)s->waiting_area / (double)(s->end_ns - s->t0_ns);
}

double sp_stats_lost_fraction(const struct sp_stats *s)
{
	double capacity;

	if (s->end_ns <= s->t0_ns || s->nr_cpus <= 0)
		return 0.0;
	capacity = (double)s->nr_cpus * (double)(s->end_ns - s->t0_ns);
	return (double)s->lost_cpu_ns / capacity;
}

static void obs_steps(void *data, const struct sp_step *steps, size_t n)
{
	sp_stats_steps(data, steps, n);
}

void sp_stats_wait(struct sp_stats *s, const struct sp_wait *w)
{
	if (!sp_scope_wait(&s->scope, w))
		return;
	if (w->wait_class == SP_WAIT_WAKEUP)
		sp_stats_latency(s, w->dur_ns);
	TOP_KEEP(s->waits_top, s->nr_waits_top, *w);
	if (w->contradicted) {
		if (!s->nr_contradicted++ || w->dur_ns > s->contradicted_max.dur_ns)
			s->contradicted_max = *w;
		s->contradicted_ns += w->dur_ns;
	}
}

static void obs_wait(void *data, const struct sp_wait *w)
{
	sp_stats_wait(data, w);
}

static void obs_extra(void *data, const struct sp_event *ev)
{
	struct sp_stats *s = data;

	if (s->power)
		sp_power_add(s->power, ev);
}

static void obs_reset(void *data)
{
	sp_stats_reset(data);
}

void sp_stats_observer(struct sp_stats *s, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(s, .steps = obs_steps, .wait = obs_wait,
				 .extra = s->power ? obs_extra : NULL, .reset = obs_reset);
}
