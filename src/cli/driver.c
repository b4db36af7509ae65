// SPDX-License-Identifier: GPL-2.0-only
/*
 * The view driver: parse, open, resolve, size, probe, plan, pass, finish,
 * draw and commit, the same for every view; the steps are described in
 * include/schedplot/cli/driver.h.
 */
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/parallel.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/trace.h"

/*
 * Name the output, protect the inputs, and open it for good when its
 * height is known; else only check, before the pass, that it can be
 * written.
 */
static int probe_output(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;
	struct sp_error err;

	if (!run->height)
		return sp_view_opts_probe_output(o, &run->out, run->path_buf, sizeof(run->path_buf),
					    run->width, &run->path);
	run->path = sp_view_opts_output(o, run->path_buf, sizeof(run->path_buf));
	if (sp_view_opts_protect(o, &run->out))
		return SP_EXIT_FAILURE;
	sp_error_clear(&err);
	if (sp_output_open(&run->out, run->path, o->format, run->width, run->height, &err))
		return sp_cli_output_error(run->path, &err);
	return SP_EXIT_OK;
}

static int commit_output(struct sp_view_run *run)
{
	struct sp_error err;

	sp_error_clear(&err);
	if (sp_output_close(&run->out, true, &err))
		return sp_cli_output_error(run->path, &err);
	return SP_EXIT_OK;
}

static void close_trace(struct sp_view_run *run)
{
	if (run->trace_open) {
		sp_trace_close(&run->trace);
		run->trace_open = false;
	}
}

/* Open trace @i of the options and resolve the window and CPUs against it. */
static int open_trace(struct sp_view_run *run, int i)
{
	int ret;

	/*
	 * a first try must leave nothing: not CSV lines on standard output,
	 * nor cairo's SVG ids, which count on over every surface of a process
	 */
	bool presume = run->presume && run->opts.nr_traces == 1 &&
		       !(run->opts.csv && !strcmp(run->opts.csv, "-")) &&
		       run->opts.format != SP_FORMAT_SVG;

	close_trace(run);
	ret = sp_cli_open(&run->trace, run->opts.traces[i],
			  presume ? SP_TRACE_PRESUME_LOSSLESS : 0);
	if (ret)
		return ret;
	run->trace_open = true;
	run->trace_index = i;
	if (run->desc->whole_traces)
		return SP_EXIT_OK;
	ret = sp_view_opts_min_at(&run->opts, &run->trace);
	if (ret)
		return ret;
	return sp_view_opts_resolve(&run->opts, &run->trace);
}

/* The pass over the open trace, told to the view's consumers, again while it asks. */
static int pass_trace(struct sp_view_run *run)
{
	const struct sp_view_desc *desc = run->desc;
	struct sp_view_pass pass;
	int ret;

	do {
		run->pass_again = false;
		ret = desc->prepare ? desc->prepare(run) : SP_EXIT_OK;
		if (ret)
			return ret;
		memset(&pass, 0, sizeof(pass));
		sp_pass_init(&pass.pass);
		desc->observe(run, &pass);
		ret = sp_cli_run(&run->trace, &pass.pass, pass.filter);
		if (!ret && !desc->whole_traces)
			ret = sp_view_opts_check_targets(&run->opts, &run->trace.model,
							 run->trace.path);
		if (!ret && desc->trace_done)
			ret = desc->trace_done(run);
	} while (!ret && run->pass_again);
	return ret;
}

/*
 * The traces of a view of several, passed at once: trace 0 in @run, where
 * it is open, each other in a copy of @run of its own, made before any
 * pass starts; --csv lines of the copies go to temporary files, appended
 * in order after the passes.  Each trace is closed after its pass, so no
 * more are open than jobs run at once.
 */
struct trace_jobs {
	struct sp_view_run **own;	/* per trace; [0] is the view's run */
};

static int pass_job(void *data, int i)
{
	struct trace_jobs *j = data;
	struct sp_view_run *run = j->own[i];
	int ret = i || !run->trace_open ? open_trace(run, i) : SP_EXIT_OK;

	if (!ret)
		ret = pass_trace(run);
	close_trace(run);
	return ret;
}

/* Append the --csv lines of @from (a temporary file) to @to. */
static int append_csv(FILE *to, FILE *from)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) ? -1 : 0;
}

static int pass_parallel(struct sp_view_run *run)
{
	int i, nr = run->opts.nr_traces, ret = SP_EXIT_OK;
	struct trace_jobs j;

	j.own = calloc(nr, sizeof(*j.own));
	if (!j.own)
		return sp_cli_fail(NULL, "out of memory");
	j.own[0] = run;
	for (i = 1; i < nr && !ret; i++) {
		j.own[i] = malloc(sizeof(*run));
		if (!j.own[i]) {
			ret = sp_cli_fail(NULL, "out of memory");
			break;
		}
		*j.own[i] = *run;
		j.own[i]->opts.cpus = NULL;	/* resolved for its own trace */
		j.own[i]->trace_open = false;
		if (run->csv.fp) {
			j.own[i]->csv.fp = tmpfile();
			if (!j.own[i]->csv.fp)
				ret = sp_cli_fail(NULL, "cannot create a temporary file for --csv");
		}
	}
	if (!ret)
		ret = sp_parallel_files(nr, pass_job, &j,
					    (const char *const *)run->opts.traces);
	for (i = 1; i < nr && j.own[i]; i++) {
		if (j.own[i]->csv.fp) {
			if (!ret && append_csv(run->csv.fp, j.own[i]->csv.fp))
				ret = sp_cli_fail(run->csv.path, "cannot write the CSV lines");
			fclose(j.own[i]->csv.fp);
		}
		free(j.own[i]->opts.cpus);
		free(j.own[i]);
	}
	free(j.own);
	return ret;
}

/*
 * The pass over each trace: one after the other, or several at once; the
 * first may have been opened already (to plan the view).
 */
static int pass_traces(struct sp_view_run *run)
{
	int ret, i;

	if (run->opts.nr_traces > 1 && sp_parallel_jobs(run->opts.nr_traces) > 1)
		return pass_parallel(run);
	ret = run->trace_open ? SP_EXIT_OK : open_trace(run, 0);
	if (!ret)
		ret = pass_trace(run);
	for (i = 1; !ret && i < run->opts.nr_traces; i++) {
		ret = open_trace(run, i);
		if (!ret)
			ret = pass_trace(run);
	}
	return ret;
}

int sp_view_traces(struct sp_view_run *run)
{
	int ret = pass_traces(run);

	close_trace(run);
	return ret;
}

/* --width and --height, else the view's default size for the format. */
static void default_size(struct sp_view_run *run)
{
	const struct sp_view_size *d = &run->desc->default_size;
	const struct sp_view_opts *o = &run->opts;
	bool png = o->format == SP_FORMAT_PNG;

	run->width = o->width > 0 ? o->width : png ? d->png_width : d->vec_width;
	if (!d->png_height)
		run->height = 0;
	else
		run->height = o->height > 0 ? o->height : png ? d->png_height : d->vec_height;
}

/* Everything from the trace's opening to the image's commit. */
static int run_view(struct sp_view_run *run)
{
	const struct sp_view_desc *desc = run->desc;
	struct sp_view_opts *o = &run->opts;
	struct sp_error err;
	int ret;

	ret = open_trace(run, 0);
	if (!ret && desc->rows)
		ret = sp_view_opts_rows(o, &run->trace, &run->rows, &run->row_socket,
					&run->nr_rows);
	if (ret)
		return ret;

	sp_theme_init(&run->theme, o->font_size);
	if (desc->size)
		desc->size(run);
	else if (desc->draw)
		default_size(run);
	ret = run->no_image ? SP_EXIT_OK : probe_output(run);
	if (!ret && desc->extra)
		ret = desc->extra->open(run);
	if (!ret)
		ret = desc->plan(run, run->out.cr);
	if (ret)
		return ret;

	ret = pass_traces(run);
	if (!ret)
		ret = desc->finish(run);
	if (ret)
		return ret;

	if (run->no_image)
		return desc->extra ? desc->extra->close(run, true) : SP_EXIT_OK;
	if (!run->out.cr) {
		sp_error_clear(&err);
		if (sp_output_open(&run->out, run->path, o->format, run->width, run->height,
				   &err))
			return sp_cli_output_error(run->path, &err);
	}
	ret = desc->draw(run, run->out.cr);
	if (!ret)
		ret = commit_output(run);
	if (!ret && desc->extra)
		ret = desc->extra->close(run, true);
	return ret;
}

/*
 * A view that can print instead of drawing (--text, --json): one of them,
 * --text without -o; only text asked for (or JSON without -o) draws no image.
 */
static int text_output(struct sp_view_run *run)
{
	const struct sp_view_opts *o = &run->opts;

	if (o->text && o->json)
		return sp_cli_usage(o->cmd, "--text and --json: choose one");
	if (o->text && o->output)
		return sp_cli_usage(o->cmd, "--text draws no image; leave out -o");
	run->no_image = o->text || (o->json && !o->output);
	return -1;
}

/* Parse to commit, told whether it may presume. */
static int view_try(const struct sp_view_desc *desc, int argc, char **argv, bool presume)
{
	struct sp_view_run *run;
	int ret;

	/* the trace and the path buffer are large: keep them off the stack */
	run = calloc(1, sizeof(*run));
	if (!run)
		return sp_cli_fail(NULL, "out of memory");
	run->desc = desc;
	run->presume = presume;
	sp_output_init(&run->out);
	run->data = calloc(1, desc->data_size ? desc->data_size : 1);
	if (!run->data) {
		free(run);
		return sp_cli_fail(NULL, "out of memory");
	}
	ret = sp_view_opts_parse(&run->opts, &desc->cmd, desc->max_traces ? desc->max_traces : 1,
				 argc, argv, run->data);
	if (ret < 0 && desc->draw)
		ret = sp_view_opts_check_image(&run->opts);
	if (ret < 0 && desc->draw)
		ret = text_output(run);
	if (ret < 0 && desc->parsed) {
		int checked = desc->parsed(run);

		if (checked != SP_EXIT_OK)
			ret = checked;
	}
	if (ret >= 0)
		goto out_opts;

	ret = run_view(run);

	if (desc->extra)
		desc->extra->close(run, false);
	sp_output_release(&run->out);
	if (desc->release)
		desc->release(run);
	free(run->rows);
	free(run->row_socket);
	close_trace(run);
out_opts:
	sp_view_opts_release(&run->opts);
	free(run->data);
	free(run);
	return ret;
}

int sp_view_main(const struct sp_view_desc *desc, int argc, char **argv)
{
	struct sp_cli_common common = sp_cli;	/* parsing counts -v into it */
	int ret = view_try(desc, argc, argv, desc->may_start_over);

	if (ret == SP_EXIT_START_OVER) {
		sp_cli = common;
		sp_cli_hush_until_pass();
		ret = view_try(desc, argc, argv, false);
	}
	return ret;
}
