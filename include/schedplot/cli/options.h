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
 * command's synopsis and own text (description, examples), then the options
 * grouped under headings, then its closing line.  An option given to a
 * command that does not take it, but that another command takes, "does
 * not apply" (sp_opts_set_all()).
 *
 * Adding an option another command has: SP_OPT_SHARED() of its name in
 * the command's table.  Adding an option of one command: one entry in its
 * table and a case in its parse hook.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

struct sp_view_opts;
struct sp_opts_ctx;

/*
 * One option: its names, its value, its help.  In a command's table an
 * entry without a group takes the shared option (or general one) of its
 * name, in the command's own words and letter where it gives them.
 */
struct sp_opt {
	const char *name;	/* the long name, without "--"; NULL ends a table */
	int key;		/* its short letter, or a value above 255 (enum sp_view_opt);
				 * of a shared one: its letter in this command only (stats'
				 * -j for --json, where -j is --jobs), 0: the shared key */
	int has_arg;		/* no_argument, required_argument or optional_argument */
	const char *value;	/* the value's name in the help ("FILE"); NULL: none */
	const char *group;	/* the heading it is listed under in --help; NULL: shared */
	const char *help;	/* what it does: one sentence, wrapped when printed; of a
				 * shared one, the command's words (NULL: the shared ones) */
};

/* A shared option in a command's table, as every command says it. */
#define SP_OPT_SHARED(long_name)	{ .name = (long_name) }
/* A shared option in a command's table, in the command's own words. */
#define SP_OPT_WORDS(long_name, words)	{ .name = (long_name), .help = (words) }

/* The shared options, by group, for a command's table. */
#define SP_OPTS_WINDOW		SP_OPT_SHARED("min"), SP_OPT_SHARED("max"), SP_OPT_SHARED("time")
#define SP_OPTS_TASKS		SP_OPT_SHARED("target"), SP_OPT_SHARED("target-process"), \
				SP_OPT_SHARED("target-tree")
#define SP_OPTS_SCOPE		SP_OPT_SHARED("cpus"), SP_OPTS_TASKS
#define SP_OPTS_IMAGE		SP_OPT_SHARED("output"), SP_OPT_SHARED("format"), \
				SP_OPT_SHARED("width"), SP_OPT_SHARED("height"), \
				SP_OPT_SHARED("title"), SP_OPT_SHARED("no-legend"), \
				SP_OPT_SHARED("font-size")
#define SP_OPTS_ROWS		SP_OPT_SHARED("cpu-order"), SP_OPT_SHARED("topology"), \
				SP_OPT_SHARED("socket-order")
#define SP_OPTS_COLORS		SP_OPT_SHARED("color-by"), SP_OPT_SHARED("palette"), \
				SP_OPT_SHARED("aggregate"), SP_OPT_SHARED("colors"), \
				SP_OPT_SHARED("colors-out")
#define SP_OPTS_POWER		SP_OPT_SHARED("freq"), SP_OPT_SHARED("idle-states")
#define SP_OPTS_MARKS		SP_OPT_SHARED("migrations"), SP_OPT_SHARED("wakeups"), \
				SP_OPT_SHARED("placement"), SP_OPT_SHARED("events"), \
				SP_OPT_SHARED("mark"), SP_OPT_SHARED("span")

/* The window and scope of the commands that count waits (explain, latency), in their words. */
#define SP_OPTS_WAITS \
	SP_OPT_WORDS("min", "start the window TIME after the trace start: count the " \
		     "waits that begin in it"), \
	SP_OPT_SHARED("max"), SP_OPT_SHARED("time"), \
	SP_OPT_WORDS("cpus", "count waits that end on these CPUs (0-3,8)"), \
	SP_OPT_WORDS("target", "count waits of these commands (glob) or thread ids " \
		     "(repeat or separate with commas)"), \
	SP_OPT_WORDS("target-process", "count waits of the threads of these processes"), \
	SP_OPT_SHARED("target-tree")

/* A command's command line. */
struct sp_cmd_opts {
	const char *name;		/* the subcommand */
	const char *summary;		/* what it does, in one line of schedplot --help */
	const char *synopsis;		/* what follows "usage: schedplot NAME" ('\n': another
					 * way to call it); NULL: "[OPTIONS] [TRACE.dat]" */
	const char *description;	/* --help after the synopsis, before the options:
					 * what it does, examples (ends with a blank line) */
	const char *footer;		/* --help after the options; NULL: "See
					 * schedplot-NAME(1).\n" */
	const struct sp_opt *opts;	/* its options in --help order, its own and the
					 * shared ones it takes; ended by a NULL name.  -v,
					 * -q, --view and -h are added where not listed */
	/* an own option (or with in_order an operand, key 1): 0 or an exit code */
	int (*parse)(struct sp_opts_ctx *ctx, int key, const char *arg);
	bool in_order;			/* operands come back in order as key 1 */
	bool stop_at_operand;		/* the options end at the first operand (a command
					 * to run, with options of its own, follows) */
};

/*
 * The head of a command's description: its name, its line in schedplot
 * --help, and its table of options, named after PREFIX as SP_VIEW_HOOKS()
 * names a view's hooks: PREFIX_options.
 */
#define SP_CMD_NAMED(prefix, cmd_name, cmd_summary)				\
	.name = (cmd_name), .summary = (cmd_summary), .opts = prefix##_options

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
 * sp_opts_set_all - every command's options, for "does not apply"
 * @all: an array ended by NULL, kept (main() gives its commands')
 */
void sp_opts_set_all(const struct sp_cmd_opts *const *all);

#endif /* SP_OPTIONS_H */
