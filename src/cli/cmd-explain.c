// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot explain: the worst scheduler decisions of a trace, each drawn
 * as a small figure of the CPUs involved and said in words, as text and
 * JSON, with the datagraph command that shows the context.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/explain.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/explain.h"

/* Decisions explained at most. */
#define MAX_TOP 64

struct explain_run {
	enum sp_explain_what what;
	size_t top;
	bool has_at, has_task;
	uint64_t at_ns;
	int task;
	struct sp_explain x;
	struct sp_antagonists hist;	/* each CPU's runs: who a task waited behind */
	struct sp_model_filter filter;
};

static int explain_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	struct explain_run *v = ctx->own;
	unsigned long n;
	double s;
	char *end;

	switch (opt) {
	case SP_VOPT_WHAT:
		v->what = sp_explain_what_parse(arg);
		if (v->what == SP_EXPLAIN_NR_WHAT)
			return sp_cli_usage("explain", "--what must be placement, wait, migration "
					    "or idle-while-waiting, not '%s'", arg);
		return 0;
	case SP_VOPT_TOP:
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || *end || end == arg || arg[0] == '-' || n < 1 || n > MAX_TOP)
			return sp_cli_usage("explain", "--top needs a count from 1 to %d, not '%s'",
					    MAX_TOP, arg);
		v->top = n;
		return 0;
	case SP_VOPT_AT:
		errno = 0;
		s = strtod(arg, &end);
		if (errno || *end || end == arg || !isfinite(s) || s < 0 || s > 1.8e10)
			return sp_cli_usage("explain", "--at needs a time in the trace's own "
					    "seconds, like 436.5012, not '%s'", arg);
		v->at_ns = (uint64_t)llround(s * 1e9);
		v->has_at = true;
		return 0;
	case SP_VOPT_TASK:
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || *end || end == arg || arg[0] == '-' || n < 1 || n > INT_MAX)
			return sp_cli_usage("explain", "--task needs a thread id, not '%s'", arg);
		v->task = (int)n;
		v->has_task = true;
		return 0;
	default:
		return sp_cli_usage("explain", "unknown option");
	}
}

static int explain_parsed(struct sp_view_run *run)
{
	struct explain_run *v = run->data;

	if (!v->top)
		v->top = 1;
	if (v->has_at != v->has_task)
		return sp_cli_usage("explain", "--at and --task go together: the wait of one task "
				    "at one moment");
	if (v->has_at) {
		if (v->what != SP_EXPLAIN_PLACEMENT)
			return sp_cli_usage("explain", "--at chooses the wait; leave out --what");
		v->what = SP_EXPLAIN_AT;
		v->top = 1;
	}
	return SP_EXIT_OK;
}

/* Figures side by side in a grid of the image (PNG, SVG). */
static unsigned int grid_columns(const struct sp_view_run *run)
{
	const struct explain_run *v = run->data;

	return run->opts.format == SP_FORMAT_PDF || v->top < 2 ? 1 : 2;
}

static void explain_size(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;
	bool png = o->format == SP_FORMAT_PNG;
	unsigned int cols = grid_columns(run);
	double cell;

	/* a vector figure is one column of a paper wide; a grid, as many columns */
	run->width = o->width > 0 ? o->width : png ? 1600 : 252 * cols;
	cell = run->width / cols;
	/* text that reads at the figure's size: 16 px at 1600 px, 7.4 pt in a column */
	if (!(o->font_size > 0))
		sp_theme_init(&run->theme, fmax(png ? 10 : 6.5, cell / (png ? 100 : 34)));
	run->height = 0;
}

static int explain_plan(struct sp_view_run *run, struct _cairo *cr)
{
	(void)run;
	(void)cr;
	return SP_EXIT_OK;
}

static void explain_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct explain_run *v = run->data;
	struct sp_view_opts *o = &run->opts;
	struct sp_explain *x = &v->x;

	sp_explain_release(x);
	x->what = v->what;
	x->top = v->top;
	x->at_ns = v->at_ns;
	x->at_pid = v->task;
	x->scope = o->scope;
	x->nr_cpus = run->trace.nr_cpus;
	x->nr_counted = sp_view_opts_filter(&v->filter, o);
	x->first_ns = run->trace.first_ns;
	x->end_ns = run->trace.end_ns;
	x->model = &run->trace.model;
	sp_antagonists_release(&v->hist);
	x->hist = &v->hist;
	if (sp_antagonists_init(&v->hist, run->trace.nr_cpus) || sp_explain_init(x))
		x->error = -ENOMEM;
	SP_PASS_OBSERVE(&pass->pass, sp_antagonists_observer, &v->hist);
	SP_PASS_OBSERVE(&pass->pass, sp_explain_observer, x);
	pass->filter = &v->filter;
}

static int explain_trace_done(struct sp_view_run *run)
{
	struct explain_run *v = run->data;

	if (sp_explain_finish(&v->x))
		return sp_cli_fail_code(run->trace.path, v->x.error, "cannot keep the decisions");
	return SP_EXIT_OK;
}

/* "placement" in words: what was ranked. */
static const char *what_words(enum sp_explain_what what)
{
	switch (what) {
	case SP_EXPLAIN_PLACEMENT:
		return "wakeups that left an idle previous CPU, longest wait first";
	case SP_EXPLAIN_WAIT:
		return "waits for a CPU, longest first";
	case SP_EXPLAIN_MIGRATION:
		return "waits that ended on another CPU, longest first";
	case SP_EXPLAIN_IDLE_WAIT:
		return "waits while a CPU idled, longest idle time first";
	default:
		return "the wait of the task at the time asked for";
	}
}

/* The datagraph command that shows a case in its context. */
static char *context_command(char *buf, size_t len, const struct sp_explain_case *c,
			     const char *file)
{
	int cpus[SP_EXPLAIN_MAX_ROWS], n = c->nr_rows;
	uint64_t from = c->t0_ns / 1000, to = (c->t1_ns + 999) / 1000;
	size_t k;

	for (int i = 0; i < n; i++)
		cpus[i] = c->rows[i].cpu;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cpus[j - 1] > cpus[j]; j--) {
			int t = cpus[j];

			cpus[j] = cpus[j - 1];
			cpus[j - 1] = t;
		}
	k = (size_t)snprintf(buf, len, "schedplot datagraph --time %" PRIu64 ".%06" PRIu64
			     ",%" PRIu64 ".%06" PRIu64 " --cpus ", from / 1000000, from % 1000000,
			     to / 1000000, to % 1000000);
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", cpus[i]);
	if (k < len)
		snprintf(buf + k, len - k, " %s", file);
	return buf;
}

static void print_text(const struct sp_view_run *run, const struct explain_run *v)
{
	const struct sp_explain *x = &v->x;
	const char *file = run->opts.traces[0];
	struct sp_explain_words wd;
	char cmd[PATH_MAX + 128];

	printf("trace      %s\n", sp_cli_base_name(file));
	if (x->what == SP_EXPLAIN_AT)
		printf("chosen     the wait of pid %d going on at %" PRIu64 ".%09" PRIu64
		       " s, else the one that began nearest to it\n", v->task,
		       v->at_ns / 1000000000, v->at_ns % 1000000000);
	else
		printf("ranked     %" PRIu64 " %s; the worst %zu below%s\n", x->nr_candidates,
		       what_words(x->what), x->nr_cases,
		       x->nr_cases < x->nr_candidates ? " (--top N for more)" : "");
	if (!x->nr_cases) {
		printf("\nnone in the window%s\n",
		       x->what == SP_EXPLAIN_PLACEMENT ? " (try --what wait)" : "");
		return;
	}
	for (size_t i = 0; i < x->nr_cases; i++) {
		const struct sp_explain_case *c = &x->cases[i];

		sp_explain_words(c, &run->trace.model, false, &wd);
		printf("\n%zu. %s\n", i + 1, wd.title);
		for (int k = 0; k < wd.nr_lines; k++)
			printf("   %s\n", wd.lines[k]);
		printf("   context: %s\n", context_command(cmd, sizeof(cmd), c, file));
	}
}

static void json_roles(unsigned int roles)
{
	static const char *const names[] = { "prev", "waker", "placed", "ran", "idle" };
	int n = 0;

	putchar('[');
	for (int i = 0; i < 5; i++)
		if (roles & (1u << i))
			printf("%s\"%s\"", n++ ? ", " : "", names[i]);
	putchar(']');
}

static void json_task(const struct sp_model *m, int pid, uint32_t comm)
{
	printf("{\"pid\": %d, \"comm\": ", pid);
	sp_cli_json_string(stdout, comm ? sp_model_str(m, comm) : sp_model_comm(m, pid));
	putchar('}');
}

static void json_ts(const char *name, uint64_t ts)
{
	if (ts == SP_NO_TS)
		printf(", \"%s\": null", name);
	else
		printf(", \"%s\": %" PRIu64, name, ts);
}

static void print_case_json(const struct sp_view_run *run, const struct sp_explain_case *c,
			    size_t rank)
{
	const struct sp_model *m = &run->trace.model;
	const struct sp_wait *w = &c->w;
	struct sp_explain_words wd;
	char waker[16], cmd[PATH_MAX + 128];

	sp_explain_words(c, m, false, &wd);
	sp_waker_format(waker, sizeof(waker), w->waker);
	printf("    {\"rank\": %zu, \"start_ns\": %" PRIu64 ", \"latency_ns\": %" PRIu64
	       ", \"pid\": %d, \"comm\": ", rank, w->start_ns, w->dur_ns, w->pid);
	sp_cli_json_string(stdout, c->comm ? sp_model_str(m, c->comm)
					   : sp_model_comm(m, w->pid));
	printf(", \"class\": \"%s\", \"placement\": \"%s\", \"cpu\": %d, \"prev_cpu\": %d"
	       ", \"target_cpu\": %d, \"prev_idle\": %s",
	       w->wait_class == SP_WAIT_WAKEUP ? "wakeup" : "preempt",
	       sp_placement_name(sp_placement_of(w)), w->cpu, w->prev_cpu, w->target_cpu,
	       w->prev_idle ? "true" : "false");
	/* a pid is a number; an interrupt, a string */
	printf(", \"waker\": %s%s%s, \"waker_comm\": ", w->waker < SP_WAKER_NONE ? "\"" : "",
	       waker, w->waker < SP_WAKER_NONE ? "\"" : "");
	if (w->waker > 0)
		sp_cli_json_string(stdout, c->waker_comm ? sp_model_str(m, c->waker_comm)
							 : sp_model_comm(m, w->waker));
	else
		printf("null");
	printf(", \"waker_cpu\": %d, \"score_ns\": %" PRIu64, w->waker_cpu, c->score);
	json_ts("last_ran_end_ns", c->last_ran_ns);
	json_ts("prev_busy_end_ns", c->prev_busy_end_ns);
	printf(", \"prev_busy_end_exact\": %s", c->prev_idle_exact ? "true" : "false");
	printf(", \"prev_last_other\": ");
	if (c->prev_last_other.pid > 0) {
		const struct sp_explain_run *k = &c->prev_last_other;

		printf("{\"pid\": %d, \"comm\": ", k->pid);
		sp_cli_json_string(stdout, k->comm ? sp_model_str(m, k->comm)
						   : sp_model_comm(m, k->pid));
		printf(", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 "}", k->start_ns,
		       k->end_ns);
	} else {
		printf("null");
	}
	printf(", \"migration\": ");
	if (c->mig_ns != SP_NO_TS)
		printf("{\"ts_ns\": %" PRIu64 ", \"from_cpu\": %d, \"to_cpu\": %d}", c->mig_ns,
		       c->mig_from, c->mig_to);
	else
		printf("null");
	printf(", \"behind\": [");
	for (int i = 0; i < c->nr_behind; i++) {
		printf("%s{\"pid\": %d, \"comm\": ", i ? ", " : "", c->behind[i].pid);
		sp_cli_json_string(stdout, c->behind[i].comm ? sp_model_str(m, c->behind[i].comm)
							     : sp_model_comm(m, c->behind[i].pid));
		printf(", \"ns\": %" PRIu64 "}", c->behind[i].ns);
	}
	printf("], \"behind_other_ns\": %" PRIu64, c->behind_other_ns);
	json_ts("next_run_end_ns", c->next_end_ns);
	printf(", \"idle_while_waiting_ns\": %" PRIu64 ", \"idle_cpu\": %d, \"idle_cpu_ns\": %"
	       PRIu64, c->iww_ns, c->idle_cpu, c->idle_cpu >= 0 ? c->idle_cpu_ns : 0);
	printf(",\n     \"window\": {\"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 "}",
	       c->t0_ns, c->t1_ns);
	printf(", \"cpus\": [");
	for (int i = 0; i < c->nr_rows; i++) {
		printf("%s{\"cpu\": %d, \"roles\": ", i ? ", " : "", c->rows[i].cpu);
		json_roles(c->rows[i].roles);
		putchar('}');
	}
	printf("],\n     \"title\": ");
	sp_cli_json_string(stdout, wd.title);
	printf(", \"words\": [");
	for (int k = 0; k < wd.nr_lines; k++) {
		printf("%s", k ? ", " : "");
		sp_cli_json_string(stdout, wd.lines[k]);
	}
	printf("],\n     \"context\": ");
	sp_cli_json_string(stdout, context_command(cmd, sizeof(cmd), c, run->opts.traces[0]));
	printf("}");
}

static void print_json(const struct sp_view_run *run, const struct explain_run *v)
{
	const struct sp_explain *x = &v->x;

	printf("{\n  \"file\": ");
	sp_cli_json_string(stdout, run->opts.traces[0]);
	printf(",\n  \"what\": \"%s\",\n  \"candidates\": %" PRIu64 ",\n  \"decisions\": [",
	       sp_explain_what_name(x->what), x->nr_candidates);
	for (size_t i = 0; i < x->nr_cases; i++) {
		printf("%s\n", i ? "," : "");
		print_case_json(run, &x->cases[i], i + 1);
	}
	printf("\n  ]\n}\n");
	(void)json_task;
}

static void figure_settings(struct sp_view_run *run, struct sp_explain_figure *fig)
{
	const struct sp_view_opts *o = &run->opts;
	struct explain_run *v = run->data;

	memset(fig, 0, sizeof(*fig));
	fig->theme = &run->theme;
	fig->palette = o->palette ? sp_palette_by_name(o->palette) : NULL;
	fig->model = &run->trace.model;
	fig->format = o->format;
	fig->width = run->width;
	fig->pages = o->format == SP_FORMAT_PDF && v->x.nr_cases > 1;
	fig->columns = grid_columns(run);
	fig->words = true;
}

static int explain_finish(struct sp_view_run *run)
{
	struct explain_run *v = run->data;
	bool to_stdout = run->opts.output && !strcmp(run->opts.output, "-");
	struct sp_explain_figure fig;
	double h;

	if (run->opts.json)
		print_json(run, v);
	else if (!to_stdout)
		print_text(run, v);
	if (fflush(stdout) || ferror(stdout))
		return sp_cli_fail(NULL, "cannot write the output");
	if (run->no_image)
		return SP_EXIT_OK;
	if (!v->x.nr_cases)
		return sp_cli_fail(run->opts.traces[0], "no decision to draw: none of %s in the "
				   "window%s", what_words(v->x.what),
				   v->x.what == SP_EXPLAIN_PLACEMENT ? " (try --what wait)" : "");
	figure_settings(run, &fig);
	h = sp_explain_figure_height(&fig, v->x.cases, v->x.nr_cases);
	if (!(h > 0))
		return sp_cli_usage("explain", "--width %g leaves no room for the figure",
				    run->width);
	run->height = fmin(ceil(h), SP_OUTPUT_MAX_PX);
	return SP_EXIT_OK;
}

static int explain_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct explain_run *v = run->data;
	struct sp_explain_figure fig;
	int ret;

	figure_settings(run, &fig);
	ret = sp_explain_figure_draw(cr, &fig, v->x.cases, v->x.nr_cases);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot draw the decisions");
	return SP_EXIT_OK;
}

static void explain_release(struct sp_view_run *run)
{
	struct explain_run *v = run->data;

	sp_explain_release(&v->x);
	sp_antagonists_release(&v->hist);
}

static const struct sp_opt explain_options[] = {
	SP_OPT_WORDS("input", "the trace to read (default: trace.dat); or name it"),
	{ "what", SP_VOPT_WHAT, required_argument, "KIND", "Decisions",
	  "the decisions ranked (default: placement):\n"
	  "placement  wakeups that left an idle previous CPU, longest wait first\n"
	  "wait       every wait for a CPU, longest first\n"
	  "migration  waits that ended on another CPU than the task's previous one, "
	  "longest first\n"
	  "idle-while-waiting  waits by the time a CPU idled during them" },
	{ "top", SP_VOPT_TOP, required_argument, "N", "Decisions",
	  "explain the N worst (default 1): a grid of figures, or one page each in a PDF" },
	{ "at", SP_VOPT_AT, required_argument, "TIME", "Decisions",
	  "the wait of --task going on at TIME (the trace's own seconds), else the one "
	  "that began nearest to it" },
	{ "task", SP_VOPT_TASK, required_argument, "PID", "Decisions", "the task of --at" },
	SP_OPTS_WAITS,
	SP_OPT_SHARED("output"),
	SP_OPT_WORDS("text", "print the facts only, no image"),
	SP_OPT_SHARED("json"), SP_OPT_SHARED("format"),
	SP_OPT_WORDS("width", "image width (px for PNG, default 1600; pt for PDF/SVG, default "
		     "252: one column of a paper)"),
	SP_OPT_WORDS("font-size", "base font size (default: from the width)"),
	SP_OPT_SHARED("palette"),
	{ }
};

const struct sp_view_desc sp_view_explain = {
	.cmd = {
		SP_CMD_NAMED(explain, "explain",
			     "the worst scheduler decisions, each drawn and said in words"),
		.synopsis = "[OPTIONS] TRACE.dat",
		.description =
		"The worst scheduler decisions of a trace, each drawn as a small figure that\n"
		"explains itself: only the CPUs involved (where the task ran before, its\n"
		"waker's, where it was placed, where it ran), a window scaled to the story,\n"
		"the task in color and everything else muted, the wakeup's arrow, the short\n"
		"runs that made the previous CPU look busy, and the wait that followed, in\n"
		"words on the figure.  Prints the same facts and, for each, the datagraph\n"
		"command that shows its context.\n"
		"\n"
		"Examples:\n"
		"  schedplot explain trace.dat                   the worst wakeup that left an\n"
		"                                                idle CPU: trace-explain.png\n"
		"  schedplot explain --top 4 -o worst.png trace.dat   four, as a grid\n"
		"  schedplot explain --top 4 -o worst.pdf trace.dat   one page each\n"
		"  schedplot explain --what wait --text trace.dat     the longest wait, in words\n"
		"  schedplot explain --at 436.5012 --task 6871 trace.dat\n"
		"  schedplot explain --json --top 10 trace.dat        for a script\n"
		"\n",
		.parse = explain_parse,
	},
	.data_size = sizeof(struct explain_run),
	.may_start_over = true,
	.parsed = explain_parsed,
	.size = explain_size,
	SP_VIEW_HOOKS(explain),
	.trace_done = explain_trace_done,
	.draw = explain_draw,
};
