// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot latency: the whole distribution of how long tasks waited for
 * a CPU, split by what explains it, as a figure, a table and JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/latency.h"

/* Lines drawn at most; smaller groups are drawn together as "other". */
#define MAX_LINES 7
#define MAX_TRACES 64

static const char *const by_names[] = {
	[SP_LAT_BY_NONE] = "none", [SP_LAT_BY_CLASS] = "class",
	[SP_LAT_BY_COMMAND] = "command", [SP_LAT_BY_PID] = "pid", [SP_LAT_BY_CPU] = "cpu",
	[SP_LAT_BY_PLACEMENT] = "placement", [SP_LAT_BY_SOCKET] = "socket",
	[SP_LAT_BY_WAKER] = "waker", [SP_LAT_BY_ANTAGONIST] = "antagonist",
};

/* A wait kept to print: its task's name resolved while the trace was open. */
struct named_wait {
	struct sp_wait w;
	char comm[32];
};

/* What one trace gave, kept after it is closed. */
struct trace_result {
	const char *file;
	struct sp_latency lat;		/* finished; groups sorted largest first */
	char (*group_names)[80];	/* per group */
	struct named_wait *group_max;	/* per group */
	struct named_wait *slowest;	/* lat.nr_slowest_kept */
	uint64_t open_at_end;
	uint64_t first_ns;		/* the trace's start: zoom commands are absolute */
};

struct latency_run {
	enum sp_latency_by by;
	unsigned int class_mask;
	enum sp_latency_plot plot;
	unsigned long slowest;
	struct trace_result traces[MAX_TRACES];
	int nr_traces;
	struct sp_topology file_topo;
	const int *socket;
	struct sp_latency_series series[MAX_LINES + MAX_TRACES + 1];
	size_t nr_series;
	struct sp_samples other;	/* the groups beyond MAX_LINES, joined */
	struct sp_theme theme;
	struct sp_antagonists hist;	/* --by antagonist: each CPU's runs, of the trace read */
};

static int latency_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	static const char *const classes[] = { "wakeup", "preempt", NULL };
	struct latency_run *v = ctx->own;
	char *end;
	size_t i;
	int choice;

	switch (opt) {
	case SP_VOPT_BY:
		for (i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++) {
			if (!strcmp(arg, by_names[i])) {
				v->by = (enum sp_latency_by)i;
				return 0;
			}
		}
		return sp_cli_usage("latency", "--by must be class, command, pid, cpu, placement, "
				    "socket, waker or antagonist, not '%s'", arg);
	case SP_VOPT_CLASS:
		if (sp_cli_parse_choice("latency", "class", arg, classes, &choice))
			return SP_EXIT_USAGE;
		v->class_mask = 1u << (choice ? SP_WAIT_PREEMPT : SP_WAIT_WAKEUP);
		return 0;
	case SP_VOPT_CCDF:
		v->plot = SP_LATPLOT_CCDF;
		return 0;
	case SP_VOPT_HIST:
		v->plot = SP_LATPLOT_HIST;
		return 0;
	case SP_VOPT_OVER_TIME:
		v->plot = SP_LATPLOT_TIME;
		return 0;
	case SP_VOPT_SLOWEST:
		errno = 0;
		v->slowest = strtoul(arg, &end, 10);
		if (errno || *end || end == arg || arg[0] == '-' || v->slowest > 100000)
			return sp_cli_usage("latency", "--slowest needs a count up to 100000, not "
					    "'%s'", arg);
		return 0;
	default:
		return sp_cli_usage("latency", "unknown option");
	}
}

static int latency_parsed(struct sp_view_run *run)
{
	struct latency_run *v = run->data;
	const struct sp_view_opts *o = &run->opts;

	if (!v->class_mask)
		v->class_mask = (1u << SP_WAIT_WAKEUP) | (1u << SP_WAIT_PREEMPT);
	if (o->nr_traces > 1 && v->by != SP_LAT_BY_NONE)
		return sp_cli_usage("latency", "--by splits one trace; with several traces each "
				    "trace is its own line");
	if (o->nr_traces > 1 && v->plot == SP_LATPLOT_TIME)
		return sp_cli_usage("latency", "--over-time draws one trace; give one");
	return SP_EXIT_OK;
}

static int latency_plan(struct sp_view_run *run, struct _cairo *cr)
{
	struct latency_run *v = run->data;

	v->nr_traces = run->opts.nr_traces;
	return SP_EXIT_OK;
}

static void on_wait(void *data, const struct sp_wait *w)
{
	sp_latency_add(data, w);
}

static void on_reset(void *data)
{
	sp_latency_reset(data);
}

static void latency_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct latency_run *v = run->data;
	struct sp_view_opts *o = &run->opts;
	struct trace_result *r = &v->traces[run->trace_index];
	struct sp_latency *l = &r->lat;
	const struct sp_topology *topo = NULL;
	const char *source;

	r->file = o->traces[run->trace_index];
	l->by = v->by;
	l->class_mask = v->class_mask;
	l->scope = o->scope;
	l->nr_cpus = o->nr_cpus;
	l->model = &run->trace.model;
	l->nr_slowest = v->slowest;
	if (v->plot == SP_LATPLOT_TIME && !run->no_image)
		l->nr_time_cols = sp_latency_time_cols(run->width * 0.85,
						       o->format == SP_FORMAT_PNG);
	l->csv = run->csv.fp;
	l->csv_origin_ns = run->trace.first_ns;
	if (v->by == SP_LAT_BY_SOCKET) {
		sp_topology_release(&v->file_topo);
		if (sp_view_opts_topology(o, &run->trace, &v->file_topo, &topo, &source) == 0 &&
		    topo && topo->nr_cpus >= run->trace.nr_cpus)
			l->socket = topo->socket;
	}
	if (v->by == SP_LAT_BY_ANTAGONIST) {
		sp_antagonists_release(&v->hist);
		if (sp_antagonists_init(&v->hist, run->trace.nr_cpus))
			l->error = -ENOMEM;
		SP_PASS_OBSERVE(&pass->pass, sp_antagonists_observer, &v->hist);
		l->antagonists = &v->hist;
	}
	if (sp_latency_init(l))
		l->error = -ENOMEM;
	sp_pass_add(&pass->pass, &(struct sp_model_observer){ .wait = on_wait,
							      .reset = on_reset, .data = l });
}

static void name_wait(const struct sp_model *m, const struct sp_wait *w, struct named_wait *nw)
{
	const struct sp_task *t = sp_model_task(m, w->pid);
	const char *comm = t && t->comm ? sp_model_str(m, t->comm) : NULL;

	nw->w = *w;
	snprintf(nw->comm, sizeof(nw->comm), "%s", comm && *comm ? comm : "?");
}

static int latency_trace_done(struct sp_view_run *run)
{
	struct latency_run *v = run->data;
	struct trace_result *r = &v->traces[run->trace_index];
	struct sp_latency *l = &r->lat;
	size_t i;

	if (!l->error)
		sp_latency_finish(l);
	if (l->error)
		return sp_cli_fail_code(r->file, l->error, "cannot keep the waits");
	r->open_at_end = run->trace.model.nr_waits_open;
	r->first_ns = run->trace.first_ns;
	r->group_names = calloc(l->nr_groups ? l->nr_groups : 1, sizeof(*r->group_names));
	r->group_max = calloc(l->nr_groups ? l->nr_groups : 1, sizeof(*r->group_max));
	r->slowest = calloc(l->nr_slowest_kept ? l->nr_slowest_kept : 1, sizeof(*r->slowest));
	if (!r->group_names || !r->group_max || !r->slowest)
		return sp_cli_fail(NULL, "out of memory");
	for (i = 0; i < l->nr_groups; i++) {
		sp_latency_group_name(l, &l->groups[i], r->group_names[i], sizeof(r->group_names[i]));
		name_wait(l->model, &l->groups[i].max, &r->group_max[i]);
	}
	for (i = 0; i < l->nr_slowest_kept; i++)
		name_wait(l->model, &l->slowest[i], &r->slowest[i]);
	l->model = NULL;	/* closed with the trace */
	l->antagonists = NULL;
	if (!l->error && v->hist.error)
		return sp_cli_fail(r->file, "out of memory keeping the runs of each CPU");
	sp_antagonists_release(&v->hist);
	if (!l->nr_groups)
		sp_cli_warn("%s: no wait in the window counted (is a filter too narrow?)", r->file);
	return SP_EXIT_OK;
}

/* ---- text ---- */

/*
 * The waits of a group (or class): what the table and JSON print; with
 * @contra >= 0, a last column: how many of them the trace contradicts.
 */
static void print_row(const char *name, const struct sp_summary *s, int64_t contra)
{
	char b[7][32];

	if (!s->n) {
		printf("%-24.24s %8d %11s\n", name, 0, "no samples");
		return;
	}
	printf("%-24.24s %8" PRIu64 " %11s %11s %11s %11s %11s %11s %11s", name, s->n,
	       sp_cli_format_duration(b[0], 32, s->min), sp_cli_format_duration(b[1], 32, s->p50),
	       sp_cli_format_duration(b[2], 32, s->p90), sp_cli_format_duration(b[3], 32, s->p99),
	       sp_cli_format_duration(b[4], 32, s->p999), sp_cli_format_duration(b[5], 32, s->max),
	       sp_cli_format_duration(b[6], 32, s->mean));
	if (contra >= 0)
		printf(" %12" PRId64, contra);
	putchar('\n');
}

/* "1.395 ms  barrier-6871 on CPU 1 at 436.500123 s (wakeup)" and a zoom command. */
static void print_wait(const struct trace_result *r, const struct named_wait *nw)
{
	const struct sp_wait *w = &nw->w;
	char d[32], zoom[PATH_MAX + 96];

	printf("  %s  %s-%d, waited from %" PRIu64 ".%06" PRIu64 " s, ran on CPU %d (%s",
	       sp_cli_format_duration(d, sizeof(d), w->dur_ns), nw->comm, w->pid,
	       w->start_ns / 1000000000, w->start_ns % 1000000000 / 1000, w->cpu,
	       w->wait_class == SP_WAIT_WAKEUP ? "wakeup" : "preempted");
	if (w->prev_cpu >= 0 && w->prev_cpu != w->cpu)
		printf(", ran on CPU %d before", w->prev_cpu);
	if (w->contradicted)
		printf("; contradicted: CPU %d, where it was placed, idled meanwhile",
		       w->target_cpu);
	printf(")\n    %s\n", sp_cli_zoom_command(zoom, sizeof(zoom), "datagraph", w->start_ns,
						 w->dur_ns, r->file));
}

static void print_text(const struct latency_run *v)
{
	static const char *const class_title[2] = { "wakeup", "preempt" };

	for (int t = 0; t < v->nr_traces; t++) {
		const struct trace_result *r = &v->traces[t];
		const struct sp_latency *l = &r->lat;
		uint64_t contra = l->nr_contradicted[0] + l->nr_contradicted[1];

		if (t)
			putchar('\n');
		printf("trace  %s\n", sp_cli_base_name(r->file));
		printf("waits  %" PRIu64 " after a wakeup, %" PRIu64 " after a preemption",
		       l->classes[SP_WAIT_WAKEUP].n, l->classes[SP_WAIT_PREEMPT].n);
		if (r->open_at_end)
			printf("; %" PRIu64 " still waiting at the end (not counted)",
			       r->open_at_end);
		if (contra)
			printf("; %" PRIu64 " contradicted by the trace (their CPU idled while "
			       "they waited), counted", contra);
		printf("\n\n%-24s %8s %11s %11s %11s %11s %11s %11s %11s%s\n", "", "n", "min",
		       "p50", "p90", "p99", "p99.9", "max", "mean", contra ? " contradicted" : "");
		for (int k = 0; k < 2; k++)
			if (v->class_mask & (1u << k))
				print_row(class_title[k], &l->classes[k],
					  contra ? (int64_t)l->nr_contradicted[k] : -1);
		if (v->by != SP_LAT_BY_NONE) {
			printf("\nby %s\n", by_names[v->by]);
			for (size_t i = 0; i < l->nr_groups; i++)
				print_row(r->group_names[i], &l->groups[i].sum,
					  contra ? (int64_t)l->groups[i].nr_contradicted : -1);
		}
		printf("\nlongest wait%s\n", v->by != SP_LAT_BY_NONE ? " of each group" : "");
		for (size_t i = 0; i < l->nr_groups; i++) {
			if (v->by != SP_LAT_BY_NONE)
				printf("%s:\n", r->group_names[i]);
			print_wait(r, &r->group_max[i]);
		}
		if (l->nr_slowest_kept) {
			printf("\nthe %zu longest waits\n", l->nr_slowest_kept);
			for (size_t i = 0; i < l->nr_slowest_kept; i++)
				print_wait(r, &r->slowest[i]);
		}
	}
}

/* The numbers of a group or class and the closing brace; null for no samples, not 0. */
static void json_summary_fields(const struct sp_summary *s)
{
	if (!s->n) {
		printf("\"count\": 0, \"min\": null, \"p50\": null, \"p90\": null, "
		       "\"p99\": null, \"p999\": null, \"max\": null, \"mean\": null}");
		return;
	}
	printf("\"count\": %" PRIu64 ", \"min\": %" PRIu64 ", \"p50\": %" PRIu64
	       ", \"p90\": %" PRIu64 ", \"p99\": %" PRIu64 ", \"p999\": %" PRIu64
	       ", \"max\": %" PRIu64 ", \"mean\": %" PRIu64 "}", s->n, s->min, s->p50, s->p90,
	       s->p99, s->p999, s->max, s->mean);
}

static void json_summary(const struct sp_summary *s)
{
	putchar('{');
	json_summary_fields(s);
}

static void print_json(const struct latency_run *v)
{
	if (v->nr_traces > 1)
		printf("[\n");
	for (int t = 0; t < v->nr_traces; t++) {
		const struct trace_result *r = &v->traces[t];
		const struct sp_latency *l = &r->lat;

		printf("{\n  \"file\": ");
		sp_cli_json_string(stdout, r->file);
		printf(",\n  \"by\": \"%s\",\n  \"classes\": {\n    \"wakeup\": ", by_names[v->by]);
		json_summary(&l->classes[SP_WAIT_WAKEUP]);
		printf(",\n    \"preempt\": ");
		json_summary(&l->classes[SP_WAIT_PREEMPT]);
		printf("\n  },\n  \"contradicted\": {\"wakeup\": %" PRIu64 ", \"preempt\": %"
		       PRIu64 "},\n  \"groups\": [", l->nr_contradicted[SP_WAIT_WAKEUP],
		       l->nr_contradicted[SP_WAIT_PREEMPT]);
		for (size_t i = 0; i < l->nr_groups; i++) {
			const struct sp_summary *s = &l->groups[i].sum;

			printf("%s\n    {\"key\": ", i ? "," : "");
			sp_cli_json_string(stdout, r->group_names[i]);
			printf(", \"contradicted\": %" PRIu64 ", ", l->groups[i].nr_contradicted);
			json_summary_fields(s);
		}
		printf("\n  ],\n  \"open_at_end\": %" PRIu64 "\n}%s\n", r->open_at_end,
		       t + 1 < v->nr_traces ? "," : "");
	}
	if (v->nr_traces > 1)
		printf("]\n");
}

/* ---- the figure ---- */

static void add_series(struct latency_run *v, const char *name, const struct sp_samples *s,
		       size_t color)
{
	struct sp_latency_series *ls = &v->series[v->nr_series++];

	ls->name = name;
	ls->narrow = s->v;
	ls->nr_narrow = s->nr_v;
	ls->v = s->wide;
	ls->n = s->nr;
	ls->p50 = sp_samples_quantile(s, 1, 2);
	ls->p99 = sp_samples_quantile(s, 99, 100);
	ls->color = color;
}

static int latency_finish(struct sp_view_run *run)
{
	struct latency_run *v = run->data;
	bool to_stdout = run->opts.output && !strcmp(run->opts.output, "-");

	if (run->opts.json)
		print_json(v);
	else if (!to_stdout)
		print_text(v);
	if (fflush(stdout) || ferror(stdout))
		return sp_cli_fail(NULL, "cannot write the output");

	if (v->nr_traces > 1) {
		for (int t = 0; t < v->nr_traces; t++)
			if (v->traces[t].lat.nr_groups)
				add_series(v, sp_cli_base_name(v->traces[t].file),
					   &v->traces[t].lat.groups[0].all, (size_t)t);
		return SP_EXIT_OK;
	}
	{
		struct trace_result *r = &v->traces[0];
		struct sp_latency *l = &r->lat;
		size_t i, n = l->nr_groups;

		for (i = 0; i < n && i < MAX_LINES; i++)
			add_series(v, v->by == SP_LAT_BY_NONE ? "all waits" : r->group_names[i],
				   &l->groups[i].all, i);
		if (n > MAX_LINES) {
			for (i = MAX_LINES; i < n; i++)
				for (size_t k = 0; k < l->groups[i].all.nr; k++)
					if (sp_samples_add(&v->other,
							   sp_samples_at(&l->groups[i].all, k)))
						return sp_cli_fail(NULL, "out of memory");
			sp_samples_sort(&v->other);
			add_series(v, "other", &v->other, MAX_LINES);
		}
	}
	return SP_EXIT_OK;
}

static int latency_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct latency_run *v = run->data;
	const struct sp_view_opts *o = &run->opts;
	char title[256];
	struct sp_latency_figure fig = {
		.title = title,
		.plot = v->plot,
		.series = v->series,
		.nr_series = v->nr_series,
		.palette = o->palette,
		.legend = !o->no_legend,
		.pixels = o->format == SP_FORMAT_PNG,
		.time_hist = v->traces[0].lat.time_hist,
		.nr_time_cols = v->traces[0].lat.nr_time_cols,
		.t0_ns = o->t0_ns,
		.t1_ns = o->t1_ns,
		.origin_ns = o->origin_ns,
	};
	int ret;

	/* one trace names the figure; several are all of it, not their first */
	if (o->title)
		snprintf(title, sizeof(title), "%s", o->title);
	else if (o->nr_traces > 1)
		snprintf(title, sizeof(title), "%s \u2026 %s (%d traces)",
			 sp_cli_base_name(o->traces[0]),
			 sp_cli_base_name(o->traces[o->nr_traces - 1]), o->nr_traces);
	else
		snprintf(title, sizeof(title), "%s", sp_cli_base_name(o->traces[0]));
	if (!v->nr_series)
		return sp_cli_fail(o->traces[0], "no wait to draw (is a filter too narrow?)");
	ret = sp_latency_figure_draw(cr, &run->theme, &fig, run->width, run->height);
	if (ret == -ERANGE)
		return sp_cli_usage("latency", "--width %g --height %g leaves no room for the plot",
				    run->width, run->height);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot draw the distribution");
	return SP_EXIT_OK;
}

static void latency_release(struct sp_view_run *run)
{
	struct latency_run *v = run->data;

	for (int t = 0; t < MAX_TRACES; t++) {
		sp_latency_release(&v->traces[t].lat);
		free(v->traces[t].group_names);
		free(v->traces[t].group_max);
		free(v->traces[t].slowest);
	}
	sp_samples_release(&v->other);
	sp_topology_release(&v->file_topo);
	sp_antagonists_release(&v->hist);
}

static const struct sp_opt latency_options[] = {
	SP_OPT_WORDS("input", "a trace to read (default: trace.dat); or name them"),
	SP_OPT_SHARED("jobs"),
	{ "by", SP_VOPT_BY, required_argument, "WHAT", "Groups",
	  "split into groups: class, command, pid, cpu, placement, socket, waker or "
	  "antagonist (the task that held the CPU longest while it waited) (default: one "
	  "group)" },
	{ "class", SP_VOPT_CLASS, required_argument, "CLASS", "Groups",
	  "wakeup or preempt: only waits that began so (default: both)" },
	{ "ccdf", SP_VOPT_CCDF, no_argument, NULL, "Plot",
	  "draw the tail: the share of waits longer than x" },
	{ "hist", SP_VOPT_HIST, no_argument, NULL, "Plot",
	  "draw counts per power-of-two bucket (as runqlat)" },
	{ "over-time", SP_VOPT_OVER_TIME, no_argument, NULL, "Plot",
	  "draw a heat map: time across, wait length up, colour the number of waits (one "
	  "trace)" },
	{ "slowest", SP_VOPT_SLOWEST, required_argument, "N", "Plot",
	  "list the N longest waits (default 0)" },
	SP_OPTS_WAITS,
	SP_OPT_WORDS("topology", "output of 'lscpu -p' on the traced machine, for --by socket "
		     "when the trace has no topology"),
	SP_OPT_SHARED("output"),
	SP_OPT_WORDS("text", "print the table only, no image"),
	SP_OPT_SHARED("json"), SP_OPT_SHARED("format"),
	SP_OPT_WORDS("csv", "also write every wait, one line each"),
	SP_OPT_WORDS("width", "image width: pixels for PNG (default 1200), points for PDF and "
		     "SVG (default 504)"),
	SP_OPT_WORDS("height", "image height"),
	SP_OPT_WORDS("title", "title (default: the trace's name, or the first and last of "
		     "several and their number; '' for none)"),
	SP_OPT_WORDS("no-legend", "leave out the table under the plot"),
	SP_OPT_SHARED("font-size"), SP_OPT_SHARED("palette"),
	{ }
};

const struct sp_view_desc sp_view_latency = {
	.cmd = {
		SP_CMD_NAMED(latency, "latency",
			     "the whole distribution of how long tasks waited for a CPU"),
		.synopsis = "[OPTIONS] TRACE.dat [TRACE.dat...]",
		.description =
		"How long tasks waited for a CPU: from the moment a task became runnable\n"
		"(a wakeup, or a switch-out while runnable) to the moment it ran again,\n"
		"every wait of the trace, as a whole distribution.  Draws its CDF on a log\n"
		"time axis and prints, per group, n, min, p50, p90, p99, p99.9, max and\n"
		"mean (exact, nearest rank), with a command to zoom on the longest wait.\n"
		"Several traces draw one line each: run-to-run variation at a glance.\n"
		"\n"
		"Examples:\n"
		"  schedplot latency trace.dat                    trace-latency.png and the table\n"
		"  schedplot latency --by placement trace.dat     did a wakeup leave an idle CPU?\n"
		"  schedplot latency --ccdf -o tail.pdf trace.dat the tail, on a log axis\n"
		"  schedplot latency --json trace.dat             the numbers for a script\n"
		"  schedplot latency before.dat after.dat         one line per run\n"
		"\n",
		.parse = latency_parse,
	},
	.max_traces = MAX_TRACES,
	.default_size = { .png_width = 1200, .vec_width = 504, .png_height = 800,
			  .vec_height = 360 },
	.data_size = sizeof(struct latency_run),
	.may_start_over = true,
	.parsed = latency_parsed,
	SP_VIEW_HOOKS(latency),
	.trace_done = latency_trace_done,
	.draw = latency_draw,
	.extra = &sp_view_csv,
};
