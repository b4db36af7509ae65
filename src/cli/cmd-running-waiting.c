// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot running-waiting: how many tasks run and how many wait on a run
 * queue, over time, with the lost capacity (CPUs idle while tasks waited)
 * as a band above the running line.
 * Also the CSV file of the step functions that schedplot overview writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/rwgraph.h"

/* ---- the --csv output of running-waiting and overview (sp_cli_csv_open(), cli.c) ---- */

static int csv_open(struct sp_view_run *run)
{
	if (!run->opts.csv)
		return SP_EXIT_OK;
	return sp_cli_csv_open(&run->csv, run->opts.csv, run->opts.traces[0], run->path);
}

static int csv_close(struct sp_view_run *run, bool commit)
{
	return sp_cli_csv_close(&run->csv, commit);
}

const struct sp_view_extra sp_view_csv = {
	.open = csv_open,
	.close = csv_close,
};

/* ---- the graph, also overview's ---- */

void sp_view_rw_style(struct sp_view_run *run, struct sp_model_filter *filter,
		      struct sp_rwgraph_style *style)
{
	const struct sp_view_opts *o = &run->opts;

	style->nr_cpus = sp_view_opts_filter(filter, &run->opts);
	style->shade = !o->no_shade;
	style->pixels = o->format == SP_FORMAT_PNG;
	style->complete_ns = run->trace.window_start_ns > o->t0_ns ?
			     run->trace.window_start_ns : 0;
	style->counting = sp_view_opts_counting(&run->opts);
}

int sp_view_rw_collect(struct sp_view_run *run, struct sp_rw_collect *rw,
		       const struct sp_rect *plot, const struct sp_rwgraph_style *style)
{
	const struct sp_view_opts *o = &run->opts;
	int ret;

	ret = sp_rw_collect_init(rw, o->t0_ns, o->t1_ns,
				 sp_rwgraph_nr_cols(plot, style, o->t0_ns, o->t1_ns),
				 style->nr_cpus, run->trace.window_start_ns, run->csv.fp);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot set up the graph's columns");
	rw->csv_origin_ns = run->trace.first_ns;
	return SP_EXIT_OK;
}

/* ---- the view ---- */

struct rw_run {
	struct sp_rwgraph_figure fig;
	struct sp_layout lay;
	struct sp_rw_collect rw;
	struct sp_model_filter filter;
	enum sp_rwgraph_panels panels;		/* --layout */
	enum sp_rwgraph_shade shade_kind;	/* --shade */
	char aside[96];				/* the note's, when targets kept to one CPU */
};

static int rw_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	static const char *const layouts[] = { "auto", "single", "split", NULL };
	static const enum sp_rwgraph_panels panels[] = {
		SP_RWGRAPH_PANELS_AUTO, SP_RWGRAPH_PANELS_SINGLE, SP_RWGRAPH_PANELS_SPLIT,
	};
	static const char *const shades[] = { "lost", "columns", NULL };
	static const enum sp_rwgraph_shade shade_kinds[] = {
		SP_RWGRAPH_SHADE_LOST, SP_RWGRAPH_SHADE_COLUMNS,
	};
	struct rw_run *v = ctx->own;
	int choice;

	if (opt == SP_VOPT_LAYOUT) {
		if (sp_cli_parse_choice("running-waiting", "layout", arg, layouts, &choice))
			return SP_EXIT_USAGE;
		v->panels = panels[choice];
		return 0;
	}
	if (sp_cli_parse_choice("running-waiting", "shade", arg, shades, &choice))
		return SP_EXIT_USAGE;
	v->shade_kind = shade_kinds[choice];
	return 0;
}

static int rw_plan(struct sp_view_run *run, struct _cairo *cr)
{
	const struct sp_view_opts *o = &run->opts;
	struct rw_run *v = run->data;
	struct sp_rwgraph_figure *fig = &v->fig;

	sp_view_rw_style(run, &v->filter, &fig->style);
	fig->style.shade_kind = v->shade_kind;
	fig->style.panels = v->panels;
	fig->title = o->title ? o->title : sp_cli_base_name(o->traces[0]);
	fig->legend = !o->no_legend;
	fig->t0_ns = o->t0_ns;
	fig->t1_ns = o->t1_ns;
	fig->origin_ns = o->origin_ns;
	fig->shade_fraction = o->no_shade ? -1 : 0;
	if (sp_rwgraph_layout(&v->lay, cr, &run->theme, fig, run->out.width, run->out.height))
		return sp_cli_usage("running-waiting", "a %gx%g image leaves no room for the "
				    "graph at this font size; give a larger --width/--height",
				    run->width, run->height);
	return sp_view_rw_collect(run, &v->rw, &v->lay.plot, &fig->style);
}

static void rw_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct rw_run *v = run->data;

	SP_PASS_OBSERVE(&pass->pass, sp_rw_collect_observer, &v->rw);
	pass->filter = &v->filter;
}

static int rw_finish(struct sp_view_run *run)
{
	struct rw_run *v = run->data;
	int cpu;

	if (sp_rw_collect_finish(&v->rw))
		return sp_cli_fail(run->opts.csv, "cannot write the CSV file: %s",
				   strerror(v->rw.csv_errno));
	if (!run->opts.no_shade)
		v->fig.shade_fraction = sp_rw_collect_shade_fraction(&v->rw);
	/* lost capacity counts CPUs the targets may have been kept from */
	cpu = v->fig.style.nr_cpus > 1 ? sp_view_opts_one_cpu(&run->opts, &run->trace.model) : -1;
	if (cpu >= 0) {
		snprintf(v->aside, sizeof(v->aside), "every run on CPU %d: affinity is not in the "
			 "trace", cpu);
		v->fig.style.aside = v->aside;
	}
	return SP_EXIT_OK;
}

static int rw_draw(struct sp_view_run *run, struct _cairo *cr)
{
	struct rw_run *v = run->data;

	if (sp_rwgraph_figure_draw(cr, &run->theme, &v->fig, &v->lay, &v->rw.env))
		return sp_cli_fail(NULL, "cannot draw the time axis of this window");
	return SP_EXIT_OK;
}

static void rw_release(struct sp_view_run *run)
{
	struct rw_run *v = run->data;

	sp_rw_collect_release(&v->rw);
}

static const struct sp_opt rw_options[] = {
	SP_OPT_SHARED("input"), SP_OPTS_WINDOW,
	SP_OPT_WORDS("cpus", "count only these CPUs and the tasks on them (0-3,8)"),
	SP_OPT_WORDS("target", "count only tasks with this command (glob) or thread id (repeat "
		     "or separate with commas)"),
	SP_OPT_WORDS("target-process", "count only the threads of these processes"),
	SP_OPT_SHARED("target-tree"),
	SP_OPT_SHARED("output"), SP_OPT_SHARED("format"), SP_OPT_SHARED("width"),
	SP_OPT_WORDS("height", "image height (default 500 px, 260 pt)"),
	SP_OPT_SHARED("title"), SP_OPT_SHARED("no-legend"),
	SP_OPT_SHARED("font-size"), SP_OPT_SHARED("no-shade"),
	{ "shade", SP_VOPT_SHADE, required_argument, "KIND", "Output",
	  "lost (default): the band above running; columns: each column shaded where a "
	  "task waited while a CPU idled (reads on small machines only)" },
	{ "layout", SP_VOPT_LAYOUT, required_argument, "LAYOUT", "Output",
	  "single, split (waiting in a panel of its own) or auto (default: split when the "
	  "scales differ 10x)" },
	SP_OPT_SHARED("csv"),
	{ }
};

const struct sp_view_desc sp_view_running_waiting = {
	.cmd = {
		SP_CMD_NAMED(rw, "running-waiting",
			     "draw how many tasks run and how many wait, over time"),
		.description =
		"Draw how many tasks run (green, thick) and how many wait on a run queue\n"
		"(red, thin) over time, with a dotted line at the number of CPUs.  Every\n"
		"pixel column shows the smallest and largest value inside it, so short\n"
		"spikes stay visible.  Orange, above the green: lost capacity, CPUs that\n"
		"idled while a task waited (work conservation violated).\n"
		"\n"
		"Examples:\n"
		"  schedplot running-waiting trace.dat                  trace-running-waiting.png\n"
		"  schedplot running-waiting -o rw.pdf --min 3 --max 3.2 trace.dat\n"
		"  schedplot running-waiting --csv rw.csv trace.dat     also the numbers\n"
		"\n",
		.parse = rw_parse,
	},
	.default_size = { SP_VIEW_TIME_WIDTHS, .png_height = 500, .vec_height = 260 },
	.data_size = sizeof(struct rw_run),
	.may_start_over = true,
	SP_VIEW_HOOKS(rw),
	.draw = rw_draw,
	.extra = &sp_view_csv,
};
