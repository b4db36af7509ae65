// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot export: traces into a SQLite database (export/sqlite.h), one
 * transaction per trace.  A new database is written to a temporary file
 * beside the target and renamed into place when every trace went in; with
 * --append an existing one gets one transaction per trace, so a failure
 * leaves it as it was before the trace that failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/export/sqlite.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"

/* export's own options */
struct export_own {
	bool append;
};

static int export_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	struct export_own *own = ctx->own;

	(void)opt;
	(void)arg;
	own->append = true;
	return 0;
}

static const struct sp_opt export_options[] = {
	SP_OPT_WORDS("output", "the database: a new file, or with --append one that export wrote "
		     "(or an empty file)"),
	{ "append", 'a', no_argument, NULL, "Output",
	  "add the traces to the existing database FILE, one transaction each (a new FILE "
	  "is made)" },
	SP_OPT_SHARED("idle"),
	SP_OPT_WORDS("input", "a trace to export (repeatable; also as operands)"),
	SP_OPT_WORDS("mark", "the records of EVENT (SYSTEM:EVENT) that pass FILTER (as trace-cmd "
		     "report -F takes it) into the table marks, with FIELD's value as their text "
		     "(repeatable)"),
	SP_OPT_WORDS("span", "intervals from a START record to the next END record of the same "
		     "key into the table spans, with the key's values (repeatable)"),
	SP_OPT_WORDS("verbose", "say which trace_id each trace got; list what was repaired or "
		     "lost in it (the first 10 of each with CPU and time; -vv: all)"),
	{ }
};

const struct sp_cmd_opts sp_cmd_export_opts = {
	SP_CMD_NAMED(export, "export", "the traces as a SQLite database, for your own queries"),
	.synopsis = "-o FILE.db [OPTIONS] TRACE.dat...",
	.description =
	"Write what the traces hold into a SQLite database: the traces, their CPUs,\n"
	"tasks and task names, every run, wait, sleep and migration, who held the CPU\n"
	"each wait was for, the repairs and lost events, and the power states and\n"
	"trace_marker texts where present.\n"
	"Every row carries its trace's trace_id, so one file holds many traces;\n"
	"times are the traces' own timestamps in integer ns.\n"
	"\n"
	"Examples:\n"
	"  schedplot export -o runs.db trace.dat            a new database\n"
	"  schedplot export -o runs.db --append night-*.dat add traces to it\n"
	"  sqlite3 runs.db 'SELECT comm, sum(dur_ns) FROM waits GROUP BY comm'\n"
	"\n",
	.footer = "See schedplot-export(1) for the schema and example queries.\n",
	.parse = export_parse,
};

/* Whether @a and @b name the same file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * The --mark and --span records and spans of an open trace: every one
 * of them, wherever and whoever.  Return: an exit code, said.
 */
static int plan_spans(struct sp_trace *t, const struct sp_view_opts *o, struct sp_spans *sp)
{
	struct sp_scope all;
	int ret;

	memset(sp, 0, sizeof(*sp));
	if (!o->nr_marks && !o->nr_spans)
		return SP_EXIT_OK;
	ret = sp_evspec_plan(t->reader, t->path, o, sp, true);
	if (ret)
		return ret;
	sp_scope_init(&all, 0, UINT64_MAX);
	all.model = &t->model;
	all.reader = t->reader;
	if (sp_spans_init(sp, &all, t->reader, t->nr_cpus))
		return sp_cli_fail(t->path, "out of memory");
	return SP_EXIT_OK;
}

/* One trace into the database, in its own transaction. */
static int export_one(struct sp_export *x, const char *path, const char *output,
		      const struct sp_view_opts *o)
{
	struct sp_antagonists hist;
	struct sp_waited_behind behind;
	struct sp_error err;
	struct sp_spans sp;
	struct sp_pass pass;
	struct sp_trace t;
	bool spans;
	int ret;

	ret = sp_cli_open(&t, path, 0);
	if (ret)
		return ret;
	memset(&hist, 0, sizeof(hist));
	memset(&behind, 0, sizeof(behind));
	ret = plan_spans(&t, o, &sp);
	spans = o->nr_marks || o->nr_spans;
	if (ret)
		goto out;
	/*
	 * who held the CPUs the tasks waited for: each CPU's runs, and their
	 * time summed over every wait
	 */
	if (sp_antagonists_init(&hist, t.nr_cpus)) {
		ret = sp_cli_fail(path, "out of memory");
		goto out;
	}
	behind.hist = &hist;
	sp_scope_init(&behind.scope, 0, UINT64_MAX);
	behind.scope.model = &t.model;
	behind.scope.reader = t.reader;
	sp_error_clear(&err);
	if (sp_export_begin(x, &t, path, &behind, spans ? &sp : NULL, &err)) {
		ret = sp_cli_fail(output, "cannot add '%s': %s", path, err.msg);
		goto out;
	}
	sp_pass_init(&pass);
	SP_PASS_OBSERVE(&pass, sp_antagonists_observer, &hist);
	SP_PASS_OBSERVE(&pass, sp_waited_behind_observer, &behind);
	SP_PASS_OBSERVE(&pass, sp_export_observer, x);
	if (spans)
		SP_PASS_OBSERVE(&pass, sp_spans_observer, &sp);
	ret = sp_cli_run(&t, &pass, NULL);
	if (!ret && spans && sp_spans_finish(&sp))
		ret = sp_cli_fail(path, "out of memory");
	if (ret) {
		sp_export_abort(x);
		goto out;
	}
	sp_error_clear(&err);
	if (sp_export_end(x, &err)) {
		ret = sp_cli_fail(output, "cannot add '%s': %s", path, err.msg);
		goto out;
	}
	sp_cli_note(path, "exported as trace_id %lld", (long long)sp_export_trace_id(x));
out:
	if (spans)
		sp_spans_release(&sp);
	sp_behind_table_release(&behind.table);
	sp_antagonists_release(&hist);
	sp_trace_close(&t);
	return ret;
}

/*
 * Open the database: an existing one (--append) in place, else a new one
 * in the temporary file @tf.  Return: an exit code, the error printed.
 */
static int open_db(struct sp_export **x, const char *output, bool append, bool idle,
		   struct sp_tempfile *tf, bool *is_new)
{
	struct sp_error err;
	struct stat st;

	sp_error_clear(&err);
	*is_new = stat(output, &st) != 0;
	if (*is_new && errno != ENOENT)
		return sp_cli_fail(output, "cannot use as the database: %s", strerror(errno));
	if (!*is_new) {
		if (S_ISDIR(st.st_mode))
			return sp_cli_fail(output, "is a directory: give -o a file name in it");
		if (!append)
			return sp_cli_fail(output, "exists already: --append adds the traces to "
					   "it (or remove it, or name a new file)");
		if (!S_ISREG(st.st_mode))
			return sp_cli_fail(output, "not a regular file: a database must be one");
		if (sp_export_open(x, output, false, idle, &err)) {
			sp_cli_error(output, &err);
			return SP_EXIT_FAILURE;
		}
		return SP_EXIT_OK;
	}
	if (sp_tempfile_open(tf, output, O_RDWR, &err)) {
		sp_cli_error(output, &err);
		return SP_EXIT_FAILURE;
	}
	if (!sp_tempfile_tmp_path(tf)) {
		sp_tempfile_discard(tf);
		return sp_cli_fail(output, "not a regular file: a database must be one");
	}
	if (sp_export_open(x, sp_tempfile_tmp_path(tf), true, idle, &err)) {
		sp_tempfile_discard(tf);
		sp_cli_error(output, &err);
		return SP_EXIT_FAILURE;
	}
	return SP_EXIT_OK;
}

/**
 * sp_cmd_export - the export subcommand
 * @argc: from "export" on
 * @argv: from "export" on
 *
 * Return: the exit status.
 */
int sp_cmd_export(int argc, char **argv)
{
	struct export_own own = { 0 };
	struct sp_export *x = NULL;
	struct sp_view_opts o;
	struct sp_tempfile tf;
	struct sp_error err;
	const char *output;
	bool is_new = false;
	int ret, i, done = 0;

	memset(&tf, 0, sizeof(tf));
	tf.fd = -1;
	ret = sp_view_opts_parse(&o, &sp_cmd_export_opts, INT_MAX, argc, argv, &own);
	if (ret >= 0)
		goto out;
	output = o.output;
	if (!output) {
		ret = sp_cli_usage("export", "no database given: -o FILE.db");
		goto out;
	}
	if (!strcmp(output, "-")) {
		ret = sp_cli_usage("export", "a database cannot go to standard output: -o FILE.db");
		goto out;
	}
	for (i = 0; i < o.nr_traces; i++) {
		if (same_file(output, o.traces[i])) {
			ret = sp_cli_usage("export", "refusing to write the database over the "
					   "trace '%s'", o.traces[i]);
			goto out;
		}
	}
	/* every trace readable before the database is touched */
	for (i = 0; i < o.nr_traces; i++) {
		ret = sp_cli_check(o.traces[i]);
		if (ret)
			goto out;
	}
	ret = open_db(&x, output, own.append, o.idle, &tf, &is_new);
	if (ret)
		goto out;
	for (i = 0; i < o.nr_traces && !ret; i++) {
		ret = export_one(x, o.traces[i], output, &o);
		if (!ret)
			done++;
	}
	sp_error_clear(&err);
	if (sp_export_close(x, !ret, &err) && !ret) {
		sp_cli_error(output, &err);
		ret = SP_EXIT_FAILURE;
	}
	if (is_new) {
		if (ret) {
			sp_tempfile_discard(&tf);
		} else if (sp_tempfile_commit(&tf, &err)) {
			sp_cli_error(output, &err);
			ret = SP_EXIT_FAILURE;
		}
	}
	if (ret && !is_new && done)
		sp_cli_fail(output, "holds the %d trace%s exported before, nothing of '%s'", done,
			    done == 1 ? "" : "s", o.traces[done]);
	else if (ret)
		sp_cli_fail(output, "%s", is_new ? "not written" : "left as it was");
out:
	sp_view_opts_release(&o);
	return ret;
}
