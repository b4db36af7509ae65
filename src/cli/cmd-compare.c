// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: did the patch change anything?  Two groups of runs
 * (traces, or files of numbers), each run reduced to a few numbers, each
 * group summarised, the groups tested against each other (Mann-Whitney U)
 * and their wait distributions compared decile by decile (shift function).
 *
 * Everything is computed before anything is written: text or JSON goes to
 * standard output at the end, the image (-o) is committed last, so a
 * failure leaves nothing half-written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/analysis/compare.h"
#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/analysis/stats.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/compare.h"

#define COMPARE_DEFAULT_SEED	1
#define COMPARE_DEFAULT_ALPHA	0.05
#define COMPARE_MIN_RUNS_BOOT	5	/* runs per group to resample whole runs */
#define COMPARE_WIDTH		900
#define COMPARE_HEIGHT		900

static const char compare_usage[] =
	"usage: schedplot compare [OPTIONS] A1.dat A2.dat ... --vs B1.dat B2.dat ...\n"
	"       schedplot compare [OPTIONS] --values A.txt --vs B.txt\n"
	"\n"
	"Did the change make a difference?  Reduce each run (trace) of two groups to\n"
	"a few numbers, summarise each group (median with a 95% interval, mean, sd,\n"
	"CV) and test the groups against each other (two-sided Mann-Whitney U).\n"
	"\n"
	"Examples:\n"
	"  schedplot compare b1.dat b2.dat b3.dat --vs a1.dat a2.dat a3.dat\n"
	"  schedplot compare --names before,after b*.dat --vs a*.dat -o cmp.png\n"
	"  schedplot compare --json b*.dat --vs a*.dat\n"
	"  schedplot compare --values before.txt --vs after.txt\n"
	"\n"
	"Options:\n"
	"      --vs              the files after it form the second group\n"
	"      --names A,B       the groups' names (default: from the file names)\n"
	"  -j, --json            print one JSON object instead of the table\n"
	"      --alpha X         significance level of the test (default 0.05)\n"
	"      --target COMM     a run's duration spans the tasks named COMM (glob;\n"
	"                        repeat for several), not the complete window\n"
	"      --values          the inputs are text files of numbers, one per line\n"
	"      --column NAME     with --values: the column NAME of CSV files\n"
	"      --shift           with --values: the shift function of the values too\n"
	"      --no-shift        no shift function (its bootstrap takes seconds per\n"
	"                        100000 waits)\n"
	"      --seed N          seed of the bootstrap (default 1)\n"
	"  -o, --output FILE     draw the runs and the wait distributions (PNG, PDF, SVG)\n"
	"      --format FMT      png, pdf or svg (needed with -o -)\n"
	"      --metric NAME     the metric of the runs plot (default duration)\n"
	"      --width PX        image width (default 900)\n"
	"      --height PX       image height (default 900)\n"
	"      --title TEXT      image title\n"
	"  -v, --verbose         explain repairs and oddities\n"
	"  -q, --quiet           no progress, no warnings\n"
	"  -h, --help            show this help\n"
	"\n"
	"Metrics: duration, running_avg, waiting_avg, idle_while_waiting,\n"
	"lost_fraction, wakeup_p50, wakeup_p99, migrations_per_s.\n"
	"See schedplot-compare(1) for their exact meaning.\n";

enum {
	OPT_VS = 256,
	OPT_NAMES,
	OPT_ALPHA,
	OPT_TARGET,
	OPT_VALUES,
	OPT_COLUMN,
	OPT_SHIFT,
	OPT_NO_SHIFT,
	OPT_SEED,
	OPT_FORMAT,
	OPT_METRIC,
	OPT_WIDTH,
	OPT_HEIGHT,
	OPT_TITLE,
};

static const struct option compare_options[] = {
	{ "vs", no_argument, NULL, OPT_VS },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "json", no_argument, NULL, 'j' },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "values", no_argument, NULL, OPT_VALUES },
	{ "column", required_argument, NULL, OPT_COLUMN },
	{ "shift", no_argument, NULL, OPT_SHIFT },
	{ "no-shift", no_argument, NULL, OPT_NO_SHIFT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What each run of a trace is reduced to. */
enum metric {
	M_DURATION,
	M_RUNNING_AVG,
	M_WAITING_AVG,
	M_IDLE_WAITING,
	M_LOST,
	M_WAKEUP_P50,
	M_WAKEUP_P99,
	M_MIGRATIONS,
	NR_TRACE_METRICS,
	M_VALUE = 0,		/* --values: the one metric */
};

enum metric_unit {
	U_SECONDS,
	U_TASKS,
	U_FRACTION,
	U_NS,
	U_PER_SECOND,
	U_PLAIN,
};

struct metric_desc {
	const char *name;	/* --metric, the table */
	const char *key;	/* the JSON key of a run */
	enum metric_unit unit;
};

static const struct metric_desc trace_metrics[NR_TRACE_METRICS] = {
	[M_DURATION] = { "duration", "duration_s", U_SECONDS },
	[M_RUNNING_AVG] = { "running_avg", "running_avg", U_TASKS },
	[M_WAITING_AVG] = { "waiting_avg", "waiting_avg", U_TASKS },
	[M_IDLE_WAITING] = { "idle_while_waiting", "idle_while_waiting", U_FRACTION },
	[M_LOST] = { "lost_fraction", "lost_fraction", U_FRACTION },
	[M_WAKEUP_P50] = { "wakeup_p50", "wakeup_p50_ns", U_NS },
	[M_WAKEUP_P99] = { "wakeup_p99", "wakeup_p99_ns", U_NS },
	[M_MIGRATIONS] = { "migrations_per_s", "migrations_per_s", U_PER_SECOND },
};

static const struct metric_desc value_metric = { "value", "value", U_PLAIN };

struct compare_opts {
	char **files[2];
	int nr_files[2];
	const char *names_arg;
	char *names[2];
	bool json;
	double alpha;
	char **targets;
	int nr_targets;
	bool values;
	const char *column;
	bool shift;
	bool no_shift;
	uint64_t seed;
	const char *output;
	enum sp_format format;
	const char *metric;
	double width, height;
	const char *title;
};

/* One run: a trace, or with --values a whole file. */
struct compare_run {
	const char *file;
	double m[NR_TRACE_METRICS];
	int nr_cpus;
	double *samples;	/* the shift's values: wakeup latencies in ns, or the numbers */
	size_t nr_samples;
	uint64_t *waits;	/* traces: the wakeup latencies, sorted (the CDF) */
	size_t nr_waits;
};

struct compare_group {
	const char *name;
	struct compare_run *runs;
	int nr_runs;
};

struct compare_metric {
	const struct metric_desc *desc;
	struct sp_runs_summary sum[2];
	struct sp_mannwhitney mw;
	double change;		/* (median B - median A) / median A; NaN when A's is 0 */
	bool significant;
};

struct compare {
	struct compare_opts o;
	struct compare_group g[2];
	struct compare_metric *metrics;
	int nr_metrics;
	bool has_shift;
	struct sp_shift shift;
};

/* ---- reading the runs ---------------------------------------------------- */

/* What the pass over one trace gathers. */
struct trace_pass {
	const struct compare_opts *o;
	struct sp_trace *t;
	struct sp_stats stats;
	uint64_t target_first_ns;	/* the first moment a target task is current */
	uint64_t target_last_ns;	/* the last moment one stops being current */
	bool target_seen;
	uint64_t nr_migrations;		/* in the window; of target tasks with --target */
};

static bool is_target(const struct compare_opts *o, const char *comm)
{
	int i;

	for (i = 0; i < o->nr_targets; i++)
		if (!strcmp(o->targets[i], comm) || !fnmatch(o->targets[i], comm, 0))
			return true;
	return false;
}

static void pass_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct trace_pass *p = data;

	sp_stats_steps(&p->stats, steps, n);
}

static void pass_wait(void *data, const struct sp_wait *w)
{
	struct trace_pass *p = data;

	if (w->wait_class == SP_WAIT_WAKEUP)
		sp_stats_latency(&p->stats, w->dur_ns);
}

static void pass_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct trace_pass *p = data;

	(void)cpu;
	if (pid == 0 || !is_target(p->o, sp_model_comm(&p->t->model, pid)))
		return;
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
	if (p->o->nr_targets) {
		if (is_target(p->o, sp_model_comm(&p->t->model, pid)))
			p->nr_migrations++;
	} else if (ts_ns >= p->t->window_start_ns) {
		p->nr_migrations++;
	}
}

static void pass_reset(void *data)
{
	struct trace_pass *p = data;

	sp_stats_reset(&p->stats);
	p->target_seen = false;
	p->target_first_ns = p->target_last_ns = 0;
	p->nr_migrations = 0;
}

static int load_trace(const struct compare_opts *o, struct compare_run *r)
{
	struct sp_model_observer obs = { 0 };
	struct trace_pass p = { .o = o };
	struct sp_trace t;
	uint64_t dur_ns;
	size_t i;
	int ret;

	ret = sp_cli_open(&t, r->file);
	if (ret)
		return ret;
	p.t = &t;
	sp_stats_init(&p.stats, t.window_start_ns, t.end_ns, t.nr_cpus);
	obs.steps = pass_steps;
	obs.wait = pass_wait;
	obs.migration = pass_migration;
	if (o->nr_targets)
		obs.run = pass_run;
	obs.data = &p;
	ret = sp_cli_run(&t, &obs, pass_reset, NULL);
	if (ret)
		goto out;
	sp_stats_finish(&p.stats);
	if (p.stats.lat_error) {
		ret = sp_cli_fail(r->file, "out of memory keeping %llu wakeup latencies",
				  (unsigned long long)p.stats.lat.nr);
		goto out;
	}
	if (o->nr_targets && !p.target_seen) {
		ret = sp_cli_fail(r->file, "no task matching --target '%s'%s ran (its duration "
				  "is unknown; check the names with 'schedplot stats')",
				  o->targets[0], o->nr_targets > 1 ? " or the others" : "");
		goto out;
	}
	dur_ns = o->nr_targets ? p.target_last_ns - p.target_first_ns :
		 t.end_ns - t.window_start_ns;
	r->nr_cpus = t.nr_cpus;
	r->m[M_DURATION] = dur_ns / 1e9;
	r->m[M_RUNNING_AVG] = sp_stats_running_avg(&p.stats);
	r->m[M_WAITING_AVG] = sp_stats_waiting_avg(&p.stats);
	r->m[M_IDLE_WAITING] = t.end_ns > t.window_start_ns ?
		(double)p.stats.idle_while_waiting_ns / (double)(t.end_ns - t.window_start_ns) :
		0.0;
	r->m[M_LOST] = sp_stats_lost_fraction(&p.stats);
	r->m[M_WAKEUP_P50] = p.stats.latency.n ? (double)p.stats.latency.p50 : NAN;
	r->m[M_WAKEUP_P99] = p.stats.latency.n ? (double)p.stats.latency.p99 : NAN;
	r->m[M_MIGRATIONS] = dur_ns ? p.nr_migrations / (dur_ns / 1e9) : 0.0;

	ret = sp_samples_sort(&p.stats.lat);
	if (ret) {
		ret = sp_cli_fail_code(r->file, ret, "cannot sort the wakeup latencies");
		goto out;
	}
	r->nr_waits = p.stats.lat.nr;
	r->waits = sp_alloc_array(r->nr_waits ? r->nr_waits : 1, sizeof(*r->waits));
	r->samples = sp_alloc_array(r->nr_waits ? r->nr_waits : 1, sizeof(*r->samples));
	if (!r->waits || !r->samples) {
		ret = sp_cli_fail(r->file, "out of memory");
		goto out;
	}
	for (i = 0; i < r->nr_waits; i++) {
		r->waits[i] = p.stats.lat.v[i];
		r->samples[i] = (double)p.stats.lat.v[i];
	}
	r->nr_samples = r->nr_waits;
out:
	sp_stats_release(&p.stats);
	sp_trace_close(&t);
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

/*
 * A file of numbers: one per line, blank lines and lines starting with '#'
 * skipped; with @column, a CSV file whose first line names the columns.
 */
static int load_values(const struct compare_opts *o, struct compare_run *r)
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

/* ---- the statistics ------------------------------------------------------ */

static int compute(struct compare *c)
{
	const struct compare_opts *o = &c->o;
	double *x[2] = { NULL, NULL };
	int i, k, ret = SP_EXIT_OK, err;

	c->nr_metrics = o->values ? 1 : NR_TRACE_METRICS;
	c->metrics = calloc(c->nr_metrics, sizeof(*c->metrics));
	if (!c->metrics)
		return sp_cli_fail(NULL, "out of memory");
	for (k = 0; k < c->nr_metrics; k++) {
		struct compare_metric *cm = &c->metrics[k];
		size_t n[2] = { 0, 0 };

		cm->desc = o->values ? &value_metric : &trace_metrics[k];
		for (i = 0; i < 2; i++) {
			const struct compare_group *g = &c->g[i];
			size_t total = 0;
			int r;

			for (r = 0; r < g->nr_runs; r++)
				total += o->values ? g->runs[r].nr_samples : 1;
			free(x[i]);
			x[i] = sp_alloc_array(total, sizeof(double));
			if (!x[i]) {
				ret = sp_cli_fail(NULL, "out of memory");
				goto out;
			}
			for (r = 0; r < g->nr_runs; r++) {
				const struct compare_run *run = &g->runs[r];

				if (o->values) {
					memcpy(x[i] + n[i], run->samples,
					       run->nr_samples * sizeof(double));
					n[i] += run->nr_samples;
				} else if (!isnan(run->m[k])) {
					x[i][n[i]++] = run->m[k];
				}
			}
		}
		if (!n[0] || !n[1]) {
			/* e.g. no wakeup latency in any run of a group */
			for (i = 0; i < 2; i++)
				if (!n[i])
					memset(&cm->sum[i], 0, sizeof(cm->sum[i]));
			cm->change = NAN;
			cm->mw.p = NAN;
			cm->mw.u_a = NAN;
			if (!n[0] && !n[1])
				continue;
		}
		for (i = 0; i < 2; i++) {
			if (!n[i])
				continue;
			err = sp_runs_summary_compute(&cm->sum[i], x[i], n[i]);
			if (err) {
				ret = sp_cli_fail_code(NULL, err, "cannot summarise the runs");
				goto out;
			}
		}
		if (!n[0] || !n[1])
			continue;
		err = sp_mannwhitney_test(&cm->mw, x[0], n[0], x[1], n[1], SP_MANNWHITNEY_AUTO);
		if (err) {
			ret = sp_cli_fail_code(NULL, err, "cannot test the groups");
			goto out;
		}
		cm->change = cm->sum[0].median != 0 ?
			(cm->sum[1].median - cm->sum[0].median) / fabs(cm->sum[0].median) : NAN;
		if (cm->sum[0].median == cm->sum[1].median)
			cm->change = 0;
		cm->significant = cm->mw.p <= o->alpha;
	}
out:
	free(x[0]);
	free(x[1]);
	return ret;
}

static int compute_shift(struct compare *c)
{
	const struct compare_opts *o = &c->o;
	struct sp_shift_run *runs[2] = { NULL, NULL };
	struct sp_shift_group sg[2];
	enum sp_shift_resample mode;
	int i, r, err, ret = SP_EXIT_OK;
	size_t total[2] = { 0, 0 };

	if (o->no_shift || (o->values && !o->shift))
		return SP_EXIT_OK;
	for (i = 0; i < 2; i++) {
		runs[i] = calloc(c->g[i].nr_runs, sizeof(*runs[i]));
		if (!runs[i]) {
			ret = sp_cli_fail(NULL, "out of memory");
			goto out;
		}
		sg[i].runs = runs[i];
		sg[i].nr_runs = 0;
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct compare_run *run = &c->g[i].runs[r];

			if (!run->nr_samples)
				continue;
			runs[i][sg[i].nr_runs].v = run->samples;
			runs[i][sg[i].nr_runs++].nr = run->nr_samples;
			total[i] += run->nr_samples;
		}
	}
	if (!total[0] || !total[1]) {
		sp_cli_warn("no shift function: group '%s' has no wakeup latencies",
			    c->g[total[0] ? 1 : 0].name);
		goto out;
	}
	if (o->values) {
		mode = SP_SHIFT_VALUES;
	} else if (sg[0].nr_runs >= COMPARE_MIN_RUNS_BOOT &&
		   sg[1].nr_runs >= COMPARE_MIN_RUNS_BOOT) {
		mode = SP_SHIFT_RUNS;
	} else {
		mode = SP_SHIFT_VALUES;
		sp_cli_warn("fewer than %d runs in a group: the shift function resamples single "
			    "waits, so its intervals ignore the variation between runs and are "
			    "too narrow", COMPARE_MIN_RUNS_BOOT);
	}
	err = sp_shift_compute(&c->shift, &sg[0], &sg[1], mode, SP_SHIFT_NR_BOOT, o->seed);
	if (err) {
		ret = sp_cli_fail_code(NULL, err, "cannot compute the shift function");
		goto out;
	}
	c->has_shift = true;
out:
	free(runs[0]);
	free(runs[1]);
	return ret;
}

/* ---- output -------------------------------------------------------------- */

/* The shortest decimal that reads back as @v; null for NaN and infinities. */
static void json_num(double v)
{
	char buf[32];
	int prec;

	if (!isfinite(v)) {
		printf("null");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	printf("%.*g", prec, v);
}

static void print_json(const struct compare *c)
{
	int i, r, k;

	printf("{\n  \"alpha\": %.10g,\n  \"seed\": %llu,\n  \"groups\": [", c->o.alpha,
	       (unsigned long long)c->o.seed);
	for (i = 0; i < 2; i++) {
		const struct compare_group *g = &c->g[i];

		printf("%s\n    {\"name\": ", i ? "," : "");
		sp_cli_json_string(stdout, g->name);
		printf(", \"runs\": [");
		for (r = 0; r < g->nr_runs; r++) {
			const struct compare_run *run = &g->runs[r];

			printf("%s\n      {\"file\": ", r ? "," : "");
			sp_cli_json_string(stdout, run->file);
			if (c->o.values) {
				size_t j;

				printf(", \"count\": %zu, \"value\": [", run->nr_samples);
				for (j = 0; j < run->nr_samples; j++) {
					printf("%s", j ? ", " : "");
					json_num(run->samples[j]);
				}
				printf("]}");
				continue;
			}
			printf(", \"nr_cpus\": %d", run->nr_cpus);
			for (k = 0; k < NR_TRACE_METRICS; k++) {
				printf(", \"%s\": ", trace_metrics[k].key);
				json_num(run->m[k]);
			}
			printf("}");
		}
		printf("\n    ]}");
	}
	printf("\n  ],\n  \"metrics\": [");
	for (k = 0; k < c->nr_metrics; k++) {
		const struct compare_metric *cm = &c->metrics[k];

		printf("%s\n    {\"name\": \"%s\"", k ? "," : "", cm->desc->name);
		for (i = 0; i < 2; i++) {
			const struct sp_runs_summary *s = &cm->sum[i];

			printf(", \"%s\": {\"n\": %zu, \"median\": ", i ? "b" : "a", s->nr);
			json_num(s->nr ? s->median : NAN);
			printf(", \"ci_low\": ");
			json_num(s->has_ci ? s->ci_lo : NAN);
			printf(", \"ci_high\": ");
			json_num(s->has_ci ? s->ci_hi : NAN);
			printf(", \"mean\": ");
			json_num(s->nr ? s->mean : NAN);
			printf(", \"sd\": ");
			json_num(s->nr ? s->sd : NAN);
			printf(", \"cv\": ");
			json_num(s->nr ? s->cv : NAN);
			printf(", \"min\": ");
			json_num(s->nr ? s->min : NAN);
			printf(", \"max\": ");
			json_num(s->nr ? s->max : NAN);
			printf("}");
		}
		printf(", \"change\": ");
		json_num(cm->change);
		printf(", \"u\": ");
		json_num(cm->mw.u_a);
		printf(", \"p_value\": ");
		json_num(cm->mw.p);
		printf(", \"significant\": %s}", cm->significant ? "true" : "false");
	}
	printf("\n  ],\n  \"shift\": [");
	for (k = 0; c->has_shift && k < SP_NR_DECILES; k++) {
		const struct sp_shift_decile *d = &c->shift.dec[k];

		printf("%s\n    {\"q\": %.1f, \"a\": ", k ? "," : "", d->q);
		json_num(d->a);
		printf(", \"b\": ");
		json_num(d->b);
		printf(", \"diff\": ");
		json_num(d->diff);
		printf(", \"ci_low\": ");
		json_num(d->ci_lo);
		printf(", \"ci_high\": ");
		json_num(d->ci_hi);
		printf(", \"p_value\": ");
		json_num(d->p);
		printf(", \"significant\": %s}", d->significant ? "true" : "false");
	}
	if (c->has_shift)
		printf("\n  ], \"shift_resample\": \"%s\"\n}\n",
		       c->shift.mode == SP_SHIFT_RUNS ? "runs" : "values");
	else
		printf("]\n}\n");
}

/* A value in its metric's unit, for the table. */
static void format_value(char *buf, size_t len, enum metric_unit unit, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (unit) {
	case U_SECONDS:
		snprintf(buf, len, "%.4gs", v);
		break;
	case U_FRACTION:
		snprintf(buf, len, "%.3g%%", 100 * v);
		break;
	case U_NS:
		if (fabs(v) >= 1e6)
			snprintf(buf, len, "%.4gms", v / 1e6);
		else if (fabs(v) >= 1e3)
			snprintf(buf, len, "%.4gµs", v / 1e3);
		else
			snprintf(buf, len, "%.4gns", v);
		break;
	case U_PER_SECOND:
		snprintf(buf, len, "%.4g/s", v);
		break;
	default:
		snprintf(buf, len, "%.4g", v);
		break;
	}
}

/* "1.502s ± 3%": the interval as its farthest end from the median, as benchstat does. */
static void format_cell(char *buf, size_t len, enum metric_unit unit,
			const struct sp_runs_summary *s)
{
	char v[32];
	double d;

	if (!s->nr) {
		snprintf(buf, len, "-");
		return;
	}
	format_value(v, sizeof(v), unit, s->median);
	if (!s->has_ci) {
		snprintf(buf, len, "%s ± ∞", v);
		return;
	}
	d = fmax(s->median - s->ci_lo, s->ci_hi - s->median);
	if (s->median != 0)
		snprintf(buf, len, "%s ± %.0f%%", v, 100 * d / fabs(s->median));
	else
		snprintf(buf, len, "%s ± %.2g", v, d);
}

/* Pad to @w display columns ("±", "µ" and "∞" take one each). */
static void print_padded(const char *s, int w)
{
	int cols = 0;
	const char *p;

	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fputs(s, stdout);
	for (; cols < w; cols++)
		putchar(' ');
}

static void print_text(const struct compare *c)
{
	char cell[64];
	bool no_ci = false, same = false;
	int i, k;

	print_padded("", 20);
	print_padded(c->g[0].name, 22);
	printf("%s\n", c->g[1].name);
	print_padded("", 20);
	print_padded("median ± 95% CI", 22);
	print_padded("median ± 95% CI", 22);
	printf("%-10s %s\n", "change", "p (n)");
	for (k = 0; k < c->nr_metrics; k++) {
		const struct compare_metric *cm = &c->metrics[k];

		print_padded(cm->desc->name, 20);
		for (i = 0; i < 2; i++) {
			format_cell(cell, sizeof(cell), cm->desc->unit, &cm->sum[i]);
			print_padded(cell, 22);
			no_ci |= cm->sum[i].nr && !cm->sum[i].has_ci;
		}
		if (isnan(cm->mw.p))
			snprintf(cell, sizeof(cell), "-");
		else if (!cm->significant)
			snprintf(cell, sizeof(cell), "~");
		else if (isnan(cm->change))
			snprintf(cell, sizeof(cell), "?");
		else
			snprintf(cell, sizeof(cell), "%+.2f%%", 100 * cm->change);
		same |= !strcmp(cell, "~");
		printf("%-10s ", cell);
		if (isnan(cm->mw.p))
			printf("(n=%zu+%zu)\n", cm->sum[0].nr, cm->sum[1].nr);
		else
			printf("(p=%.3f n=%zu+%zu)\n", cm->mw.p, cm->sum[0].nr, cm->sum[1].nr);
	}
	if (no_ci)
		printf("± ∞: no 95%% interval of the median below 6 runs\n");
	if (same)
		printf("~: no difference shown (p > %g)\n", c->o.alpha);
	printf("change: of the median; p: two-sided Mann-Whitney U\n");
	if (!c->has_shift)
		return;
	printf("\nshift function (%s): deciles by Harrell-Davis, %zu bootstrap resamples of %s\n",
	       c->o.values ? "values" : "wakeup latency",
	       c->shift.nr_boot, c->shift.mode == SP_SHIFT_RUNS ? "whole runs" : "single values");
	printf("%-8s", "decile");
	print_padded(c->g[0].name, 14);
	print_padded(c->g[1].name, 14);
	printf("%-14s %s\n", "diff", "interval");
	for (k = 0; k < SP_NR_DECILES; k++) {
		const struct sp_shift_decile *d = &c->shift.dec[k];
		enum metric_unit u = c->o.values ? U_PLAIN : U_NS;
		char lo[80], hi[32];

		printf("%-8.1f", d->q);
		format_value(cell, sizeof(cell), u, d->a);
		print_padded(cell, 14);
		format_value(cell, sizeof(cell), u, d->b);
		print_padded(cell, 14);
		format_value(cell, sizeof(cell), u, fabs(d->diff));
		snprintf(lo, sizeof(lo), "%s%s", d->diff < 0 ? "-" : "+", cell);
		print_padded(lo, 14);
		format_value(lo, sizeof(lo), u, d->ci_lo);
		format_value(hi, sizeof(hi), u, d->ci_hi);
		printf(" [%s, %s]%s\n", lo, hi, d->significant ? " *" : "");
	}
	printf("*: significant (Hochberg's step-up over the nine deciles, family-wise %g)\n",
	       SP_SHIFT_ALPHA);
}

/* ---- the command line ---------------------------------------------------- */

/* The name of a group from its files: their common start, less digits and separators. */
static char *default_name(char **files, int nr)
{
	const char *first = sp_cli_base_name(files[0]);
	size_t len = strlen(first), j;
	char *dot, *name;
	int i;

	dot = strrchr(first, '.');
	if (dot && dot != first)
		len = dot - first;
	if (nr > 1) {
		for (i = 1; i < nr; i++) {
			const char *b = sp_cli_base_name(files[i]);

			for (j = 0; j < len && b[j] == first[j]; j++)
				;
			len = j;
		}
		while (len && strchr("0123456789-_.", first[len - 1]))
			len--;
	}
	name = strndup(first, len);
	return name;
}

static int parse_double(const char *name, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= lo && v <= hi))
		return sp_cli_usage("compare", "--%s needs a number from %g to %g, not '%s'", name,
				    lo, hi, arg);
	*out = v;
	return -1;
}

static int parse_args(struct compare_opts *o, int argc, char **argv)
{
	int opt, group = 0, ret, i;
	char *end;

	o->alpha = COMPARE_DEFAULT_ALPHA;
	o->seed = COMPARE_DEFAULT_SEED;
	for (i = 0; i < 2; i++) {
		o->files[i] = calloc(argc + 1, sizeof(char *));
		if (!o->files[i])
			return sp_cli_fail(NULL, "out of memory");
	}
	o->targets = calloc(argc + 1, sizeof(char *));
	if (!o->targets)
		return sp_cli_fail(NULL, "out of memory");

	optind = 1;
	/* "-": the files come back in order (as option 1), so --vs splits them */
	while ((opt = getopt_long(argc, argv, "-jo:vqh", compare_options, NULL)) != -1) {
		if (sp_cli_parse_common(opt))
			continue;
		ret = -1;
		switch (opt) {
		case 1:
			o->files[group][o->nr_files[group]++] = optarg;
			break;
		case OPT_VS:
			if (group)
				return sp_cli_usage("compare", "--vs given twice (two groups only)");
			group = 1;
			break;
		case OPT_NAMES:
			o->names_arg = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_ALPHA:
			ret = parse_double("alpha", optarg, 1e-9, 0.5, &o->alpha);
			break;
		case OPT_TARGET:
			o->targets[o->nr_targets++] = optarg;
			break;
		case OPT_VALUES:
			o->values = true;
			break;
		case OPT_COLUMN:
			o->column = optarg;
			break;
		case OPT_SHIFT:
			o->shift = true;
			o->no_shift = false;
			break;
		case OPT_NO_SHIFT:
			o->no_shift = true;
			o->shift = false;
			break;
		case OPT_SEED:
			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (end == optarg || *end || errno || *optarg == '-')
				return sp_cli_usage("compare", "--seed needs a number, not '%s'",
						    optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORMAT:
			o->format = sp_format_from_name(optarg);
			if (o->format == SP_FORMAT_NONE)
				return sp_cli_usage("compare", "--format: png, pdf or svg, not '%s'",
						    optarg);
			break;
		case OPT_METRIC:
			o->metric = optarg;
			break;
		case OPT_WIDTH:
			ret = parse_double("width", optarg, 300, SP_OUTPUT_MAX_PX, &o->width);
			break;
		case OPT_HEIGHT:
			ret = parse_double("height", optarg, 300, SP_OUTPUT_MAX_PX, &o->height);
			break;
		case OPT_TITLE:
			o->title = optarg;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return SP_EXIT_OK;
		default:
			return sp_cli_usage("compare", "unknown option");
		}
		if (ret >= 0)
			return ret;
	}
	/* after "--", the rest are files of the group then being filled */
	for (; optind < argc; optind++)
		o->files[group][o->nr_files[group]++] = argv[optind];
	if (!o->nr_files[0] && !o->nr_files[1])
		return sp_cli_usage("compare", "no files given (A.dat ... --vs B.dat ...)");
	if (!group)
		return sp_cli_usage("compare", "no --vs: give the second group after --vs");
	if (!o->nr_files[0])
		return sp_cli_usage("compare", "the first group is empty (no file before --vs)");
	if (!o->nr_files[1])
		return sp_cli_usage("compare", "the second group is empty (no file after --vs)");
	if (o->values && o->nr_targets)
		return sp_cli_usage("compare", "--target is for traces, not with --values");
	if (!o->values && (o->column || o->shift))
		return sp_cli_usage("compare", "--%s needs --values",
				    o->column ? "column" : "shift");
	if (o->values && (o->nr_files[0] > 1 || o->nr_files[1] > 1))
		return sp_cli_usage("compare", "--values takes one file per group");
	if (o->metric) {
		bool found = false;

		if (o->values)
			found = !strcmp(o->metric, "value");
		for (i = 0; !o->values && i < NR_TRACE_METRICS; i++)
			found |= !strcmp(o->metric, trace_metrics[i].name);
		if (!found)
			return sp_cli_usage("compare", "--metric: no metric '%s' (see --help)",
					    o->metric);
	}
	if (o->output) {
		if (!o->format)
			o->format = sp_format_from_path(o->output);
		if (!o->format)
			return sp_cli_usage("compare", "cannot tell the format of '%s' (use .png, "
					    ".pdf or .svg, or --format)", o->output);
	} else if (o->format || o->metric || o->width || o->height || o->title) {
		return sp_cli_usage("compare", "--format, --metric, --width, --height and --title "
				    "are for the image: give -o FILE");
	}
	if (o->output && !strcmp(o->output, "-") && o->json)
		return sp_cli_usage("compare", "-o - and --json both want standard output");
	for (i = 0; i < 2; i++) {
		o->names[i] = default_name(o->files[i], o->nr_files[i]);
		if (!o->names[i])
			return sp_cli_fail(NULL, "out of memory");
	}
	if (o->names_arg) {
		const char *comma = strchr(o->names_arg, ',');

		if (!comma || comma == o->names_arg || !comma[1] || strchr(comma + 1, ','))
			return sp_cli_usage("compare", "--names needs two names: A,B, not '%s'",
					    o->names_arg);
		free(o->names[0]);
		free(o->names[1]);
		o->names[0] = strndup(o->names_arg, comma - o->names_arg);
		o->names[1] = strdup(comma + 1);
		if (!o->names[0] || !o->names[1])
			return sp_cli_fail(NULL, "out of memory");
	} else if (!*o->names[0] || !*o->names[1] || !strcmp(o->names[0], o->names[1])) {
		free(o->names[0]);
		free(o->names[1]);
		o->names[0] = strdup("A");
		o->names[1] = strdup("B");
		if (!o->names[0] || !o->names[1])
			return sp_cli_fail(NULL, "out of memory");
	}
	return -1;
}

/*
 * The output can be written and is not one of the inputs
 * (sp_output_protect() remembers only a few files, a group can hold many).
 * Checked before any reading.
 */
static int check_output(const struct compare_opts *o)
{
	struct sp_output probe;
	struct stat out, in;
	bool exists;
	int i, r;

	if (!o->output)
		return SP_EXIT_OK;
	if (!strcmp(o->output, "-"))
		exists = !fstat(STDOUT_FILENO, &out) && S_ISREG(out.st_mode);
	else
		exists = !stat(o->output, &out);
	for (i = 0; exists && i < 2; i++)
		for (r = 0; r < o->nr_files[i]; r++)
			if (!stat(o->files[i][r], &in) && in.st_dev == out.st_dev &&
			    in.st_ino == out.st_ino) {
				fprintf(stderr, "schedplot: %s: refusing to write the image over "
					"the input file '%s' (choose another output name)\n",
					o->output, o->files[i][r]);
				return SP_EXIT_USAGE;
			}
	/* a wrong directory fails now, not after the passes */
	sp_output_init(&probe);
	return sp_cli_probe_output(&probe, o->output, o->format,
				   o->width ? o->width : COMPARE_WIDTH);
}

static void compare_release(struct compare *c)
{
	int i, r;

	for (i = 0; i < 2; i++) {
		for (r = 0; c->g[i].runs && r < c->g[i].nr_runs; r++) {
			free(c->g[i].runs[r].samples);
			free(c->g[i].runs[r].waits);
		}
		free(c->g[i].runs);
		free(c->o.files[i]);
		free(c->o.names[i]);
	}
	free(c->o.targets);
	free(c->metrics);
}

static int load_groups(struct compare *c)
{
	const struct compare_opts *o = &c->o;
	int i, r, ret;

	/* a file that is no trace fails at once, not after the passes over the others */
	for (i = 0; !o->values && i < 2; i++)
		for (r = 0; r < o->nr_files[i]; r++) {
			struct sp_trace t;

			ret = sp_cli_open(&t, o->files[i][r]);
			if (ret)
				return ret;
			sp_trace_close(&t);
		}
	for (i = 0; i < 2; i++) {
		c->g[i].name = o->names[i];
		c->g[i].runs = calloc(o->nr_files[i], sizeof(*c->g[i].runs));
		if (!c->g[i].runs)
			return sp_cli_fail(NULL, "out of memory");
		c->g[i].nr_runs = o->nr_files[i];
		for (r = 0; r < o->nr_files[i]; r++) {
			struct compare_run *run = &c->g[i].runs[r];

			run->file = o->files[i][r];
			ret = o->values ? load_values(o, run) : load_trace(o, run);
			if (ret)
				return ret;
		}
	}
	if (o->values)
		return SP_EXIT_OK;
	/* different machines can be compared, but the numbers then mean less */
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++)
			if (c->g[i].runs[r].nr_cpus != c->g[0].runs[0].nr_cpus && !sp_cli.quiet) {
				fprintf(stderr, "schedplot: note: %s has %d CPUs, %s has %d: the "
					"runs come from different machines or settings\n",
					c->g[0].runs[0].file, c->g[0].runs[0].nr_cpus,
					c->g[i].runs[r].file, c->g[i].runs[r].nr_cpus);
				return SP_EXIT_OK;
			}
	return SP_EXIT_OK;
}

static void warn_power(const struct compare *c)
{
	const struct compare_metric *cm = &c->metrics[0];
	double min_p;

	if (!cm->sum[0].nr || !cm->sum[1].nr)
		return;
	min_p = sp_mannwhitney_min_p(cm->sum[0].nr, cm->sum[1].nr);
	if (min_p > c->o.alpha)
		sp_cli_warn("%zu against %zu %s cannot give p below %.3g: no difference can be "
			    "shown at alpha %g (add runs)", cm->sum[0].nr, cm->sum[1].nr,
			    c->o.values ? "values" : "runs", min_p, c->o.alpha);
}

/* How a metric is shown on the runs plot's axis: a scale and a title. */
static double axis_scale(const struct metric_desc *d, char *title, size_t len)
{
	switch (d->unit) {
	case U_SECONDS:
		snprintf(title, len, "%s (s)", d->name);
		return 1;
	case U_FRACTION:
		snprintf(title, len, "%s (%%)", d->name);
		return 100;
	case U_NS:
		snprintf(title, len, "%s (µs)", d->name);
		return 1e-3;
	default:
		snprintf(title, len, "%s", d->name);
		return 1;
	}
}

/* Draw the figure and commit it; nothing is left behind on failure. */
static int draw_figure(struct compare *c)
{
	const struct compare_opts *o = &c->o;
	struct sp_compare_figure fig = { 0 };
	struct sp_compare_runs rg[2];
	struct sp_error err = { 0 };
	struct sp_output out;
	struct sp_theme theme;
	char y_title[64];
	int i, r, k = 0, ret = SP_EXIT_OK, code;
	double scale;
	size_t j;

	if (o->metric)
		for (k = 0; k < c->nr_metrics - 1; k++)
			if (!strcmp(c->metrics[k].desc->name, o->metric))
				break;
	scale = axis_scale(c->metrics[k].desc, y_title, sizeof(y_title));
	memset(rg, 0, sizeof(rg));
	for (i = 0; i < 2; i++) {
		const struct compare_group *g = &c->g[i];
		size_t nr = o->values ? g->runs[0].nr_samples : (size_t)g->nr_runs;

		rg[i].name = g->name;
		rg[i].nr_runs = nr;
		rg[i].values = calloc(nr ? nr : 1, sizeof(double));
		rg[i].waits = calloc(g->nr_runs, sizeof(*rg[i].waits));
		rg[i].nr_waits = calloc(g->nr_runs, sizeof(*rg[i].nr_waits));
		if (!rg[i].values || !rg[i].waits || !rg[i].nr_waits) {
			ret = sp_cli_fail(NULL, "out of memory");
			goto out;
		}
		for (j = 0; j < nr; j++)
			rg[i].values[j] = scale * (o->values ? g->runs[0].samples[j] :
						   g->runs[j].m[k]);
		for (r = 0; !o->values && r < g->nr_runs; r++) {
			rg[i].waits[r] = g->runs[r].waits;
			rg[i].nr_waits[r] = g->runs[r].nr_waits;
		}
		rg[i].nr_waits_runs = o->values ? 0 : g->nr_runs;
		rg[i].median = c->metrics[k].sum[i].nr ? scale * c->metrics[k].sum[i].median : NAN;
		rg[i].cv = c->metrics[k].sum[i].nr ? c->metrics[k].sum[i].cv : NAN;
		rg[i].ci_lo = c->metrics[k].sum[i].has_ci ? scale * c->metrics[k].sum[i].ci_lo : NAN;
		rg[i].ci_hi = c->metrics[k].sum[i].has_ci ? scale * c->metrics[k].sum[i].ci_hi : NAN;
	}
	fig.title = o->title;
	fig.y_title = y_title;
	fig.groups = rg;
	fig.shift = c->has_shift ? &c->shift : NULL;
	fig.shift_scale = 1;
	fig.shift_title = "difference";
	if (c->has_shift && !o->values) {
		double big = 0;

		for (j = 0; j < SP_NR_DECILES; j++)
			big = fmax(big, fmax(fabs(c->shift.dec[j].ci_lo),
					     fabs(c->shift.dec[j].ci_hi)));
		fig.shift_scale = big >= 1e6 ? 1e-6 : big >= 1e3 ? 1e-3 : 1;
		fig.shift_title = big >= 1e6 ? "difference (ms)" : big >= 1e3 ?
				  "difference (µs)" : "difference (ns)";
	}
	fig.pixels = o->format == SP_FORMAT_PNG;

	sp_theme_init(&theme, 0);
	sp_output_init(&out);
	for (i = 0; i < 2; i++)
		for (r = 0; r < o->nr_files[i]; r++)
			sp_output_protect(&out, o->files[i][r]);	/* the first few */
	if (sp_output_open(&out, o->output, o->format, o->width ? o->width : COMPARE_WIDTH,
			   o->height ? o->height : COMPARE_HEIGHT, &err)) {
		ret = sp_cli_output_error(o->output, &err);
		goto out;
	}
	code = sp_compare_figure_draw(out.cr, &theme, &fig, out.width, out.height);
	if (code) {
		sp_output_close(&out, false, NULL);
		ret = code == -ERANGE ?
			sp_cli_fail(o->output, "the image is too small for its labels "
				    "(try a larger --width/--height)") :
			sp_cli_fail_code(o->output, code, "cannot draw the figure");
		goto out;
	}
	if (sp_output_close(&out, true, &err))
		ret = sp_cli_output_error(o->output, &err);
out:
	for (i = 0; i < 2; i++) {
		free(rg[i].values);
		free(rg[i].waits);
		free(rg[i].nr_waits);
	}
	return ret;
}

int sp_cmd_compare(int argc, char **argv)
{
	struct compare c;
	bool to_stdout;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = parse_args(&c.o, argc, argv);
	if (ret >= 0)
		goto out;
	ret = check_output(&c.o);
	if (ret)
		goto out;
	ret = load_groups(&c);
	if (ret)
		goto out;
	ret = compute(&c);
	if (ret)
		goto out;
	warn_power(&c);
	ret = compute_shift(&c);
	if (ret)
		goto out;
	if (c.o.output) {
		ret = draw_figure(&c);
		if (ret)
			goto out;
	}
	to_stdout = c.o.output && !strcmp(c.o.output, "-");
	if (c.o.json)
		print_json(&c);
	else if (!to_stdout)
		print_text(&c);
	if (fflush(stdout) || ferror(stdout))
		ret = sp_cli_fail(NULL, "cannot write the output");
out:
	compare_release(&c);
	return ret;
}
