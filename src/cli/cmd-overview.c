// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot overview: the datagraph on top and the running/waiting graph
 * below it, on one time axis, from one pass over the trace.
 *
 * The figure is laid out and drawn by views/overview.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/cli/viewpower.h"
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

static const char overview_usage[] =
	"usage: schedplot overview [OPTIONS] [TRACE.dat]\n"
	"\n"
	"One figure for a paper or a bug report: the datagraph (one row per CPU,\n"
	"colored by the task running) on top, and below it how many tasks run and\n"
	"how many wait, on the same time axis.\n"
	"\n"
	"Examples:\n"
	"  schedplot overview trace.dat                       trace-overview.png\n"
	"  schedplot overview --min 3 --max 3.2 --target ua -o zoom.pdf trace.dat\n"
	"  schedplot overview --freq merged trace.dat   CPU frequency below the tasks\n"
	"\n"
	"Options:\n"
	"  -i, --input FILE        the trace to read (default: trace.dat)\n"
	"  -o, --output FILE       image to write: .png, .pdf or .svg ('-': stdout)\n"
	"      --format FMT        png, pdf or svg (default: from the file name)\n"
	"      --min TIME          start of the window, counted from the trace's start\n"
	"      --max TIME          end of the window, counted from the trace's start\n"
	"      --time START,END    the window in the trace's own timestamps (seconds)\n"
	"                          TIME: seconds, or 100ms, 250us, 2s, 300ns\n"
	"      --cpus LIST         draw and count only these CPUs (0-3,8)\n"
	"      --target COMM|PID   these commands (glob) or thread ids keep their\n"
	"                          colors, others are black, and only they are\n"
	"                          counted as running or waiting\n"
	"      --target-process PID|COMM\n"
	"                          the same for all threads of these processes\n"
	"      --target-tree PID|COMM\n"
	"                          the same for these tasks and all they forked, exec\n"
	"                          or not, at any depth (trace-cmd record -c)\n"
	"      --color-by WHAT     pid (default), command or process\n"
	"      --palette NAME      default, colorblind or grey\n"
	"      --aggregate RULE    how a pixel column of a row is colored: share\n"
	"                          (default: the task with most of its busy time,\n"
	"                          paler the less of the column was busy) or longest\n"
	"                          (whatever held it longest, idle included)\n"
	"      --colors FILE       take the colors of the tasks FILE names (written\n"
	"                          by --colors-out), so figures of one study agree\n"
	"      --colors-out FILE   write the colors used (JSON) for --colors\n"
	"      --freq[=MODE]       color rows by CPU frequency (power:cpu_frequency;\n"
	"                          hatched before a CPU's first one), with a color\n"
	"                          bar in MHz; MODE rows (default) or merged: task\n"
	"                          on top, frequency below\n"
	"      --idle-states       shade idle time by idle state (power:cpu_idle),\n"
	"                          light to dark grey as it deepens\n"
	"      --cpu-order ORDER   numeric or socket; default socket when there is a\n"
	"                          topology (recorded in the trace by 'schedplot\n"
	"                          record', or --topology), else numeric\n"
	"      --topology FILE     output of 'lscpu -p' on the traced machine, used\n"
	"                          instead of the trace's own topology\n"
	"      --socket-order      same as --cpu-order socket\n"
	"      --width N           image width: px for PNG (default 1600), pt for\n"
	"                          PDF/SVG (default 720)\n"
	"      --height N          image height (default: from the number of CPUs)\n"
	"      --title TEXT        title (default: the trace's name; '' for none)\n"
	"      --no-legend         leave out the legends\n"
	"      --font-size N       base font size (px for PNG, pt for PDF/SVG)\n"
	"      --no-shade          do not draw the lost capacity band\n"
	"      --csv FILE          also write running/waiting:\n"
	"                          time_ns,running,waiting,lost (time_ns after\n"
	"                          the '# start_ns=N' first line)\n"
	"  -v, --verbose           list what was repaired or lost in the trace (the\n"
	"                          first 10 of each with CPU and time; -vv: all)\n"
	"      --migrations        mark migrations on the CPU rows (see datagraph)\n"
	"      --wakeups           wakeup arrows, when zoomed in enough to read them\n"
	"      --placement         ring the wakeups that left an idle previous CPU\n"
	"      --events LIST       a shape where each SYSTEM:EVENT record fired\n"
	"      --mark 'EVENT/FILTER/ [label=FIELD]'\n"
	"                          a shape where each record of EVENT that passes\n"
	"                          FILTER (trace-cmd report -F) fired\n"
	"      --span 'START..END key=FIELD'\n"
	"                          a bar along the CPU's row from each START record to\n"
	"                          the next END record with the same FIELD values\n"
	"      --view FILE, @FILE  read options (--mark, --span, ...) from FILE, a view\n"
	"                          file (schedplot(1); ready ones in contrib/views)\n"	"      --min-at EVENT      start the window at EVENT's first record\n"
	"  -q, --quiet             no progress line and no warnings\n"
	"  -h, --help              show this help\n"
	"\n"
	"See schedplot-overview(1).\n";

/* The options overview takes: those of both datagraph and running-waiting. */
static const struct option overview_options[] = {
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
	{ "width", required_argument, NULL, SP_VOPT_WIDTH },
	{ "height", required_argument, NULL, SP_VOPT_HEIGHT },
	{ "title", required_argument, NULL, SP_VOPT_TITLE },
	{ "no-legend", no_argument, NULL, SP_VOPT_NO_LEGEND },
	{ "font-size", required_argument, NULL, SP_VOPT_FONT_SIZE },
	{ "color-by", required_argument, NULL, SP_VOPT_COLOR_BY },
	{ "palette", required_argument, NULL, SP_VOPT_PALETTE },
	{ "cpu-order", required_argument, NULL, SP_VOPT_CPU_ORDER },
	{ "topology", required_argument, NULL, SP_VOPT_TOPOLOGY },
	{ "socket-order", no_argument, NULL, SP_VOPT_SOCKET_ORDER },
	{ "no-shade", no_argument, NULL, SP_VOPT_NO_SHADE },
	{ "csv", required_argument, NULL, SP_VOPT_CSV },
	{ "freq", optional_argument, NULL, SP_VOPT_FREQ },
	{ "idle-states", no_argument, NULL, SP_VOPT_IDLE_STATES },
	{ "migrations", no_argument, NULL, SP_VOPT_MIGRATIONS },
	{ "wakeups", no_argument, NULL, SP_VOPT_WAKEUPS },
	{ "placement", no_argument, NULL, SP_VOPT_PLACEMENT },
	{ "events", required_argument, NULL, SP_VOPT_EVENTS },
	{ "mark", required_argument, NULL, SP_VOPT_MARK },
	{ "span", required_argument, NULL, SP_VOPT_SPAN },
	{ "min-at", required_argument, NULL, SP_VOPT_MIN_AT },
	{ "aggregate", required_argument, NULL, SP_VOPT_AGGREGATE },
	{ "colors", required_argument, NULL, SP_VOPT_COLORS },
	{ "colors-out", required_argument, NULL, SP_VOPT_COLORS_OUT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct overview_run {
	struct sp_overview_figure fig;
	struct sp_timeline tl;
	struct sp_rw_collect rw;
	struct sp_model_filter filter;
	struct sp_datagraph dg;
	struct sp_view_power power;
	struct sp_dg_marks marks;	/* --migrations, --wakeups, --placement, --events */
	int *socket;			/* per CPU, for the marks; NULL without a topology */
};

static void overview_size(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;

	run->width = o->width > 0 ? o->width : o->format == SP_FORMAT_PNG ? 1600 : 720;
	run->height = 0;	/* laid out after the pass, from the legends */
}

static int overview_plan(struct sp_view_run *run, struct _cairo *cr)
{
	const struct sp_view_opts *o = &run->opts;
	struct overview_run *v = run->data;
	struct sp_overview_figure *fig = &v->fig;
	int nr, ret;

	nr = sp_cli_rw_filter(&v->filter, &run->opts);
	fig->theme = &run->theme;
	fig->style.nr_cpus = nr;
	fig->style.shade = !o->no_shade;
	fig->style.pixels = o->format == SP_FORMAT_PNG;
	fig->style.complete_ns = run->trace.window_start_ns > o->t0_ns ?
				 run->trace.window_start_ns : 0;
	fig->style.counting = sp_view_opts_counting(&run->opts);
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
	ret = sp_timeline_init(&v->tl, o->t0_ns, o->t1_ns, fig->nr_cols, run->trace.nr_cpus,
			       run->rows, (unsigned int)run->nr_rows);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot set up the timeline");
	sp_timeline_set_rule(&v->tl, o->aggregate);
	ret = sp_view_power_plan(&v->power, o, &run->trace, fig->nr_cols, run->rows,
				 (unsigned int)run->nr_rows);
	if (ret)
		return ret;
	ret = sp_rw_collect_init(&v->rw, o->t0_ns, o->t1_ns,
				 sp_rwgraph_nr_cols(&fig->plot, &fig->style, o->t0_ns, o->t1_ns),
				 nr, run->trace.window_start_ns, run->csv.fp);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot set up the graph's columns");
	v->rw.csv_origin_ns = run->trace.first_ns;
	return sp_view_marks_plan(run, &v->marks, &v->tl, &v->socket);
}

static void overview_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct overview_run *v = run->data;
	struct sp_model_observer obs;

	sp_rw_collect_observer(&v->rw, &obs);
	sp_pass_add(&pass->pass, &obs);
	sp_timeline_observer(&v->tl, &obs);
	sp_pass_add(&pass->pass, &obs);
	pass->filter = &v->filter;
	sp_view_marks_observe(&v->marks, pass);
	sp_view_power_observe(&v->power, pass);
}

static int overview_finish(struct sp_view_run *run)
{
	struct overview_run *v = run->data;
	struct sp_datagraph_opts dopts;
	int ret;

	ret = sp_timeline_finish(&v->tl);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot finish the timeline");
	if (sp_rw_collect_finish(&v->rw))
		return sp_cli_fail(run->opts.csv, "cannot write the CSV file: %s",
				   strerror(v->rw.csv_errno));
	sp_view_datagraph_opts(&run->opts, run->row_socket, &dopts);
	ret = sp_view_power_finish(&v->power, &run->opts, &run->trace, &dopts);
	if (ret)
		return ret;
	ret = sp_datagraph_init(&v->dg, &v->tl, &run->trace.model, &dopts);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot color the chart");
	ret = sp_view_colors_out(&run->opts, &v->dg);
	if (ret)
		return ret;
	if (sp_dg_marks_any(&v->marks)) {
		ret = sp_dg_marks_finish(&v->marks);
		if (ret)
			return sp_cli_fail_code(NULL, ret, "cannot gather the marks");
		v->fig.marks = &v->marks;
		sp_view_marks_note(run, &v->marks);
	}
	ret = sp_overview_figure_finish(&v->fig, &v->dg, (unsigned int)run->nr_rows);
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

	if (sp_overview_figure_draw(cr, &v->fig, &v->dg, &v->rw))
		return sp_cli_fail(NULL, "cannot draw the time axis of this window");
	return SP_EXIT_OK;
}

static void overview_release(struct sp_view_run *run)
{
	struct overview_run *v = run->data;

	sp_view_power_release(&v->power);
	sp_overview_figure_release(&v->fig);
	sp_datagraph_release(&v->dg);
	sp_rw_collect_release(&v->rw);
	sp_timeline_release(&v->tl);
	sp_dg_marks_release(&v->marks);
	free(v->socket);
}

const struct sp_view_desc sp_view_overview = {
	.name = "overview",
	.usage = overview_usage,
	.options = overview_options,
	.max_traces = 1,
	.rows = true,
	.data_size = sizeof(struct overview_run),
	.size = overview_size,
	.plan = overview_plan,
	.observe = overview_observe,
	.finish = overview_finish,
	.draw = overview_draw,
	.release = overview_release,
	.extra = &sp_view_csv,
};
