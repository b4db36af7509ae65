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
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/text.h"
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
		return sp_view_probe_output(o, &run->out, run->path_buf, sizeof(run->path_buf),
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

/* Everything from the trace's opening to the image's commit. */
static int run_view(struct sp_view_run *run)
{
	const struct sp_view_desc *desc = run->desc;
	struct sp_view_opts *o = &run->opts;
	struct sp_view_pass pass;
	struct sp_error err;
	int ret;

	ret = sp_cli_open(&run->trace, o->traces[0]);
	if (ret)
		return ret;
	run->trace_open = true;
	ret = sp_view_opts_resolve(o, &run->trace);
	if (!ret && desc->rows)
		ret = sp_view_opts_rows(o, &run->trace, &run->rows, &run->row_socket,
					&run->nr_rows);
	if (ret)
		return ret;

	sp_theme_init(&run->theme, o->font_size);
	desc->size(run);
	ret = probe_output(run);
	if (!ret && desc->extra)
		ret = desc->extra->open(run);
	if (!ret)
		ret = desc->plan(run, run->out.cr);
	if (ret)
		return ret;

	memset(&pass, 0, sizeof(pass));
	desc->observe(run, &pass);
	ret = sp_cli_run(&run->trace, &pass.obs, pass.reset, pass.filter);
	if (!ret)
		ret = desc->finish(run);
	if (ret)
		return ret;

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

int sp_view_main(const struct sp_view_desc *desc, int argc, char **argv)
{
	struct sp_view_run *run;
	int ret;

	/* the trace and the path buffer are large: keep them off the stack */
	run = calloc(1, sizeof(*run));
	if (!run)
		return sp_cli_fail(NULL, "out of memory");
	run->desc = desc;
	sp_output_init(&run->out);
	ret = sp_view_opts_parse(&run->opts, desc->name, desc->options, desc->max_traces,
				 desc->usage, argc, argv);
	if (ret >= 0)
		goto out_opts;
	run->data = calloc(1, desc->data_size ? desc->data_size : 1);
	if (!run->data) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out_opts;
	}

	ret = run_view(run);

	if (desc->extra)
		desc->extra->close(run, false);
	sp_output_close(&run->out, false, NULL);
	if (desc->release)
		desc->release(run);
	free(run->data);
	free(run->rows);
	free(run->row_socket);
	if (run->trace_open)
		sp_trace_close(&run->trace);
out_opts:
	sp_view_opts_release(&run->opts);
	free(run);
	return ret;
}
