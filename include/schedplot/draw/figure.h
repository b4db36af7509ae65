/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_FIGURE_H
#define SP_FIGURE_H

/*
 * What every figure shares around its plots: the background, one title
 * across the top, plots snapped to whole pixels on image surfaces, the
 * time ticks of the x axis the plots share, and a legend area under it
 * that grows to a few lines at most.  The views place their plots with
 * sp_layout_compute() and draw these parts with the functions here, so
 * every figure looks alike: same title, same margins, same axis.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/draw/layout.h"

struct _cairo;
struct sp_legend;
struct sp_theme;
struct sp_time_ticks;

/**
 * sp_figure_scratch - a context for measuring text before the surface exists
 *
 * Text is measured the same way on every surface, so sizes found on it
 * hold for the output.
 *
 * Return: a context on a 1x1 image, or NULL when memory ran out.  Free
 * it with cairo_destroy().
 */
struct _cairo *sp_figure_scratch(void);

/**
 * sp_figure_background - paint the whole surface in the theme's background
 * @cr: cairo context
 * @theme: the theme
 */
void sp_figure_background(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_figure_frame_draw - the background, then the title when the figure has one
 * @cr: cairo context
 * @theme: the theme
 * @title_area: the title rectangle (sp_layout.title; of no width: no title)
 * @title: the title, NULL or "" for none
 */
void sp_figure_frame_draw(struct _cairo *cr, const struct sp_theme *theme,
			  const struct sp_rect *title_area, const char *title);

/**
 * sp_figure_has_title - whether a title is drawn at all
 * @title: the title, NULL or "" for none
 *
 * Return: true for a non-empty @title.
 */
bool sp_figure_has_title(const char *title);

/**
 * sp_figure_title_height - height of the title line
 * @cr: cairo context
 * @theme: the theme (title font size, bold)
 *
 * Return: the height, for sp_layout_spec.title_h.
 */
double sp_figure_title_height(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_figure_title_draw - the title, centered at the top of its rectangle
 * @cr: cairo context
 * @theme: the theme
 * @area: the title rectangle (sp_layout.title)
 * @title: any text; shortened with an ellipsis when it does not fit
 */
void sp_figure_title_draw(struct _cairo *cr, const struct sp_theme *theme,
			  const struct sp_rect *area, const char *title);

/**
 * sp_figure_plot_begin - clip to the plot and paint it in the idle colour
 * @cr: cairo context; saved here, the caller restores it
 * @theme: the theme
 * @plot: the plot rectangle
 * @image: an image surface: antialiasing off, so cells meet without seams
 */
void sp_figure_plot_begin(struct _cairo *cr, const struct sp_theme *theme,
			  const struct sp_rect *plot, bool image);

/**
 * sp_figure_mark_x - a dashed line down the plot at @x, in the text colour
 * @cr: cairo context (its source and line width are left set)
 * @theme: the theme
 * @plot: the plot rectangle
 * @x: where (already on a pixel's middle when the surface is an image)
 * @dash: the dash's on and off lengths
 */
void sp_figure_mark_x(struct _cairo *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      double x, const double dash[2]);

/**
 * sp_figure_snap_x - put a plot's left and right edges on whole pixels
 * @plot: the plot rectangle
 *
 * The left edge rounds up, the right edge down, so the plot keeps inside
 * the room it was given and a column of data is a whole number of pixels.
 * For image surfaces only.
 */
void sp_figure_snap_x(struct sp_rect *plot);

/**
 * sp_figure_snap_y - put a plot's top and bottom edges on whole pixels
 * @plot: the plot rectangle
 *
 * The top edge rounds up, the bottom edge down.  For image surfaces only.
 */
void sp_figure_snap_y(struct sp_rect *plot);

/**
 * sp_figure_layout - sp_layout_compute(), the plot then snapped to pixels
 * @lay: result
 * @spec: the figure's parts
 * @snap_x: put the plot's left and right edges on whole pixels
 * @snap_y: put its top and bottom edges on whole pixels
 *
 * Return: as sp_layout_compute().
 */
int sp_figure_layout(struct sp_layout *lay, const struct sp_layout_spec *spec, bool snap_x,
		     bool snap_y);

/**
 * sp_figure_relayout - lay a planned figure out again, its plot's columns kept
 * @lay: the plan's layout; set to the figure's
 * @spec: the figure's parts, its legend known now; its height is set
 *	  when *@height is not given
 * @height: the figure's height; when not > 0, set to fit a plot of @plot_h
 *	    (at most SP_OUTPUT_MAX_PX)
 * @plot_h: the plot height wanted when the figure's is not given
 * @pixels: an image surface: the plot's top and bottom on whole pixels
 *
 * A view that plans its plot's left and right edges before the pass (its
 * columns are the pass's) learns its legend after it: the plot keeps the
 * planned x and width, the rest is laid out for the legend.
 *
 * Return: as sp_layout_compute().
 */
int sp_figure_relayout(struct sp_layout *lay, struct sp_layout_spec *spec, double *height,
		       double plot_h, bool pixels);

/**
 * sp_figure_time_ticks - the ticks of the time axis under a plot
 * @t: result
 * @cr: cairo context (the theme's font is selected for measuring, then
 *	the context's font restored)
 * @theme: the theme
 * @plot_w: the plot width
 * @t0_ns: the window drawn across the plot
 * @t1_ns: ditto, > @t0_ns
 * @origin_ns: labels count from here (0: absolute timestamps)
 *
 * The most ticks whose labels fit @plot_w (sp_time_ticks_fit()); draw them
 * with sp_axis_time_draw().
 *
 * Return: 0, or -EINVAL for an empty window or bad arguments.
 */
int sp_figure_time_ticks(struct sp_time_ticks *t, struct _cairo *cr,
			 const struct sp_theme *theme, double plot_w, uint64_t t0_ns,
			 uint64_t t1_ns, uint64_t origin_ns);

/**
 * sp_figure_time_axis_draw - the time axis under a plot, when its ticks fit
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 * @t0_ns: the window drawn across the plot
 * @t1_ns: ditto, > @t0_ns
 * @origin_ns: labels count from here (0: absolute timestamps)
 *
 * As sp_figure_time_ticks() and sp_axis_time_draw(); nothing when no ticks fit.
 */
void sp_figure_time_axis_draw(struct _cairo *cr, const struct sp_theme *theme,
			      const struct sp_rect *plot, uint64_t t0_ns, uint64_t t1_ns,
			      uint64_t origin_ns);

/**
 * sp_figure_legend_height - height of a legend under the plots, in lines at most
 * @cr: cairo context
 * @theme: the theme
 * @legend: the legend
 * @avail_w: the width it gets (usually the plot's)
 * @max_lines: lines of entries at most (its title line comes on top);
 *	       what does not fit is counted in a "+N more" line
 *
 * Return: the height for an SP_LEGEND_BELOW legend, in whole units so the
 * legend's grid does not lose a line to rounding; 0 for no entries.
 */
double sp_figure_legend_height(struct _cairo *cr, const struct sp_theme *theme,
			       const struct sp_legend *legend, double avail_w,
			       unsigned int max_lines);

/* ---- panels stacked on one time axis ------------------------------------ */

#define SP_FIGURE_MAX_PANELS 4
#define SP_FIGURE_MAX_LEGENDS 4

/*
 * A figure of panels stacked on one x extent: the title on top, then the
 * panels' plots one under the other, all at the same x and width, so one
 * time axis under the lowest serves them all, and a column of one plot is
 * the same time span as the column under it; under that axis the legends,
 * the first a gap below it, the others half a gap below the one before.
 * Margins, the room for the axis and the gaps come from the theme
 * (sp_layout_spec_init()).
 *
 *	+--------------------------- title ----------------------------+
 *	| left_w |  above_h[0]                                         |
 *	|        |############ plot[0] #################################|
 *	|        |  above_h[1] (e.g. a note)                           |
 *	|        |~~~~~~~~~~~~ plot[1] ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|
 *	|        0        1        2   time (s)                        |
 *	|        [legend[0]]                                           |
 *	|        [legend[1]]                                           |
 *	+--------------------------------------------------------------+
 *
 * The x extent is fixed first (sp_figure_stack_plan_x()): the number of
 * data columns depends on it, and they are needed before the pass over
 * the trace; the heights only after it (sp_figure_stack_place()), when
 * the legends are known.
 */
struct sp_figure_stack {
	/* set by the caller */
	const struct sp_theme *theme;
	double width;			/* the surface */
	double height;			/* 0: from want_h; set by sp_figure_stack_place() */
	bool pixels;			/* PNG: plots on whole pixels */
	double title_h;			/* 0: no title (sp_figure_title_height()) */
	double left_w;			/* room left of the plots: the widest y axis */
	unsigned int nr_panels;		/* 1..SP_FIGURE_MAX_PANELS */
	/* plot heights when the height is free; shares of what is left when not */
	double want_h[SP_FIGURE_MAX_PANELS];
	/* room above each plot (e.g. a note); the first gets at least the theme's */
	double above_h[SP_FIGURE_MAX_PANELS];
	unsigned int nr_legends;	/* 0..SP_FIGURE_MAX_LEGENDS */
	double legend_h[SP_FIGURE_MAX_LEGENDS];	/* 0: this one is left out */

	/* set by sp_figure_stack_plan_x() (x and w) and _place() (the rest) */
	struct sp_rect title;		/* h == 0: none */
	struct sp_rect plot[SP_FIGURE_MAX_PANELS];
	struct sp_rect legend[SP_FIGURE_MAX_LEGENDS];	/* h == 0: none */
};

/**
 * sp_figure_stack_plan_x - the x extent every plot of the stack shares
 * @fig: theme, width, pixels, left_w and nr_panels set
 *
 * Sets x and w of every plot (snapped to whole pixels with @fig->pixels).
 *
 * Return: 0, or -ERANGE when the width leaves less than SP_LAYOUT_MIN_PLOT
 * for the plots, or -EINVAL for a bad panel count.
 */
int sp_figure_stack_plan_x(struct sp_figure_stack *fig);

/**
 * sp_figure_stack_place - the title, the plots' heights and the legends
 * @fig: planned with sp_figure_stack_plan_x(); title_h, want_h, above_h
 *	 and the legends set
 *
 * With a height given, what the title, gaps, axis and legends leave (less
 * one unit per plot, which snapping to pixels may cost) is shared among
 * the plots in the ratio of @fig->want_h, rounded down; without, every
 * plot gets its want_h rounded up and @fig->height is set to fit them.
 *
 * Return: 0, -ERANGE when a plot would be smaller than SP_LAYOUT_MIN_PLOT
 * or a free height would pass SP_OUTPUT_MAX_PX, or -EINVAL for bad counts.
 */
int sp_figure_stack_place(struct sp_figure_stack *fig);

#endif /* SP_FIGURE_H */
