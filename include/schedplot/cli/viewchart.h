/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEWCHART_H
#define SP_VIEWCHART_H

/*
 * The core-by-time chart of a view (datagraph, overview): the timeline of
 * its rows, the power layers, the marks and the chart colored from them,
 * with the steps every such view takes in the same order (view-chart.c).
 * The view registers the timeline's consumer itself (datagraph puts the
 * runs keyed by value in front of it).
 */

#include "schedplot/cli/viewpower.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-marks.h"

struct sp_datagraph_opts;
struct sp_view_pass;
struct sp_view_run;

struct sp_view_chart {
	struct sp_timeline tl;
	struct sp_datagraph dg;
	struct sp_view_power power;
	struct sp_dg_marks marks;	/* --migrations, --wakeups, --placement, --events */
	int *socket;			/* per CPU, for the marks; NULL without a topology */
};

/**
 * sp_view_chart_plan - set up the timeline and the power layers
 * @run: the run, its trace open and its rows planned
 * @c: zeroed
 * @nr_cols: the chart's columns
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_chart_plan(struct sp_view_run *run, struct sp_view_chart *c, unsigned int nr_cols);

/**
 * sp_view_chart_plan_marks - set up the marks the options ask for (sp_view_marks_plan())
 * @run: the run
 * @c: planned
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_chart_plan_marks(struct sp_view_run *run, struct sp_view_chart *c);

/**
 * sp_view_chart_observe - register the marks' and the power layers' consumers
 * @c: planned
 * @pass: the view's pass
 */
void sp_view_chart_observe(struct sp_view_chart *c, struct sp_view_pass *pass);

/**
 * sp_view_chart_finish_timeline - finish the timeline after the pass
 * @run: the run
 * @c: planned, the pass made
 * @dopts: set to the chart's options from the command line
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_chart_finish_timeline(struct sp_view_run *run, struct sp_view_chart *c,
				  struct sp_datagraph_opts *dopts);

/**
 * sp_view_chart_color - color the chart, write --colors-out, finish the marks
 * @run: the run
 * @c: its timeline finished
 * @dopts: the chart's options (the power layers are added)
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_chart_color(struct sp_view_run *run, struct sp_view_chart *c,
			struct sp_datagraph_opts *dopts);

/**
 * sp_view_chart_marks - the marks to draw
 * @c: colored
 *
 * Return: @c's marks, or NULL when none was asked for.
 */
struct sp_dg_marks *sp_view_chart_marks(struct sp_view_chart *c);

/**
 * sp_view_chart_release - free what the chart holds
 * @c: zeroed or planned
 */
void sp_view_chart_release(struct sp_view_chart *c);

#endif /* SP_VIEWCHART_H */
