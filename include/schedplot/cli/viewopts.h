/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEWOPTS_H
#define SP_VIEWOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/cli/cli.h"
#include "schedplot/draw/colormap.h"
#include "schedplot/draw/output.h"
#include "schedplot/model/scope.h"
#include "schedplot/model/target.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-power.h"

struct sp_cmd_opts;
struct sp_datagraph_opts;
struct sp_opts_ctx;
struct sp_model;
struct sp_topology;
struct sp_trace;

/*
 * The keys of the shared options without a short form (options.c declares
 * them; -i, -o and -j are their letters), then those of the views' own.
 */
enum sp_view_opt {
	SP_VOPT_MIN = 256,
	SP_VOPT_MAX,
	SP_VOPT_TIME,
	SP_VOPT_CPUS,
	SP_VOPT_TARGET,
	SP_VOPT_WIDTH,
	SP_VOPT_HEIGHT,
	SP_VOPT_TITLE,
	SP_VOPT_NO_LEGEND,
	SP_VOPT_FONT_SIZE,
	SP_VOPT_COLOR_BY,		/* datagraph colors */
	SP_VOPT_PALETTE,
	SP_VOPT_CPU_ORDER,		/* rows by socket */
	SP_VOPT_TOPOLOGY,
	SP_VOPT_SOCKET_ORDER,
	SP_VOPT_NO_SHADE,		/* running/waiting shading */
	SP_VOPT_CSV,			/* --csv FILE */
	SP_VOPT_FORMAT,
	SP_VOPT_FREQ,			/* power layers of the datagraph */
	SP_VOPT_IDLE_STATES,
	SP_VOPT_TARGET_PROCESS,		/* --target-process PID|COMM */
	SP_VOPT_TARGET_TREE,		/* --target-tree PID|COMM */
	SP_VOPT_MIGRATIONS,		/* datagraph marks */
	SP_VOPT_WAKEUPS,
	SP_VOPT_PLACEMENT,
	SP_VOPT_EVENTS,
	SP_VOPT_MIN_AT,
	SP_VOPT_AGGREGATE,		/* --aggregate share|longest: how a cell is inked */
	SP_VOPT_COLORS,			/* --colors FILE: colors kept from another figure */
	SP_VOPT_COLORS_OUT,		/* --colors-out FILE: the colors this figure used */
	SP_VOPT_MARK,			/* --mark EVENT[/FILTER/] */
	SP_VOPT_SPAN,			/* --span START..END key=FIELD */
	SP_VOPT_VIEW,			/* --view FILE: read by main (viewfile.h) */
	/* a view's own options, handed to its parse hook */
	SP_VOPT_BY,
	SP_VOPT_CLASS,
	SP_VOPT_CCDF,
	SP_VOPT_HIST,
	SP_VOPT_TEXT,
	SP_VOPT_JSON,
	SP_VOPT_SLOWEST,
	SP_VOPT_LAYOUT,
	SP_VOPT_SHADE,
	SP_VOPT_OVER_TIME,
	SP_VOPT_TOP,
	SP_VOPT_SORT,
	SP_VOPT_WHAT,			/* explain */
	SP_VOPT_AT,
	SP_VOPT_TASK,
	SP_VOPT_IDLE,			/* --idle (runs, export): shared, parsed here */
	SP_VOPT_LONG_POLE,		/* tasks */
	SP_VOPT_FILE_VERSION,		/* record */
	SP_VOPT_COMPRESSION,
	SP_VOPT_SLEEP_STACKS,
};

/* --events: at most this many, names shorter than this */
#define SP_VIEW_MAX_EVENTS	8
#define SP_VIEW_EVENT_NAME	64

enum sp_cpu_order {
	SP_CPU_ORDER_DEFAULT,	/* socket with a topology (--topology, the trace's), else numeric */
	SP_CPU_ORDER_NUMERIC,
	SP_CPU_ORDER_SOCKET,
};

/* The options every view shares, parsed in one place. */
struct sp_view_opts {
	const char *cmd;		/* "datagraph", ... for messages */
	struct sp_cli_inputs inputs;	/* -i FILEs and operands (or trace.dat) */
	char **traces;			/* the input traces: inputs.paths */
	int nr_traces;			/* >= 1 after parsing */
	const char *output;		/* -o; NULL: default name in the current directory */
	bool text;			/* --text: the numbers only, no image */
	bool json;			/* --json: JSON (an image only with -o) */
	enum sp_format format;		/* --format, else from the output name */
	bool has_min, has_max;		/* --min/--max: seconds after the trace start */
	double min_s, max_s;
	bool has_time;			/* --time START,END: the trace's own seconds */
	bool has_time_start, has_time_end;
	double time_start_s, time_end_s;
	const char *cpus_list;		/* --cpus as given */
	char **targets;			/* --target names, glob patterns or pids */
	int nr_targets;
	char **target_procs;		/* --target-process leader pids or commands */
	int nr_target_procs;
	char **target_trees;		/* --target-tree root pids or commands */
	int nr_target_trees;
	double width, height;		/* 0: the view's default */
	const char *title;
	bool no_legend;
	double font_size;		/* 0: the theme's default */
	enum sp_color_by color_by;
	bool color_by_given;		/* --color-by was given */
	const char *color_field;	/* --color-by FIELD: of the switch-in (SP_COLOR_BY_FIELD) */
	const char *palette;		/* palette name */
	enum sp_cpu_order cpu_order;
	const char *topology;		/* --topology FILE (lscpu -p output); NULL: the
					 * trace's own, when it has one */
	bool idle;			/* --idle: the runs of the idle task too */
	bool no_shade;
	const char *csv;
	enum sp_dg_freq_mode freq;	/* --freq [rows|merged] */
	bool idle_states;		/* --idle-states */
	bool migrations, wakeups, placement;	/* datagraph marks */
	char *events;			/* --events lists, joined by commas; NULL: none */
	const char **marks;		/* --mark definitions (evspec.h), as given */
	int nr_marks;
	const char **spans;		/* --span definitions, as given */
	int nr_spans;
	const char *min_at;		/* --min-at EVENT: the window starts at its first record */
	uint64_t min_at_ns;		/* its time (sp_view_opts_min_at()) */
	enum sp_timeline_rule aggregate;	/* --aggregate */
	const char *colors_in;		/* --colors FILE */
	const char *colors_out;		/* --colors-out FILE */
	struct sp_color_map colors;	/* read from colors_in */

	/* resolved against the trace by sp_view_opts_resolve() */
	uint64_t t0_ns, t1_ns;		/* the window drawn */
	uint64_t origin_ns;		/* time labels count from here (0: absolute) */
	bool *cpus;			/* nr_cpus entries: true when drawn/counted */
	int nr_cpus;
	const struct sp_model *model;	/* the trace's, for --target-process */
	struct sp_target target;	/* --target and --target-process */
	/*
	 * What is counted, as every consumer of the pass reads it: the
	 * window, the CPUs (NULL without --cpus) and the targets
	 */
	struct sp_scope scope;
	char counting[96];		/* for sp_view_opts_counting() */
};

/**
 * sp_view_opts_aggregate - parse --aggregate's argument
 * @cmd: the subcommand, for the message
 * @arg: "share" or "longest"
 * @rule: set
 *
 * Return: 0, or SP_EXIT_USAGE having said why.
 */
int sp_view_opts_aggregate(const char *cmd, const char *arg, enum sp_timeline_rule *rule);

/**
 * sp_view_opts_colors_out - write --colors-out: the colors a chart used, and those it was given
 * @o: the options (nothing happens without --colors-out)
 * @dg: the chart
 *
 * Return: SP_EXIT_OK, or SP_EXIT_FAILURE having said why.
 */
int sp_view_opts_colors_out(struct sp_view_opts *o, const struct sp_datagraph *dg);

/**
 * sp_view_opts_init - empty options of a command
 * @o: filled in
 * @cmd: the subcommand's name, for messages
 */
void sp_view_opts_init(struct sp_view_opts *o, const char *cmd);

/**
 * sp_view_opts_option - one shared option (options.h), into ctx->view
 * @ctx: the parse (ctx->view set)
 * @opt: the option's key
 * @arg: its value (kept: a pointer into argv)
 *
 * Prints usage errors.  Return: 0, or an exit code.
 */
int sp_view_opts_option(struct sp_opts_ctx *ctx, int opt, const char *arg);

/**
 * sp_view_opts_parse - parse the command line of a command that reads traces
 * @o: filled in (sp_view_opts_init())
 * @cmd: the command's options
 * @max_traces: how many input traces it takes (at least one is needed)
 * @argc: from the subcommand's name on
 * @argv: from the subcommand's name on
 * @own: handed to @cmd->parse for its own options
 *
 * The operands are the traces; the window options are checked together.
 * Prints usage errors itself.  Return: -1 to go on, else an exit code
 * (SP_EXIT_OK after --help, SP_EXIT_USAGE on errors).
 */
int sp_view_opts_parse(struct sp_view_opts *o, const struct sp_cmd_opts *cmd, int max_traces,
		       int argc, char **argv, void *own);

/**
 * sp_view_opts_check_image - the image options together, once all are read
 * @o: parsed options
 *
 * The format from -o's name (PNG by default), and --colors read.  Prints
 * usage errors.  Return: -1 to go on, else an exit code.
 */
int sp_view_opts_check_image(struct sp_view_opts *o);

/**
 * sp_view_opts_scope - one option of what is counted: --min, --max, --time,
 * --cpus, --target or --target-process
 * @o: the options (o->cmd set), for views and stats alike
 * @opt: SP_VOPT_MIN, SP_VOPT_MAX, SP_VOPT_TIME, SP_VOPT_CPUS, SP_VOPT_TARGET
 *	 or SP_VOPT_TARGET_PROCESS
 * @arg: its value (kept: a pointer into argv)
 *
 * Prints usage errors.  Return: 0, or an exit code.
 */
int sp_view_opts_scope(struct sp_view_opts *o, int opt, const char *arg);

/**
 * sp_view_opts_scope_check - the window options together, once all are read
 * @o: the options
 *
 * Prints usage errors (--time with --min/--max, --min not before --max,
 * --min-at with a start).
 * Return: 0, or SP_EXIT_USAGE.
 */
int sp_view_opts_scope_check(const struct sp_view_opts *o);

/**
 * sp_view_opts_resolve - check the options against an open trace
 * @o: parsed options
 * @t: the first trace, o->traces[0] (opened; the model is not needed)
 *
 * Sets the window, the time origin, the CPU selection and o->model (@t's
 * model, which --target-process looks at while it is built); prints errors
 * (a window outside the trace, a CPU the trace does not have).
 * Return: SP_EXIT_OK, or an exit code.
 */
int sp_view_opts_resolve(struct sp_view_opts *o, const struct sp_trace *t);

/**
 * sp_view_opts_min_at - the driver's stage that finds where --min-at starts the window
 * @o: parsed options (nothing is done without --min-at)
 * @t: the open trace, before sp_view_opts_resolve() and before its pass
 *
 * Reads up to the event's first record with the trace's own reader
 * (sp_trace_first_event()), not a second one.  Prints errors.
 * Return: SP_EXIT_OK, or an exit code.
 */
int sp_view_opts_min_at(struct sp_view_opts *o, struct sp_trace *t);

/**
 * sp_view_opts_topology - the topology the rows of a core-by-time chart follow
 * @o: parsed options (--cpu-order, --socket-order, --topology)
 * @t: the open trace
 * @file_topo: filled in from --topology FILE, zeroed otherwise (release it
 *             with sp_topology_release() in both cases)
 * @topo: set to the topology for socket order, NULL for numeric order
 * @source: set to the name to give the topology in messages
 *
 * --topology FILE comes first, then the topology recorded in the trace;
 * either gives socket order unless --cpu-order numeric was given.  Prints
 * errors (an unreadable FILE; socket order asked for with no topology at
 * all) and, with -v, where the socket order comes from.
 * Return: SP_EXIT_OK, or an exit code.
 */
int sp_view_opts_topology(const struct sp_view_opts *o, const struct sp_trace *t,
			  struct sp_topology *file_topo, const struct sp_topology **topo,
			  const char **source);

/**
 * sp_view_opts_output - the output name, default "<first trace>-<cmd>.png"
 * @o: resolved options
 * @buf: room for a default name
 * @len: size of @buf
 *
 * Return: the name to write (o->output or @buf).
 */
const char *sp_view_opts_output(const struct sp_view_opts *o, char *buf, size_t len);

/**
 * sp_view_opts_target - the task patterns --target, --target-process and --target-tree gave
 * @o: the options
 * @tg: filled in, pointing into @o (match with sp_target_match())
 */
void sp_view_opts_target(const struct sp_view_opts *o, struct sp_target *tg);

/**
 * sp_view_opts_has_targets - whether --target or --target-process was given
 * @o: the options
 *
 * Return: true when tasks are selected.
 */
bool sp_view_opts_has_targets(const struct sp_view_opts *o);

/**
 * sp_view_opts_is_target - whether a task is selected by --target or --target-process
 * @o: resolved options (o->model set)
 * @pid: the task
 * @comm: the task's command name (NULL: unknown)
 *
 * See model/target.h for how patterns select tasks.  Return: true when
 * there are no targets or one selects the task.
 */
bool sp_view_opts_is_target(const struct sp_view_opts *o, int pid, const char *comm);

/**
 * sp_view_opts_counting - the tasks counted, for a figure's note
 * @o: parsed options
 *
 * Return: NULL without --target and --target-process, else their
 * patterns, e.g. "barrier, 6871, process 6867" (cut short with "..."),
 * kept in @o.
 */
const char *sp_view_opts_counting(struct sp_view_opts *o);

/**
 * sp_view_opts_one_cpu - the one CPU every run of the target tasks was on
 * @o: the options, with --target, --target-process or --target-tree
 * @m: the model, after its pass
 *
 * A hint that the targets were bound to that CPU (taskset, a cpuset),
 * which the trace does not record: lost capacity then counts CPUs they
 * could not use.  A task that never migrated ran only where it last ran.
 *
 * Return: the CPU, or -1 (no targets, or runs on more than one CPU).
 */
int sp_view_opts_one_cpu(const struct sp_view_opts *o, const struct sp_model *m);

/**
 * sp_view_opts_check_targets - say which targets select no task of a trace
 * @o: the options
 * @m: the trace's model, after its pass
 * @path: the trace, for messages
 *
 * Warns about every --target or --target-process pattern that selects no
 * task; when none of them selects any, the picture or the numbers would
 * show nothing, and that is an error.  Return: SP_EXIT_OK, or
 * SP_EXIT_FAILURE (the error printed).
 */
int sp_view_opts_check_targets(const struct sp_view_opts *o, const struct sp_model *m,
			       const char *path);

/**
 * sp_view_opts_rows - the rows to draw, bottom first, in the order asked for
 * @o: resolved options
 * @t: the open trace (its recorded topology is used when there is one)
 * @rows: set to a new array of CPU numbers, one per row
 * @row_socket: set to a new array of each row's socket, or NULL in numeric order
 * @nr_rows: set to the number of rows
 *
 * Prints errors and warnings.  Return: SP_EXIT_OK, or an exit code (the
 * arrays are still the caller's to free).
 */
int sp_view_opts_rows(struct sp_view_opts *o, const struct sp_trace *t, int **rows,
		      int **row_socket, int *nr_rows);

/**
 * sp_view_opts_protect - keep an output from writing over the inputs
 * @o: parsed options (the traces, the --topology file)
 * @out: an initialised output, not open
 *
 * Prints the error.  Return: SP_EXIT_OK, or an exit code.
 */
int sp_view_opts_protect(const struct sp_view_opts *o, struct sp_output *out);

/**
 * sp_view_opts_probe_output - name the output and fail early when it cannot be written
 * @o: resolved options
 * @out: an initialised output; the traces and --topology file are protected
 * @buf: room for a default name
 * @len: size of @buf
 * @width: the image's width
 * @path: set to the output's name
 *
 * Done before the pass, so that a wrong directory fails at once.
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_opts_probe_output(const struct sp_view_opts *o, struct sp_output *out, char *buf,
			 size_t len, double width, const char **path);

/**
 * sp_view_opts_datagraph - the datagraph options the view options ask for
 * @o: resolved options (kept by reference for --target)
 * @row_socket: from sp_view_opts_rows()
 * @d: filled in: colors, palette, targets, socket separators
 */
void sp_view_opts_datagraph(const struct sp_view_opts *o, const int *row_socket,
			    struct sp_datagraph_opts *d);

/**
 * sp_view_opts_release - free what parsing and resolving allocated
 * @o: the options
 */
void sp_view_opts_release(struct sp_view_opts *o);

/**
 * sp_view_opts_filter - what running(t)/waiting(t) count: the scope's CPUs and tasks
 * @filter: filled in (sp_scope_filter()); points into @o
 * @o: resolved view options
 *
 * Return: N, the number of CPUs counted.
 */
int sp_view_opts_filter(struct sp_model_filter *filter, struct sp_view_opts *o);

#endif /* SP_VIEWOPTS_H */
