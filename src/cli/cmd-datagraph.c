// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot datagraph: the core-by-time chart.  One row per CPU, time left
 * to right, each row colored by the task running, white where idle.
 */
#include <errno.h>
#include <stdlib.h>

#include "schedplot/cli/cli.h"
#include "schedplot/analysis/fieldkey.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewchart.h"
#include "schedplot/cli/viewmarks.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/runlist.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-marks.h"

static const struct sp_opt datagraph_options[] = {
	SP_OPT_SHARED("input"), SP_OPTS_WINDOW, SP_OPT_SHARED("min-at"),
	SP_OPT_WORDS("cpus", "CPUs to draw, e.g. 0-15,32-47 (default all)"),
	SP_OPT_WORDS("target", "keep the colors of these commands (glob patterns) or thread ids "
		     "(repeat or separate with commas), others black"),
	SP_OPT_SHARED("target-process"), SP_OPT_SHARED("target-tree"),
	SP_OPTS_IMAGE,
	SP_OPT_WORDS("color-by", "pid (default: every thread its own color), command, or process "
		     "(threads as their process; 'parent' is its old name); a field of the "
		     "switch-in record, such as next_prio; or EVENT[/FILTER]/FIELD[ "
		     "per=cpu|task|trace|FIELD]: the latest value of the event's field on the "
		     "run's CPU (default), of its task, or anywhere ('ftrace:print/buf "
		     "per=trace'). Numbers go dark to light, in a legend or, with many values, a "
		     "color bar"),
	SP_OPT_SHARED("palette"), SP_OPT_SHARED("aggregate"),
	SP_OPT_SHARED("colors"), SP_OPT_SHARED("colors-out"),
	SP_OPTS_ROWS, SP_OPTS_POWER, SP_OPTS_MARKS,
	{ }
};

struct datagraph_run {
	struct sp_datagraph_figure fig;
	struct sp_view_chart chart;
	struct sp_runlist runs;		/* for SVG hover titles */
	struct sp_fieldkey field;	/* --color-by FIELD */
	struct sp_colorspec color;	/* what it says */
};

/* Runs kept for SVG hover titles at most: a zoomed-in window's. */
#define DATAGRAPH_MAX_TITLED_RUNS SP_OUTPUT_SVG_MAX_TITLES

/* --color-by FIELD or EVENT/FIELD: the watch of the records whose values color. */
static int plan_field(struct sp_view_run *run, struct datagraph_run *v)
{
	struct sp_colorspec *c = &v->color;
	const char *text = run->opts.color_field;
	const char *fields[] = { c->field, NULL };
	int kind, ret;

	ret = sp_evspec_color_parse("datagraph", text, c);
	if (ret)
		return ret;
	v->field.per = c->per;
	if (c->per == SP_FIELDKEY_SWITCH_IN)
		fields[1] = "next_pid";
	else if (c->task_field[0])
		fields[1] = c->task_field;
	v->field.task_field = c->task_field[0];
	ret = sp_evspec_watch(run->trace.reader, run->trace.path, "--color-by", text, &c->ev,
			      fields, fields[1] ? 2 : 1, &v->field.watch);
	if (ret)
		return ret;
	kind = sp_reader_watch_kind(run->trace.reader, v->field.watch, 0);
	v->field.is_string = kind == SP_VALUE_STR;
	v->field.is_signed = kind == SP_VALUE_S64;
	if (fields[1] && sp_reader_watch_kind(run->trace.reader, v->field.watch, 1) ==
	    SP_VALUE_STR)
	{
		sp_cli_fail(NULL, "--color-by '%s': %s is a string, not a task's pid", text,
			    fields[1]);
		return SP_EXIT_USAGE;
	}
	return SP_EXIT_OK;
}

static int datagraph_plan(struct sp_view_run *run, struct _cairo *cr)
{
	const struct sp_view_opts *o = &run->opts;
	struct datagraph_run *v = run->data;
	struct sp_datagraph_figure *fig = &v->fig;
	int ret;

	fig->theme = &run->theme;
	fig->format = o->format;
	fig->width = run->width;
	fig->height = o->height;
	fig->title = o->title ? o->title : sp_cli_base_name(o->traces[0]);
	fig->legend = !o->no_legend;
	fig->origin_ns = o->origin_ns;
	ret = sp_datagraph_figure_plan(fig, run->rows, (unsigned int)run->nr_rows);
	if (ret == -ERANGE)
		return sp_cli_usage("datagraph", "--width %g leaves no room for the chart",
				    fig->width);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the chart");
	ret = sp_view_chart_plan(run, &v->chart, fig->nr_cols);
	if (ret)
		return ret;
	sp_runlist_init(&v->runs, o->t0_ns, o->t1_ns,
			o->format == SP_FORMAT_SVG ? DATAGRAPH_MAX_TITLED_RUNS : 0);
	if (o->color_field) {
		ret = plan_field(run, v);
		if (ret)
			return ret;
	}
	return sp_view_chart_plan_marks(run, &v->chart);
}

static void on_run_info(void *data, const struct sp_run *r)
{
	sp_runlist_add(data, r);
}

static void on_runs_reset(void *data)
{
	sp_runlist_reset(data);
}

static void datagraph_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct datagraph_run *v = run->data;
	struct sp_model_observer obs;

	sp_timeline_observer(&v->chart.tl, &obs);
	/* --color-by FIELD: the timeline is told the runs keyed by value */
	if (run->opts.color_field) {
		if (sp_fieldkey_init(&v->field, &obs, run->trace.nr_cpus))
			pass->pass.error = -ENOMEM;
		sp_fieldkey_observer(&v->field, &obs);
	}
	sp_pass_add(&pass->pass, &obs);
	if (v->runs.max_runs)	/* the runs titled in an SVG */
		sp_pass_add(&pass->pass, &(struct sp_model_observer){
			.run_info = on_run_info, .reset = on_runs_reset, .data = &v->runs });
	sp_view_chart_observe(&v->chart, pass);
}

static int datagraph_finish(struct sp_view_run *run)
{
	struct datagraph_run *v = run->data;
	struct sp_datagraph *dg = &v->chart.dg;
	struct sp_datagraph_opts dopts;
	int ret;

	ret = sp_view_chart_finish_timeline(run, &v->chart, &dopts);
	if (ret)
		return ret;
	if (run->opts.color_field) {
		if (v->field.error)
			return sp_cli_fail_code(NULL, v->field.error, "cannot key the runs by value");
		dopts.field = &v->field;
		dopts.field_name = v->color.field;
		dopts.field_title = v->color.title;
		dopts.field_unknown = v->color.unknown;
	}
	ret = sp_view_chart_color(run, &v->chart, &dopts);
	if (ret)
		return ret;
	/* -v: the time of each value, in the window, on the rows drawn */
	for (size_t k = SP_DG_NR_SPECIAL_KEYS; run->opts.color_field && k < dg->nr_keys; k++)
		sp_cli_note(run->trace.path, "colors: %s: %llu ns", dg->keys[k].label,
			    (unsigned long long)dg->keys[k].ns);
	v->fig.marks = sp_view_chart_marks(&v->chart);
	ret = sp_datagraph_figure_finish(&v->fig, dg);
	if (ret == -ERANGE)
		return sp_cli_usage("datagraph", "--height %g leaves no room for the chart",
				    v->fig.height);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot lay out the chart");
	run->height = v->fig.height;
	if (v->fig.marks)
		sp_view_marks_note(run, v->fig.marks);
	return SP_EXIT_OK;
}

static int datagraph_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct datagraph_run *v = run->data;

	sp_datagraph_figure_draw(cr, &v->fig, &v->chart.dg);
	sp_datagraph_titles(cr, &v->fig.layout.plot, &v->chart.dg, &v->runs, run->opts.origin_ns);
	return SP_EXIT_OK;
}

static void datagraph_release(struct sp_view_run *run)
{
	struct datagraph_run *v = run->data;

	sp_view_chart_release(&v->chart);
	sp_runlist_release(&v->runs);
	sp_fieldkey_release(&v->field);
	sp_evspec_color_release(&v->color);
}

const struct sp_view_desc sp_view_datagraph = {
	.cmd = {
		SP_CMD_NAMED(datagraph, "datagraph",
			     "draw every CPU over time, colored by the task running"),
		.description =
		"Draw every CPU at once: time left to right, one row per CPU, each row\n"
		"colored by the task running on it, white where the CPU is idle, hatched\n"
		"grey where the trace says nothing (before a CPU's first record).\n"
		"\n"
		"Examples:\n"
		"  schedplot datagraph trace.dat                    trace-datagraph.png\n"
		"  schedplot datagraph --min 3 --max 3.2 --target ua trace.dat -o zoom.pdf\n"
		"                                   zoom in; tasks other than ua in black\n"
		"  schedplot datagraph --topology lscpu.txt trace.dat\n"
		"                                   group CPUs by socket, first at the bottom\n"
		"                                   (traces from 'schedplot record' need no\n"
		"                                   --topology: they hold the topology)\n"
		"  schedplot datagraph --freq merged --idle-states trace.dat\n"
		"                                   CPU frequency below the tasks of each row,\n"
		"                                   idle time shaded by idle state\n"
		"\n",
		.footer = "See schedplot-datagraph(1) for how to record a suitable trace.\n",
	},
	.rows = true,
	.default_size = { SP_VIEW_TIME_WIDTHS },
	.data_size = sizeof(struct datagraph_run),
	.may_start_over = true,
	SP_VIEW_HOOKS(datagraph),
	.draw = datagraph_draw,
};
