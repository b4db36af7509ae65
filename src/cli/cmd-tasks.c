// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot tasks: the task-by-time chart.  One row per task, time left to
 * right, colored by the CPU the task ran on, hatched red where it waited
 * for a CPU, white where it slept.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/analysis/chain.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/palette.h"
#include "schedplot/model/taskline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/tasks.h"

#define TASKS_DEFAULT_TOP 32

/*
 * Runs kept for the SVG hover titles, of all tasks (the rows are known only
 * after the pass): a few times the titles an image may have, about 2 MB.
 */
#define TASKS_MAX_TITLED_RUNS (4 * SP_OUTPUT_SVG_MAX_TITLES)

struct tasks_run {
	struct sp_tasks_figure fig;
	struct sp_taskline tl;
	struct sp_tasks_chart ch;
	size_t top;
	bool has_top;
	enum sp_tasks_sort sort;
	struct sp_spans spans;		/* --span */
	/* --long-pole: the runs of every CPU and the targets' chains */
	bool long_pole;
	struct sp_antagonists hist;
	struct sp_chain chain;
	bool chained;
	struct sp_behind_entry *chain_ns;
	size_t nr_chain_ns;
};

static int tasks_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	static const char *const sorts[] = { "run", "wait", "pid", "start", NULL };
	struct tasks_run *v = ctx->own;
	unsigned long n;
	char *end;
	int choice;

	switch (opt) {
	case SP_VOPT_TOP:
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || *end || end == arg || arg[0] == '-' || n > 100000)
			return sp_cli_usage("tasks", "--top needs a count up to 100000, not '%s'",
					    arg);
		v->top = n;
		v->has_top = true;
		return 0;
	case SP_VOPT_LONG_POLE:
		v->long_pole = true;
		return 0;
	case SP_VOPT_SORT:
		if (sp_cli_parse_choice("tasks", "sort", arg, sorts, &choice))
			return SP_EXIT_USAGE;
		v->sort = (enum sp_tasks_sort)choice;
		return 0;
	default:
		return sp_cli_usage("tasks", "unknown option");
	}
}

static int tasks_plan(struct sp_view_run *run, struct _cairo *cr)
{
	const struct sp_view_opts *o = &run->opts;
	struct tasks_run *v = run->data;
	struct sp_tasks_figure *fig = &v->fig;
	int ret;

	(void)cr;
	fig->theme = &run->theme;
	fig->format = o->format;
	fig->width = run->width;
	fig->height = o->height;
	fig->title = o->title ? o->title : sp_cli_base_name(o->traces[0]);
	fig->legend = !o->no_legend;
	fig->origin_ns = o->origin_ns;
	ret = sp_tasks_figure_plan(fig);
	if (ret == -ERANGE)
		return sp_cli_usage("tasks", "--width %g leaves no room for the chart", fig->width);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the chart");
	ret = sp_taskline_init(&v->tl, o->t0_ns, o->t1_ns, fig->nr_cols, o->cpus, o->nr_cpus,
			       o->format == SP_FORMAT_SVG ? TASKS_MAX_TITLED_RUNS : 0);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot set up the task lines");
	sp_taskline_set_rule(&v->tl, o->aggregate);
	if (o->nr_spans) {
		ret = sp_evspec_plan(run->trace.reader, run->trace.path, o, &v->spans, false);
		if (ret)
			return ret;
		if (sp_spans_init(&v->spans, &o->scope, run->trace.reader, run->trace.nr_cpus))
			return sp_cli_fail(NULL, "out of memory");
		/* a column apart is one bar */
		sp_spans_keep(&v->spans, o->t0_ns, o->t1_ns,
			      (o->t1_ns - o->t0_ns) / (fig->nr_cols ? fig->nr_cols : 1));
	}
	if (v->long_pole) {
		if (!sp_view_opts_has_targets(o))
			return sp_cli_usage("tasks", "--long-pole needs --target or --target-process "
					    "(the tasks whose chains are followed)");
		if (sp_antagonists_init(&v->hist, run->trace.nr_cpus))
			return sp_cli_fail(NULL, "out of memory");
		sp_chain_init(&v->chain, &v->hist, &o->scope, true);
		v->chained = true;
	}
	return SP_EXIT_OK;
}

static void tasks_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct tasks_run *v = run->data;

	SP_PASS_OBSERVE(&pass->pass, sp_taskline_observer, &v->tl);
	if (v->spans.nr_kinds)
		SP_PASS_OBSERVE(&pass->pass, sp_spans_observer, &v->spans);
	if (v->chained) {
		SP_PASS_OBSERVE(&pass->pass, sp_antagonists_observer, &v->hist);
		SP_PASS_OBSERVE(&pass->pass, sp_chain_observer, &v->chain);
	}
}

static bool is_target(void *data, int pid, const char *comm)
{
	return sp_view_opts_is_target(data, pid, comm);
}

static int tasks_finish(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;
	struct tasks_run *v = run->data;
	struct sp_tasks_opts topts;
	int ret;

	if (v->tl.error)
		return sp_cli_fail_code(NULL, v->tl.error, "cannot keep the task lines");
	memset(&topts, 0, sizeof(topts));
	topts.top = v->has_top ? v->top : sp_view_opts_has_targets(o) ? 0 : TASKS_DEFAULT_TOP;
	topts.sort = v->sort;
	topts.origin_ns = o->origin_ns;
	topts.palette = sp_palette_by_name(o->palette);
	if (sp_view_opts_has_targets(o)) {
		topts.is_target = is_target;
		topts.target_data = (void *)o;
	}
	topts.cpus = run->rows;
	topts.cpu_socket = run->row_socket;
	topts.nr_key_cpus = run->nr_rows;
	topts.nr_cpus = run->trace.nr_cpus;
	if (v->spans.nr_kinds) {
		ret = sp_spans_finish(&v->spans);
		if (ret)
			return sp_cli_fail_code(NULL, ret, "cannot keep the spans");
		topts.spans = &v->spans;
	}
	if (v->chained) {
		sp_chain_finish(&v->chain);
		v->chain_ns = sp_behind_table_sorted(&v->chain.ns, &v->nr_chain_ns);
		if (v->hist.error || v->chain.error || (!v->chain_ns && v->chain.ns.nr))
			return sp_cli_fail(NULL, "out of memory keeping the targets' chains");
		topts.chain = &v->chain;
		topts.chain_ns = v->chain_ns;
		topts.nr_chain_ns = v->nr_chain_ns;
	}
	ret = sp_tasks_init(&v->ch, &v->tl, &run->trace.model, &topts);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot pick the tasks");
	ret = sp_tasks_figure_finish(&v->fig, &v->ch);
	if (ret == -ERANGE)
		return sp_cli_usage("tasks", "--height %g leaves no room for the chart",
				    v->fig.height);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the chart");
	run->height = v->fig.height;
	return SP_EXIT_OK;
}

static int tasks_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct tasks_run *v = run->data;

	sp_tasks_figure_draw(cr, &v->fig, &v->ch);
	return SP_EXIT_OK;
}

static void tasks_release(struct sp_view_run *run)
{
	struct tasks_run *v = run->data;

	sp_tasks_release(&v->ch);
	sp_taskline_release(&v->tl);
	sp_spans_release(&v->spans);
	free(v->chain_ns);
	sp_chain_release(&v->chain);
	sp_antagonists_release(&v->hist);
}

static const struct sp_opt tasks_options[] = {
	SP_OPT_SHARED("input"), SP_OPTS_WINDOW,
	SP_OPT_WORDS("cpus", "count and draw only the runs on these CPUs"),
	SP_OPT_WORDS("target", "only these commands (glob patterns) or thread ids (repeat or "
		     "separate with commas), all unless --top"),
	SP_OPT_WORDS("target-process", "only the threads of these processes (by leader)"),
	SP_OPT_SHARED("target-tree"),
	{ "top", SP_VOPT_TOP, required_argument, "N", "Rows",
	  "the N tasks with most run time in the window (default 32; 0: all)" },
	{ "sort", SP_VOPT_SORT, required_argument, "KEY", "Rows",
	  "row order, first at the top: run (most run time, default), wait (most wait "
	  "time), pid, or start (first seen running or waiting)" },
	{ "long-pole", SP_VOPT_LONG_POLE, no_argument, NULL, "Rows",
	  "mark each row's long pole, what the task waited on most besides running (a CPU "
	  "held by a task, a wakeup from a task or an interrupt), as stats --target names "
	  "it: a bar along the row, its name over the longest; needs --target" },
	SP_OPT_SHARED("palette"),
	SP_OPT_WORDS("aggregate", "how a pixel column of a row is colored: share (default: the "
		     "CPU it ran on longest, paler the less of the column it ran; waiting "
		     "hatched as strong as its share) or longest (whatever held it longest, "
		     "sleep included)"),
	SP_OPT_WORDS("cpu-order", "numeric or socket: the order of the CPU key"),
	SP_OPT_SHARED("topology"),
	SP_OPT_SHARED("output"), SP_OPT_SHARED("format"), SP_OPT_SHARED("width"),
	SP_OPT_WORDS("height", "image height (default: grows with the rows)"),
	SP_OPT_SHARED("title"),
	SP_OPT_WORDS("no-legend", "leave out the CPU key"),
	SP_OPT_SHARED("font-size"),
	SP_OPT_WORDS("span", "a bar along the row of the task that began each span (the start "
		     "record's common_pid), e.g. "
		     "'syscalls:sys_enter_futex..syscalls:sys_exit_futex key=common_pid'; may be "
		     "repeated"),
	{ }
};

const struct sp_view_desc sp_view_tasks = {
	.cmd = {
		SP_CMD_NAMED(tasks, "tasks",
			     "draw every busy task over time, colored by the CPU it ran on"),
		.description =
		"Draw the busiest tasks, one row each: time left to right, each row\n"
		"colored by the CPU the task ran on (a color per CPU, a hue per socket\n"
		"when the topology is known), hatched red where it waited for a CPU,\n"
		"white where it slept.  A change of color along a row is a migration.\n"
		"\n"
		"Examples:\n"
		"  schedplot tasks trace.dat                        trace-tasks.png\n"
		"  schedplot tasks --target 'stress*' --sort start trace.dat\n"
		"  schedplot tasks --min 2 --max 2.01 trace.dat -o zoom.svg\n"
		"                                   hover a run in a browser to name it\n"
		"\n",
		.parse = tasks_parse,
	},
	.rows = true,
	.default_size = { SP_VIEW_TIME_WIDTHS },
	.data_size = sizeof(struct tasks_run),
	.may_start_over = true,
	SP_VIEW_HOOKS(tasks),
	.draw = tasks_draw,
};
