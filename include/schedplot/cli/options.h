/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_OPTIONS_H
#define SP_OPTIONS_H

/*
 * The command line of every subcommand, from one table: each option is
 * declared once, with its help beside it.  The options several commands
 * take (the input, the window, the tasks and CPUs, the image, ...) are
 * declared here, in options.c, and parsed into struct sp_view_opts
 * (sp_view_opts_option(), viewopts.c); a command lists the ones it takes and
 * declares its own in its file.  From that one description
 * sp_opts_parse() builds getopt_long's table and short-option string,
 * parses, hands each option to whoever owns it, and prints --help: the
 * command's own text (synopsis, description, examples), then the options
 * grouped under headings, then its closing line.  An option given to a
 * command that does not take it, but that another command takes, "does
 * not apply" (sp_opts_set_all()).
 *
 * Adding an option another command has: its key in the command's list.
 * Adding an option of one command: one entry in its own table and a case
 * in its parse hook.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

struct sp_view_opts;
struct sp_opts_ctx;

/* One option: its names, its value, its help. */
struct sp_opt {
	const char *name;	/* the long name, without "--"; NULL ends a table */
	int key;		/* its short letter, or a value above 255 (enum sp_view_opt) */
	int has_arg;		/* no_argument, required_argument or optional_argument */
	const char *value;	/* the value's name in the help ("FILE"); NULL: none */
	const char *group;	/* the heading it is listed under in --help */
	const char *help;	/* what it does: one sentence, wrapped when printed */
};

/* A command's own words for an option it shares (what --cpus selects there). */
struct sp_opt_help {
	const char *name;	/* NULL ends the list */
	const char *help;
};

/*
 * A shared option's short letter in one command only: stats' -j for
 * --json, where the -j of the commands that read many traces is --jobs.
 */
struct sp_opt_letter {
	const char *name;	/* NULL ends the list */
	int letter;
};

/* In sp_cmd_opts.keys: the command's own options are listed here. */
#define SP_OPTS_OWN		(-1)

/* The shared options, by group: macros of keys for sp_cmd_opts.keys. */
#define SP_OPTS_WINDOW		SP_VOPT_MIN, SP_VOPT_MAX, SP_VOPT_TIME
#define SP_OPTS_TASKS		SP_VOPT_TARGET, SP_VOPT_TARGET_PROCESS, SP_VOPT_TARGET_TREE
#define SP_OPTS_SCOPE		SP_VOPT_CPUS, SP_OPTS_TASKS
#define SP_OPTS_IMAGE		'o', SP_VOPT_FORMAT, SP_VOPT_WIDTH, SP_VOPT_HEIGHT, \
				SP_VOPT_TITLE, SP_VOPT_NO_LEGEND, SP_VOPT_FONT_SIZE
#define SP_OPTS_ROWS		SP_VOPT_CPU_ORDER, SP_VOPT_TOPOLOGY, SP_VOPT_SOCKET_ORDER
#define SP_OPTS_COLORS		SP_VOPT_COLOR_BY, SP_VOPT_PALETTE, SP_VOPT_AGGREGATE, \
				SP_VOPT_COLORS, SP_VOPT_COLORS_OUT
#define SP_OPTS_POWER		SP_VOPT_FREQ, SP_VOPT_IDLE_STATES
#define SP_OPTS_MARKS		SP_VOPT_MIGRATIONS, SP_VOPT_WAKEUPS, SP_VOPT_PLACEMENT, \
				SP_VOPT_EVENTS, SP_VOPT_MARK, SP_VOPT_SPAN

/* The words of the commands that count waits (explain, latency) for the window and scope. */
#define SP_OPTS_WAITS_HELP \
	{ "min", "start the window TIME after the trace start: count the waits that begin " \
	  "in it" }, \
	{ "cpus", "count waits that end on these CPUs (0-3,8)" }, \
	{ "target", "count waits of these commands (glob) or thread ids (repeat or separate " \
	  "with commas)" }, \
	{ "target-process", "count waits of the threads of these processes" }

/* A command's command line. */
struct sp_cmd_opts {
	const char *name;		/* the subcommand */
	const char *usage;		/* --help before the options: synopsis, description,
					 * examples (ends with a blank line) */
	const char *footer;		/* --help after the options; NULL: "See
					 * schedplot-NAME(1).\n" */
	const int *keys;		/* the shared options it takes, in --help order, and
					 * SP_OPTS_OWN; ended by 0.  -v, -q and -h are added */
	const struct sp_opt *own;	/* its own options (NULL: none), listed at
					 * SP_OPTS_OWN, else after the shared ones */
	const struct sp_opt_help *help;	/* its words for shared options (NULL: none) */
	const struct sp_opt_letter *letters; /* its letters for shared options (NULL: none) */
	/* an own option (or with in_order an operand, key 1): 0 or an exit code */
	int (*parse)(struct sp_opts_ctx *ctx, int key, const char *arg);
	bool in_order;			/* operands come back in order as key 1 */
	bool stop_at_operand;		/* the options end at the first operand (a command
					 * to run, with options of its own, follows) */
};

/* What a parse hook is handed. */
struct sp_opts_ctx {
	const struct sp_cmd_opts *cmd;
	struct sp_view_opts *view;	/* the shared options' values (NULL: none taken) */
	void *own;			/* the command's own values */
	int argc;			/* the command line, for an option that looks ahead */
	char **argv;
};

/**
 * sp_opts_parse - parse a command line by its description
 * @cmd: the command's options
 * @argc: from the subcommand's name on
 * @argv: from the subcommand's name on
 * @view: where the shared options go (o->cmd set); NULL when @cmd takes none
 * @own: handed to @cmd->parse
 * @shared: the parser of the shared options (sp_view_opts_option())
 *
 * -v and -q set sp_cli; -h prints the help (sp_opts_help()).  Usage errors
 * are printed.  On return optind is the first operand.
 *
 * Return: -1 to go on, else the exit code: SP_EXIT_OK after --help,
 * SP_EXIT_USAGE or SP_EXIT_FAILURE.
 */
int sp_opts_parse(const struct sp_cmd_opts *cmd, int argc, char **argv,
		  struct sp_view_opts *view, void *own,
		  int (*shared)(struct sp_opts_ctx *ctx, int key, const char *arg));

/**
 * sp_opts_help - print a command's --help
 * @cmd: the command's options
 * @f: the stream
 */
void sp_opts_help(const struct sp_cmd_opts *cmd, FILE *f);

/**
 * sp_opts_find - the option of a command named @name
 * @cmd: the command's options
 * @name: a long name (exact)
 *
 * Return: the option, NULL when @cmd does not take it.
 */
const struct sp_opt *sp_opts_find(const struct sp_cmd_opts *cmd, const char *name);

/**
 * sp_opts_set_all - every command's options, for "does not apply"
 * @all: an array ended by NULL, kept (main() gives its commands')
 */
void sp_opts_set_all(const struct sp_cmd_opts *const *all);

#endif /* SP_OPTIONS_H */
