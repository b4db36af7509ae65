// SPDX-License-Identifier: GPL-2.0-only
/*
 * Power layers of the core-by-time chart: rows colored by CPU frequency,
 * idle time shaded by C-state.  See include/schedplot/views/datagraph-power.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-grid.h"
#include "schedplot/views/datagraph-power.h"

/* C-states: the shallowest light grey, the deepest dark grey */
#define IDLE_LIGHT 0.86
#define IDLE_DARK 0.5

struct range {
	int64_t lo, hi;
	size_t nr;
};

static void note_freq(void *data, int pid, uint64_t ns)
{
	struct range *r = data;

	if (!ns)
		return;
	if (!r->nr || pid < r->lo)
		r->lo = pid;
	if (!r->nr || pid > r->hi)
		r->hi = pid;
	r->nr++;
}

static void add_entry(struct sp_dg_power *pw, const struct sp_rgb *c, int state)
{
	size_t n = pw->nr_entries;

	if (n >= SP_DG_POWER_MAX_ENTRIES)
		return;
	snprintf(pw->labels[n], sizeof(pw->labels[n]), "idle state %d", state);
	pw->entries[n].color = *c;
	pw->entries[n].label = pw->labels[n];
	pw->nr_entries++;
}

/* The color bar's colors: the rows' function, in MHz. */
static void bar_color(const void *data, double mhz, struct sp_rgb *c)
{
	sp_dg_power_freq_color(data, mhz * 1000, c);
}

/* The unknown swatch: the hatch of unknown time in the rows. */
static void bar_unknown(cairo_t *cr, const struct sp_theme *theme)
{
	cairo_pattern_t *hatch = sp_render_no_data(theme, sp_render_is_image(cr));

	cairo_set_source(cr, hatch);
	cairo_pattern_destroy(hatch);
}

static void bar_init(struct sp_dg_power *pw, const struct range *r)
{
	pw->any_freq = r->nr > 0;
	pw->lo_khz = r->lo;
	pw->hi_khz = r->hi;
	if (pw->any_freq && r->lo == r->hi) {
		pw->lo_khz = r->lo > SP_DG_FREQ_ONE_SPAN_KHZ ? r->lo - SP_DG_FREQ_ONE_SPAN_KHZ : 0;
		pw->hi_khz = r->hi + SP_DG_FREQ_ONE_SPAN_KHZ;
	}
	snprintf(pw->bar_title, sizeof(pw->bar_title), "CPU frequency (MHz)%s",
		 pw->freq == SP_DG_FREQ_MERGED ? ", lower half of each row" : "");
	pw->bar = (struct sp_colorbar){
		.title = pw->bar_title,
		.lo = pw->any_freq ? pw->lo_khz / 1000.0 : 0,
		.hi = pw->any_freq ? pw->hi_khz / 1000.0 : 0,
		.color = bar_color,
		.data = pw,
		.unknown_label = pw->freq_tl->no_data_ns || !pw->any_freq ? "unknown" : NULL,
		.unknown_fill = bar_unknown,
	};
}

void sp_dg_power_init(struct sp_dg_power *pw, enum sp_dg_freq_mode freq,
		      const struct sp_timeline *freq_tl, bool idle_states,
		      const struct sp_timeline *idle_tl, int max_idle_state, bool grey)
{
	struct range r = { 0 };
	struct sp_rgb c;
	int s;

	memset(pw, 0, sizeof(*pw));
	pw->freq = freq_tl ? freq : SP_DG_FREQ_OFF;
	pw->freq_tl = freq_tl;
	pw->idle_states = idle_states && idle_tl;
	pw->idle_tl = idle_tl;
	pw->grey = grey;
	pw->max_idle_state = max_idle_state;
	if (pw->freq != SP_DG_FREQ_OFF) {
		sp_timeline_for_each_total(freq_tl, note_freq, &r);
		bar_init(pw, &r);
	}
	if (pw->idle_states && pw->freq != SP_DG_FREQ_ROWS) {
		snprintf(pw->legend_title, sizeof(pw->legend_title), "idle states (deeper darker)");
		for (s = 0; s <= max_idle_state && s < SP_DG_IDLE_STATES; s++) {
			sp_dg_power_idle_color(pw, s, &c);
			add_entry(pw, &c, s);
		}
	}
}

void sp_dg_power_freq_color(const struct sp_dg_power *pw, double khz, struct sp_rgb *c)
{
	double f = pw->hi_khz > pw->lo_khz ?
		   (khz - (double)pw->lo_khz) / (double)(pw->hi_khz - pw->lo_khz) : 1;

	/* not viridis: its greens and yellows read as tasks */
	sp_palette_ramp_color(f, pw->grey, c);
}

void sp_dg_power_idle_color(const struct sp_dg_power *pw, int state, struct sp_rgb *c)
{
	int deepest = pw->max_idle_state < SP_DG_IDLE_STATES ? pw->max_idle_state
							      : SP_DG_IDLE_STATES - 1;
	double g = deepest > 0 ? IDLE_LIGHT - (IDLE_LIGHT - IDLE_DARK) *
				 fmin(state, deepest) / deepest : IDLE_LIGHT;

	*c = (struct sp_rgb){ g, g, g };
}

/* The value a layer gives cell @c of row @r, or INT64_MIN for nothing to draw. */
typedef int64_t (*cell_fn)(const struct sp_datagraph *dg, unsigned int r, unsigned int c);

static int64_t freq_cell(const struct sp_datagraph *dg, unsigned int r, unsigned int c)
{
	return sp_timeline_cell(dg->power->freq_tl, r, c);
}

static int64_t idle_cell(const struct sp_datagraph *dg, unsigned int r, unsigned int c)
{
	int32_t v = sp_timeline_cell(dg->power->idle_tl, r, c);

	if (dg->cell_key[(size_t)r * dg->tl->window.nr_cols + c] != SP_DG_KEY_IDLE || v <= 0)
		return INT64_MIN;
	return v - 1;
}

/*
 * Fill each run of equal values of a layer along each row, in the part of
 * the row between fractions @top and @bottom of its height.
 */
static void draw_layer(cairo_t *cr, const struct sp_rect *plot, const struct sp_datagraph *dg,
		       cell_fn cell, bool freq, double top, double bottom,
		       cairo_pattern_t *hatch, bool snap)
{
	const struct sp_dg_power *pw = dg->power;
	unsigned int nr_rows = dg->tl->nr_rows, nr_cols = dg->tl->window.nr_cols, r, c;
	struct sp_rgb color;

	for (r = 0; r < nr_rows; r++) {
		double y0, y1, ya, yb;

		sp_datagraph_row_span(plot, nr_rows, r, snap, &y0, &y1);
		ya = y0 + top * (y1 - y0);
		yb = y0 + bottom * (y1 - y0);
		if (snap) {
			ya = round(ya);
			yb = round(yb);
		}
		for (c = 0; c < nr_cols;) {
			int64_t v = cell(dg, r, c);
			unsigned int e = c + 1;
			double x0, x1;

			while (e < nr_cols && cell(dg, r, e) == v)
				e++;
			x0 = sp_datagraph_col_x(plot, nr_cols, c, snap);
			x1 = sp_datagraph_col_x(plot, nr_cols, e, snap);
			c = e;
			if (v == INT64_MIN)
				continue;
			if (freq && v == SP_TIMELINE_NO_DATA) {
				cairo_set_source(cr, hatch);
			} else {
				if (freq)
					sp_dg_power_freq_color(pw, (double)v, &color);
				else
					sp_dg_power_idle_color(pw, (int)v, &color);
				sp_render_set_color(cr, &color);
			}
			cairo_rectangle(cr, x0, ya, x1 - x0, yb - ya);
			cairo_fill(cr);
		}
	}
}

void sp_dg_power_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_datagraph *dg, cairo_pattern_t *hatch, bool snap)
{
	const struct sp_dg_power *pw = dg->power;
	double split = pw->freq == SP_DG_FREQ_MERGED ? 0.5 : 1;

	unsigned int r;

	if (pw->idle_states && pw->freq != SP_DG_FREQ_ROWS)
		draw_layer(cr, plot, dg, idle_cell, false, 0, split, hatch, snap);
	if (pw->freq == SP_DG_FREQ_OFF)
		return;
	draw_layer(cr, plot, dg, freq_cell, true, split == 1 ? 0 : split, 1, hatch, snap);
	if (pw->freq != SP_DG_FREQ_MERGED)
		return;
	/* a row's frequency touches the next row's tasks: a line between rows */
	sp_render_set_color(cr, &theme->axis);
	for (r = 1; r < dg->tl->nr_rows; r++) {
		double y0, y1, lw = snap ? 1 : theme->grid_line_width;

		sp_datagraph_row_span(plot, dg->tl->nr_rows, r, snap, &y0, &y1);
		cairo_rectangle(cr, plot->x, y1 - lw / 2, plot->w, lw);
	}
	cairo_fill(cr);
}
