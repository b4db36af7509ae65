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
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/palette.h"
#include "schedplot/model/taskline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/tasks.h"

static const char tasks_usage[] =
	"usage: schedplot tasks [OPTIONS] [TRACE.dat]\n"
	"\n"
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
	"\n"
	"Options:\n"
	"  -i, --input FILE        the trace to read (default: trace.dat)\n"
	"  -o, --output FILE       image to write: .png, .pdf or .svg (default\n"
	"                          TRACE-tasks.png here; - for standard output)\n"
	"      --format FMT        png, pdf or svg, whatever the name says\n"
	"      --min TIME          start the window TIME after the trace start\n"
	"      --max TIME          end the window TIME after the trace start\n"
	"      --time START,END    the window in the trace's own timestamps (seconds)\n"
	"                          TIME: seconds, or 100ms, 250us, 2s, 300ns\n"
	"      --cpus LIST         count and draw only the runs on these CPUs\n"
	"      --target COMM|PID   only these commands (glob patterns) or thread ids\n"
	"                          (repeat or separate with commas), all unless --top\n"
	"      --target-process PID|COMM\n"
	"                          only the threads of these processes (by leader)\n"
	"      --target-tree PID|COMM\n"
	"                          the same for these tasks and all they forked, exec\n"
	"                          or not, at any depth (trace-cmd record -c)\n"
	"      --top N             the N tasks with most run time in the window\n"
	"                          (default 32; 0: all)\n"
	"      --sort KEY          row order, first at the top: run (most run time,\n"
	"                          default), wait (most wait time), pid, or start\n"
	"                          (first seen running or waiting)\n"
	"      --palette NAME      default, colorblind or grey\n"
	"      --aggregate RULE    how a pixel column of a row is colored: share\n"
	"                          (default: the CPU it ran on longest, paler the\n"
	"                          less of the column it ran; waiting hatched as\n"
	"                          strong as its share) or longest\n"
	"                          (whatever held it longest, sleep included)\n"
	"      --cpu-order ORDER   numeric or socket: the order of the CPU key\n"
	"      --topology FILE     output of 'lscpu -p' run on the traced machine,\n"
	"                          used instead of the trace's own topology\n"
	"      --width N           image width: pixels for PNG (default 1600),\n"
	"                          points for PDF and SVG (default 720)\n"
	"      --height N          image height (default: grows with the rows)\n"
	"      --title TEXT        title above the chart (default: the trace's\n"
	"                          name; --title '' for none)\n"
	"      --no-legend         leave out the CPU key\n"
	"      --font-size N       base font size, pixels or points (default 11)\n"
	"  -v, --verbose           list what was repaired or lost in the trace (the\n"
	"                          first 10 of each with CPU and time; -vv: all)\n"
	"  -q, --quiet             no progress line and no warnings\n"
	"  -h, --help              show this help\n"
	"\n"
	"See schedplot-tasks(1).\n";

static const struct option tasks_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, SP_VOPT_FORMAT },
	{ "min", required_argument, NULL, SP_VOPT_MIN },
	{ "max", required_argument, NULL, SP_VOPT_MAX },
	{ "time", required_argument, NULL, SP_VOPT_TIME },
	{ "cpus", required_argument, NULL, SP_VOPT_CPUS },
	{ "target", required_argument, NULL, SP_VOPT_TARGET },
	{ "target-process", required_argument, NULL, SP_VOPT_TARGET_PROCESS },
	{ "target-tree", required_argument, NULL, SP_VOPT_TARGET_TREE },
	{ "top", required_argument, NULL, SP_VOPT_TOP },
	{ "sort", required_argument, NULL, SP_VOPT_SORT },
	{ "width", required_argument, NULL, SP_VOPT_WIDTH },
	{ "height", required_argument, NULL, SP_VOPT_HEIGHT },
	{ "title", required_argument, NULL, SP_VOPT_TITLE },
	{ "no-legend", no_argument, NULL, SP_VOPT_NO_LEGEND },
	{ "font-size", required_argument, NULL, SP_VOPT_FONT_SIZE },
	{ "palette", required_argument, NULL, SP_VOPT_PALETTE },
	{ "aggregate", required_argument, NULL, SP_VOPT_AGGREGATE },
	{ "cpu-order", required_argument, NULL, SP_VOPT_CPU_ORDER },
	{ "topology", required_argument, NULL, SP_VOPT_TOPOLOGY },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
};

static int tasks_parse(struct sp_view_run *run, int opt, const char *arg)
{
	static const char *const sorts[] = { "run", "wait", "pid", "start" };
	struct tasks_run *v = run->data;
	unsigned long n;
	char *end;

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
	case SP_VOPT_SORT:
		for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++) {
			if (!strcmp(arg, sorts[i])) {
				v->sort = (enum sp_tasks_sort)i;
				return 0;
			}
		}
		return sp_cli_usage("tasks", "--sort must be run, wait, pid or start, not '%s'",
				    arg);
	default:
		return sp_cli_usage("tasks", "unknown option");
	}
}

static void tasks_size(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;

	run->width = o->width > 0 ? o->width : o->format == SP_FORMAT_PNG ? 1600 : 720;
	run->height = 0;	/* grows with the rows: known after the pass */
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
	return SP_EXIT_OK;
}

static void tasks_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct tasks_run *v = run->data;
	struct sp_model_observer obs;

	sp_taskline_observer(&v->tl, &obs);
	sp_pass_add(&pass->pass, &obs);
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
}

const struct sp_view_desc sp_view_tasks = {
	.name = "tasks",
	.usage = tasks_usage,
	.options = tasks_options,
	.max_traces = 1,
	.rows = true,
	.data_size = sizeof(struct tasks_run),
	.parse = tasks_parse,
	.size = tasks_size,
	.plan = tasks_plan,
	.observe = tasks_observe,
	.finish = tasks_finish,
	.draw = tasks_draw,
	.release = tasks_release,
};
