// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot overview: the datagraph on top and the running/waiting graph
 * below it, on one time axis, from one pass over the trace.
 *
 * The figure is laid out and drawn by views/overview.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewchart.h"
#include "schedplot/cli/viewmarks.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/overview.h"
#include "schedplot/views/datagraph-marks.h"
#include "schedplot/views/rwgraph.h"

static const struct sp_opt overview_options[] = {
	SP_OPT_SHARED("input"), SP_OPTS_WINDOW, SP_OPT_SHARED("min-at"),
	SP_OPT_WORDS("cpus", "draw and count only these CPUs (0-3,8)"),
	SP_OPT_WORDS("target", "these commands (glob) or thread ids keep their colors, others "
		     "are black, and only they are counted as running or waiting"),
	SP_OPT_SHARED("target-process"), SP_OPT_SHARED("target-tree"),
	SP_OPT_SHARED("output"), SP_OPT_SHARED("format"), SP_OPT_SHARED("width"),
	SP_OPT_WORDS("height", "image height (default: from the number of CPUs)"),
	SP_OPT_SHARED("title"),
	SP_OPT_WORDS("no-legend", "leave out the legends"),
	SP_OPT_SHARED("font-size"), SP_OPT_SHARED("no-shade"),
	SP_OPT_WORDS("csv", "also write running/waiting: time_ns,running,waiting,lost (time_ns "
		     "after the '# start_ns=N' first line); '-': standard output"),
	SP_OPTS_COLORS, SP_OPTS_ROWS, SP_OPTS_POWER,
	SP_OPT_SHARED("migrations"), SP_OPT_SHARED("wakeups"),
	SP_OPT_SHARED("placement"), SP_OPT_SHARED("events"),
	SP_OPT_WORDS("mark", "a shape where each record of EVENT that passes FILTER (trace-cmd "
		     "report -F) fired"),
	SP_OPT_SHARED("span"),
	{ }
};

struct overview_run {
	struct sp_overview_figure fig;
	struct sp_view_chart chart;
	struct sp_rw_collect rw;
	struct sp_model_filter filter;
};

static int overview_plan(struct sp_view_run *run, struct _cairo *cr)
{
	const struct sp_view_opts *o = &run->opts;
	struct overview_run *v = run->data;
	struct sp_overview_figure *fig = &v->fig;
	int ret;

	fig->theme = &run->theme;
	sp_view_rw_style(run, &v->filter, &fig->style);
	fig->legend = !o->no_legend;
	fig->note = !o->no_shade;
	fig->title = o->title ? o->title : sp_cli_base_name(o->traces[0]);
	fig->width = run->width;
	fig->height = o->height;
	fig->origin_ns = o->origin_ns;
	ret = sp_overview_figure_plan(fig, run->rows, (unsigned int)run->nr_rows);
	if (ret == -ERANGE)
		return sp_cli_usage("overview", "--width %g leaves no room for the graphs",
				    fig->width);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the figure");

	/* one pass: runs to the timeline, steps to the envelope, stats and CSV */
	ret = sp_view_chart_plan(run, &v->chart, fig->nr_cols);
	if (ret)
		return ret;
	ret = sp_view_rw_collect(run, &v->rw, &fig->plot, &fig->style);
	if (ret)
		return ret;
	return sp_view_chart_plan_marks(run, &v->chart);
}

static void overview_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct overview_run *v = run->data;

	SP_PASS_OBSERVE(&pass->pass, sp_rw_collect_observer, &v->rw);
	SP_PASS_OBSERVE(&pass->pass, sp_timeline_observer, &v->chart.tl);
	pass->filter = &v->filter;
	sp_view_chart_observe(&v->chart, pass);
}

static int overview_finish(struct sp_view_run *run)
{
	struct overview_run *v = run->data;
	struct sp_datagraph_opts dopts;
	int ret;

	ret = sp_view_chart_finish_timeline(run, &v->chart, &dopts);
	if (ret)
		return ret;
	if (sp_rw_collect_finish(&v->rw))
		return sp_cli_fail(run->opts.csv, "cannot write the CSV file: %s",
				   strerror(v->rw.csv_errno));
	ret = sp_view_chart_color(run, &v->chart, &dopts);
	if (ret)
		return ret;
	v->fig.marks = sp_view_chart_marks(&v->chart);
	if (v->fig.marks)
		sp_view_marks_note(run, v->fig.marks);
	ret = sp_overview_figure_finish(&v->fig, &v->chart.dg, (unsigned int)run->nr_rows);
	if (ret == -ERANGE)
		return sp_cli_usage("overview", "a %gx%g image leaves no room for the graphs; "
				    "give a larger --height", v->fig.width, v->fig.height);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the figure");
	run->height = v->fig.height;
	return SP_EXIT_OK;
}

static int overview_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct overview_run *v = run->data;

	if (sp_overview_figure_draw(cr, &v->fig, &v->chart.dg, &v->rw))
		return sp_cli_fail(NULL, "cannot draw the time axis of this window");
	return SP_EXIT_OK;
}

static void overview_release(struct sp_view_run *run)
{
	struct overview_run *v = run->data;

	sp_overview_figure_release(&v->fig);
	sp_view_chart_release(&v->chart);
	sp_rw_collect_release(&v->rw);
}

const struct sp_view_desc sp_view_overview = {
	.cmd = {
		SP_CMD_NAMED(overview, "overview",
			     "the datagraph and running-waiting on one time axis"),
		.description =
		"One figure for a paper or a bug report: the datagraph (one row per CPU,\n"
		"colored by the task running) on top, and below it how many tasks run and\n"
		"how many wait, on the same time axis.\n"
		"\n"
		"Examples:\n"
		"  schedplot overview trace.dat                       trace-overview.png\n"
		"  schedplot overview --min 3 --max 3.2 --target ua -o zoom.pdf trace.dat\n"
		"  schedplot overview --freq merged trace.dat   CPU frequency below the tasks\n"
		"\n",
	},
	.rows = true,
	.default_size = { SP_VIEW_TIME_WIDTHS },
	.data_size = sizeof(struct overview_run),
	.may_start_over = true,
	SP_VIEW_HOOKS(overview),
	.draw = overview_draw,
	.extra = &sp_view_csv,
};
