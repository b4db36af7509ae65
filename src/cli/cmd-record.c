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
#include "schedplot/cli/viewopts.h"
#include "schedplot/trace/record.h"

static const char record_usage[] =
	"usage: schedplot record [OPTIONS] [-- COMMAND [ARGS...]]\n"
	"\n"
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
	"\n"
	"Options:\n"
	"  -o, --output FILE         the trace (default trace.dat)\n"
	"  -e, --event EVENT         record these events too, as trace-cmd record -e\n"
	"                            takes them: SYSTEM:EVENT, SYSTEM, EVENT or globs\n"
	"                            ('irq:*'); may be repeated.  ftrace:print is always\n"
	"                            recorded: the command writes it to the file named\n"
	"                            by $SCHEDPLOT_TRACE_MARKER\n"
	"  -d, --duration TIME       stop after this long: seconds, or 500ms, 2s, ...\n"
	"  -b, --buffer-size KB      ring buffer per CPU in KiB (default 8192)\n"
	"      --file-version N      6 or 7 (default 7)\n"
	"      --compression NAME    zstd or none (version 7; default zstd)\n"
	"      --view FILE, @FILE    read options from FILE, a view file (schedplot(1)),\n"
	"                            and record the events its --mark, --span and\n"
	"                            --color-by need\n"
	"      --mark DEF, --span DEF, --color-by WHAT\n"
	"                            record the events these need, as the views take\n"
	"                            them (what a view file holds)\n"
	"  -v, --verbose             say what was recorded\n"
	"  -q, --quiet               no summary and no warnings\n"
	"  -h, --help                show this help\n"
	"\n"
	"See schedplot-record(1) for the details.\n";

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION, OPT_MARK, OPT_SPAN, OPT_COLOR_BY };

static const struct option record_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "event", required_argument, NULL, 'e' },
	{ "duration", required_argument, NULL, 'd' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "mark", required_argument, NULL, OPT_MARK },
	{ "span", required_argument, NULL, OPT_SPAN },
	{ "color-by", required_argument, NULL, OPT_COLOR_BY },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * The events a view's --mark, --span or --color-by needs, added to
 * @events (each kept in @names, which the caller frees) unless there.
 * Return: 0, or the exit code having said what is wrong.
 */
static int view_events(int opt, const char *text, const char **events, int *nr_events,
		       char **names, int *nr_names)
{
	static const int vopt[] = { [OPT_MARK - OPT_MARK] = SP_VOPT_MARK,
				    [OPT_SPAN - OPT_MARK] = SP_VOPT_SPAN,
				    [OPT_COLOR_BY - OPT_MARK] = SP_VOPT_COLOR_BY };
	char ev[2][SP_EVSPEC_NAME];
	int i, j, n, ret;

	ret = sp_evspec_events("record", vopt[opt - OPT_MARK], text, ev, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		for (j = 0; j < *nr_names && strcmp(names[j], ev[i]); j++)
			;
		if (j < *nr_names)
			continue;
		names[*nr_names] = strdup(ev[i]);
		if (!names[*nr_names])
			return sp_cli_fail(NULL, "out of memory");
		events[(*nr_events)++] = names[(*nr_names)++];
		sp_cli_note(NULL, "%s '%s' needs %s", opt == OPT_MARK ? "--mark" :
			    opt == OPT_SPAN ? "--span" : "--color-by", text, ev[i]);
	}
	return 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int sp_cmd_record(int argc, char **argv)
{
	struct sp_record_options o = { .output = "trace.dat", .stop = &stop };
	const char **events = NULL;
	char **names = NULL;		/* the events views need, each once */
	int nr_names = 0;
	struct sp_record_result res;
	struct sigaction sa;
	struct sp_error err;
	double v;
	char *end;
	int opt, ret, status;

	/* every argument an -e, or a --span of two events */
	events = calloc(2 * (size_t)argc + 1, sizeof(*events));
	names = calloc(2 * (size_t)argc + 1, sizeof(*names));
	if (!events || !names) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	optind = 1;
	opterr = 0;
	/* '+': options stop at the command's name; ':' tells a missing value apart */
	while ((opt = getopt_long(argc, argv, "+:o:e:d:b:vqh", record_options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.output = optarg;
			break;
		case 'e':
			events[o.nr_events++] = optarg;
			break;
		case OPT_MARK:
		case OPT_SPAN:
		case OPT_COLOR_BY:
			ret = view_events(opt, optarg, events, &o.nr_events, names, &nr_names);
			if (ret)
				goto out;
			break;
		case 'd':
			if (sp_cli_parse_seconds(optarg, &v) || !(v > 0) || v > 1e7) {
				ret = sp_cli_usage("record", "--duration needs a time above 0 "
						    "like 10, 500ms or 2s (plain numbers are "
						    "seconds), not '%s'", optarg);
				goto out;
			}
			o.duration_s = v;
			break;
		case 'b':
			v = strtod(optarg, &end);
			if (end == optarg || *end || v < 4 || v > 1 << 24) {
				ret = sp_cli_usage("record", "--buffer-size wants KiB from 4, not '%s'",
						    optarg);
				goto out;
			}
			o.buffer_kb = v;
			break;
		case OPT_FILE_VERSION:
			if (strcmp(optarg, "6") && strcmp(optarg, "7")) {
				ret = sp_cli_usage("record", "--file-version is 6 or 7, not '%s'",
						    optarg);
				goto out;
			}
			o.file_version = atoi(optarg);
			break;
		case OPT_COMPRESSION:
			if (strcmp(optarg, "zstd") && strcmp(optarg, "none")) {
				ret = sp_cli_usage("record", "--compression is zstd or none, not '%s'",
						    optarg);
				goto out;
			}
			o.compression = optarg;
			break;
		case 'h':
			fputs(record_usage, stdout);
			ret = SP_EXIT_OK;
			goto out;
		default:
			if (sp_cli_parse_common(opt))
				break;
			ret = sp_cli_bad_option("record", record_options, NULL, opt, argv);
			goto out;
		}
	}
	if (o.file_version == 6 && o.compression && !strcmp(o.compression, "zstd")) {
		ret = sp_cli_usage("record", "file version 6 cannot be compressed");
		goto out;
	}
	o.events = events;
	if (optind < argc)
		o.argv = argv + optind;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!sp_cli.quiet && !o.argv && !o.duration_s)
		fprintf(stderr, "schedplot: recording; press Ctrl-C to stop\n");
	sp_error_clear(&err);
	ret = sp_record_run(&o, &res, &err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ret) {
		if (!err.code)
			err.code = ret;
		/* name the output only when the error is about writing it */
		sp_cli_error(strstr(err.msg, "write") || strstr(err.msg, "temporary") ||
			     strstr(err.msg, "rename") ? o.output : NULL, &err);
		ret = SP_EXIT_FAILURE;
		goto out;
	}
	if (res.missing[0] && sp_cli.verbose)
		sp_cli_warn("this kernel has no %s; recorded without", res.missing);
	if (res.lost)
		sp_cli_warn("%s: %llu events were lost (ring buffer full); try a larger --buffer-size",
			    o.output, (unsigned long long)res.lost);
	if (!sp_cli.quiet)
		fprintf(stderr, "schedplot: %s: %llu records of %d event types on %d CPUs, "
			"%llu pages\n", o.output, (unsigned long long)res.records, res.nr_events,
			res.nr_cpus, (unsigned long long)res.pages);
	ret = SP_EXIT_OK;
	status = res.command_status;
	if (res.command_ran && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (res.command_ran && WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
out:
	for (int i = 0; i < nr_names; i++)
		free(names[i]);
	free(names);
	free(events);
	return ret;
}
