// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: reading the runs.  Every trace is checked, then passed
 * over in the driver's loop (driver.h): one pass over its model reduces it
 * to a handful of numbers, its wakeup latencies, with --target the noise on
 * the targets' CPUs, and with --view datagraph or running-waiting gathers
 * its chart (compare-graphs.c); --skip-warmup auto passes over the open
 * trace a second time, from where the first found the run settled.  A file
 * of numbers is read whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/irqtime.h"
#include "schedplot/analysis/stats.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/base/alloc.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/compare.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/parallel.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/target.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/reader.h"
#include "schedplot/views/compare.h"

const struct sp_cmp_metric_desc sp_cmp_trace_metrics[SP_CMP_NR_TRACE_METRICS] = {
	[SP_CMP_DURATION] = { "duration", "duration_s", SP_CMP_U_SECONDS, 1 },
	/* more running is more work done, or more spinning: no bad side */
	[SP_CMP_RUNNING_AVG] = { "running_avg", "running_avg", SP_CMP_U_TASKS, 0 },
	[SP_CMP_WAITING_AVG] = { "waiting_avg", "waiting_avg", SP_CMP_U_TASKS, 1 },
	[SP_CMP_IDLE_WAITING] = { "idle_while_waiting", "idle_while_waiting", SP_CMP_U_FRACTION, 1 },
	[SP_CMP_LOST] = { "lost_fraction", "lost_fraction", SP_CMP_U_FRACTION, 1 },
	[SP_CMP_WAKEUP_P50] = { "wakeup_p50", "wakeup_p50_ns", SP_CMP_U_NS, 1 },
	[SP_CMP_WAKEUP_P99] = { "wakeup_p99", "wakeup_p99_ns", SP_CMP_U_NS, 1 },
	[SP_CMP_MIGRATIONS] = { "migrations_per_s", "migrations_per_s", SP_CMP_U_PER_SECOND, 1 },
};

/* numbers are taken for times: higher is worse */
const struct sp_cmp_metric_desc sp_cmp_value_metric = { "value", "value", SP_CMP_U_PLAIN, 1 };

/* What the pass over one trace gathers. */
struct trace_pass {
	const struct sp_cmp_opts *o;
	struct sp_trace *t;
	struct sp_stats stats;
	uint64_t target_first_ns;	/* the first moment a target task is current */
	uint64_t target_last_ns;	/* the last moment one stops being current */
	bool target_seen;
	uint64_t nr_migrations;		/* in the window; of target tasks with --target */
	uint64_t from_ns;		/* the numbers count from here: after the warm-up */
	struct sp_warmup wu;		/* the run's series, window by window */
	bool has_wu;
	bool *target_cpu;		/* --target: the CPUs they ran on */
};

/* the name of @r's task as the run began (doc/design.md "Scope"), else its last */
static const char *run_comm(const struct sp_model *m, const struct sp_run *r)
{
	return r->start_comm ? sp_model_str(m, r->start_comm) : sp_model_comm(m, r->pid);
}

static bool is_target_in(const struct sp_cmp_opts *o, const struct sp_model *m, int pid,
			 const char *comm)
{
	struct sp_target tg;

	sp_view_opts_target(&o->shared, &tg);
	return sp_target_match(&tg, m, pid, comm);
}

static bool is_target(const struct trace_pass *p, int pid)
{
	return is_target_in(p->o, &p->t->model, pid, sp_model_comm(&p->t->model, pid));
}

/* Warn about the patterns that select no task of the trace. */
static int warn_unmatched(const struct sp_cmp_opts *o, const struct sp_model *m,
			  const char *file)
{
	struct sp_target tg;
	const char *pattern, *suffix;
	bool *unmatched;
	int i, nr;

	sp_view_opts_target(&o->shared, &tg);
	nr = tg.nr_tasks + tg.nr_procs + tg.nr_trees;
	unmatched = calloc((size_t)nr, sizeof(*unmatched));
	if (!unmatched)
		return -ENOMEM;
	sp_target_unmatched(&tg, m, unmatched);
	for (i = 0; i < nr; i++) {
		if (!unmatched[i])
			continue;
		pattern = sp_target_nth(&tg, i, &suffix);
		sp_cli_warn("%s: no task matches --target%s '%s'", file, suffix, pattern);
	}
	free(unmatched);
	return 0;
}

static void pass_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct trace_pass *p = data;

	sp_stats_steps(&p->stats, steps, n);
	if (p->has_wu)
		sp_warmup_steps(&p->wu, steps, n);
}

static void pass_wait(void *data, const struct sp_wait *w)
{
	struct trace_pass *p = data;

	if (p->has_wu && w->wait_class == SP_WAIT_WAKEUP)
		sp_warmup_wait(&p->wu, w->start_ns, w->dur_ns);
	/* the wakeup latencies, and the contradicted waits of every class, as stats counts them */
	if (w->start_ns >= p->from_ns)
		sp_stats_wait(&p->stats, w);
}

static void pass_run(void *data, const struct sp_run *r)
{
	struct trace_pass *p = data;
	uint64_t t0 = r->start_ns, t1 = r->end_ns;
	int cpu = r->cpu;

	if (r->pid == 0 || t1 <= t0 || t1 <= p->from_ns)
		return;
	if (t0 < p->from_ns)
		t0 = p->from_ns;
	if (!is_target_in(p->o, &p->t->model, r->pid, run_comm(&p->t->model, r)))
		return;
	if (p->target_cpu && cpu >= 0 && cpu < p->t->nr_cpus)
		p->target_cpu[cpu] = true;
	if (!p->target_seen || t0 < p->target_first_ns)
		p->target_first_ns = t0;
	if (!p->target_seen || t1 > p->target_last_ns)
		p->target_last_ns = t1;
	p->target_seen = true;
}

static void pass_migration(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu)
{
	struct trace_pass *p = data;

	(void)from_cpu;
	(void)to_cpu;
	if (ts_ns < p->from_ns)
		return;
	if (sp_view_opts_has_targets(&p->o->shared)) {
		if (is_target(p, pid))
			p->nr_migrations++;
	} else {
		p->nr_migrations++;
	}
}

static void pass_reset(void *data)
{
	struct trace_pass *p = data;

	sp_stats_reset(&p->stats);
	if (p->has_wu)
		sp_warmup_reset(&p->wu);
	p->target_seen = false;
	p->target_first_ns = p->target_last_ns = 0;
	if (p->target_cpu)
		memset(p->target_cpu, 0, (size_t)p->t->nr_cpus * sizeof(bool));
	p->nr_migrations = 0;
}

/*
 * With --target: what else took time on the CPUs the targets ran on while
 * they ran (from the first moment one was current to the last).  Those
 * CPUs and that time are known only when the pass ends, so the pass keeps
 * what the noise is made of, the other tasks' runs and the interrupt and
 * frequency records, and tells them to the trackers once both are known.
 */
struct noise_run {
	uint64_t start_ns, end_ns;
	int32_t cpu;
	uint32_t comm;		/* sp_model_str(): the name as the run began */
};

/* an interrupt or frequency record, its values kept beyond the callback */
#define NOISE_MAX_VALUES	2
#define NOISE_MAX_REQUESTS	8

struct noise_record {
	uint64_t ts_ns;
	int32_t cpu;
	uint16_t extra;
	bool has_str;
	union sp_value values[NOISE_MAX_VALUES];
	/* a string field; the trackers keep no more of a name (struct sp_irqtime_source) */
	char str[32];
};

struct noise_pass {
	const struct sp_cmp_opts *o;
	struct sp_trace *t;
	/* per request of the reader: whether its records are kept, how their values are read */
	bool keep[NOISE_MAX_REQUESTS];
	int kind[NOISE_MAX_REQUESTS][NOISE_MAX_VALUES];	/* enum sp_value_kind; -1 past the last */
	struct noise_run *runs;
	size_t nr_runs, alloc_runs;
	struct noise_record *records;
	size_t nr_records, alloc_records;
	int has_irq;			/* sp_irqtime_request()'s answer */
	struct sp_irqtime irq;
	struct sp_power power;
	/* told once the pass has ended */
	const bool *target_cpu;
	uint64_t t0_ns, t1_ns;
	struct sp_cmp_noise *noise;
	size_t nr_noise, alloc_noise;
	int error;
};

/*
 * A new element at the end of the growable @array (a pointer to its
 * first element), zeroed; NULL when out of memory, which @np then keeps
 */
static void *noise_push(struct noise_pass *np, void *array, size_t *alloc, size_t *nr,
			size_t size)
{
	char *e;

	if (np->error || sp_grow_array(array, alloc, *nr + 1, size)) {
		np->error = -ENOMEM;
		return NULL;
	}
	e = *(char **)array + (*nr)++ * size;
	memset(e, 0, size);
	return e;
}

/* @ns more of @name, of @kind, on @cpu */
static void add_noise(struct noise_pass *np, enum sp_cmp_noise_kind kind, int cpu,
		      const char *name, uint64_t ns)
{
	struct sp_cmp_noise *n;
	size_t i;

	for (i = np->nr_noise; i-- > 0;) {
		n = &np->noise[i];
		if (n->kind == kind && n->cpu == cpu && !strncmp(n->name, name, sizeof(n->name) - 1)) {
			n->ns += ns;
			return;
		}
	}
	n = noise_push(np, &np->noise, &np->alloc_noise, &np->nr_noise, sizeof(*n));
	if (!n)
		return;
	n->kind = kind;
	snprintf(n->name, sizeof(n->name), "%s", *name ? name : "?");
	n->cpu = cpu;
	n->ns = ns;
}

static bool on_target_cpu(const struct noise_pass *np, int cpu)
{
	return cpu >= 0 && cpu < np->t->nr_cpus && np->target_cpu[cpu];
}

/* keep the run of another task than the targets */
static void noise_keep_run(void *data, const struct sp_run *r)
{
	struct noise_pass *np = data;
	const struct sp_model *m = &np->t->model;
	const struct sp_task *task;
	struct noise_run *nr;
	uint32_t comm;

	if (r->pid == 0 || r->end_ns <= r->start_ns ||
	    is_target_in(np->o, m, r->pid, run_comm(m, r)))
		return;
	/* run_comm()'s name, kept by its id: the last name is the one of now */
	task = r->start_comm ? NULL : sp_model_task(m, r->pid);
	comm = r->start_comm ? r->start_comm : task ? task->comm : 0;
	nr = noise_push(np, &np->runs, &np->alloc_runs, &np->nr_runs, sizeof(*nr));
	if (nr)
		*nr = (struct noise_run){ r->start_ns, r->end_ns, r->cpu, comm };
}

/* keep an interrupt or frequency record */
static void noise_keep_record(void *data, const struct sp_event *ev)
{
	struct noise_pass *np = data;
	struct noise_record *rec;

	if (ev->extra >= NOISE_MAX_REQUESTS || !np->keep[ev->extra])
		return;
	rec = noise_push(np, &np->records, &np->alloc_records, &np->nr_records, sizeof(*rec));
	if (!rec)
		return;
	rec->ts_ns = ev->ts_ns;
	rec->cpu = ev->cpu;
	rec->extra = ev->extra;
	for (int i = 0; i < NOISE_MAX_VALUES && np->kind[ev->extra][i] >= 0; i++) {
		if (np->kind[ev->extra][i] != SP_VALUE_STR) {
			rec->values[i] = ev->values[i];
		} else if (ev->values[i].str) {
			snprintf(rec->str, sizeof(rec->str), "%s", ev->values[i].str);
			rec->has_str = true;
		}
	}
}

static void noise_reset(void *data)
{
	struct noise_pass *np = data;

	np->nr_runs = 0;
	np->nr_records = 0;
}

/*
 * Ask the reader of @t for the interrupt and frequency records, and note
 * how the values of the records asked for are read.
 */
static int noise_request(struct noise_pass *np, struct sp_trace *t, struct sp_error *err)
{
	int ret, req[sizeof(np->irq.req) / sizeof(np->irq.req[0]) + SP_POWER_NR_KINDS], nr = 0;

	ret = sp_irqtime_init(&np->irq, t->nr_cpus, 0, 0);
	if (!ret)
		ret = sp_power_init(&np->power, t->nr_cpus, 0, 0);
	np->has_irq = ret ? ret : sp_irqtime_request(&np->irq, t->reader, err);
	ret = np->has_irq < 0 ? np->has_irq : sp_power_request(&np->power, t->reader, true,
								 false, err);
	if (ret)
		return ret;
	memset(np->kind, 0xff, sizeof(np->kind));
	for (size_t k = 0; k < sizeof(np->irq.req) / sizeof(np->irq.req[0]); k++)
		req[nr++] = np->irq.req[k];
	for (int k = 0; k < SP_POWER_NR_KINDS; k++)
		req[nr++] = np->power.request[k];
	for (int k = 0; k < nr; k++) {
		if (req[k] < 0)
			continue;
		if (req[k] >= NOISE_MAX_REQUESTS)
			return -E2BIG;
		np->keep[req[k]] = true;
		for (int i = 0; i < NOISE_MAX_VALUES; i++) {
			int kind = sp_reader_value_kind(t->reader, req[k], i);

			np->kind[req[k]][i] = kind < 0 ? -1 : kind;
			if (kind < 0)
				break;
		}
	}
	return 0;
}
/*
 * Once the pass has ended: the noise of @p's targets from what @np kept,
 * told to the trackers over the targets' time, into @r.
 */
static int noise_finish(struct noise_pass *np, const struct trace_pass *p, struct sp_cmp_run *r)
{
	const struct sp_trace *t = np->t;
	union sp_value values[NOISE_MAX_VALUES];
	struct sp_event ev;
	size_t i;

	if (np->error)
		return sp_cli_fail(r->file, "out of memory");
	np->target_cpu = p->target_cpu;
	np->t0_ns = p->target_first_ns;
	np->t1_ns = p->target_last_ns;
	for (i = 0; i < np->nr_runs; i++) {
		const struct noise_run *nr = &np->runs[i];
		uint64_t t0 = nr->start_ns > np->t0_ns ? nr->start_ns : np->t0_ns;
		uint64_t t1 = nr->end_ns < np->t1_ns ? nr->end_ns : np->t1_ns;

		if (t1 > t0 && on_target_cpu(np, nr->cpu))
			add_noise(np, SP_CMP_NOISE_TASK, nr->cpu, sp_model_str(&t->model, nr->comm),
				  t1 - t0);
	}
	/* the window of the trackers is known only now */
	np->irq.w0_ns = np->power.w0_ns = np->t0_ns;
	np->irq.w1_ns = np->power.w1_ns = np->t1_ns;
	sp_irqtime_reset(&np->irq);
	sp_power_reset(&np->power);
	memset(&ev, 0, sizeof(ev));
	ev.type = SP_EV_EXTRA;
	ev.values = values;
	for (i = 0; i < np->nr_records; i++) {
		const struct noise_record *rec = &np->records[i];

		ev.ts_ns = rec->ts_ns;
		ev.cpu = rec->cpu;
		ev.extra = rec->extra;
		for (int v = 0; v < NOISE_MAX_VALUES; v++) {
			values[v] = rec->values[v];
			if (np->kind[rec->extra][v] == SP_VALUE_STR)
				values[v].str = rec->has_str ? rec->str : NULL;
		}
		sp_irqtime_add(&np->irq, &ev);
		sp_power_add(&np->power, &ev);
	}
	if (np->irq.error)
		np->error = np->irq.error;
	sp_power_finish(&np->power, t->model.end_ns);
	for (i = 0; i < np->irq.nr_src; i++) {
		const struct sp_irqtime_source *s = &np->irq.src[i];

		if (s->ns && on_target_cpu(np, s->cpu))
			add_noise(np, s->kind == SP_IRQTIME_IRQ ? SP_CMP_NOISE_IRQ :
				  SP_CMP_NOISE_SOFTIRQ, s->cpu, s->name, s->ns);
	}
	r->target_cpus = sp_alloc_array((size_t)t->nr_cpus + 1, sizeof(*r->target_cpus));
	if (np->error || !r->target_cpus)
		return sp_cli_fail(r->file, "out of memory");
	for (int c = 0; c < t->nr_cpus; c++)
		if (np->target_cpu[c])
			r->target_cpus[r->nr_target_cpus++] = c;
	r->has_freq = sp_power_spread(&np->power, np->target_cpu, &r->freq_mean_khz,
				      &r->freq_spread) > 0;
	r->has_noise = true;
	r->targets_ns[0] = np->t0_ns;
	r->targets_ns[1] = np->t1_ns;
	r->has_irq = np->has_irq > 0;
	r->noise = np->noise;
	r->nr_noise = np->nr_noise;
	np->noise = NULL;
	return SP_EXIT_OK;
}

static void noise_release(struct noise_pass *np)
{
	free(np->runs);
	free(np->records);
	free(np->noise);
	sp_irqtime_release(&np->irq);
	sp_power_release(&np->power);
	memset(np, 0, sizeof(*np));
}

/* Forget what a pass gathered. */
static void pass_release(struct trace_pass *p, struct noise_pass *np)
{
	sp_stats_release(&p->stats);
	sp_warmup_release(&p->wu);
	free(p->target_cpu);
	memset(p, 0, sizeof(*p));
	noise_release(np);
}

/*
 * What the passes over one trace gather: its run's numbers and, with
 * --target, what the noise is made of.
 */
struct trace_load {
	const struct sp_cmp_opts *o;
	struct sp_cmp_run *r;		/* the trace's run */
	struct sp_cmp_graphs *graphs;	/* the charts --view asks for; NULL: none */
	struct trace_pass p;
	struct noise_pass np;
	bool again;		/* the second pass: --skip-warmup auto, from where it settled */
};

/* The view's data of the passes (driver.h): a load per trace, in sp_cmp_run_at()'s order. */
static struct trace_load *load_of(const struct sp_view_run *run)
{
	return (struct trace_load *)run->data + run->trace_index;
}

/*
 * Before a pass over the open trace: the run's numbers from an offset
 * into its window on, its warm-up series over the whole window, with
 * --target what the noise is made of, and on the first pass the chart
 * --view asks for.
 */
static int load_prepare(struct sp_view_run *run)
{
	struct trace_load *tl = load_of(run);
	const struct sp_cmp_opts *o = tl->o;
	struct sp_cmp_run *r = tl->r;
	struct trace_pass *p = &tl->p;
	struct noise_pass *np = &tl->np;
	struct sp_trace *t = &run->trace;
	uint64_t from_ns = tl->again ? r->warmup_ns :
			   o->skip_warmup == SP_CMP_SKIP_TIME ? o->skip_ns : 0;
	struct sp_error err;
	int ret;

	pass_release(p, np);
	p->o = o;
	p->t = t;
	np->o = o;
	np->t = t;
	if (t->end_ns > t->window_start_ns && from_ns >= t->end_ns - t->window_start_ns)
		return sp_cli_fail(r->file, "--skip-warmup skips the whole run (%.6f s)",
				   (t->end_ns - t->window_start_ns) / 1e9);
	p->from_ns = t->window_start_ns + from_ns;
	sp_stats_init(&p->stats, p->from_ns, t->end_ns, t->nr_cpus);
	p->has_wu = !sp_warmup_init(&p->wu, t->window_start_ns, t->end_ns, SP_WARMUP_WINDOWS);
	if (sp_view_opts_has_targets(&o->shared)) {
		p->target_cpu = calloc((size_t)t->nr_cpus + 1, sizeof(bool));
		if (!p->target_cpu)
			return sp_cli_fail(r->file, "out of memory");
		sp_error_clear(&err);
		ret = noise_request(np, t, &err);
		if (ret) {
			if (!err.code)
				err.code = ret;
			sp_cli_error(r->file, &err);
			return SP_EXIT_FAILURE;
		}
	}
	if (tl->again || !tl->graphs)
		return SP_EXIT_OK;
	return sp_cmp_graph_start(tl->graphs, run->trace_index, o, t);
}

static void load_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct trace_load *tl = load_of(run);
	bool targets = sp_view_opts_has_targets(&tl->o->shared);
	struct sp_model_observer obs = {
		.steps = pass_steps,
		.wait = pass_wait,
		.migration = pass_migration,
		.reset = pass_reset,
		.run_info = targets ? pass_run : NULL,
		.data = &tl->p,
	};
	struct sp_model_observer noise = {
		.run_info = noise_keep_run,
		.extra = noise_keep_record,
		.reset = noise_reset,
		.data = &tl->np,
	};

	sp_pass_add(&pass->pass, &obs);
	if (targets)
		sp_pass_add(&pass->pass, &noise);
	if (!tl->again && tl->graphs)
		sp_cmp_graph_observe(tl->graphs, run->trace_index, &pass->pass);
}

/* The numbers of run @r from the pass @p over @t, and @np's noise. */
static int run_numbers(const struct sp_cmp_opts *o, struct sp_cmp_run *r, struct trace_pass *p,
		       struct noise_pass *np, const struct sp_trace *t)
{
	uint64_t dur_ns, win_ns;
	int sorted;
	size_t i;

	r->skipped_ns = p->from_ns - t->window_start_ns;
	/* the waits are kept sorted: sorted first, the summary reads them */
	sorted = sp_samples_sort(&p->stats.lat);
	sp_stats_finish(&p->stats);
	if (p->stats.lat_error)
		return sp_cli_fail(r->file, "out of memory keeping %llu wakeup latencies",
				   (unsigned long long)p->stats.lat.nr);
	if (sp_view_opts_has_targets(&o->shared) && warn_unmatched(o, &t->model, r->file))
		return sp_cli_fail(r->file, "out of memory");
	if (sp_view_opts_has_targets(&o->shared) && !p->target_seen) {
		struct sp_target tg;
		const char *suffix, *pattern;

		sp_view_opts_target(&o->shared, &tg);
		pattern = sp_target_nth(&tg, 0, &suffix);
		return sp_cli_fail(r->file, "no task matching --target%s '%s'%s ran (its duration "
				   "is unknown; check the names with 'schedplot stats')", suffix,
				   pattern, tg.nr_tasks + tg.nr_procs + tg.nr_trees > 1 ?
				   " or the others" : "");
	}
	win_ns = t->end_ns - p->from_ns;
	dur_ns = sp_view_opts_has_targets(&o->shared) ? p->target_last_ns - p->target_first_ns :
							  win_ns;
	r->nr_cpus = t->nr_cpus;
	r->window_ns = t->end_ns - t->window_start_ns;
	r->lost_exact = true;
	for (int c = 0; c < t->nr_cpus; c++) {
		r->lost_events += sp_reader_lost_events(t->reader, c);
		r->lost_exact &= sp_reader_lost_exact(t->reader, c);
	}
	r->repairs = sp_model_nr_repairs(&t->model);
	r->censored_waits = t->model.nr_waits_open;
	r->contradicted_waits = p->stats.nr_contradicted;
	r->m[SP_CMP_DURATION] = dur_ns / 1e9;
	r->m[SP_CMP_RUNNING_AVG] = sp_stats_running_avg(&p->stats);
	r->m[SP_CMP_WAITING_AVG] = sp_stats_waiting_avg(&p->stats);
	r->m[SP_CMP_IDLE_WAITING] = win_ns ? (double)p->stats.idle_while_waiting_ns /
					     (double)win_ns : 0.0;
	r->m[SP_CMP_LOST] = sp_stats_lost_fraction(&p->stats);
	r->m[SP_CMP_WAKEUP_P50] = p->stats.latency.n ? (double)p->stats.latency.p50 : NAN;
	r->m[SP_CMP_WAKEUP_P99] = p->stats.latency.n ? (double)p->stats.latency.p99 : NAN;
	r->m[SP_CMP_MIGRATIONS] = dur_ns ? p->nr_migrations / (dur_ns / 1e9) : 0.0;

	if (sorted)
		return sp_cli_fail_code(r->file, sorted, "cannot sort the wakeup latencies");
	/* the sorted waits, widened to 8 bytes; as doubles only for the shift function */
	r->nr_waits = p->stats.lat.nr;
	r->waits = sp_alloc_array(r->nr_waits ? r->nr_waits : 1, sizeof(*r->waits));
	if (!o->no_shift)
		r->samples = sp_alloc_array(r->nr_waits ? r->nr_waits : 1, sizeof(*r->samples));
	if (!r->waits || (!o->no_shift && !r->samples))
		return sp_cli_fail(r->file, "out of memory");
	for (i = 0; i < r->nr_waits; i++)
		r->waits[i] = sp_samples_at(&p->stats.lat, i);
	for (i = 0; !o->no_shift && i < r->nr_waits; i++)
		r->samples[i] = (double)r->waits[i];
	r->nr_samples = o->no_shift ? 0 : r->nr_waits;
	if (sp_view_opts_has_targets(&o->shared))
		return noise_finish(np, p, r);
	return SP_EXIT_OK;
}

/*
 * After a pass over the open trace: on the first, where the run settled
 * and the chart; then, unless --skip-warmup auto asks for the numbers
 * again from where it settled, the run's numbers.
 */
static int load_trace_done(struct sp_view_run *run)
{
	struct trace_load *tl = load_of(run);
	struct sp_cmp_run *r = tl->r;
	struct trace_pass *p = &tl->p;
	int ret;

	if (p->has_wu && sp_warmup_finish(&p->wu))
		p->has_wu = false;
	if (!tl->again) {
		r->has_warmup = p->has_wu;
		r->warmup_ns = p->has_wu ? p->wu.end_ns : 0;
		r->warmup_by = p->has_wu ? p->wu.by : 0;
		if (tl->graphs) {
			ret = sp_cmp_graph_finish(tl->graphs, run->trace_index, tl->o, &run->trace);
			if (ret)
				return ret;
		}
		if (tl->o->skip_warmup == SP_CMP_SKIP_AUTO && r->warmup_ns) {
			tl->again = true;
			run->pass_again = true;
			return SP_EXIT_OK;
		}
	}
	ret = run_numbers(tl->o, r, p, &tl->np, &run->trace);
	pass_release(p, &tl->np);
	return ret;
}

static const struct sp_view_desc load_desc = {
	.whole_traces = true,
	.prepare = load_prepare,
	.observe = load_observe,
	.trace_done = load_trace_done,
};

/* The check of every trace before the passes; with charts, each one's complete window. */
struct trace_check {
	const struct sp_cmp *c;
	uint64_t *window_ns;	/* per trace; NULL: no charts */
};

static int check_one(void *data, int i)
{
	struct trace_check *k = data;
	const char *file = sp_cmp_run_at(k->c, i)->file;
	struct sp_trace t;
	int ret;

	if (!k->window_ns)
		return sp_cli_check(file);
	/* where the window starts needs what a check leaves out: an open */
	ret = sp_cli_open(&t, file, 0);
	if (ret)
		return ret;
	k->window_ns[i] = t.end_ns - t.window_start_ns;
	sp_trace_close(&t);
	return SP_EXIT_OK;
}

/* Every trace checked, so that a file that is no trace fails before any pass; the charts set up. */
static int check_traces(struct sp_cmp *c, int nr, size_t nr_cols)
{
	enum sp_compare_view view = c->o.view;
	bool charts = view == SP_COMPARE_VIEW_DATAGRAPH || view == SP_COMPARE_VIEW_RUNNING_WAITING;
	struct trace_check k = { .c = c };
	uint64_t dur_ns = 1;
	int i, ret;

	if (charts) {
		k.window_ns = calloc(nr, sizeof(*k.window_ns));
		if (!k.window_ns)
			return sp_cli_fail(NULL, "out of memory");
	}
	ret = sp_parallel_run(nr, check_one, &k);
	for (i = 0; !ret && charts && i < nr; i++)
		if (k.window_ns[i] > dur_ns)
			dur_ns = k.window_ns[i];
	free(k.window_ns);
	if (ret || !charts)
		return ret;
	return sp_cmp_graphs_init(&c->graphs, c, view == SP_COMPARE_VIEW_RUNNING_WAITING, nr_cols,
				  dur_ns);
}

int sp_cmp_load_traces(struct sp_cmp *c, size_t nr_cols)
{
	int i, nr = c->g[0].nr_runs + c->g[1].nr_runs, ret;
	struct trace_load *loads;
	struct sp_view_run *run;
	char **files;

	ret = check_traces(c, nr, nr_cols);
	if (ret)
		return ret;
	/* the trace is large: off the stack */
	run = calloc(1, sizeof(*run));
	loads = calloc(nr, sizeof(*loads));
	files = calloc(nr, sizeof(*files));
	if (!run || !loads || !files) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		loads[i].o = &c->o;
		loads[i].r = sp_cmp_run_at(c, i);
		loads[i].graphs = c->graphs.nr ? &c->graphs : NULL;
		files[i] = (char *)loads[i].r->file;
	}
	run->desc = &load_desc;
	sp_view_opts_init(&run->opts, "compare");
	run->opts.traces = files;
	run->opts.nr_traces = nr;
	run->data = loads;
	ret = sp_view_traces(run);
	sp_view_opts_release(&run->opts);
out:
	for (i = 0; loads && i < nr; i++)
		pass_release(&loads[i].p, &loads[i].np);
	free(loads);
	free(files);
	free(run);
	return ret;
}

/* Split a CSV line in place at commas (no quoting); return the field count. */
static int split_csv(char *line, char **fields, int max)
{
	int n = 0;
	char *s = line;

	while (n < max) {
		fields[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	if (e - s >= 2 && *s == '"' && e[-1] == '"') {
		e[-1] = '\0';
		s++;
	}
	return s;
}

int sp_cmp_load_values(const struct sp_cmp_opts *o, struct sp_cmp_run *r)
{
	size_t alloc = 0, lineno = 0, cap = 0;
	char *line = NULL, *fields[256];
	int col = -1, ret = SP_EXIT_OK;
	double *v = NULL;
	ssize_t len;
	FILE *f;

	f = fopen(r->file, "r");
	if (!f)
		return sp_cli_fail(r->file, "cannot open: %s", strerror(errno));
	while ((len = getline(&line, &cap, f)) != -1) {
		char *s, *end;
		double x;

		lineno++;
		if (memchr(line, '\0', len)) {
			ret = sp_cli_fail(r->file, "line %zu: not a text file of numbers", lineno);
			goto out;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		if (o->column && col < 0) {
			int i, n = split_csv(s, fields, 256);

			for (i = 0; i < n; i++)
				if (!strcmp(trim(fields[i]), o->column))
					col = i;
			if (col < 0) {
				ret = sp_cli_fail(r->file, "no column '%s' in its first line",
						  o->column);
				goto out;
			}
			continue;
		}
		if (o->column) {
			int n = split_csv(s, fields, 256);

			if (n <= col) {
				ret = sp_cli_fail(r->file, "line %zu: no field for column '%s'",
						  lineno, o->column);
				goto out;
			}
			s = trim(fields[col]);
			if (!*s)
				continue;	/* an empty cell: no value */
		}
		errno = 0;
		x = strtod(s, &end);
		if (end == s || *trim(end) || errno == ERANGE || !isfinite(x)) {
			ret = sp_cli_fail(r->file, "line %zu: '%.40s' is not a number", lineno, s);
			goto out;
		}
		if (sp_grow_array(&v, &alloc, r->nr_samples + 1, sizeof(*v))) {
			ret = sp_cli_fail(r->file, "out of memory");
			goto out;
		}
		v[r->nr_samples++] = x;
	}
	if (ferror(f)) {
		ret = sp_cli_fail(r->file, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (!r->nr_samples) {
		if (o->column)
			ret = sp_cli_fail(r->file, "no numbers in column '%s'", o->column);
		else
			ret = sp_cli_fail(r->file, "no numbers in it");
		goto out;
	}
out:
	if (ret == SP_EXIT_OK) {
		r->samples = v;
		v = NULL;
	}
	free(v);
	free(line);
	fclose(f);
	return ret;
}
