// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line from one table: the options commands share, declared
 * once with their help, and the parse loop and --help that every command's
 * description drives (include/schedplot/cli/options.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"

#define G_INPUT		"Input"
#define G_OUTPUT	"Output"
#define G_WINDOW	"Window"
#define G_SCOPE		"Tasks and CPUs"
#define G_COLORS	"Colors"
#define G_ROWS		"Rows"
#define G_POWER		"Power"
#define G_MARKS		"Marks"
#define G_GENERAL	"General"

/* The options commands share; parsed by the handler sp_opts_parse() is given. */
static const struct sp_opt shared_opts[] = {
	{ "input", 'i', required_argument, "FILE", G_INPUT,
	  "the trace to read (default: trace.dat)" },
	{ "jobs", 'j', required_argument, "N", G_INPUT,
	  "traces read at once (default: one per CPU)" },
	{ "min", SP_VOPT_MIN, required_argument, "TIME", G_WINDOW,
	  "start the window TIME after the trace start" },
	{ "max", SP_VOPT_MAX, required_argument, "TIME", G_WINDOW,
	  "end the window TIME after the trace start" },
	{ "time", SP_VOPT_TIME, required_argument, "START,END", G_WINDOW,
	  "the window in the trace's own timestamps (seconds); TIME: seconds, or 100ms, "
	  "250us, 2s, 300ns" },
	{ "min-at", SP_VOPT_MIN_AT, required_argument, "EVENT", G_WINDOW,
	  "start the window at the first record of EVENT (SYSTEM:EVENT, e.g. ftrace:print)" },
	{ "cpus", SP_VOPT_CPUS, required_argument, "LIST", G_SCOPE,
	  "only these CPUs and the tasks on them, e.g. 0-15,32-47 (default: all)" },
	{ "target", SP_VOPT_TARGET, required_argument, "COMM|PID", G_SCOPE,
	  "only the tasks of these commands (glob patterns) or thread ids (repeat or "
	  "separate with commas)" },
	{ "target-process", SP_VOPT_TARGET_PROCESS, required_argument, "PID|COMM", G_SCOPE,
	  "the same for all threads of these processes (by leader)" },
	{ "target-tree", SP_VOPT_TARGET_TREE, required_argument, "PID|COMM", G_SCOPE,
	  "the same for these tasks and all they forked, exec or not, at any depth "
	  "(trace-cmd record -c)" },
	{ "output", 'o', required_argument, "FILE", G_OUTPUT,
	  "image to write: .png, .pdf or .svg (default: TRACE-COMMAND.png here; '-': "
	  "standard output)" },
	{ "format", SP_VOPT_FORMAT, required_argument, "FMT", G_OUTPUT,
	  "png, pdf or svg (default: from the file name; needed with -o -)" },
	{ "width", SP_VOPT_WIDTH, required_argument, "N", G_OUTPUT,
	  "image width: pixels for PNG (default 1600), points for PDF and SVG (default 720)" },
	{ "height", SP_VOPT_HEIGHT, required_argument, "N", G_OUTPUT,
	  "image height (default: grows with what is drawn)" },
	{ "title", SP_VOPT_TITLE, required_argument, "TEXT", G_OUTPUT,
	  "title above the image (default: the trace's name; --title '' for none)" },
	{ "no-legend", SP_VOPT_NO_LEGEND, no_argument, NULL, G_OUTPUT,
	  "leave out the legend" },
	{ "font-size", SP_VOPT_FONT_SIZE, required_argument, "N", G_OUTPUT,
	  "base font size, pixels for PNG, points for PDF and SVG (default 11)" },
	{ "no-shade", SP_VOPT_NO_SHADE, no_argument, NULL, G_OUTPUT,
	  "do not draw the lost capacity band" },
	{ "text", SP_VOPT_TEXT, no_argument, NULL, G_OUTPUT,
	  "print the numbers only, no image" },
	{ "json", SP_VOPT_JSON, no_argument, NULL, G_OUTPUT,
	  "print JSON only (with -o, the image too)" },
	{ "csv", SP_VOPT_CSV, required_argument, "FILE", G_OUTPUT,
	  "also write the step functions: time_ns,running,waiting,lost, time_ns after the "
	  "'# start_ns=N' first line (the trace start); '-': standard output" },
	{ "idle", SP_VOPT_IDLE, no_argument, NULL, G_OUTPUT,
	  "also the runs of the idle task (pid 0)" },
	{ "color-by", SP_VOPT_COLOR_BY, required_argument, "WHAT", G_COLORS,
	  "pid (default: every thread its own color), command, or process (threads as "
	  "their process; 'parent' is its old name)" },
	{ "palette", SP_VOPT_PALETTE, required_argument, "NAME", G_COLORS,
	  "default, colorblind or grey" },
	{ "aggregate", SP_VOPT_AGGREGATE, required_argument, "RULE", G_COLORS,
	  "how a pixel column of a row is colored: share (default: the task with most of "
	  "its busy time, paler the less of the column was busy) or longest (whatever held "
	  "it longest, idle included)" },
	{ "colors", SP_VOPT_COLORS, required_argument, "FILE", G_COLORS,
	  "take the colors of the tasks FILE names (written by --colors-out), so figures "
	  "of one study agree" },
	{ "colors-out", SP_VOPT_COLORS_OUT, required_argument, "FILE", G_COLORS,
	  "write the colors used (JSON) for --colors" },
	{ "cpu-order", SP_VOPT_CPU_ORDER, required_argument, "ORDER", G_ROWS,
	  "numeric or socket; default socket when there is a topology (recorded in the "
	  "trace by 'schedplot record', or --topology), else numeric" },
	{ "topology", SP_VOPT_TOPOLOGY, required_argument, "FILE", G_ROWS,
	  "output of 'lscpu -p' run on the traced machine, used instead of the trace's "
	  "own topology" },
	{ "socket-order", SP_VOPT_SOCKET_ORDER, no_argument, NULL, G_ROWS,
	  "same as --cpu-order socket" },
	{ "freq", SP_VOPT_FREQ, optional_argument, "MODE", G_POWER,
	  "color rows by CPU frequency (power:cpu_frequency; hatched before a CPU's first "
	  "one), with a color bar in MHz; MODE rows (default) or merged: task on top, "
	  "frequency below" },
	{ "idle-states", SP_VOPT_IDLE_STATES, no_argument, NULL, G_POWER,
	  "shade idle time by idle state (power:cpu_idle), light to dark grey as it deepens" },
	{ "migrations", SP_VOPT_MIGRATIONS, no_argument, NULL, G_MARKS,
	  "mark each migration on the two rows, joined: solid at wakeup, dashed load "
	  "balancing, dotted NUMA, thick across sockets; counts in the legend" },
	{ "wakeups", SP_VOPT_WAKEUPS, no_argument, NULL, G_MARKS,
	  "arrows from the waker's row to where the woken task ran, when zoomed in enough "
	  "to read them" },
	{ "placement", SP_VOPT_PLACEMENT, no_argument, NULL, G_MARKS,
	  "ring the wakeups that left an idle previous CPU" },
	{ "events", SP_VOPT_EVENTS, required_argument, "LIST", G_MARKS,
	  "a shape where each SYSTEM:EVENT record fired, e.g. ftrace:print (its text as a "
	  "label when zoomed in)" },
	{ "mark", SP_VOPT_MARK, required_argument, "'EVENT/FILTER/ [label=FIELD]'", G_MARKS,
	  "a shape where each record of EVENT (sched ones too) that passes FILTER fired; "
	  "FILTER as in trace-cmd report -F, e.g. 'sched:sched_waking/prio < 100/'; may be "
	  "repeated" },
	{ "span", SP_VOPT_SPAN, required_argument, "'START..END key=FIELD'", G_MARKS,
	  "a bar along the CPU's row from each START record to the next END record with the "
	  "same FIELD values, e.g. 'irq:irq_handler_entry..irq:irq_handler_exit key=irq'; "
	  "may be repeated" },
	{ }
};

/* What every command takes; parsed here. */
static const struct sp_opt general_opts[] = {
	{ "verbose", 'v', no_argument, NULL, G_GENERAL,
	  "list what was repaired or lost in the trace (the first 10 of each with CPU and "
	  "time; -vv: all)" },
	{ "quiet", 'q', no_argument, NULL, G_GENERAL, "no progress line and no warnings" },
	{ "view", SP_VOPT_VIEW, required_argument, "FILE", G_GENERAL,
	  "or @FILE: read options (--mark, --span, ...) from FILE, a view file "
	  "(schedplot(1); ready ones in contrib/views)" },
	{ "help", 'h', no_argument, NULL, G_GENERAL, "show this help" },
	{ }
};

static const struct sp_opt *find_name(const struct sp_opt *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

/* The command's own option of key @key. */
static const struct sp_opt *find_own(const struct sp_cmd_opts *cmd, int key)
{
	for (const struct sp_opt *o = cmd->opts; o->name; o++)
		if (o->group && o->key == key)
			return o;
	return NULL;
}

/* The shared or general option an entry of a command's table without a group takes. */
static const struct sp_opt *find_shared(const struct sp_opt *entry)
{
	const struct sp_opt *o = find_name(shared_opts, entry->name);

	return o ? o : find_name(general_opts, entry->name);
}

/* The shared option's key of what getopt_long returned: @key, or that of a letter of @cmd's. */
static int shared_key(const struct sp_cmd_opts *cmd, int key)
{
	const struct sp_opt *o;

	for (const struct sp_opt *e = cmd->opts; e->name; e++) {
		if (e->group || e->key != key)
			continue;
		o = find_shared(e);
		if (o)
			return o->key;
	}
	return key;
}

/*
 * Calls @fn on each option of @cmd in --help order, a shared one as @cmd
 * says it; stops at a non-zero return.
 */
static int for_each_opt(const struct sp_cmd_opts *cmd,
			int (*fn)(const struct sp_opt *opt, void *data), void *data)
{
	const struct sp_opt *o;
	struct sp_opt said;
	int ret = 0;

	for (const struct sp_opt *e = cmd->opts; e->name && !ret; e++) {
		if (e->group) {
			ret = fn(e, data);
			continue;
		}
		o = find_shared(e);
		if (!o)
			continue;
		said = *o;
		if (e->key)
			said.key = e->key;
		if (e->help)
			said.help = e->help;
		ret = fn(&said, data);
	}
	/* the general ones the table does not list; an own one of their name replaces them */
	for (o = general_opts; o->name && !ret; o++)
		if (!find_name(cmd->opts, o->name))
			ret = fn(o, data);
	return ret;
}

/* ---- --help ---- */

#define HELP_COLUMN	24	/* where the help of an option starts */
#define HELP_WIDTH	79

struct help_state {
	FILE *f;
	const char *group;
};

/* @len bytes of @text from column HELP_COLUMN, wrapped at word boundaries */
static int print_piece(FILE *f, const char *p, int len, int col)
{
	int indent = (int)strspn(p, " ");

	while (len > 0) {
		int room = HELP_WIDTH - HELP_COLUMN - indent, cut = len;

		if (col > HELP_COLUMN) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s", HELP_COLUMN + indent - col, "");
		p += strspn(p, " ");
		len = (int)strnlen(p, (size_t)len);
		cut = len;
		if (len > room) {
			for (cut = room; cut > 0 && p[cut] != ' '; cut--)
				;
			if (!cut)
				cut = (int)strcspn(p, " ");
		}
		fprintf(f, "%.*s\n", cut, p);
		p += cut;
		len -= cut;
		while (len > 0 && *p == ' ') {
			p++;
			len--;
		}
		col = 0;
	}
	return col;
}

/* @text from column HELP_COLUMN: each line ('\n') wrapped; @col: where the line is now */
static void print_wrapped(FILE *f, const char *text, int col)
{
	while (*text) {
		int len = (int)strcspn(text, "\n");

		col = print_piece(f, text, len, col);
		text += len + (text[len] == '\n');
	}
}

static int help_line(const struct sp_opt *opt, void *data)
{
	struct help_state *st = data;
	char spec[64];
	int n;

	if (!st->group || strcmp(st->group, opt->group))
		fprintf(st->f, "%s%s:\n", st->group ? "\n" : "", opt->group);
	st->group = opt->group;
	if (opt->key > 0 && opt->key < 256)
		n = snprintf(spec, sizeof(spec), "  -%c, --%s", opt->key, opt->name);
	else
		n = snprintf(spec, sizeof(spec), "      --%s", opt->name);
	if (opt->value && opt->has_arg == optional_argument)
		n += snprintf(spec + n, sizeof(spec) - n, "[=%s]", opt->value);
	else if (opt->value)
		n += snprintf(spec + n, sizeof(spec) - n, " %s", opt->value);
	fputs(spec, st->f);
	print_wrapped(st->f, opt->help, n + 2 > HELP_COLUMN ? HELP_COLUMN + 1 : n);
	return 0;
}

/* "usage: schedplot NAME SYNOPSIS", a line for each way to call it */
static void print_synopsis(const struct sp_cmd_opts *cmd, FILE *f)
{
	const char *s = cmd->synopsis ? cmd->synopsis : "[OPTIONS] [TRACE.dat]";
	const char *lead = "usage:";

	for (;;) {
		int len = (int)strcspn(s, "\n");

		fprintf(f, "%-6s schedplot %s %.*s\n", lead, cmd->name, len, s);
		if (!s[len])
			break;
		s += len + 1;
		lead = "";
	}
	fputc('\n', f);
}

void sp_opts_help(const struct sp_cmd_opts *cmd, FILE *f)
{
	struct help_state st = { .f = f };

	print_synopsis(cmd, f);
	fputs(cmd->description, f);
	for_each_opt(cmd, help_line, &st);
	if (cmd->footer)
		fprintf(f, "\n%s", cmd->footer);
	else
		fprintf(f, "\nSee schedplot-%s(1).\n", cmd->name);
}

/* ---- parsing ---- */

struct getopt_table {
	struct option *longs;
	int nr;
	char shorts[128];
	size_t len;
};

static int add_getopt(const struct sp_opt *opt, void *data)
{
	struct getopt_table *t = data;

	t->longs[t->nr++] = (struct option){ opt->name, opt->has_arg, NULL, opt->key };
	if (opt->key > 0 && opt->key < 256 && t->len + 4 < sizeof(t->shorts)) {
		t->shorts[t->len++] = (char)opt->key;
		if (opt->has_arg != no_argument)
			t->shorts[t->len++] = ':';
		if (opt->has_arg == optional_argument)
			t->shorts[t->len++] = ':';
	}
	return 0;
}

static int count_opt(const struct sp_opt *opt, void *data)
{
	(void)opt;
	++*(int *)data;
	return 0;
}

/* getopt_long's table of @cmd (ended by a zeroed entry); NULL when out of memory */
static struct option *build_getopt(const struct sp_cmd_opts *cmd, struct getopt_table *t)
{
	int nr = 0;

	for_each_opt(cmd, count_opt, &nr);
	memset(t, 0, sizeof(*t));
	t->longs = calloc((size_t)nr + 1, sizeof(*t->longs));
	if (!t->longs)
		return NULL;
	if (cmd->in_order)
		t->shorts[t->len++] = '-';
	else if (cmd->stop_at_operand)
		t->shorts[t->len++] = '+';
	t->shorts[t->len++] = ':';
	for_each_opt(cmd, add_getopt, t);
	return t->longs;
}

static const struct sp_cmd_opts *const no_commands[] = { NULL };
static const struct sp_cmd_opts *const *all_commands;

void sp_opts_set_all(const struct sp_cmd_opts *const *all)
{
	all_commands = all;
}

/* Every option of every command, for "does not apply"; NULL when out of memory. */
static struct option *all_options(void)
{
	const struct sp_cmd_opts *const *all = all_commands ? all_commands : no_commands;
	struct getopt_table t, one;
	int nr = 0;

	for (size_t i = 0; all[i]; i++)
		for_each_opt(all[i], count_opt, &nr);
	memset(&t, 0, sizeof(t));
	t.longs = calloc((size_t)nr + 1, sizeof(*t.longs));
	if (!t.longs)
		return NULL;
	for (size_t i = 0; all[i]; i++) {
		one = t;
		one.len = 0;
		for_each_opt(all[i], add_getopt, &one);
		t.nr = one.nr;
	}
	return t.longs;
}

static int bad_option(const struct sp_cmd_opts *cmd, const struct option *longs, int opt,
		      char **argv)
{
	struct option *all = all_options();
	int ret = sp_cli_bad_option(cmd->name, longs, all, opt, argv);

	free(all);
	return ret;
}

int sp_opts_parse(const struct sp_cmd_opts *cmd, int argc, char **argv,
		  struct sp_view_opts *view, void *own,
		  int (*shared)(struct sp_opts_ctx *ctx, int key, const char *arg))
{
	struct sp_opts_ctx ctx = { .cmd = cmd, .view = view, .own = own, .argc = argc,
				   .argv = argv };
	struct getopt_table t;
	int opt, ret = -1;

	if (!build_getopt(cmd, &t))
		return sp_cli_fail(NULL, "out of memory");
	optind = 1;
	opterr = 0;
	/* the command's own table: an abbreviation never names an option it rejects */
	while (ret < 0 && (opt = getopt_long(argc, argv, t.shorts, t.longs, NULL)) != -1) {
		if (sp_cli_parse_common(opt))
			continue;
		if (opt == 'h') {
			sp_opts_help(cmd, stdout);
			ret = SP_EXIT_OK;
			break;
		}
		if (opt == '?' || opt == ':')
			ret = bad_option(cmd, t.longs, opt, argv);
		else if (opt == 1 || find_own(cmd, opt))
			ret = cmd->parse(&ctx, opt, optarg);
		else
			ret = shared(&ctx, shared_key(cmd, opt), optarg);
		if (!ret)
			ret = -1;
	}
	free(t.longs);
	return ret;
}
