// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot record: record the scheduler events the views need, in a
 * private tracefs instance, into a trace-cmd file.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/trace/record.h"

/* What the command line asks for; the events views need are kept in @names. */
struct record_cmd {
	struct sp_record_options o;
	const char **events;	/* -e, then what --mark, --span, --color-by need */
	char **names;		/* the events views need, each once */
	int nr_names;
};

/*
 * The events a view's --mark, --span or --color-by needs, added to the
 * events recorded unless there.
 * Return: 0, or the exit code having said what is wrong.
 */
static int view_events(struct record_cmd *rc, int key, const char *text)
{
	const char *opt = key == SP_VOPT_MARK ? "--mark" : key == SP_VOPT_SPAN ? "--span" :
			  "--color-by";
	char ev[2][SP_EVSPEC_NAME];
	int i, j, n, ret;

	ret = sp_evspec_events("record", key, text, ev, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		for (j = 0; j < rc->nr_names && strcmp(rc->names[j], ev[i]); j++)
			;
		if (j < rc->nr_names)
			continue;
		rc->names[rc->nr_names] = strdup(ev[i]);
		if (!rc->names[rc->nr_names])
			return sp_cli_fail(NULL, "out of memory");
		rc->events[rc->o.nr_events++] = rc->names[rc->nr_names++];
		sp_cli_note(NULL, "%s '%s' needs %s", opt, text, ev[i]);
	}
	return 0;
}

/* -o and the options record shares with the views: the events they need. */
static int record_parse_shared(struct sp_opts_ctx *ctx, int key, const char *arg)
{
	struct record_cmd *rc = ctx->own;

	if (key == 'o') {
		rc->o.output = arg;
		return 0;
	}
	return view_events(rc, key, arg);
}

static int record_parse(struct sp_opts_ctx *ctx, int key, const char *arg)
{
	static const char *const versions[] = { "6", "7", NULL };
	static const char *const compressions[] = { "zstd", "none", NULL };
	struct record_cmd *rc = ctx->own;
	double v;
	char *end;
	int choice;

	switch (key) {
	case 'e':
		rc->events[rc->o.nr_events++] = arg;
		return 0;
	case 'd':
		if (sp_cli_parse_seconds(arg, &v) || !(v > 0) || v > 1e7)
			return sp_cli_usage("record", "--duration needs a time above 0 like 10, "
					    "500ms or 2s (plain numbers are seconds), not '%s'", arg);
		rc->o.duration_s = v;
		return 0;
	case 'b':
		v = strtod(arg, &end);
		if (end == arg || *end || v < 4 || v > 1 << 24)
			return sp_cli_usage("record", "--buffer-size wants KiB from 4, not '%s'", arg);
		rc->o.buffer_kb = v;
		return 0;
	case SP_VOPT_FILE_VERSION:
		if (sp_cli_parse_choice("record", "file-version", arg, versions, &choice))
			return SP_EXIT_USAGE;
		rc->o.file_version = atoi(arg);
		return 0;
	case SP_VOPT_SLEEP_STACKS:
		rc->o.sleep_stacks = true;
		return 0;
	default:
		if (sp_cli_parse_choice("record", "compression", arg, compressions, &choice))
			return SP_EXIT_USAGE;
		rc->o.compression = arg;
		return 0;
	}
}

static const struct sp_opt record_options[] = {
	SP_OPT_WORDS("output", "the trace (default trace.dat)"),
	{ "event", 'e', required_argument, "EVENT", "Recording",
	  "record these events too, as trace-cmd record -e takes them: SYSTEM:EVENT, SYSTEM, "
	  "EVENT or globs ('irq:*'); may be repeated.  ftrace:print is always recorded: the "
	  "command writes it to the file named by $SCHEDPLOT_TRACE_MARKER" },
	{ "duration", 'd', required_argument, "TIME", "Recording",
	  "stop after this long: seconds, or 500ms, 2s, ..." },
	{ "buffer-size", 'b', required_argument, "KB", "Recording",
	  "ring buffer per CPU in KiB (default 8192)" },
	{ "file-version", SP_VOPT_FILE_VERSION, required_argument, "N", "Recording",
	  "6 or 7 (default 7)" },
	{ "compression", SP_VOPT_COMPRESSION, required_argument, "NAME", "Recording",
	  "zstd or none (version 7; default zstd)" },
	{ "sleep-stacks", SP_VOPT_SLEEP_STACKS, no_argument, NULL, "Recording",
	  "the kernel stack of each switch out in S or D (the stacktrace trigger), and the "
	  "kernel's symbols: stats then names where tasks blocked" },
	SP_OPT_WORDS("mark", "record the events this needs, as the views take it (what a view "
		     "file holds)"),
	SP_OPT_WORDS("span", "record the events this needs, as the views take it"),
	SP_OPT_WORDS("color-by", "record the event this needs, as the views take it"),
	SP_OPT_WORDS("verbose", "say what was recorded"),
	SP_OPT_WORDS("quiet", "no summary and no warnings"),
	SP_OPT_WORDS("view", "or @FILE: read options from FILE, a view file (schedplot(1)), and "
		     "record the events its --mark, --span and --color-by need"),
	{ }
};

const struct sp_cmd_opts sp_cmd_record_opts = {
	SP_CMD_NAMED(record, "record",
		     "record a trace of the scheduler and the CPU topology (root)"),
	.synopsis = "[OPTIONS] [-- COMMAND [ARGS...]]",
	.description =
	"Record the scheduler events the views need (sched_switch, sched_wakeup,\n"
	"sched_wakeup_new, sched_waking, sched_migrate_task, sched_process_fork/exec/exit,\n"
	"power:cpu_frequency and power:cpu_idle where the kernel has them) and the CPU\n"
	"topology, in a private tracefs instance, into a trace-cmd file.  Runs COMMAND\n"
	"and stops when it exits (its exit status becomes ours), or records the whole\n"
	"system for --duration seconds or until Ctrl-C.  Needs root.\n"
	"\n"
	"Examples:\n"
	"  sudo schedplot record -- make -j64            record a build\n"
	"  sudo schedplot record --duration 10 -o idle.dat\n"
	"  sudo schedplot record -e irq:irq_handler_entry -- ./bench\n"
	"\n",
	.footer = "See schedplot-record(1) for the details.\n",
	.parse = record_parse,
	.stop_at_operand = true,
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int sp_cmd_record(int argc, char **argv)
{
	struct record_cmd rc = { .o = { .output = "trace.dat", .stop = &stop } };
	struct sp_record_options *o = &rc.o;
	struct sp_record_result res;
	struct sigaction sa;
	struct sp_error err;
	int ret, status;

	/* every argument an -e, or a --span of two events */
	rc.events = calloc(2 * (size_t)argc + 1, sizeof(*rc.events));
	rc.names = calloc(2 * (size_t)argc + 1, sizeof(*rc.names));
	if (!rc.events || !rc.names) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	ret = sp_opts_parse(&sp_cmd_record_opts, argc, argv, NULL, &rc, record_parse_shared);
	if (ret >= 0)
		goto out;
	if (o->file_version == 6 && o->compression && !strcmp(o->compression, "zstd")) {
		ret = sp_cli_usage("record", "file version 6 cannot be compressed");
		goto out;
	}
	o->events = rc.events;
	if (optind < argc)
		o->argv = argv + optind;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!sp_cli.quiet && !o->argv && !o->duration_s)
		fprintf(stderr, "schedplot: recording; press Ctrl-C to stop\n");
	sp_error_clear(&err);
	ret = sp_record_run(o, &res, &err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ret) {
		if (!err.code)
			err.code = ret;
		/* name the output only when the error is about writing it */
		sp_cli_error(strstr(err.msg, "write") || strstr(err.msg, "temporary") ||
			     strstr(err.msg, "rename") ? o->output : NULL, &err);
		ret = SP_EXIT_FAILURE;
		goto out;
	}
	if (res.missing[0] && sp_cli.verbose)
		sp_cli_warn("this kernel has no %s; recorded without", res.missing);
	if (res.lost)
		sp_cli_warn("%s: %llu events were lost (ring buffer full); try a larger --buffer-size",
			    o->output, (unsigned long long)res.lost);
	if (!sp_cli.quiet)
		fprintf(stderr, "schedplot: %s: %llu records of %d event types on %d CPUs, "
			"%llu pages\n", o->output, (unsigned long long)res.records, res.nr_events,
			res.nr_cpus, (unsigned long long)res.pages);
	ret = SP_EXIT_OK;
	status = res.command_status;
	if (res.command_ran && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (res.command_ran && WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
out:
	for (int i = 0; i < rc.nr_names; i++)
		free(rc.names[i]);
	free(rc.names);
	free(rc.events);
	return ret;
}
