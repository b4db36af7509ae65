/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RUNTITLES_H
#define SP_RUNTITLES_H

/*
 * Hover titles of the runs drawn in a chart of rows (datagraph, tasks):
 * "comm-pid on CPU c at S s for D ms" over each run's rectangle, for SVG
 * output (draw/output.h "SVG for the browser"); nothing on other surfaces
 * or when the run list did not keep every run.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/layout.h"

struct _cairo;
struct sp_runlist;
struct sp_runlist_run;

/* Where a chart draws a run. */
struct sp_run_rows {
	unsigned int nr_rows;
	bool bottom_first;		/* row 0 at the bottom (datagraph), else at the top */
	/* the row of @r, or -1 when it is not drawn */
	int (*row_of)(const void *data, const struct sp_runlist_run *r);
	/* the task's name in the title: comm-pid */
	void (*label)(const void *data, const struct sp_runlist_run *r, char *buf, size_t len);
	const void *data;
};

/**
 * sp_run_titles_draw - give every run drawn a hover title
 * @cr: the context, on the output's surface
 * @plot: the plot rectangle; the window spans its width
 * @rl: the runs (their window is the plot's)
 * @origin_ns: the title's times count from here
 * @rows: where each run is drawn
 */
void sp_run_titles_draw(struct _cairo *cr, const struct sp_rect *plot, const struct sp_runlist *rl,
			uint64_t origin_ns, const struct sp_run_rows *rows);

#endif /* SP_RUNTITLES_H */
