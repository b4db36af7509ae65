// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot: pictures of what the Linux scheduler did, from trace-cmd files.
 * main() only dispatches to the subcommands, git/perf style.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewfile.h"
#include "schedplot/cli/options.h"
#include "schedplot/draw/version.h"

/* A subcommand: a view run by the view driver, or a function of its own. */
struct sp_command {
	const struct sp_view_desc *view;
	int (*fn)(int argc, char **argv);
	const struct sp_cmd_opts *opts;	/* fn's command line (a view's is in its desc) */
};

static const struct sp_command commands[] = {
	{ .view = &sp_view_datagraph },
	{ .view = &sp_view_running_waiting },
	{ .view = &sp_view_overview },
	{ .view = &sp_view_latency },
	{ .view = &sp_view_tasks },
	{ .view = &sp_view_explain },
	{ .view = &sp_view_stats },
	{ .fn = sp_cmd_compare, .opts = &sp_cmd_compare_opts },
	{ .view = &sp_view_runs },
	{ .fn = sp_cmd_export, .opts = &sp_cmd_export_opts },
	{ .fn = sp_cmd_record, .opts = &sp_cmd_record_opts },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The command's name, summary and options. */
static const struct sp_cmd_opts *command_line(const struct sp_command *cmd)
{
	return cmd->view ? &cmd->view->cmd : cmd->opts;
}

static const struct sp_command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, command_line(&commands[i])->name))
			return &commands[i];
	return NULL;
}

/* Every command's options, for "does not apply" (sp_opts_set_all()). */
static const struct sp_cmd_opts *const *all_opts(void)
{
	static const struct sp_cmd_opts *all[NR_COMMANDS + 1];
	size_t i;

	if (!all[0])
		for (i = 0; i < NR_COMMANDS; i++)
			all[i] = command_line(&commands[i]);
	return all;
}

static int run_command(const struct sp_command *cmd, int argc, char **argv)
{
	if (cmd->view)
		return sp_view_main(cmd->view, argc, argv);
	return cmd->fn(argc, argv);
}

/* The command with "@FILE" and "--view FILE" replaced by what the files hold. */
static int run_expanded(const struct sp_command *cmd, int argc, char **argv)
{
	char **orig = argv;
	int ret;

	ret = sp_viewfile_expand(command_line(cmd)->name, &argc, &argv);
	if (ret)
		return ret;
	ret = run_command(cmd, argc, argv);
	sp_viewfile_free(argv, orig);
	return ret;
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: schedplot [--version] [--help] COMMAND [OPTIONS] TRACE.dat\n"
	      "\n"
	      "Draw what the Linux scheduler did from a trace-cmd recording.\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-17s %s\n", command_line(&commands[i])->name,
			command_line(&commands[i])->summary);
	fputs("\n"
	      "Examples:\n"
	      "  schedplot datagraph trace.dat -o cores.png       every CPU over time\n"
	      "  schedplot running-waiting trace.dat -o rw.pdf    overload at a glance\n"
	      "  schedplot datagraph --min 3 --max 3.2 trace.dat  zoom: seconds from the start\n"
	      "  schedplot stats trace.dat                        the numbers, for a bug report\n"
	      "\n"
	      "Record a suitable trace with:\n"
	      "  schedplot record -o trace.dat -- COMMAND      (as root)\n"
	      "or\n"
	      "  trace-cmd record -e sched:sched_switch -e sched:sched_wakeup \\\n"
	      "      -e sched:sched_wakeup_new -e sched:sched_waking \\\n"
	      "      -e sched:sched_migrate_task -e sched:sched_process_fork \\\n"
	      "      -e sched:sched_process_exec -e sched:sched_process_exit -- COMMAND\n"
	      "\n"
	      "'schedplot COMMAND --help' shows a command's options; man schedplot-COMMAND\n"
	      "has the details.\n", f);
}

/*
 * The trace libraries have no version call: the version they run with is
 * the one in the file name the dynamic linker resolved (libfoo.so.1.7.1).
 */
static int print_lib_version(struct dl_phdr_info *info, size_t size, void *data)
{
	static const char *const libs[] = { "libtracecmd.so", "libtraceevent.so", "libtracefs.so" };
	char real[PATH_MAX];
	const char *base, *so;
	size_t i;

	if (!info->dlpi_name || !*info->dlpi_name || !realpath(info->dlpi_name, real))
		return 0;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		if (strncmp(base, libs[i], strlen(libs[i])))
			continue;
		so = base + strlen(libs[i]);
		printf(", %.*s %s", (int)(strlen(libs[i]) - 3), libs[i], *so == '.' ? so + 1 : "?");
	}
	return 0;
}

static void version(void)
{
	printf("schedplot %s\n", SP_VERSION);
	printf("running with cairo %s", sp_draw_cairo_version());
	dl_iterate_phdr(print_lib_version, NULL);
	printf("\nbuilt with %s\n", SP_DEP_VERSIONS);
}

int main(int argc, char **argv)
{
	const struct sp_command *cmd;
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return SP_EXIT_USAGE;
	}
	sp_opts_set_all(all_opts());
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		usage(stdout);
		return SP_EXIT_OK;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		version();
		return SP_EXIT_OK;
	}
	if (!strcmp(name, "help") && argc > 2) {
		char *help_argv[] = { argv[2], "--help", NULL };

		name = argv[2];
		argv = help_argv;
		argc = 2;
		cmd = find_command(name);
		if (cmd)
			return run_command(cmd, argc, argv);
		return sp_cli_usage(NULL, "'%s' is not a schedplot command", name);
	}
	if (!strcmp(name, "help")) {
		usage(stdout);
		return SP_EXIT_OK;
	}
	cmd = find_command(name);
	if (cmd)
		return run_expanded(cmd, argc - 1, argv + 1);
	return sp_cli_usage(NULL, "'%s' is not a schedplot command", name);
}
