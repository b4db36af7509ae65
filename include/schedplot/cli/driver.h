/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DRIVER_H
#define SP_DRIVER_H

/*
 * The view driver: every view command (datagraph, running-waiting,
 * overview, ...) is one struct sp_view_desc, run by sp_view_main():
 *
 *	parse		the options desc->cmd describes (sp_view_opts_parse())
 *	open		the trace (its span; the model is built by the pass)
 *	start		with --min-at, the time of the event's first record, read
 *			with the trace's own reader (sp_view_opts_min_at())
 *	resolve		the window, the CPUs and, with desc->rows, the rows
 *	size		the image's width, and its height when known before
 *			the pass: desc->default_size, or desc->size()
 *	probe		the output: opened for good when the height is known
 *			(the plan then measures text on the surface it draws
 *			on), else opened and closed again so that a wrong
 *			directory fails before the pass; then desc->extra's
 *			outputs (--csv)
 *	plan		desc->plan(): columns, data structures
 *	pass		one sp_trace_run() told to desc->observe()'s consumers,
 *			desc->prepare() before it; a view of several traces
 *			(max_traces > 1) opens, resolves and passes over each in
 *			turn, told of each by desc->trace_done() before the next
 *			is opened (which may ask for another pass over the same
 *			trace: run->pass_again); with more than one job (--jobs,
 *			sp_parallel_jobs()) several at once, each in a copy of
 *			the run (its own trace, opts and --csv stream; the view's
 *			data shared, so prepare, observe and trace_done must
 *			touch only trace_index's part), closed after its pass:
 *			no trace is open at finish
 *	finish		desc->finish(): what the pass gathered, the height
 *	draw		the output opened if it was only probed; desc->draw()
 *	commit		the image, then desc->extra's outputs; on any failure
 *			nothing is left behind
 *
 * A view that sets desc->may_start_over and reads one trace opens it
 * presuming (SP_TRACE_PRESUME_LOSSLESS) unless the first try would leave
 * a trace (--csv lines on standard output, an SVG's numbering); when the
 * pass shows the presumption wrong, all is released as on a failure and
 * the command runs again from parse, without presuming, quiet until its
 * pass (sp_cli_hush_until_pass()).
 *
 * The hooks print their own errors (through sp_cli_*()) and return
 * SP_EXIT_OK or an exit code; the driver stops at the first that fails
 * and calls desc->release() whatever happened.  Adding a view means
 * writing its module under views/ and one description.
 *
 * A command with a main of its own (compare: two groups of inputs, or
 * files of numbers) runs its traces through the same loop, the pass
 * included, with sp_view_traces().
 */

#include <stdbool.h>
#include <stddef.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"

struct _cairo;
struct sp_view_desc;

/* One run of a view: what the driver resolved, and the view's own data. */
struct sp_view_run {
	const struct sp_view_desc *desc;
	struct sp_view_opts opts;	/* parsed and resolved */
	struct sp_trace trace;		/* opts.traces[trace_index], open from "open" on */
	int trace_index;		/* the trace of the pass */
	int *rows;			/* desc->rows: the CPU of each row, bottom first */
	int *row_socket;		/* the socket of each row; NULL in numeric order */
	int nr_rows;
	struct sp_theme theme;		/* from --font-size */
	double width;			/* the image: set by desc->size() */
	double height;			/* 0 until known (desc->size() or desc->finish()) */
	const char *path;		/* the image's name ("-": standard output) */
	struct sp_output out;		/* open from "probe" (height known) or "draw" on */
	struct sp_cli_csv csv;		/* the --csv file of views with SP_VOPT_CSV */
	void *data;			/* the view's own: desc->data_size bytes, zeroed */
	bool no_image;			/* set by desc->parsed(): only text, no image */
	bool pass_again;		/* set by desc->trace_done(): pass over the same
					 * trace once more, from desc->prepare() on */

	/* private */
	bool presume;			/* desc->may_start_over, on the first try */
	bool trace_open;
	char path_buf[4096];
};

/* What the one pass over the trace feeds. */
struct sp_view_pass {
	struct sp_pass pass;			/* its consumers: sp_pass_add() each */
	const struct sp_model_filter *filter;	/* what running/waiting count; NULL: all */
};

/* An output written besides the image (--csv), put in place after it. */
struct sp_view_extra {
	/* create it (after the image's probe; run->path is known); SP_EXIT_OK or a code */
	int (*open)(struct sp_view_run *run);
	/* @commit: put it in place; else throw it away (also when never opened) */
	int (*close)(struct sp_view_run *run, bool commit);
};

/*
 * An image's size when --width and --height are not given: PNG in pixels,
 * PDF and SVG in points.
 */
struct sp_view_size {
	double png_width, vec_width;
	double png_height, vec_height;	/* 0: laid out after the pass (desc->finish()),
					 * from --height or what is drawn */
};

/* The width of the views over time, so that the time axes of one window line up. */
#define SP_VIEW_TIME_PNG_WIDTH	1600
#define SP_VIEW_TIME_VEC_WIDTH	720
/* Those widths in a struct sp_view_size's initializer. */
#define SP_VIEW_TIME_WIDTHS						\
	.png_width = SP_VIEW_TIME_PNG_WIDTH, .vec_width = SP_VIEW_TIME_VEC_WIDTH

struct sp_view_desc {
	struct sp_cmd_opts cmd;		/* its name and command line; its parse hook gets
					 * the view's data (run->data) as ctx->own */
	int max_traces;			/* input traces taken; 0: one ("one trace file at a
					 * time") */
	bool rows;			/* one row per CPU drawn: plan rows (--cpu-order) */
	bool whole_traces;		/* no window, CPUs or targets resolved against each
					 * trace: the view reads it whole and checks its
					 * targets itself (compare) */
	size_t data_size;		/* of run->data */
	/*
	 * nothing reaches the user before finish (but messages): one trace
	 * may be opened presuming (SP_TRACE_PRESUME_LOSSLESS) and the command
	 * started over, from parse, if the pass shows the presumption wrong
	 */
	bool may_start_over;

	/* after parsing: check the options together; SP_EXIT_OK or a code; may be NULL */
	int (*parsed)(struct sp_view_run *run);

	/* the image's size, from --width and --height else these */
	struct sp_view_size default_size;
	/* the image's size when it is not default_size's: run->width, and
	 * run->height or 0; may be NULL */
	void (*size)(struct sp_view_run *run);
	/* before the pass; @cr is the output's context when it is open, else NULL */
	int (*plan)(struct sp_view_run *run, struct _cairo *cr);
	/* before each pass over a trace, open: what observe registers; may be NULL */
	int (*prepare)(struct sp_view_run *run);
	/* register the consumers of the pass (sp_pass_add()) */
	void (*observe)(struct sp_view_run *run, struct sp_view_pass *pass);
	/* after the pass over each trace, while it is open; may be NULL */
	int (*trace_done)(struct sp_view_run *run);
	/* after the last pass: finish what it gathered; sets run->height if it was 0 */
	int (*finish)(struct sp_view_run *run);
	/* draw the image on a surface of run->width x run->height; NULL: no image
	 * (then desc->parsed sets run->no_image) */
	int (*draw)(struct sp_view_run *run, struct _cairo *cr);
	/* free run->data's contents (run->data itself is the driver's); may be NULL */
	void (*release)(struct sp_view_run *run);
	/* written besides the image; NULL: nothing */
	const struct sp_view_extra *extra;
};

/*
 * The hooks every view has, named after it as the kernel's
 * DEFINE_SHOW_ATTRIBUTE() names a file's operations: PREFIX_plan,
 * PREFIX_observe, PREFIX_finish and PREFIX_release.
 */
#define SP_VIEW_HOOKS(prefix)						\
	.plan = prefix##_plan, .observe = prefix##_observe,		\
	.finish = prefix##_finish, .release = prefix##_release

/* The views, one description each. */
extern const struct sp_view_desc sp_view_datagraph;
extern const struct sp_view_desc sp_view_running_waiting;
extern const struct sp_view_desc sp_view_overview;
extern const struct sp_view_desc sp_view_latency;
extern const struct sp_view_desc sp_view_tasks;
extern const struct sp_view_desc sp_view_explain;
/* The commands that print text only (no image): no size or draw hook. */
extern const struct sp_view_desc sp_view_stats;
extern const struct sp_view_desc sp_view_runs;

/* The --csv output of running-waiting and overview (cmd-running-waiting.c). */
extern const struct sp_view_extra sp_view_csv;

/*
 * The running/waiting graph of running-waiting and overview
 * (cmd-running-waiting.c).
 */
struct sp_rect;
struct sp_rw_collect;
struct sp_rwgraph_style;

/**
 * sp_view_rw_style - the graph's style from a run's options
 * @run: the run, its trace open
 * @filter: set to what is counted (--cpus, the targets)
 * @style: its CPUs counted, shade, pixels, complete window and what is counted set
 */
void sp_view_rw_style(struct sp_view_run *run, struct sp_model_filter *filter,
		      struct sp_rwgraph_style *style);

/**
 * sp_view_rw_collect - set up what the pass gathers for the graph, once it is laid out
 * @run: the run
 * @rw: zeroed
 * @plot: the graph's plot
 * @style: from sp_view_rw_style()
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_rw_collect(struct sp_view_run *run, struct sp_rw_collect *rw,
		       const struct sp_rect *plot, const struct sp_rwgraph_style *style);

/**
 * sp_view_main - run a view command
 * @desc: the view
 * @argc: from the subcommand's name on
 * @argv: from the subcommand's name on
 *
 * Return: the exit status (SP_EXIT_OK, SP_EXIT_FAILURE or SP_EXIT_USAGE),
 * every error printed.
 */
int sp_view_main(const struct sp_view_desc *desc, int argc, char **argv);

/**
 * sp_view_traces - the pass over each trace, for a command with a main of its own
 * @run: zeroed, then desc (its prepare, observe and trace_done hooks),
 *       opts.traces, opts.nr_traces and data set
 *
 * Every trace is opened, passed over and closed as sp_view_main() does:
 * one after the other, or several at once (--jobs).  No trace is open on
 * return.  Return: SP_EXIT_OK, or the exit code of the first trace that
 * failed (its error printed).
 */
int sp_view_traces(struct sp_view_run *run);

#endif /* SP_DRIVER_H */
