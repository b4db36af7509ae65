/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATAGRAPH_H
#define SP_DATAGRAPH_H

/*
 * The core-by-time chart ("datagraph"): time left to right, one row per
 * CPU, each row colored by the task that held each column (from an
 * sp_timeline), white where the CPU was idle, hatched grey where nothing is
 * known.  Row 0 of the timeline is drawn at the bottom.
 *
 * Two ways to use it.  A whole image, as `schedplot datagraph` does:
 *
 *	struct sp_datagraph_figure fig = { .theme = &theme, .format = fmt,
 *					   .width = 1600, .legend = true, ... };
 *
 *	sp_datagraph_figure_plan(&fig, nr_rows, cpu_of_row, sockets);
 *	sp_timeline_init(&tl, t0, t1, fig.nr_cols, ...);   then the model pass
 *	sp_datagraph_init(&dg, &tl, model, &opts);
 *	sp_datagraph_figure_finish(&fig, &dg);             fig.height is now known
 *	sp_output_open(&out, path, fmt, fig.width, fig.height, &err);
 *	sp_datagraph_figure_draw(out.cr, &fig, &dg);
 *
 * Or as a part of another figure (e.g. above a graph with the same x
 * scale): size the timeline with sp_datagraph_columns() for the plot
 * rectangle you chose, then call sp_datagraph_draw() (data only, inside
 * the rectangle), sp_datagraph_rows_width() / sp_datagraph_rows_draw()
 * (CPU labels left of it) and sp_datagraph_legend() (entries for
 * sp_legend_draw()) as you need.  Time axes come from draw/axes.h.
 *
 * Four files implement it: datagraph-keys.c the colors and legend keys
 * (sp_datagraph_init(), _release(), _legend()), datagraph-grid.c where
 * columns and rows lie (datagraph-grid.h: sp_datagraph_columns(),
 * _row_span(), _col_x()), datagraph-rows.c the rows and their CPU labels
 * (sp_datagraph_draw(), _rows_width(), _rows_draw()), datagraph.c the
 * whole figure (sp_datagraph_figure_*()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/colorbar.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/palette.h"
#include "schedplot/views/datagraph-grid.h"

enum sp_color_by {
	SP_COLOR_BY_PID,
	SP_COLOR_BY_COMMAND,
	SP_COLOR_BY_PROCESS,		/* by sp_model_tgid(); "parent" is its old name */
	SP_COLOR_BY_FIELD,		/* by a field's value: analysis/fieldkey.h */
};

struct _cairo;
struct _cairo_pattern;
struct sp_legend;
struct sp_dg_marks;
struct sp_legend_entry;
struct sp_color_map;
struct sp_dg_power;
struct sp_fieldkey;
struct sp_model;
struct sp_runlist;
struct sp_theme;
struct sp_timeline;

/* What decides the colors. */
struct sp_datagraph_opts {
	enum sp_color_by color_by;
	/*
	 * SP_COLOR_BY_FIELD: the timeline's "pids" are @field's keys; a value
	 * is labelled "@field_name VALUE", the scale titled @field_title
	 * ("next_prio of the switch-in"), runs of no value @field_unknown
	 */
	const struct sp_fieldkey *field;
	const char *field_name;
	const char *field_title;
	const char *field_unknown;
	const struct sp_palette *palette;	/* NULL: default */
	/* NULL: every task keeps its color; else tasks it refuses are black */
	bool (*is_target)(void *data, int pid, const char *comm);
	void *target_data;
	const int *row_socket;		/* per row: socket, or NULL (no separators) */
	/* power layers drawn over the rows (views/datagraph-power.h), or NULL */
	const struct sp_dg_power *power;
	/* colors kept from another figure (draw/colormap.h), by key name, or NULL */
	struct sp_color_map *colors;
	/*
	 * color_by was not chosen: with more than SP_DG_AUTO_PROCESS_TASKS
	 * threads in the window, SP_COLOR_BY_PID becomes SP_COLOR_BY_PROCESS
	 * when few processes (or no more than commands) hold them, else
	 * SP_COLOR_BY_COMMAND when that gives fewer colors (not with @colors)
	 */
	bool color_by_auto;
};

/*
 * --color-by FIELD: numbers with at most this many values in the trace are
 * legend entries, colored by rank; more take a color bar, by value.
 */
#define SP_DG_FIELD_LEGEND_VALUES 12

/* Threads told apart by color at most (sp_palette_pick_distinct()'s items). */
#define SP_DG_AUTO_PROCESS_TASKS 64

/* Special legend keys; tasks or groups of tasks follow. */
enum {
	SP_DG_KEY_IDLE,
	SP_DG_KEY_NO_DATA,
	SP_DG_KEY_OTHER,
	SP_DG_NR_SPECIAL_KEYS,
};

/* One color of the chart and what it stands for. */
struct sp_datagraph_key {
	struct sp_rgb color;
	char label[64];
	char name[64];			/* label without the thread count: colormap.h's name */
	bool fixed;			/* its color came from sp_datagraph_opts.colors */
	uint64_t ns;			/* time inside the window, on the rows drawn */
	int64_t id;			/* pid, root pid or string id, by color_by */
	size_t palette_index;		/* of color (task keys) */
	uint32_t nr_tasks;		/* tasks drawn in it */
};

struct sp_datagraph {
	const struct sp_timeline *tl;
	const struct sp_model *model;
	enum sp_color_by color_by;
	bool targets;			/* non-targets are drawn black */
	uint32_t *cell_key;		/* per timeline cell: index into keys */
	struct sp_datagraph_key *keys;	/* specials first, then by time, longest first */
	size_t nr_keys;
	int *row_socket;		/* per row, or NULL */
	struct sp_legend_entry *entries;	/* for sp_datagraph_legend() */
	const char *legend_title;
	const struct sp_dg_power *power;	/* or NULL */
	char title_buf[256];		/* legend_title with the power layers', both whole */
	size_t auto_threads;		/* threads that made color_by_auto choose color_by */
	char auto_buf[128];
	const struct sp_fieldkey *field;	/* SP_COLOR_BY_FIELD */
	struct sp_colorbar field_bar;	/* its scale, when field_bar_on */
	bool field_bar_on;
	double field_lo, field_hi;	/* the values at the bar's ends */
};

/**
 * sp_datagraph_init - color a finished timeline
 * @dg: the chart
 * @tl: a finished timeline (kept by reference)
 * @m: the model the runs came from (for names, parents, total run times)
 * @o: the options
 *
 * With SP_COLOR_BY_PID every task wishes for its own palette color, in the
 * order of its run time over the whole trace (so zooming keeps colors and
 * the busiest tasks get the first, color-blind safe colors); with
 * SP_COLOR_BY_COMMAND a command wishes for sp_string_color_index()'s
 * color, the same in every trace, unless a command with more run time in
 * this trace has it (then the next free one: no two commands share a
 * color); with SP_COLOR_BY_PROCESS the tasks of one process
 * (sp_model_tgid()) share its leader's wish.  Then the keys of the window,
 * busiest first, get their wish unless it is closer than
 * SP_COLOR_DISTINCT to a busier key's color or to a special color drawn
 * (sp_palette_pick_distinct()): colors on screen together are told apart,
 * and stay the same across zooms where that costs nothing.  A key that
 * @o->colors names takes that color whatever the window, and the others
 * keep clear of it: the way to give a task one color in every figure.
 *
 * Return: 0, or -ENOMEM.
 */
int sp_datagraph_init(struct sp_datagraph *dg, const struct sp_timeline *tl,
		      const struct sp_model *m, const struct sp_datagraph_opts *o);

/**
 * sp_datagraph_colors - the colors of a chart's task keys, for another figure
 * @dg: an initialised chart
 * @map: the keys' names and colors are added (names it has keep theirs)
 *
 * Return: 0, or -ENOMEM.
 */
int sp_datagraph_colors(const struct sp_datagraph *dg, struct sp_color_map *map);

/**
 * sp_datagraph_release - free what the chart holds
 * @dg: the chart (zeroed or initialised)
 */
void sp_datagraph_release(struct sp_datagraph *dg);

/**
 * sp_datagraph_draw - draw the rows inside a plot rectangle
 * @cr: cairo context
 * @theme: the theme (idle, no-data and other colors; separator width)
 * @plot: the rectangle; nothing is drawn outside it
 * @dg: the chart
 *
 * Column c covers [x + c * w / nr_cols, x + (c + 1) * w / nr_cols); runs
 * of one color in a row become one rectangle, and all rectangles of a
 * color one fill.  On image surfaces edges are rounded to whole pixels and
 * drawn without anti-aliasing, so adjacent columns have no seams.  Socket
 * boundaries get a line.
 */
void sp_datagraph_draw(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, const struct sp_datagraph *dg);

/**
 * sp_datagraph_rows_width - room the CPU labels need left of the plot
 * @cr: cairo context
 * @theme: the theme
 * @cpu_of_row: the CPU of each row
 * @nr_rows: rows
 *
 * Return: the width, for sp_layout_spec.left_w.
 */
double sp_datagraph_rows_width(struct _cairo *cr, const struct sp_theme *theme,
			       const int *cpu_of_row, unsigned int nr_rows);

/**
 * sp_datagraph_rows_draw - CPU labels, socket names and the y-axis title
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 * @dg: the chart
 *
 * Every k-th row is labelled when rows are thinner than a label
 * (counting from each socket's bottom row); with sockets, each socket's
 * band is named when it is tall enough, else the title says the order.
 */
void sp_datagraph_rows_draw(struct _cairo *cr, const struct sp_theme *theme,
			    const struct sp_rect *plot, const struct sp_datagraph *dg);

/**
 * sp_datagraph_legend - the legend of the chart
 * @dg: the chart
 * @legend: filled in; points into @dg
 * @max_entries: at most this many entries; the rest are counted in nr_more
 *
 * Idle, no data (when any) and other tasks (with targets) come first,
 * then the tasks or groups that held the most time in the window.
 */
void sp_datagraph_legend(const struct sp_datagraph *dg, struct sp_legend *legend,
			 size_t max_entries);

/**
 * sp_datagraph_titles - hover titles of the runs drawn (SVG)
 * @cr: the context, on the output's surface
 * @plot: the plot rectangle the rows were drawn in
 * @dg: the chart
 * @rl: the runs of the chart's window (views/runtitles.h)
 * @origin_ns: the titles' times count from here
 */
void sp_datagraph_titles(struct _cairo *cr, const struct sp_rect *plot,
			 const struct sp_datagraph *dg, const struct sp_runlist *rl,
			 uint64_t origin_ns);

/* A whole datagraph image: plot, CPU labels, time axis, title, legend below. */
struct sp_datagraph_figure {
	const struct sp_theme *theme;
	enum sp_format format;
	double width;			/* px for PNG, pt for PDF/SVG */
	double height;			/* 0: from the rows and the legend */
	const char *title;		/* NULL or "": none */
	bool legend;
	uint64_t origin_ns;		/* time labels count from here, 0: absolute */
	const struct sp_dg_marks *marks;	/* drawn over the rows, first in the legend; or NULL */

	/* set by sp_datagraph_figure_plan() and _finish() */
	unsigned int nr_cols;
	struct sp_layout layout;
};

/* Legend lines a figure gives at most before "+N more". */
#define SP_DATAGRAPH_LEGEND_LINES 4

/**
 * sp_datagraph_figure_plan - fix the plot's width before the model pass
 * @fig: width, theme, format, title and legend set
 * @cpu_of_row: the CPU of each row
 * @nr_rows: rows
 *
 * The legend goes below the plot, so the plot width (and so
 * @fig->nr_cols, for sp_timeline_init()) does not depend on the legend.
 *
 * Return: 0, or -ERANGE when the width leaves no room for the plot, or
 * -ENOMEM.
 */
int sp_datagraph_figure_plan(struct sp_datagraph_figure *fig, const int *cpu_of_row,
			     unsigned int nr_rows);

/**
 * sp_datagraph_default_plot_height - the plot height a figure takes when none is given
 * @format: PNG (pixels) or PDF/SVG (points)
 * @nr_rows: rows
 *
 * Rows get 40 px (24 pt) each while few, thinning down to 3 px (1.2 pt),
 * so 512 CPUs still fit a page.  Return: the plot height.
 */
double sp_datagraph_default_plot_height(enum sp_format format, unsigned int nr_rows);

/**
 * sp_datagraph_figure_finish - size the legend and place everything
 * @fig: planned with sp_datagraph_figure_plan()
 * @dg: the chart
 *
 * Sets @fig->height when it was 0.  Return: 0, -ERANGE when the height
 * leaves no room for the plot, or -ENOMEM.
 */
int sp_datagraph_figure_finish(struct sp_datagraph_figure *fig, const struct sp_datagraph *dg);

/**
 * sp_datagraph_figure_draw - draw the whole figure
 * @cr: a context on a surface of @fig->width x @fig->height
 * @fig: finished with sp_datagraph_figure_finish()
 * @dg: the chart
 */
void sp_datagraph_figure_draw(struct _cairo *cr, const struct sp_datagraph_figure *fig,
			      const struct sp_datagraph *dg);

#endif /* SP_DATAGRAPH_H */
