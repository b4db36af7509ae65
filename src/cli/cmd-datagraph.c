// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot datagraph: the core-by-time chart.  One row per CPU, time left
 * to right, each row colored by the task running, white where idle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"

static const char datagraph_usage[] =
	"usage: schedplot datagraph [OPTIONS] TRACE.dat\n"
	"\n"
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
	"\n"
	"Options:\n"
	"  -o, --output FILE       image to write: .png, .pdf or .svg (default\n"
	"                          TRACE-datagraph.png here; - for standard output)\n"
	"      --format FMT        png, pdf or svg, whatever the name says\n"
	"      --min SECONDS       start the window SECONDS after the trace start\n"
	"      --max SECONDS       end the window SECONDS after the trace start\n"
	"      --time START,END    the window in the trace's own timestamps (seconds)\n"
	"      --cpus LIST         CPUs to draw, e.g. 0-15,32-47 (default all)\n"
	"      --target COMM       keep the colors of these commands (glob patterns;\n"
	"                          repeat or separate with commas), others black\n"
	"      --color-by WHAT     pid (default: every thread its own color),\n"
	"                          command, or parent (forked tasks as their parent)\n"
	"      --palette NAME      default, colorblind or grey\n"
	"      --cpu-order ORDER   numeric or socket; default socket when there is a\n"
	"                          topology (recorded in the trace by 'schedplot\n"
	"                          record', or --topology), else numeric\n"
	"      --topology FILE     output of 'lscpu -p' run on the traced machine,\n"
	"                          used instead of the trace's own topology\n"
	"      --socket-order      same as --cpu-order socket\n"
	"      --width N           image width: pixels for PNG (default 1600),\n"
	"                          points for PDF and SVG (default 720)\n"
	"      --height N          image height (default: grows with the CPUs)\n"
	"      --title TEXT        title above the chart (default: the trace's\n"
	"                          name; --title '' for none)\n"
	"      --no-legend         leave out the legend\n"
	"      --font-size N       base font size, pixels or points (default 11)\n"
	"  -v, --verbose           list what was repaired or lost in the trace\n"
	"  -q, --quiet             no progress line and no warnings\n"
	"  -h, --help              show this help\n"
	"\n"
	"See schedplot-datagraph(1) for how to record a suitable trace.\n";

int sp_cmd_datagraph(int argc, char **argv)
{
	struct sp_view_opts o;
	struct sp_trace t;
	struct sp_theme theme;
	struct sp_datagraph_figure fig = { 0 };
	struct sp_datagraph_opts dopts;
	struct sp_timeline tl = { 0 };
	struct sp_datagraph dg = { 0 };
	struct sp_model_observer obs;
	struct sp_output out;
	struct sp_error err;
	int *rows = NULL, *row_socket = NULL, nr_rows = 0, ret;
	bool have_trace = false;
	char name_buf[4096];
	const char *path;

	ret = sp_view_opts_parse(&o, "datagraph", SP_VOPT_COLOR | SP_VOPT_ORDER, datagraph_usage,
				 argc, argv);
	if (ret >= 0) {
		sp_view_opts_release(&o);
		return ret;
	}
	ret = sp_view_open(&o, &t, &rows, &row_socket, &nr_rows);
	if (ret)
		goto out;
	have_trace = true;

	sp_theme_init(&theme, o.font_size);
	fig.theme = &theme;
	fig.format = o.format;
	fig.width = o.width > 0 ? o.width : o.format == SP_FORMAT_PNG ? 1600 : 720;
	fig.height = o.height;
	fig.title = o.title ? o.title : sp_cli_base_name(o.trace_path);
	fig.legend = !o.no_legend;
	fig.origin_ns = o.origin_ns;

	/* before the pass (and before fonts are loaded): an unwritable output fails at once */
	sp_output_init(&out);
	ret = sp_view_probe_output(&o, &out, name_buf, sizeof(name_buf), fig.width, &path);
	if (ret)
		goto out;

	if (sp_datagraph_figure_plan(&fig, rows, (unsigned int)nr_rows)) {
		ret = sp_cli_usage("datagraph", "--width %g leaves no room for the chart",
				   fig.width);
		goto out;
	}


	if (sp_timeline_init(&tl, o.t0_ns, o.t1_ns, fig.nr_cols, t.nr_cpus, rows,
			     (unsigned int)nr_rows)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	sp_timeline_observer(&tl, &obs);
	ret = sp_cli_run(&t, &obs, sp_timeline_reset_cb, NULL);
	if (ret)
		goto out;
	if (sp_timeline_finish(&tl)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}

	sp_view_datagraph_opts(&o, row_socket, &dopts);
	if (sp_datagraph_init(&dg, &tl, &t.model, &dopts)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	if (sp_datagraph_figure_finish(&fig, &dg)) {
		ret = sp_cli_usage("datagraph", "--height %g leaves no room for the chart",
				   fig.height);
		goto out;
	}

	sp_error_clear(&err);
	if (sp_output_open(&out, path, o.format, fig.width, fig.height, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out;
	}
	sp_datagraph_figure_draw(out.cr, &fig, &dg);
	if (sp_output_close(&out, true, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out;
	}
	ret = SP_EXIT_OK;
out:
	sp_datagraph_release(&dg);
	sp_timeline_release(&tl);
	free(rows);
	free(row_socket);
	if (have_trace)
		sp_trace_close(&t);
	sp_view_opts_release(&o);
	return ret;
}
