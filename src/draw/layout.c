// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placing title, plot and legend.  See include/schedplot/draw/layout.h for
 * the contracts.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/theme.h"

void sp_layout_spec_init(struct sp_layout_spec *spec, const struct sp_theme *theme,
			 double width, double height)
{
	double line = theme->font_size * 1.2;

	memset(spec, 0, sizeof(*spec));
	spec->width = width;
	spec->height = height;
	spec->margin = theme->margin;
	spec->gap = theme->font_size;
	spec->bottom_h = theme->tick_len + theme->pad + line + theme->pad + line;
	spec->right_w = theme->font_size * 2;
	spec->top_h = theme->font_size * 0.6;
	spec->legend = SP_LEGEND_NONE;
}

int sp_layout_compute(struct sp_layout *lay, const struct sp_layout_spec *spec)
{
	double x0 = spec->margin, y0 = spec->margin;
	double x1 = spec->width - spec->margin, y1 = spec->height - spec->margin;

	memset(lay, 0, sizeof(*lay));
	if (spec->title_h > 0) {
		lay->title = (struct sp_rect){ x0, y0, x1 - x0, spec->title_h };
		y0 += spec->title_h + spec->gap / 2;
	}
	if (spec->legend == SP_LEGEND_RIGHT && spec->legend_w > 0) {
		double lw = fmin(spec->legend_w, 0.4 * (x1 - x0));

		lay->legend = (struct sp_rect){ x1 - lw, y0 + spec->top_h, lw,
						y1 - y0 - spec->top_h };
		x1 -= lw + spec->gap;
	} else if (spec->legend == SP_LEGEND_BELOW && spec->legend_h > 0) {
		double lh = fmin(spec->legend_h, 0.4 * (y1 - y0));

		lay->legend = (struct sp_rect){ x0, y1 - lh, x1 - x0, lh };
		y1 -= lh + spec->gap;
	}
	lay->plot.x = x0 + spec->left_w;
	lay->plot.y = y0 + spec->top_h;
	lay->plot.w = x1 - spec->right_w - lay->plot.x;
	lay->plot.h = y1 - spec->bottom_h - lay->plot.y;
	if (spec->legend == SP_LEGEND_BELOW && lay->legend.w > 0) {
		/* Line the legend up with the plot, not with the y labels. */
		lay->legend.w -= lay->plot.x - lay->legend.x;
		lay->legend.x = lay->plot.x;
	}
	if (!(lay->plot.w >= SP_LAYOUT_MIN_PLOT) || !(lay->plot.h >= SP_LAYOUT_MIN_PLOT))
		return -ERANGE;
	return 0;
}
