/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEWPOWER_H
#define SP_VIEWPOWER_H

#include <stdbool.h>

#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph-power.h"

struct sp_datagraph_opts;
struct sp_trace;
struct sp_view_opts;
struct sp_view_pass;

/*
 * The power layers of a core-by-time view (--freq, --idle-states), fed in
 * the view's one pass: the power events are asked of the reader, a
 * consumer of the pass hands them to an sp_power, and the power state is
 * aggregated per pixel in timelines of the view's columns.  Without
 * either option nothing is asked, registered or allocated.
 */
struct sp_view_power {
	bool active;
	struct sp_power power;
	struct sp_timeline tl[SP_POWER_NR_KINDS];
	bool tl_init[SP_POWER_NR_KINDS];
	struct sp_dg_power layers;
};

/**
 * sp_view_power_plan - ask for the events and set up the timelines
 * @vp: zeroed
 * @o: the resolved options (window, --freq, --idle-states, the command)
 * @t: the open trace, before its pass
 * @nr_cols: the view's columns
 * @rows: the CPU of each row
 * @nr_rows: rows
 *
 * Warns when the trace lacks an event asked for.  Return: SP_EXIT_OK, or
 * an exit code (the error printed).
 */
int sp_view_power_plan(struct sp_view_power *vp, const struct sp_view_opts *o,
		       struct sp_trace *t, unsigned int nr_cols, const int *rows,
		       unsigned int nr_rows);

/**
 * sp_view_power_observe - register the power layers' consumer in the pass
 * @vp: planned (not active: nothing is registered)
 * @pass: the view's pass
 */
void sp_view_power_observe(struct sp_view_power *vp, struct sp_view_pass *pass);

/**
 * sp_view_power_finish - close the layers after the pass
 * @vp: planned, the pass made
 * @o: the options (--palette)
 * @t: the trace (its end)
 * @dopts: the chart's options: gets the layers when active
 *
 * Return: SP_EXIT_OK, or an exit code (the error printed).
 */
int sp_view_power_finish(struct sp_view_power *vp, const struct sp_view_opts *o,
			 const struct sp_trace *t, struct sp_datagraph_opts *dopts);

/**
 * sp_view_power_release - free what @vp holds
 * @vp: zeroed, planned or finished
 */
void sp_view_power_release(struct sp_view_power *vp);

#endif /* SP_VIEWPOWER_H */
