/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TASKS_H
#define SP_TASKS_H

/*
 * The task-by-time chart ("tasks"): one row per task, the first at the
 * top, labelled comm-pid; time left to right; each column colored by the
 * CPU the task ran on (a CPU key below, sockets as hue families), hatched
 * red where it waited for a CPU, white where it did neither.  A migration
 * is a change of color along a row.  Built from a finished sp_taskline:
 *
 *	sp_tasks_figure_plan(&fig);                  fig.nr_cols for the task line
 *	sp_taskline_init(&tl, t0, t1, fig.nr_cols, ...);   then the model pass
 *	sp_tasks_init(&ch, &tl, model, &opts);       picks, sorts, colors
 *	sp_tasks_figure_finish(&fig, &ch);           fig.height is now known
 *	sp_tasks_figure_draw(cr, &fig, &ch);
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/palette.h"

struct _cairo;
struct sp_behind_entry;
struct sp_chain;
struct sp_model;
struct sp_spans;
struct sp_taskline;
struct sp_taskline_task;
struct sp_theme;

enum sp_tasks_sort {
	SP_TASKS_SORT_RUN,	/* most run time first */
	SP_TASKS_SORT_WAIT,	/* most wait time first */
	SP_TASKS_SORT_PID,	/* lowest pid first */
	SP_TASKS_SORT_START,	/* first seen running or waiting first */
};

/* Which tasks, in which order, in which colors. */
struct sp_tasks_opts {
	size_t top;			/* at most this many rows; 0: no limit */
	enum sp_tasks_sort sort;
	const struct sp_palette *palette;	/* NULL: default */
	/* NULL: every task; else only those it accepts */
	bool (*is_target)(void *data, int pid, const char *comm);
	void *target_data;
	const int *cpus;		/* the CPUs in the key, in order */
	const int *cpu_socket;		/* the socket of each, or NULL when not known */
	int nr_key_cpus;
	int nr_cpus;			/* CPUs of the trace */
	uint64_t origin_ns;		/* hover titles count from here */
	const struct sp_spans *spans;	/* --span, drawn on their tasks' rows; or NULL */
	/*
	 * the targets' chains, finished, its pieces kept, and its times
	 * sorted (sp_behind_table_sorted() of chain->ns): each row's long
	 * pole marked along its top and named in the key; or NULL
	 */
	const struct sp_chain *chain;
	const struct sp_behind_entry *chain_ns;
	size_t nr_chain_ns;
};

struct sp_tasks_row {
	const struct sp_taskline_task *task;
	char label[48];			/* comm-pid */
	int32_t pole;			/* its long pole (sp_chain_code()), -1: none */
	char pole_text[144];		/* the long pole in words, with its share */
};

struct sp_tasks_chart {
	const struct sp_taskline *tl;
	struct sp_tasks_row *rows;	/* the first at the top */
	size_t nr_rows;
	int32_t (*pid_rows)[2];		/* (pid, row), by pid */
	size_t nr_candidates;		/* tasks that could have been rows */
	struct sp_rgb *cpu_color;	/* per CPU of the trace */
	bool grey;			/* the grey palette: waiting hatched in greys */
	int nr_cpus;
	struct sp_legend_entry *entries;	/* waiting, then the CPUs the rows ran on */
	char (*entry_labels)[40];
	size_t nr_entries;
	size_t nr_more;			/* CPUs the rows ran on beyond the entries */
	const char *legend_title;
	uint64_t origin_ns;
	const struct sp_spans *spans;	/* sp_tasks_opts.spans */
	char (*span_labels)[96];
	const struct sp_chain *chain;	/* sp_tasks_opts.chain */
	bool any_pole;			/* a row has a long pole: its key entry */
};

/**
 * sp_tasks_init - pick, order, label and color the rows of a finished task line
 * @ch: the chart
 * @tl: a finished task line (kept by reference)
 * @m: the model (for the commands)
 * @o: the options
 *
 * The rows are the tasks @o->is_target accepts that ran or waited in the
 * window, the @o->top with most run time (ties: lower pid) when there are
 * more, ordered by @o->sort (ties: lower pid).
 *
 * Return: 0, or -ENOMEM.
 */
int sp_tasks_init(struct sp_tasks_chart *ch, const struct sp_taskline *tl,
		  const struct sp_model *m, const struct sp_tasks_opts *o);

/**
 * sp_tasks_release - free what the chart holds
 * @ch: the chart (zeroed or initialised)
 */
void sp_tasks_release(struct sp_tasks_chart *ch);

/**
 * sp_tasks_draw - draw the rows inside a plot rectangle
 * @cr: cairo context
 * @theme: the theme
 * @plot: the rectangle
 * @ch: the chart
 *
 * Column c covers [x + c * w / nr_cols, x + (c + 1) * w / nr_cols), as in
 * the datagraph; on image surfaces edges are whole pixels.  On SVG
 * surfaces every run of a row gets a hover title (sp_output_svg_title()).
 */
void sp_tasks_draw(struct _cairo *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		   const struct sp_tasks_chart *ch);

/* A whole tasks image: plot, task labels, time axis, title, CPU key below. */
struct sp_tasks_figure {
	const struct sp_theme *theme;
	enum sp_format format;
	double width;			/* px for PNG, pt for PDF/SVG */
	double height;			/* 0: from the rows and the legend */
	const char *title;		/* NULL or "": none */
	bool legend;
	uint64_t origin_ns;		/* time labels count from here, 0: absolute */
	/* set by sp_tasks_figure_plan() and _finish() */
	unsigned int nr_cols;
	struct sp_layout layout;
};

/**
 * sp_tasks_figure_plan - fix the plot's width before the model pass
 * @fig: width, theme, format, title and legend set
 *
 * The labels get the room of the longest comm-pid label (16 + 1 + 7
 * characters); longer ones do not occur, shorter ones leave room.
 *
 * Return: 0, -ERANGE when the width leaves no room for the plot, or -ENOMEM.
 */
int sp_tasks_figure_plan(struct sp_tasks_figure *fig);

/**
 * sp_tasks_figure_finish - size the legend and place everything
 * @fig: planned
 * @ch: the chart
 *
 * Sets @fig->height when it was 0.  Return: 0, -ERANGE when the height
 * leaves no room for the plot, or -ENOMEM.
 */
int sp_tasks_figure_finish(struct sp_tasks_figure *fig, const struct sp_tasks_chart *ch);

/**
 * sp_tasks_figure_draw - draw the whole figure
 * @cr: a context on a surface of @fig->width x @fig->height
 * @fig: finished
 * @ch: the chart
 */
void sp_tasks_figure_draw(struct _cairo *cr, const struct sp_tasks_figure *fig,
			  const struct sp_tasks_chart *ch);

#endif /* SP_TASKS_H */
