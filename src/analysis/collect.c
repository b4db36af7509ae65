// SPDX-License-Identifier: GPL-2.0-only
/*
 * overview: the one pass that feeds a running/waiting envelope, its
 * statistics, its CSV rows and (for schedplot overview) a datagraph
 * timeline at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/analysis/stats.h"

/* The first line gives where the times count from, as schedplot runs does. */
static void csv_header(struct sp_rw_collect *c)
{
	if (fprintf(c->csv, "# start_ns=%llu\ntime_ns,running,waiting,lost\n",
		    (unsigned long long)c->csv_origin_ns) < 0)
		c->csv_errno = errno ? errno : EIO;
	c->csv_header = true;
}

static void csv_row(struct sp_rw_collect *c, uint64_t ts, int running, int waiting)
{
	if (!c->csv || c->csv_errno)
		return;
	if (!c->csv_header)
		csv_header(c);
	if (fprintf(c->csv, "%llu,%d,%d,%d\n",
		    (unsigned long long)(ts > c->csv_origin_ns ? ts - c->csv_origin_ns : 0), running,
		    waiting, sp_step_lost(c->env.nr_cpus, running, waiting)) < 0)
		c->csv_errno = errno ? errno : EIO;
}

static void collect_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct sp_rw_collect *c = data;
	struct sp_envelope *e = &c->env;
	size_t i;

	sp_envelope_steps(e, steps, n);
	sp_stats_steps(c->stats, steps, n);
	for (i = 0; i < n; i++) {
		const struct sp_step *s = &steps[i];

		/* CSV: the value at t0 includes changes at t0; later changes inside [t0, t1) */
		if (c->csv && s->ts > e->window.t0_ns && s->ts < e->window.t1_ns) {
			if (!c->csv_started) {
				csv_row(c, e->window.t0_ns, c->running, c->waiting);
				c->csv_started = true;
			}
			csv_row(c, s->ts, s->running, s->waiting);
		}
		if (s->ts < e->window.t1_ns) {
			c->running = s->running;
			c->waiting = s->waiting;
		}
	}
}

int sp_rw_collect_init(struct sp_rw_collect *c, uint64_t t0_ns, uint64_t t1_ns,
		       size_t nr_cols, int nr_cpus, uint64_t complete_ns, FILE *csv)
{
	int ret;

	memset(c, 0, sizeof(*c));
	ret = sp_envelope_init(&c->env, t0_ns, t1_ns, nr_cols, nr_cpus);
	if (ret)
		return ret;
	c->stats = malloc(sizeof(*c->stats));
	if (!c->stats) {
		sp_envelope_release(&c->env);
		return -ENOMEM;
	}
	c->stats_t0_ns = complete_ns > t0_ns ? complete_ns : t0_ns;
	if (c->stats_t0_ns > t1_ns)
		c->stats_t0_ns = t1_ns;
	sp_stats_init(c->stats, c->stats_t0_ns, t1_ns, nr_cpus);
	c->csv = csv;
	return 0;
}

void sp_rw_collect_observer(struct sp_rw_collect *c, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(c, .steps = collect_steps, .reset = sp_rw_collect_reset);
}

void sp_rw_collect_reset(void *data)
{
	struct sp_rw_collect *c = data;

	sp_envelope_reset(&c->env);
	sp_stats_reset(c->stats);
	c->running = 0;
	c->waiting = 0;
	c->csv_started = false;
	if (c->csv && !c->csv_errno) {
		struct stat st;

		/* a file: start it again; a pipe or device cannot be, so its rows are kept */
		if (fflush(c->csv) == 0 && !fstat(fileno(c->csv), &st) && S_ISREG(st.st_mode) &&
		    fseek(c->csv, 0, SEEK_SET) == 0) {
			if (ftruncate(fileno(c->csv), 0) < 0)
				c->csv_errno = errno;
			c->csv_header = false;
		}
	}
}

int sp_rw_collect_finish(struct sp_rw_collect *c)
{
	sp_envelope_finish(&c->env);
	sp_stats_finish(c->stats);
	if (!c->csv_started) {
		csv_row(c, c->env.window.t0_ns, c->running, c->waiting);
		c->csv_started = true;
	}
	csv_row(c, c->env.window.t1_ns, c->running, c->waiting);
	return c->csv_errno ? -c->csv_errno : 0;
}

double sp_rw_collect_lost_fraction(const struct sp_rw_collect *c)
{
	return sp_stats_lost_fraction(c->stats);
}

uint64_t sp_rw_collect_lost_cpu_ns(const struct sp_rw_collect *c)
{
	return c->stats->lost_cpu_ns;
}

double sp_rw_collect_shade_fraction(const struct sp_rw_collect *c)
{
	return sp_rw_collect_lost_fraction(c);
}

void sp_rw_collect_release(struct sp_rw_collect *c)
{
	sp_envelope_release(&c->env);
	if (c->stats)
		sp_stats_release(c->stats);
	free(c->stats);
	c->stats = NULL;
}
