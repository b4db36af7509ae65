/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATAGRAPH_POWER_H
#define SP_DATAGRAPH_POWER_H

/*
 * Power layers of the core-by-time chart, drawn over its rows by
 * sp_datagraph_draw() when sp_datagraph_opts.power is set:
 *
 * - frequency (power:cpu_frequency): each row colored by the frequency
 *   that held most of each column, on a sequential scale whose lightness
 *   grows with the frequency (readable in grey scale; a grey ramp with
 *   --palette grey), hatched where the frequency is unknown (before the
 *   CPU's first frequency event).  SP_DG_FREQ_ROWS replaces the task
 *   colors; SP_DG_FREQ_MERGED keeps them in the top half of each row and
 *   puts the frequency in the bottom half.
 * - idle states (power:cpu_idle): idle columns (white) shaded by the
 *   C-state that held most of the column, light to dark grey as the state
 *   deepens; white where the CPU idled out of any C-state or before its
 *   first cpu_idle event.
 *
 * The legend gains a color bar of the frequency scale (draw/colorbar.h):
 * its ends are the least and most frequency in the window, its ticks
 * round MHz, with a hatched "unknown" swatch beside it; and one swatch
 * per C-state.  Rows and bar take their colors from one function,
 * sp_dg_power_freq_color().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/colorbar.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"

struct _cairo;
struct _cairo_pattern;
struct sp_datagraph;
struct sp_theme;
struct sp_timeline;

enum sp_dg_freq_mode {
	SP_DG_FREQ_OFF,
	SP_DG_FREQ_ROWS,		/* rows colored by frequency instead of task */
	SP_DG_FREQ_MERGED,		/* task on top, frequency below, in each row */
};

/* C-states given a swatch (and a grey of their own) at most */
#define SP_DG_IDLE_STATES 8
#define SP_DG_POWER_MAX_ENTRIES SP_DG_IDLE_STATES
/* Half the scale around the frequency of a window that has only one */
#define SP_DG_FREQ_ONE_SPAN_KHZ 100000

struct sp_dg_power {
	enum sp_dg_freq_mode freq;
	bool idle_states;
	bool grey;				/* --palette grey: a grey ramp */
	const struct sp_timeline *freq_tl;	/* cells: kHz, or no data */
	const struct sp_timeline *idle_tl;	/* cells: C-state + 1, 0 out of one, or no data */
	/*
	 * The scale's ends: the least and most frequency in the window, or
	 * SP_DG_FREQ_ONE_SPAN_KHZ either side of the only one
	 */
	int64_t lo_khz, hi_khz;
	bool any_freq;				/* some column has a known frequency */
	int max_idle_state;			/* -1: none */
	struct sp_colorbar bar;			/* the frequency scale, when freq is on */
	char bar_title[64];
	struct sp_legend_entry entries[SP_DG_POWER_MAX_ENTRIES];
	char labels[SP_DG_POWER_MAX_ENTRIES][32];
	size_t nr_entries;
	char legend_title[96];			/* what the entries are */
};

/**
 * sp_dg_power_init - set up the layers from finished timelines
 * @pw: the layers
 * @freq: the frequency layer's mode
 * @freq_tl: finished frequency timeline (see model/power.h), or NULL
 * @idle_states: draw the idle-state layer
 * @idle_tl: finished idle-state timeline, or NULL
 * @max_idle_state: deepest C-state seen (sp_power.max_idle_state)
 * @grey: use the grey ramp for frequencies
 */
void sp_dg_power_init(struct sp_dg_power *pw, enum sp_dg_freq_mode freq,
		      const struct sp_timeline *freq_tl, bool idle_states,
		      const struct sp_timeline *idle_tl, int max_idle_state, bool grey);

/**
 * sp_dg_power_freq_color - the scale's color of a frequency
 * @pw: the layers (their scale's ends, the palette)
 * @khz: the frequency
 * @c: set to the color: sp_palette_ramp_color() of its place between the
 *     scale's ends; the rows and the color bar both use this function
 */
void sp_dg_power_freq_color(const struct sp_dg_power *pw, double khz, struct sp_rgb *c);

/**
 * sp_dg_power_idle_color - the grey of a C-state
 * @pw: the layers (the deepest state)
 * @state: the C-state, 0 the lightest
 * @c: set to the color
 */
void sp_dg_power_idle_color(const struct sp_dg_power *pw, int state, struct sp_rgb *c);

/**
 * sp_dg_power_draw - draw the layers over a chart's rows
 * @cr: cairo context (clipped to @plot by the caller)
 * @theme: the theme
 * @plot: the chart's rectangle
 * @dg: the chart, its task colors drawn already
 * @hatch: the pattern of unknown time
 * @snap: round edges to whole pixels (image surfaces)
 */
void sp_dg_power_draw(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_rect *plot, const struct sp_datagraph *dg,
		      struct _cairo_pattern *hatch, bool snap);

#endif /* SP_DATAGRAPH_POWER_H */
