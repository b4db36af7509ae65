// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot overview: the datagraph on top and the running/waiting graph
 * below it, on one time axis, from one pass over the trace.
 *
 *	+----------------------- title -----------------------+
 *	| CPU 3 |######## datagraph ##########################|
 *	| CPU 0 |#############################################|
 *	|       |            idle while waiting: 3.2% ...     |
 *	| tasks |~~~~~~~~ running / waiting ~~~~~~~~~~~~~~~~~~|
 *	|       +---------------------------------------------+
 *	|       0        1        2   time (s)                |
 *	|       [running-waiting legend, one line]            |
 *	|       [datagraph legend]                            |
 *	+-----------------------------------------------------+
 *
 * Both plots share x and width exactly, and both data structures cut the
 * window into the same columns, so a column of one is the same time span
 * as the column under or above it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"
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

/* Default sizes of the running/waiting panel's plot: px for PNG, pt for PDF/SVG. */
#define OV_RW_PLOT_PX	260
#define OV_RW_PLOT_PT	130

static cairo_t *scratch_context(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

/* Everything placed: shared x, two plots, the axis under the lower, legends. */
struct ov_layout {
	struct sp_rect title;		/* h == 0: none */
	struct sp_rect dg;		/* datagraph plot */
	struct sp_rect rw;		/* running/waiting plot */
	struct sp_rect rw_legend;	/* one line; h == 0: none */
	struct sp_rect dg_legend;	/* h == 0: none */
	double height;
};

struct ov_figure {
	const struct sp_theme *theme;
	struct sp_rwgraph_style style;
	bool legend, note;
	const char *title;
	double width, height;		/* height 0: from the rows */
	double left_w;
};

/* The x extent of both plots, fixed before the pass (columns depend on it). */
static int plan_x(const struct ov_figure *f, struct sp_rect *plot)
{
	struct sp_layout_spec spec;

	sp_layout_spec_init(&spec, f->theme, f->width, 1000);
	plot->x = spec.margin + f->left_w;
	plot->w = f->width - spec.margin - spec.right_w - plot->x;
	sp_rwgraph_snap_plot(plot, &f->style);
	return plot->w >= SP_LAYOUT_MIN_PLOT ? 0 : -ERANGE;
}

/* The vertical layout, once the legends are known. */
static int plan_y(struct ov_figure *f, cairo_t *cr, const struct sp_rect *px,
		  const struct sp_datagraph *dg, unsigned int nr_rows, struct ov_layout *lay)
{
	const struct sp_theme *theme = f->theme;
	struct sp_layout_spec spec;
	struct sp_legend legend;
	double rw_lw = 0, rw_lh = 0, dg_lh = 0, title_h = 0, note_h, y, dg_h, rw_h, avail;
	bool png = f->style.pixels;

	sp_layout_spec_init(&spec, theme, f->width, 1000);
	memset(lay, 0, sizeof(*lay));
	if (f->title && f->title[0])
		title_h = sp_rwgraph_title_height(cr, theme);
	note_h = f->note ? sp_rwgraph_note_height(cr, theme) : theme->font_size;
	if (f->legend) {
		struct sp_legend one;
		double line;

		sp_rwgraph_legend_size(cr, theme, &f->style, true, &rw_lw, &rw_lh);
		sp_datagraph_legend(dg, &legend, 64);
		dg_lh = sp_legend_size(cr, theme, &legend, SP_LEGEND_BELOW, px->w);
		one = legend;
		one.nr_entries = legend.nr_entries ? 1 : 0;
		one.nr_more = 0;
		one.title = NULL;
		line = sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, px->w);
		dg_lh = ceil(fmin(dg_lh, line * (SP_DATAGRAPH_LEGEND_LINES +
						 (legend.title ? 1 : 0))));
	}
	/* everything but the two plots */
	avail = 2 * spec.margin + spec.top_h + note_h + spec.bottom_h;
	if (title_h > 0)
		avail += title_h + spec.gap / 2;
	if (rw_lh > 0)
		avail += spec.gap + rw_lh;
	if (dg_lh > 0)
		avail += spec.gap / 2 + dg_lh;
	if (f->height > 0) {
		double dg_want = sp_datagraph_default_plot_height(png ? SP_FORMAT_PNG :
								  SP_FORMAT_PDF, nr_rows);
		double rw_want = png ? OV_RW_PLOT_PX : OV_RW_PLOT_PT;
		double room = f->height - avail - 2;

		dg_h = floor(room * dg_want / (dg_want + rw_want));
		rw_h = floor(room - dg_h);
	} else {
		dg_h = ceil(sp_datagraph_default_plot_height(png ? SP_FORMAT_PNG : SP_FORMAT_PDF,
							     nr_rows));
		rw_h = png ? OV_RW_PLOT_PX : OV_RW_PLOT_PT;
		f->height = ceil(avail) + 2 + dg_h + rw_h;
		if (f->height > SP_OUTPUT_MAX_PX)
			return -ERANGE;
	}
	if (dg_h < SP_LAYOUT_MIN_PLOT || rw_h < SP_LAYOUT_MIN_PLOT)
		return -ERANGE;

	y = spec.margin;
	if (title_h > 0) {
		lay->title = (struct sp_rect){ spec.margin, y, f->width - 2 * spec.margin,
					       title_h };
		y += title_h + spec.gap / 2;
	}
	y += spec.top_h;
	if (png)
		y = ceil(y);
	lay->dg = (struct sp_rect){ px->x, y, px->w, dg_h };
	y += dg_h + note_h;
	if (png)
		y = ceil(y);
	lay->rw = (struct sp_rect){ px->x, y, px->w, rw_h };
	y += rw_h + spec.bottom_h;
	if (rw_lh > 0) {
		y += spec.gap;
		lay->rw_legend = (struct sp_rect){ px->x, y, px->w, rw_lh };
		y += rw_lh;
	}
	if (dg_lh > 0) {
		y += spec.gap / 2;
		lay->dg_legend = (struct sp_rect){ px->x, y, px->w, dg_lh };
	}
	lay->height = f->height;
	return 0;
}

static int draw(cairo_t *cr, const struct ov_figure *f, const struct ov_layout *lay,
		const struct sp_datagraph *dg, const struct sp_rw_collect *rw,
		uint64_t origin_ns, double fraction)
{
	const struct sp_theme *theme = f->theme;
	const struct sp_envelope *env = &rw->env;
	struct sp_time_ticks xt;
	struct sp_int_ticks yt;
	struct sp_legend legend;
	int ret;

	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	cairo_restore(cr);
	if (lay->title.h > 0)
		sp_rwgraph_draw_title(cr, theme, &lay->title, f->title);

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	ret = sp_time_ticks_fit(&xt, cr, lay->rw.w, env->t0_ns, env->t1_ns, origin_ns);
	cairo_restore(cr);
	if (ret)
		return ret;
	ret = sp_rwgraph_y_ticks(&yt, env, &f->style, lay->rw.h, theme);
	if (ret)
		return ret;

	sp_datagraph_draw(cr, theme, &lay->dg, dg);
	sp_axis_frame_draw(cr, theme, &lay->dg);
	sp_datagraph_rows_draw(cr, theme, &lay->dg, dg);

	sp_rwgraph_draw_data(cr, theme, &lay->rw, env, &yt, &xt, &f->style);
	sp_rwgraph_draw_y_axis(cr, theme, &lay->rw, &yt);
	if (f->note)
		sp_rwgraph_draw_note(cr, theme, &lay->rw, fraction);
	sp_axis_time_draw(cr, theme, &lay->rw, &xt, env->t0_ns, env->t1_ns, false);

	if (lay->rw_legend.h > 0)
		sp_rwgraph_legend_draw(cr, theme, &f->style, true, &lay->rw_legend);
	if (lay->dg_legend.h > 0) {
		sp_datagraph_legend(dg, &legend, 64);
		sp_legend_draw(cr, theme, &legend, &lay->dg_legend);
	}
	return 0;
}

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
	struct ov_figure fig = { 0 };
	struct ov_layout lay;
	struct sp_output out;
	struct sp_error err;
	struct sp_rect px;
	int *rows = NULL, *row_socket = NULL, nr_rows = 0, nr, ret;
	bool have_trace = false, png;
	unsigned int nr_cols;
	char name_buf[4096];
	const char *path;
	cairo_t *scratch = NULL;

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
	scratch = scratch_context();
	if (cairo_status(scratch)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	fig.left_w = fmax(sp_datagraph_rows_width(scratch, &theme, rows, (unsigned int)nr_rows),
			  sp_rwgraph_left_width(scratch, &theme));
	if (plan_x(&fig, &px)) {
		ret = sp_cli_usage("overview", "--width %g leaves no room for the graphs",
				   fig.width);
		goto out;
	}
	nr_cols = sp_datagraph_columns(scratch, px.w);
	if (!png)
		nr_cols = (unsigned int)ceil(px.w * SP_RWGRAPH_VECTOR_COLS_PER_PT);

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
	if (sp_timeline_init(&tl, o.t0_ns, o.t1_ns, nr_cols, t.nr_cpus, rows,
			     (unsigned int)nr_rows)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	sp_timeline_observer(&tl, &tl_obs);
	if (sp_rw_collect_init(&rw, o.t0_ns, o.t1_ns,
			       sp_rwgraph_nr_cols(&px, &fig.style, o.t0_ns, o.t1_ns), nr,
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
	if (plan_y(&fig, scratch, &px, &dg, (unsigned int)nr_rows, &lay)) {
		ret = sp_cli_usage("overview", "a %gx%g image leaves no room for the graphs; "
				   "give a larger --height", fig.width, fig.height);
		goto out;
	}

	if (sp_output_open(&out, path, o.format, fig.width, fig.height, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out;
	}
	if (draw(out.cr, &fig, &lay, &dg, &rw, o.origin_ns, sp_rw_collect_shade_fraction(&rw))) {
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
	if (scratch)
		cairo_destroy(scratch);
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
