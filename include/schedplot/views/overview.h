/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_OVERVIEW_H
#define SP_OVERVIEW_H

/*
 * The overview figure: the datagraph on top and the running/waiting graph
 * below it, on one time axis.
 *
 *	+----------------------- title -----------------------+
 *	| CPU 3 |######## datagraph ##########################|
 *	| CPU 0 |#############################################|
 *	|       |            idle while waiting: 3.2% ...     |
 *	| tasks |~~~~~~~~ running / waiting ~~~~~~~~~~~~~~~~~~|
 *	|       +---------------------------------------------+
 *	|       0        1        2   time (s)                |
 *	|       [running-waiting legend, one line]            |
 *	|       [datagraph legend]                            |
 *	+-----------------------------------------------------+
 *
 * Both plots share x and width exactly, and both data structures cut the
 * window into columns of the same plot, so a column of one is the same
 * time span as the column under or above it.
 *
 *	struct sp_overview_figure fig = { .theme = &theme, .width = 1600, ... };
 *
 *	sp_overview_figure_plan(&fig, cpu_of_row, nr_rows);    x and columns
 *	sp_timeline_init(&tl, t0, t1, fig.nr_cols, ...);
 *	sp_rw_collect_init(&rw, t0, t1, sp_rwgraph_nr_cols(&fig.plot, &fig.style, t0, t1),
 *			   ...);                                   both consumers of
 *	                                                       the model's pass
 *	sp_datagraph_init(&dg, &tl, model, &opts);
 *	sp_overview_figure_finish(&fig, &dg, nr_rows);         fig.height is now known
 *	sp_output_open(&out, path, fmt, fig.width, fig.height, &err);
 *	sp_overview_figure_draw(out.cr, &fig, &dg, &rw);
 *	sp_overview_figure_release(&fig);
 *
 * Text is measured on an image surface of its own, whatever the output's
 * format, so the layout is the same for PNG, PDF and SVG.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/theme.h"
#include "schedplot/views/rwgraph.h"

struct _cairo;
struct sp_dg_marks;
struct sp_datagraph;
struct sp_rw_collect;

/* Everything placed: shared x, two plots, the axis under the lower, legends. */
struct sp_overview_layout {
	struct sp_rect title;		/* h == 0: none */
	struct sp_rect dg;		/* datagraph plot */
	struct sp_rect rw;		/* running/waiting plot */
	struct sp_rect rw_legend;	/* one line; h == 0: none */
	struct sp_rect dg_legend;	/* h == 0: none */
};

struct sp_overview_figure {
	const struct sp_theme *theme;
	struct sp_rwgraph_style style;	/* style.pixels: PNG */
	bool legend;			/* both legends */
	bool note;			/* the idle-while-waiting note above the lower plot */
	const char *title;		/* NULL or "": none */
	double width;			/* px for PNG, pt for PDF/SVG */
	double height;			/* 0: from the rows, set by _finish() */
	uint64_t origin_ns;		/* time labels count from here (0: absolute) */
	const struct sp_dg_marks *marks;	/* over the datagraph's rows, or NULL */

	/* set by sp_overview_figure_plan() */
	struct sp_rect plot;		/* x and w of both plots */
	unsigned int nr_cols;		/* datagraph timeline columns */
	/* set by sp_overview_figure_finish() */
	struct sp_overview_layout layout;

	/* private: where text is measured, from _plan() to _release() */
	struct _cairo *scratch;
};

/**
 * sp_overview_figure_plan - fix the x extent of both plots before the model pass
 * @fig: theme, style, legend, note, title and width set
 * @cpu_of_row: the CPU of each datagraph row
 * @nr_rows: rows
 *
 * Sets @fig->plot (its x and width; the envelope's columns follow from it
 * with sp_rwgraph_nr_cols()) and @fig->nr_cols, the timeline's columns.
 * Return: 0, -ERANGE when the width leaves no room for the plots, or
 * -ENOMEM.
 */
int sp_overview_figure_plan(struct sp_overview_figure *fig, const int *cpu_of_row,
			    unsigned int nr_rows);

/**
 * sp_overview_figure_finish - size the legends and place everything
 * @fig: planned with sp_overview_figure_plan()
 * @dg: the colored timeline
 * @nr_rows: its rows
 *
 * Sets @fig->height when it was 0.  Return: 0, or -ERANGE when the height
 * leaves no room for the plots (or, when it was 0, the rows make the
 * image higher than SP_OUTPUT_MAX_PX).
 */
int sp_overview_figure_finish(struct sp_overview_figure *fig, const struct sp_datagraph *dg,
			      unsigned int nr_rows);

/**
 * sp_overview_figure_draw - draw the whole figure
 * @cr: a context on a surface of @fig->width x @fig->height
 * @fig: finished with sp_overview_figure_finish()
 * @dg: the colored timeline
 * @rw: the finished running/waiting collection (envelope and shaded fraction)
 *
 * Return: 0, or -EINVAL when the time or task ticks cannot be computed.
 */
int sp_overview_figure_draw(struct _cairo *cr, const struct sp_overview_figure *fig,
			    const struct sp_datagraph *dg, const struct sp_rw_collect *rw);

/**
 * sp_overview_figure_release - free what planning allocated
 * @fig: the figure (zeroed, planned or finished)
 */
void sp_overview_figure_release(struct sp_overview_figure *fig);

#endif /* SP_OVERVIEW_H */
