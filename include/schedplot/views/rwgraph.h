/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RWGRAPH_H
#define SP_RWGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;
struct sp_envelope;
struct sp_int_ticks;
struct sp_layout;
struct sp_rect;
struct sp_theme;
struct sp_time_ticks;

/*
 * The running/waiting view: how many tasks run (dark green, thick line),
 * how many wait on a run queue (red, thin line), a dotted line at N, the
 * number of CPUs counted, and, as a filled band directly above the running
 * line, the lost capacity: from running(t) up to running(t) + lost(t),
 * lost(t) = min(waiting(t), N - running(t)), the CPUs that could have run a
 * waiting task and did not.  Drawn from an sp_envelope, so every pixel
 * column shows the min..max of each step function (and the extent of the
 * band) inside it.
 *
 * When running and waiting differ by more than SP_RWGRAPH_SPLIT_RATIO in
 * their maxima, a figure of its own draws waiting in a panel of its own
 * under the running panel, sharing the time axis, each with its own y axis
 * (sp_rwgraph_split()).
 *
 * Two ways to use it:
 *
 * - A figure of its own: sp_rwgraph_layout() before the pass over the trace
 *   (it gives the plot rectangle, hence the number of envelope columns,
 *   sp_rwgraph_nr_cols()), then sp_rwgraph_figure_draw() after it.
 *
 * - A panel in a bigger figure (schedplot overview puts it under the
 *   datagraph, with the same x scale): the caller lays out the page, keeps
 *   the panel's plot rectangle the same width and x as the other plots,
 *   reserves sp_rwgraph_left_width() left of it for the y axis and
 *   sp_rwgraph_note_height() above it for the corner note, and calls
 *
 *	sp_rwgraph_y_ticks(&yt, env, style, plot.h, theme);
 *	sp_rwgraph_draw_data(cr, theme, &plot, env, &yt, &xt, style);
 *	sp_rwgraph_draw_y_axis(cr, theme, &plot, &yt);
 *	sp_rwgraph_draw_note(cr, theme, &plot, fraction);
 *	sp_rwgraph_legend_draw(cr, theme, style, true, &legend_area);
 *
 *   and draws the shared time axis itself (sp_axis_time_draw()).
 *
 * Colors, widths and dash patterns differ by more than hue, so a grey-scale
 * print still tells running from waiting.  User units as in draw/theme.h:
 * pixels for PNG, points for PDF/SVG.
 */

/* What marks lost capacity (sp_rwgraph_style.shade_kind). */
enum sp_rwgraph_shade {
	/* a band from running(t) to running(t) + lost(t) (the default) */
	SP_RWGRAPH_SHADE_LOST,
	/*
	 * each column shaded over the whole plot height, darker the longer some
	 * task waited in it while some CPU idled (kept for a later option; at
	 * 128 CPUs and more it covers nearly every column)
	 */
	SP_RWGRAPH_SHADE_COLUMNS,
};

/* One panel or two (sp_rwgraph_style.panels; a figure of its own only). */
enum sp_rwgraph_panels {
	SP_RWGRAPH_PANELS_AUTO,		/* two when the maxima differ a lot (the default) */
	SP_RWGRAPH_PANELS_SINGLE,	/* both series on one y axis */
	SP_RWGRAPH_PANELS_SPLIT,	/* waiting in a panel of its own */
};

/* Running and waiting maxima this far apart get a panel each. */
#define SP_RWGRAPH_SPLIT_RATIO 10

struct sp_rwgraph_style {
	int nr_cpus;		/* N: the dotted line */
	bool shade;		/* mark lost capacity (as @shade_kind says) */
	enum sp_rwgraph_shade shade_kind;
	enum sp_rwgraph_panels panels;
	bool pixels;		/* PNG: crisp 1-px column bars on whole pixels;
				   else one polygon per series (PDF/SVG) */
	uint64_t complete_ns;	/* before this not every CPU was recording: drawn
				   grey, not shaded (0: the whole window is complete) */
	const char *counting;	/* the tasks counted when not all (e.g. "barrier"),
				   said in the note; NULL: all */	const char *aside;	/* after the lost note where it fits (e.g. "every run
				   on CPU 0: affinity is not in the trace"); NULL: none */
};

/**
 * sp_rwgraph_split - whether a figure draws waiting in a panel of its own
 * @env: a finished envelope
 * @style: the style; @style->panels forces one answer, else the maxima decide
 *
 * Automatic: split when waiting ever rises to 1 or more and the larger of
 * max(N, largest running) and the largest waiting is more than
 * SP_RWGRAPH_SPLIT_RATIO times the smaller.
 * Return: true for two panels.
 */
bool sp_rwgraph_split(const struct sp_envelope *env, const struct sp_rwgraph_style *style);

/* Envelope columns per point in PDF/SVG: finer than the page, few enough to stay small. */
#define SP_RWGRAPH_VECTOR_COLS_PER_PT 2

/**
 * sp_rwgraph_snap_plot - put a plot rectangle on whole pixels (PNG only)
 * @plot: the rectangle; unchanged unless @style->pixels
 * @style: the style
 *
 * The left and top edges round up, the right and bottom edges down, so a
 * column of the envelope is exactly one pixel.
 */
void sp_rwgraph_snap_plot(struct sp_rect *plot, const struct sp_rwgraph_style *style);

/**
 * sp_rwgraph_nr_cols - envelope columns for a plot rectangle
 * @plot: the (snapped) plot rectangle
 * @style: the style
 * @t0_ns: window start
 * @t1_ns: window end, > @t0_ns
 *
 * Return: one per pixel for PNG, SP_RWGRAPH_VECTOR_COLS_PER_PT per point
 * otherwise, never more than the window has nanoseconds, at least 1.
 */
size_t sp_rwgraph_nr_cols(const struct sp_rect *plot, const struct sp_rwgraph_style *style,
			  uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_rwgraph_left_width - room the y axis (labels, title) needs left of the plot
 * @cr: cairo context
 * @theme: the theme
 *
 * Sized for labels up to four digits, known before the pass over the trace
 * (larger values still draw, their title moves further left).
 * Return: the width.
 */
double sp_rwgraph_left_width(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_rwgraph_note_height - room the corner note needs above the plot
 * @cr: cairo context
 * @theme: the theme
 *
 * Return: the height.
 */
double sp_rwgraph_note_height(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_rwgraph_y_ticks - the y scale: whole tasks from 0 past the largest value
 * @t: result; t->top is the value at the top of the plot
 * @env: a finished envelope
 * @style: the style (N is always in view)
 * @plot_h: plot height, to choose how many ticks fit
 * @theme: the theme
 *
 * Return: 0, or -EINVAL.
 */
int sp_rwgraph_y_ticks(struct sp_int_ticks *t, const struct sp_envelope *env,
		       const struct sp_rwgraph_style *style, double plot_h,
		       const struct sp_theme *theme);

/**
 * sp_rwgraph_value_y - where a value lies vertically in a plot
 * @plot: the plot rectangle
 * @t: its y ticks
 * @theme: the theme (the zero line sits a few units above the frame)
 * @value: tasks
 *
 * Return: the y coordinate; for PNG, the pixel row is floor() of it.
 */
double sp_rwgraph_value_y(const struct sp_rect *plot, const struct sp_int_ticks *t,
			  const struct sp_theme *theme, double value);

/**
 * sp_rwgraph_draw_data - draw the lost band, grid, both series and the N line
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle; the envelope's columns span its width
 * @env: a finished envelope
 * @t: y ticks from sp_rwgraph_y_ticks()
 * @xt: time ticks of the x axis, for vertical grid lines under the data
 *	(NULL: none); the window is the envelope's
 * @style: the style
 *
 * Draws inside @plot only, then its frame.
 */
void sp_rwgraph_draw_data(struct _cairo *cr, const struct sp_theme *theme,
			  const struct sp_rect *plot, const struct sp_envelope *env,
			  const struct sp_int_ticks *t, const struct sp_time_ticks *xt,
			  const struct sp_rwgraph_style *style);

/**
 * sp_rwgraph_draw_y_axis - ticks, labels and the "tasks" title left of a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 * @t: y ticks from sp_rwgraph_y_ticks()
 */
void sp_rwgraph_draw_y_axis(struct _cairo *cr, const struct sp_theme *theme,
			    const struct sp_rect *plot, const struct sp_int_ticks *t);

/**
 * sp_rwgraph_draw_note - "lost: 0.6% of capacity" above a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle; the note is right-aligned above its top edge
 * @fraction: lost CPU time over N x the complete part of the window, 0..1
 *	      (sp_rw_collect_lost_fraction())
 * @counting: the tasks counted when not all, or NULL ("lost, counting
 *	      barrier only: 0.6% of capacity")
 */
void sp_rwgraph_draw_note(struct _cairo *cr, const struct sp_theme *theme,
			  const struct sp_rect *plot, double fraction, const char *counting);

/**
 * sp_rwgraph_draw_note_text - any corner note above a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle; the note is right-aligned above its top edge
 * @text: the note
 */
void sp_rwgraph_draw_note_text(struct _cairo *cr, const struct sp_theme *theme,
			       const struct sp_rect *plot, const char *text);

/**
 * sp_rwgraph_lost_note - format "lost: 3.1 CPU·s, 0.6% of capacity"
 * @buf: result
 * @len: its size
 * @lost_cpu_ns: lost CPU time (CPU·ns, CPU·µs, CPU·ms or CPU·s, three digits)
 * @fraction: the same over the capacity, 0..1
 *
 * Return: @buf.
 */
char *sp_rwgraph_lost_note(char *buf, size_t len, double lost_cpu_ns, double fraction);

/**
 * sp_rwgraph_legend_size - size of the legend
 * @cr: cairo context
 * @theme: the theme
 * @style: the style (the shading entry only when shading, the "not all
 *	   CPUs recording" entry only with @style->complete_ns)
 * @row: all entries on one line (else one entry per line)
 * @w: its width
 * @h: its height
 */
void sp_rwgraph_legend_size(struct _cairo *cr, const struct sp_theme *theme,
			    const struct sp_rwgraph_style *style, bool row, double *w, double *h);

/**
 * sp_rwgraph_legend_draw - draw the legend: line samples, not only color swatches
 * @cr: cairo context
 * @theme: the theme
 * @style: the style
 * @row: as for sp_rwgraph_legend_size()
 * @area: where; entries start at its top left, and are clipped to it
 */
void sp_rwgraph_legend_draw(struct _cairo *cr, const struct sp_theme *theme,
			    const struct sp_rwgraph_style *style, bool row,
			    const struct sp_rect *area);

/**
 * sp_rwgraph_legend_grid - the legend in as many rows as a width needs
 * @cr: cairo context
 * @theme: the theme
 * @style: the style
 * @w: the width there is
 * @area: where to draw it (its top left), or NULL to measure only
 *
 * The entries in columns that fit in @w, row by row, with short labels
 * ("running", "waiting"); an entry wider than half of @w gets a row of its
 * own.  For a row (sp_rwgraph_legend_size()) wider than the page.
 *
 * Return: the height.
 */
double sp_rwgraph_legend_grid(struct _cairo *cr, const struct sp_theme *theme,
			      const struct sp_rwgraph_style *style, double w,
			      const struct sp_rect *area);

/**
 * sp_rwgraph_title_height - height of a figure title line
 * @cr: cairo context
 * @theme: the theme
 *
 * The same as sp_figure_title_height(), which new code calls instead.
 *
 * Return: the height, for sp_layout_spec.title_h.
 */
double sp_rwgraph_title_height(struct _cairo *cr, const struct sp_theme *theme);

/**
 * sp_rwgraph_draw_title - a figure's title, centered at the top of @area
 * @cr: cairo context
 * @theme: the theme
 * @area: the title rectangle (sp_layout.title)
 * @title: any text; shortened with an ellipsis when it does not fit
 *
 * The same as sp_figure_title_draw(), which new code calls instead.
 */
void sp_rwgraph_draw_title(struct _cairo *cr, const struct sp_theme *theme,
			   const struct sp_rect *area, const char *title);

/*
 * A running-waiting figure of its own.  Its note says how much capacity was
 * lost: @shade_fraction of N x the complete part of the window, [max(t0,
 * complete_ns), t1], which also gives the CPU time.  With
 * SP_RWGRAPH_SHADE_COLUMNS it says instead which share of that part some
 * task waited while some CPU idled, and @shade_fraction must be that share.
 */
struct sp_rwgraph_figure {
	struct sp_rwgraph_style style;
	const char *title;		/* NULL or "": none */
	bool legend;
	uint64_t t0_ns, t1_ns;		/* the window */
	uint64_t origin_ns;		/* time labels count from here (0: absolute) */
	double shade_fraction;		/* for the note (sp_rw_collect_lost_fraction());
					   < 0: no note */
};

/**
 * sp_rwgraph_layout - place title, plot and legend of a figure
 * @lay: result (plot snapped for PNG)
 * @cr: cairo context (for text sizes)
 * @theme: the theme
 * @fig: the figure
 * @width: surface width
 * @height: surface height
 *
 * Return: 0, or -ERANGE when the surface is too small for its labels.
 */
int sp_rwgraph_layout(struct sp_layout *lay, struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_rwgraph_figure *fig, double width, double height);

/**
 * sp_rwgraph_draw_panels - running and waiting inside @plot, in one panel or two
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle (the time axis is the caller's)
 * @env: a finished envelope whose columns span @plot
 * @xt: the time ticks (grid lines)
 * @style: the style
 * @top: set to the panel of running (the whole @plot with one panel), for notes
 * @bottom: set to the panel the time axis goes under
 *
 * With sp_rwgraph_split() and room for both, running and the lost band
 * take the upper part of @plot and waiting the lower, each with its own
 * value axis; else one panel.
 *
 * Return: 0, or -EINVAL when the value ticks cannot be computed.
 */
int sp_rwgraph_draw_panels(struct _cairo *cr, const struct sp_theme *theme,
			   const struct sp_rect *plot, const struct sp_envelope *env,
			   const struct sp_time_ticks *xt, const struct sp_rwgraph_style *style,
			   struct sp_rect *top, struct sp_rect *bottom);

/**
 * sp_rwgraph_figure_draw - draw a whole figure, in one panel or two
 * @cr: cairo context
 * @theme: the theme
 * @fig: the figure
 * @lay: from sp_rwgraph_layout() with the same arguments
 * @env: a finished envelope whose columns span @lay->plot
 *
 * With two panels (sp_rwgraph_split()) running and the lost band take the
 * upper part of @lay->plot, waiting the lower, the time axis under both.
 *
 * Return: 0, or -EINVAL when the time ticks cannot be computed.
 */
int sp_rwgraph_figure_draw(struct _cairo *cr, const struct sp_theme *theme,
			   const struct sp_rwgraph_figure *fig, const struct sp_layout *lay,
			   const struct sp_envelope *env);

#endif /* SP_RWGRAPH_H */
