// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot runs: every run of every task, one line each, as CSV or JSON
 * lines, written as the model finds them (memory does not grow with the
 * trace).  A description run by the view driver (driver.h) that draws no
 * image: the window, --cpus and --target are those of every command.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/reader.h"

struct runs_out {
	FILE *fp;			/* stdout or the tempfile's stream */
	struct sp_tempfile tf;
	bool to_file;			/* -o FILE */
	bool json;
	FILE *out;			/* where the lines go: @fp, or @spool for now */
	FILE *spool;			/* see spool_begin(); NULL when not spooling */
	bool spool_error;
	const struct sp_view_opts *o;
	struct sp_trace *t;
	uint64_t nr_runs;
	struct sp_antagonists hist;	/* who held a CPU while a task waited for it */
};

static void print_header(struct runs_out *r)
{
	if (r->json)
		fprintf(r->fp, "{\"start_ns\": %" PRIu64 "}\n", r->t->first_ns);
	else
		fprintf(r->fp, "# start_ns=%" PRIu64 "\n"
			"cpu,start_ns,end_ns,pid,comm,end_state,wait_ns,woken_by,prev_cpu,behind,"
			"behind_ns\n",
			r->t->first_ns);
}

/* A CSV field, quoted (RFC 4180) when it holds a separator, a quote or '#'. */
static void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n#")] && s[0] != ' ') {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/*
 * When a trace has sched_waking records and no sched_wakeup, sched_waking
 * is the wakeup, which is known only at the end of a first pass: the pass
 * is then made again (sp_trace_run()) and the waits of the first were
 * wrong.  A file starts over; what cannot start over (standard output,
 * a pipe, a device) gets the lines of the first pass through a temporary
 * file, the spool, until a sched_wakeup record shows there will be no
 * second pass, or the pass ends without one.  Memory stays the same.
 */
static int spool_begin(struct runs_out *r)
{
	r->spool = tmpfile();
	if (!r->spool)
		return -errno;
	r->out = r->spool;
	return 0;
}

/* Copy what the spool holds to the output, and write there from now on. */
static void spool_end(struct runs_out *r)
{
	char buf[65536];
	size_t n;

	r->out = r->fp;
	if (fflush(r->spool) || fseek(r->spool, 0, SEEK_SET))
		r->spool_error = true;
	while (!r->spool_error && (n = fread(buf, 1, sizeof(buf), r->spool)) > 0)
		if (fwrite(buf, 1, n, r->fp) != n)
			break;
	if (ferror(r->spool))
		r->spool_error = true;
	fclose(r->spool);
	r->spool = NULL;
}

static void on_run(void *data, const struct sp_run *run)
{
	struct runs_out *r = data;
	const struct sp_view_opts *o = r->o;
	uint64_t origin = r->t->first_ns;
	const char *comm, *state;
	struct sp_behind top = { -1, 0 };
	uint64_t held;
	char waker[16];
	size_t nr;

	if (run->pid == 0 && !r->o->idle)
		return;
	if (!sp_scope_run(&o->scope, run))
		return;
	comm = sp_scope_comm(&o->scope, run->pid);
	if (r->spool && r->t->model.nr_by_type[SP_EV_WAKEUP])
		spool_end(r);
	state = sp_run_end_name(run);
	r->nr_runs++;
	sp_waker_format(waker, sizeof(waker), run->waker);
	/* the longest antagonist of the wait that ended as it began */
	if (run->wait_ns && run->pid != 0)
		sp_antagonists_query(&r->hist, run->cpu, run->pid, run->start_ns - run->wait_ns,
				     run->start_ns, &top, 1, &nr, &held);
	if (r->json) {
		fprintf(r->out, "{\"cpu\": %d, \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
			", \"pid\": %d, \"comm\": ", run->cpu, run->start_ns - origin,
			run->end_ns - origin, run->pid);
		sp_cli_json_string(r->out, comm);
		fputs(", \"end_state\": ", r->out);
		sp_cli_json_string(r->out, state);
		/* a pid is a number; an interrupt, a string */
		fprintf(r->out, ", \"wait_ns\": %" PRIu64 ", \"woken_by\": %s%s%s, "
			"\"prev_cpu\": %d, \"behind\": %d, \"behind_ns\": %" PRIu64 "}\n",
			run->wait_ns, run->waker < SP_WAKER_NONE ? "\"" : "", waker,
			run->waker < SP_WAKER_NONE ? "\"" : "", run->prev_cpu, top.pid, top.ns);
		return;
	}
	fprintf(r->out, "%d,%" PRIu64 ",%" PRIu64 ",%d,", run->cpu, run->start_ns - origin,
		run->end_ns - origin, run->pid);
	csv_field(r->out, comm);
	putc(',', r->out);
	csv_field(r->out, state);
	fprintf(r->out, ",%" PRIu64 ",%s,%d,%d,%" PRIu64 "\n", run->wait_ns, waker, run->prev_cpu,
		top.pid, top.ns);
}

/* The pass is made again: what went out of the first is thrown away. */
static void on_reset(void *data)
{
	struct runs_out *r = data;

	r->nr_runs = 0;
	if (r->spool) {
		fclose(r->spool);
		r->spool = NULL;
		r->out = r->fp;
		return;
	}
	if (!fflush(r->fp) && !ftruncate(fileno(r->fp), 0) && !fseek(r->fp, 0, SEEK_SET)) {
		print_header(r);
		return;
	}
	r->spool_error = true;
}

/* Whether @out names the same file as @in (the input trace). */
static bool same_file(const char *out, const char *in)
{
	struct stat a, b;

	return !stat(out, &a) && !stat(in, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	       S_ISREG(a.st_mode);
}

/* The output opened and its first line written, before the pass. */
static int runs_plan(struct sp_view_run *run, struct _cairo *cr)
{
	struct runs_out *r = run->data;
	const char *output = run->opts.output;
	struct sp_error err;

	(void)cr;
	r->t = &run->trace;
	if (output && strcmp(output, "-")) {
		if (same_file(output, r->t->path))
			return sp_cli_fail(output, "refusing to write the runs over the input trace");
		sp_error_clear(&err);
		if (sp_tempfile_open(&r->tf, output, O_WRONLY, &err) < 0) {
			sp_cli_error(output, &err);
			return SP_EXIT_FAILURE;
		}
		r->fp = sp_tempfile_fdopen(&r->tf, "w");
		if (!r->fp) {
			sp_tempfile_discard(&r->tf);
			return sp_cli_fail(output, "cannot write: %s", strerror(errno));
		}
		r->to_file = true;
	} else {
		r->fp = stdout;
	}
	r->out = r->fp;
	print_header(r);
	if ((!r->to_file || r->tf.direct) && sp_reader_has_event(r->t->reader, SP_EV_WAKING) &&
	    spool_begin(r) < 0)
		return sp_cli_fail(NULL, "cannot create a temporary file: %s", strerror(errno));
	if (sp_antagonists_init(&r->hist, r->t->nr_cpus))
		return sp_cli_fail(NULL, "out of memory");
	return SP_EXIT_OK;
}

/* Each CPU's runs kept, for the longest antagonist of each wait; then the lines. */
static void runs_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct runs_out *r = run->data;

	SP_PASS_OBSERVE(&pass->pass, sp_antagonists_observer, &r->hist);
	sp_pass_add(&pass->pass, &(struct sp_model_observer){ .run_info = on_run,
							      .reset = on_reset,
							      .data = r });
}

static int runs_trace_done(struct sp_view_run *run)
{
	struct runs_out *r = run->data;

	if (r->hist.error)
		return sp_cli_fail(r->t->path, "out of memory keeping the runs of each CPU");
	if (r->spool)
		spool_end(r);
	if (r->spool_error)
		return sp_cli_fail(r->t->path, "cannot keep the runs while the trace is read "
				   "again: %s", strerror(errno ? errno : EIO));
	return SP_EXIT_OK;
}

/* The file put in place, or standard output flushed. */
static int runs_finish(struct sp_view_run *run)
{
	struct runs_out *r = run->data;
	struct sp_error err;

	if (r->to_file) {
		r->to_file = false;
		sp_error_clear(&err);
		if (sp_tempfile_commit(&r->tf, &err)) {
			sp_cli_error(run->opts.output, &err);
			return SP_EXIT_FAILURE;
		}
		return SP_EXIT_OK;
	}
	if (fflush(stdout) || ferror(stdout))
		return sp_cli_fail(NULL, "cannot write the runs: %s", strerror(errno));
	return SP_EXIT_OK;
}

/*
 * On failure the file is not put in place; the lines already bound for
 * standard output (spooled ones too) are written.
 */
static void runs_release(struct sp_view_run *run)
{
	struct runs_out *r = run->data;

	if (r->spool)
		spool_end(r);
	sp_antagonists_release(&r->hist);
	if (r->to_file)
		sp_tempfile_discard(&r->tf);
	else if (r->fp)
		fflush(stdout);
}

/* Only text: no image. */
static int runs_parsed(struct sp_view_run *run)
{
	struct runs_out *r = run->data;

	r->o = &run->opts;
	r->json = run->opts.json;
	run->no_image = true;
	return SP_EXIT_OK;
}

static const struct sp_opt runs_options[] = {
	SP_OPT_SHARED("input"),
	SP_OPT_WORDS("output", "write to FILE (replaced whole, at the end; '-': standard output, "
		     "the default)"),
	SP_OPT_WORDS("json", "JSON lines instead of CSV"),
	SP_OPT_SHARED("idle"),
	SP_OPT_WORDS("min", "runs that end after TIME from the trace start"),
	SP_OPT_WORDS("max", "runs that begin before TIME from the trace start"),
	SP_OPT_WORDS("time", "the window in the trace's own timestamps (seconds); runs "
		     "overlapping the window are written whole; TIME: seconds, or 100ms, 250us, "
		     "2s, 300ns"),
	SP_OPT_WORDS("cpus", "runs on these CPUs (0-3,8)"),
	SP_OPT_WORDS("target", "runs of these commands (glob) or thread ids (repeat or separate "
		     "with commas)"),
	SP_OPT_WORDS("target-process", "runs of the threads of these processes (by leader)"),
	SP_OPT_SHARED("target-tree"),
	{ }
};

const struct sp_view_desc sp_view_runs = {
	.cmd = {
		SP_CMD_NAMED(runs, "runs", "every run of every task, one line each (CSV or JSON)"),
		.description =
		"Every run of every task, one line each, in the order the runs end: the\n"
		"CPU, when it began and ended (ns after the trace start, given in a first\n"
		"line '# start_ns=N'), the task, the state it was switched out in, and the\n"
		"wait that ended when it began (how long, who woke it, where it ran before).\n"
		"\n"
		"Examples:\n"
		"  schedplot runs trace.dat > runs.csv              CSV for a script\n"
		"  schedplot runs --json trace.dat | jq .           JSON lines\n"
		"  schedplot runs --target 'stress*' -o s.csv trace.dat\n"
		"  schedplot runs --min 2 --max 2.5 --cpus 0-3 trace.dat\n"
		"\n",
	},
	.data_size = sizeof(struct runs_out),
	.parsed = runs_parsed,
	SP_VIEW_HOOKS(runs),
	.trace_done = runs_trace_done,
};
