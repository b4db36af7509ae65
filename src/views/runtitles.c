// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hover titles of the runs of a chart (include/schedplot/views/runtitles.h).
 */
#include <stdio.h>

#include <cairo.h>

#include "schedplot/draw/output.h"
#include "schedplot/model/runlist.h"
#include "schedplot/views/runtitles.h"

void sp_run_titles_draw(cairo_t *cr, const struct sp_rect *plot, const struct sp_runlist *rl,
			uint64_t origin_ns, const struct sp_run_rows *rows)
{
	double span = (double)(rl->t1_ns - rl->t0_ns), row_h;
	char label[64], title[160];

	if (cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_SVG ||
	    !sp_runlist_usable(rl) || !rows->nr_rows || !(span > 0))
		return;
	row_h = plot->h / rows->nr_rows;
	for (size_t i = 0; i < rl->nr_runs; i++) {
		const struct sp_runlist_run *r = &rl->runs[i];
		uint64_t t0 = r->start_ns > rl->t0_ns ? r->start_ns : rl->t0_ns;
		uint64_t t1 = r->end_ns < rl->t1_ns ? r->end_ns : rl->t1_ns;
		int row = rows->row_of(rows->data, r);
		double y;

		if (row < 0 || (unsigned int)row >= rows->nr_rows)
			continue;
		rows->label(rows->data, r, label, sizeof(label));
		snprintf(title, sizeof(title), "%s on CPU %d at %.6f s for %.3f ms", label, r->cpu,
			 (double)(int64_t)(r->start_ns - origin_ns) / 1e9,
			 (double)(r->end_ns - r->start_ns) / 1e6);
		y = rows->bottom_first ? plot->y + plot->h - (row + 1) * row_h
				       : plot->y + row * row_h;
		sp_output_svg_title(cr, plot->x + (double)(t0 - rl->t0_ns) / span * plot->w, y,
				    (double)(t1 - t0) / span * plot->w, row_h, title);
	}
}
