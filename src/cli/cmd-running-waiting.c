// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot running-waiting: how many tasks run and how many wait on a run
 * queue, over time, with the time a task waited while a CPU idled shaded.
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
#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/rwgraph.h"

static const char rw_usage[] =
	"usage: schedplot running-waiting [OPTIONS] TRACE.dat\n"
	"\n"
	"Draw how many tasks run (green, thick) and how many wait on a run queue\n"
	"(red, thin) over time, with a dotted line at the number of CPUs.  Every\n"
	"pixel column shows the smallest and largest value inside it, so short\n"
	"spikes stay visible.  Shaded: time in which a task waited while a CPU was\n"
	"idle (work conservation violated).\n"
	"\n"
	"Examples:\n"
	"  schedplot running-waiting trace.dat                  trace-running-waiting.png\n"
	"  schedplot running-waiting -o rw.pdf --min 3 --max 3.2 trace.dat\n"
	"  schedplot running-waiting --csv rw.csv trace.dat     also the numbers\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE     image to write: .png, .pdf or .svg ('-': stdout)\n"
	"      --format FMT      png, pdf or svg (default: from the file name)\n"
	"      --min SECONDS     start of the window, counted from the trace's start\n"
	"      --max SECONDS     end of the window, counted from the trace's start\n"
	"      --time START,END  the window in the trace's own timestamps (seconds)\n"
	"      --cpus LIST       count only these CPUs and the tasks on them (0-3,8)\n"
	"      --target COMM     count only tasks with this command (glob; repeatable)\n"
	"      --width N         image width (px for PNG, pt for PDF/SVG)\n"
	"      --height N        image height\n"
	"      --title TEXT      title above the graph (default: the trace's name;\n"
	"                        '' for none)\n"
	"      --no-legend       leave the legend out\n"
	"      --font-size N     base font size (px for PNG, pt for PDF/SVG)\n"
	"      --no-shade        do not shade idle-while-waiting time\n"
	"      --csv FILE        also write the step functions: time_ns,running,waiting\n"
	"  -v, --verbose         list what was repaired or lost in the trace\n"
	"  -q, --quiet           no progress line and no warnings\n"
	"  -h, --help            show this help\n"
	"\n"
	"See schedplot-running-waiting(1).\n";

/* Default sizes: PNG in pixels, PDF/SVG in points. */
#define RW_PNG_WIDTH	1400
#define RW_PNG_HEIGHT	500
#define RW_VEC_WIDTH	700
#define RW_VEC_HEIGHT	260

/* ---- the CSV file, written beside its target and renamed into place ---- */

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int sp_cli_csv_open(struct sp_cli_csv *csv, const char *path, const char *trace_path,
		    const char *image_path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dir_len = slash ? (int)(slash - path) + 1 : 0;
	size_t size = strlen(path) + 64;
	int fd = -1;

	memset(csv, 0, sizeof(*csv));
	if (!strcmp(path, "-")) {
		if (image_path && !strcmp(image_path, "-"))
			return sp_cli_fail(NULL, "--csv - and -o - both write to standard output; "
					   "send one of them to a file");
		csv->fp = stdout;
		return SP_EXIT_OK;
	}
	if (same_file(path, trace_path)) {
		sp_cli_fail(path, "refusing to write the CSV over the input trace");
		return SP_EXIT_USAGE;
	}
	if (image_path && (!strcmp(path, image_path) || same_file(path, image_path)))
		return sp_cli_fail(path, "the CSV and the image cannot be the same file");
	csv->path = path;
	csv->tmp_path = malloc(size);
	if (!csv->tmp_path)
		return sp_cli_fail(NULL, "out of memory");
	for (unsigned int n = 0; n < 1000; n++) {
		snprintf(csv->tmp_path, size, "%.*s.%.200s.%ld.%u.tmp", dir_len, path, base,
			 (long)getpid(), n);
		fd = sp_output_temp_open(csv->tmp_path, O_RDWR);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0 || !(csv->fp = fdopen(fd, "w+"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(csv->tmp_path);
			sp_output_temp_forget(csv->tmp_path);
		}
		free(csv->tmp_path);
		csv->tmp_path = NULL;
		return sp_cli_fail(path, "cannot create the CSV file: %s", strerror(e));
	}
	return SP_EXIT_OK;
}

int sp_cli_csv_close(struct sp_cli_csv *csv, bool commit)
{
	int ret = SP_EXIT_OK, e = 0;

	if (!csv->fp)
		return SP_EXIT_OK;
	if (csv->fp == stdout) {
		if (fflush(stdout) || ferror(stdout))
			ret = sp_cli_fail(NULL, "cannot write the CSV to standard output");
		csv->fp = NULL;
		return ret;
	}
	if (commit && (fflush(csv->fp) || ferror(csv->fp) || fsync(fileno(csv->fp))))
		e = errno ? errno : EIO;
	if (fclose(csv->fp) && !e)
		e = errno ? errno : EIO;
	csv->fp = NULL;
	if (commit && !e && rename(csv->tmp_path, csv->path) < 0)
		e = errno;
	if (!commit || e)
		unlink(csv->tmp_path);
	if (commit && e)
		ret = sp_cli_fail(csv->path, "cannot write the CSV file: %s", strerror(e));
	sp_output_temp_forget(csv->tmp_path);
	free(csv->tmp_path);
	csv->tmp_path = NULL;
	return ret;
}

/* ---- the command ---- */

static bool rw_is_target(void *data, int pid, const char *comm)
{
	return sp_view_opts_is_target(data, comm ? comm : "");
}

int sp_cli_rw_filter(struct sp_model_filter *filter, struct sp_view_opts *o)
{
	int c, n = 0;

	memset(filter, 0, sizeof(*filter));
	filter->cpus = o->cpus;
	if (o->nr_targets) {
		filter->task = rw_is_target;
		filter->task_data = o;
	}
	for (c = 0; c < o->nr_cpus; c++)
		n += o->cpus[c];
	return n;
}

int sp_cmd_running_waiting(int argc, char **argv)
{
	struct sp_rwgraph_figure fig = { 0 };
	struct sp_model_filter filter;
	struct sp_model_observer obs;
	struct sp_rw_collect rw = { 0 };
	struct sp_view_opts o;
	struct sp_cli_csv csv = { 0 };
	struct sp_output out;
	struct sp_layout lay;
	struct sp_theme theme;
	struct sp_error err;
	struct sp_trace t;
	char namebuf[4096];
	const char *path;
	bool png;
	double w, h;
	int ret, nr;

	ret = sp_view_opts_parse(&o, "running-waiting", SP_VOPT_SHADE | SP_VOPT_CSV, rw_usage,
				 argc, argv);
	if (ret >= 0) {
		sp_view_opts_release(&o);
		return ret;
	}
	ret = sp_cli_open(&t, o.trace_path);
	if (ret)
		goto out_opts;
	ret = sp_view_opts_resolve(&o, &t);
	if (ret)
		goto out_trace;
	nr = sp_cli_rw_filter(&filter, &o);
	path = sp_view_opts_output(&o, namebuf, sizeof(namebuf));
	png = o.format == SP_FORMAT_PNG;
	w = o.width > 0 ? o.width : png ? RW_PNG_WIDTH : RW_VEC_WIDTH;
	h = o.height > 0 ? o.height : png ? RW_PNG_HEIGHT : RW_VEC_HEIGHT;

	sp_error_clear(&err);
	sp_output_init(&out);
	sp_output_protect(&out, o.trace_path);
	if (sp_output_open(&out, path, o.format, w, h, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out_trace;
	}
	if (o.csv) {
		ret = sp_cli_csv_open(&csv, o.csv, o.trace_path, path);
		if (ret)
			goto out_close;
	}

	sp_theme_init(&theme, o.font_size);
	fig.style.nr_cpus = nr;
	fig.style.shade = !o.no_shade;
	fig.style.pixels = png;
	fig.style.complete_ns = t.window_start_ns > o.t0_ns ? t.window_start_ns : 0;
	fig.title = o.title ? o.title : sp_cli_base_name(o.trace_path);
	fig.legend = !o.no_legend;
	fig.t0_ns = o.t0_ns;
	fig.t1_ns = o.t1_ns;
	fig.origin_ns = o.origin_ns;
	fig.shade_fraction = o.no_shade ? -1 : 0;
	if (sp_rwgraph_layout(&lay, out.cr, &theme, &fig, out.width, out.height)) {
		ret = sp_cli_usage("running-waiting", "a %gx%g image leaves no room for the graph "
				   "at this font size; give a larger --width/--height", w, h);
		goto out_close;
	}
	if (sp_rw_collect_init(&rw, o.t0_ns, o.t1_ns,
			       sp_rwgraph_nr_cols(&lay.plot, &fig.style, o.t0_ns, o.t1_ns), nr,
			       t.window_start_ns, csv.fp, NULL, NULL)) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out_close;
	}
	sp_rw_collect_observer(&rw, &obs);
	ret = sp_cli_run(&t, &obs, sp_rw_collect_reset, &filter);
	if (ret)
		goto out_close;
	if (sp_rw_collect_finish(&rw)) {
		ret = sp_cli_fail(o.csv, "cannot write the CSV file: %s", strerror(rw.csv_errno));
		goto out_close;
	}
	if (!o.no_shade)
		fig.shade_fraction = sp_rw_collect_shade_fraction(&rw);
	if (sp_rwgraph_figure_draw(out.cr, &theme, &fig, &lay, &rw.env)) {
		ret = sp_cli_fail(NULL, "cannot draw the time axis of this window");
		goto out_close;
	}
	if (sp_output_close(&out, true, &err)) {
		ret = sp_cli_output_error(path, &err);
		goto out_close;
	}
	ret = sp_cli_csv_close(&csv, true);
out_close:
	sp_cli_csv_close(&csv, false);
	sp_output_close(&out, false, NULL);
	sp_rw_collect_release(&rw);
out_trace:
	sp_trace_close(&t);
out_opts:
	sp_view_opts_release(&o);
	return ret;
}
