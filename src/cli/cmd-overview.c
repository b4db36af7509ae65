// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot overview: the datagraph on top and the running/waiting graph
 * below it, on one time axis, from one pass over the trace.
 *
 * The figure is laid out and drawn by views/overview.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/render.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/overview.h"
#include "schedplot/views/rwgraph.h"

static const char overview_usage[] =
	"usage: schedplot overview [OPTIONS] TRACE.dat\n"
	"\n"
	"One figure for a paper or a bug report: the datagraph (one row per CPU,\n"
	"colored by the task running) on top, and below it how many tasks run and\n"
	"how many wait, on the same time axis.\n"
	"\n"
	"Examples:\n"
	"  schedplot overview trace.dat                       trace-overview.png\n"
	"  schedplot overview --min 3 --max 3.2 --target ua -o zoom.pdf trace.dat\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE       image to write: .png, .pdf or .svg ('-': stdout)\n"
	"      --format FMT        png, pdf or svg (default: from the file name)\n"
	"      --min SECONDS       start of the window, counted from the trace's start\n"
	"      --max SECONDS       end of the window, counted from the trace's start\n"
	"      --time START,END    the window in the trace's own timestamps (seconds)\n"
	"      --cpus LIST         draw and count only these CPUs (0-3,8)\n"
	"      --target COMM       these commands keep their colors, others are black,\n"
	"                          and only they are counted as running or waiting\n"
	"      --color-by WHAT     pid (default), command or parent\n"
	"      --palette NAME      default, colorblind or grey\n"
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
	"      --no-shade          do not shade idle-while-waiting time\n"
	"      --csv FILE          also write running/waiting: time_ns,running,waiting\n"
	"  -v, --verbose           list what was repaired or lost in the trace\n"
	"  -q, --quiet             no progress line and no warnings\n"
	"  -h, --help              show this help\n"
	"\n"
	"See schedplot-overview(1).\n";

int sp_cmd_overview(int argc, char **argv)
{
	struct sp_view_opts o;
	struct sp_trace t;
	struct sp_theme theme;
	struct sp_timeline tl = { 0 };
	struct sp_datagraph dg = { 0 };
	struct sp_datagraph_opts dopts;
	struct sp_rw_collect rw = { 0 };
	struct sp_model_observer tl_obs, obs;
	struct sp_model_filter filter;
	struct sp_cli_csv csv = { 0 };
	struct sp_overview_figure fig = { 0 };
	struct sp_output out;
	struct sp_error err;
	int *rows = NULL, *row_socket = NULL, nr_rows = 0, nr, ret;
	bool have_trace = false, png;
	char name_buf[4096];
	const char *path;

	sp_output_init(&out);
	ret = sp_view_opts_parse(&o, "overview", SP_VOPT_COLOR | SP_VOPT_ORDER | SP_VOPT_SHADE |
				 SP_VOPT_CSV, overview_usage, argc, argv);
	if (ret >= 0) {
		sp_view_opts_release(&o);
		return ret;
	}
	ret = sp_view_open(&o, &t, &rows, &row_socket, &nr_rows);
	if (ret)
		goto out;
	have_trace = true;
	nr = sp_cli_rw_filter(&filter, &o);
	png = o.format == SP_FORMAT_PNG;

	sp_theme_init(&theme, o.font_size);
	fig.theme = &theme;
	fig.style.nr_cpus = nr;
	fig.style.shade = !o.no_shade;
	fig.style.pixels = png;
	fig.style.complete_ns = t.window_start_ns > o.t0_ns ? t.window_start_ns : 0;
	fig.legend = !o.no_legend;
	fig.note = !o.no_shade;
	fig.title = o.title ? o.title : sp_cli_base_name(o.trace_path);
	fig.width = o.width > 0 ? o.width : png ? 1600 : 720;
	fig.height = o.height;
	fig.origin_ns = o.origin_ns;
	ret = sp_overview_figure_plan(&fig, rows, (unsigned int)nr_rows);
	if (ret == -ERANGE) {
		ret = sp_cli_usage("overview", "--width %g leaves no room for the graphs",
				   fig.width);
		goto out;
	}
	if (ret) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}

	/* fail before the pass when the output cannot be written */
	ret = sp_view_probe_output(&o, &out, name_buf, sizeof(name_buf), fig.width, &path);
	if (ret)
		goto out;
	if (o.csv) {
		ret = sp_cli_csv_open(&csv, o.csv, o.trace_path, path);
		if (ret)
			goto out;
	}

	/* one pass: runs to the timeline, steps to the envelope, stats and CSV */
	if (sp_timeline_init(&tl, o.t0_ns, o.t1_ns, fig.nr_cols, t.nr_cpus, rows,
			     (unsigned int)nr_rows)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	sp_timeline_observer(&tl, &tl_obs);
	if (sp_rw_collect_init(&rw, o.t0_ns, o.t1_ns,
			       sp_rwgraph_nr_cols(&fig.plot, &fig.style, o.t0_ns, o.t1_ns), nr,
			       t.window_start_ns, csv.fp, &tl_obs, sp_timeline_reset_cb)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	sp_rw_collect_observer(&rw, &obs);
	ret = sp_cli_run(&t, &obs, sp_rw_collect_reset, &filter);
	if (ret)
		goto out;
	if (sp_timeline_finish(&tl)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	if (sp_rw_collect_finish(&rw)) {
		ret = sp_cli_fail(o.csv, "cannot write the CSV file: %s", strerror(rw.csv_errno));
		goto out;
	}

	sp_view_datagraph_opts(&o, row_socket, &dopts);
	if (sp_datagraph_init(&dg, &tl, &t.model, &dopts)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	if (sp_overview_figure_finish(&fig, &dg, (unsigned int)nr_rows)) {
		ret = sp_cli_usage("overview", "a %gx%g image leaves no room for the graphs; "
				   "give a larger --height", fig.width, fig.height);
		goto out;
	}

	if (sp_output_open(&out, path, o.format, fig.width, fig.height, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out;
	}
	if (sp_overview_figure_draw(out.cr, &fig, &dg, &rw)) {
		ret = sp_cli_fail(NULL, "cannot draw the time axis of this window");
		goto out;
	}
	if (sp_output_close(&out, true, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out;
	}
	ret = sp_cli_csv_close(&csv, true);
out:
	sp_cli_csv_close(&csv, false);
	sp_output_close(&out, false, NULL);
	sp_overview_figure_release(&fig);
	sp_datagraph_release(&dg);
	sp_rw_collect_release(&rw);
	sp_timeline_release(&tl);
	free(rows);
	free(row_socket);
	if (have_trace)
		sp_trace_close(&t);
	sp_view_opts_release(&o);
	return ret;
}
