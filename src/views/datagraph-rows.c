// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph rows: the colored rows of a chart inside a plot rectangle, and
 * the CPU labels left of them.  See include/schedplot/views/datagraph.h
 * for the contracts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

#include "schedplot/base/alloc.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/ink.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/runlist.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-grid.h"
#include "schedplot/views/datagraph-power.h"
#include "schedplot/views/runtitles.h"

struct segment {
	uint32_t key;
	uint32_t level;			/* ink, draw/ink.h */
	uint32_t row;
	uint32_t c0, c1;		/* columns [c0, c1) */
};

static int cmp_segment(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x->c0 > y->c0) - (x->c0 < y->c0);
}

/*
 * The ink of a cell: a task's (or "other"'s) by the busy share, no data's
 * by its share where no task ran; under the longest-holder rule every cell
 * is drawn whole.
 */
static unsigned int cell_level(const struct sp_timeline *tl, uint32_t key, unsigned int r,
			       unsigned int c)
{
	if (tl->rule == SP_TIMELINE_LONGEST)
		return SP_INK_LEVELS;
	if (key == SP_DG_KEY_NO_DATA)
		return sp_ink_level_rounded(sp_timeline_no_data_share(tl, r, c),
					    SP_TIMELINE_SHARE_MAX);
	return sp_ink_level(sp_timeline_busy_share(tl, r, c), SP_TIMELINE_SHARE_MAX);
}

/* Fill the path with a key at an ink level, the theme deciding the special keys' colors. */
static void key_fill(cairo_t *cr, const struct sp_theme *theme, const struct sp_datagraph *dg,
		     uint32_t key, unsigned int level, cairo_pattern_t *hatch)
{
	const struct sp_rgb *color = &dg->keys[key].color;
	struct sp_rgb mix;

	if (key == SP_DG_KEY_NO_DATA) {
		/* the hatch over the paper, as strong as the share it stands for */
		cairo_save(cr);
		cairo_clip(cr);
		if (hatch)
			cairo_set_source(cr, hatch);
		else
			sp_render_set_color(cr, &theme->no_data);
		cairo_paint_with_alpha(cr, level >= SP_INK_LEVELS ? 1.0 :
				       (double)level / SP_INK_LEVELS);
		cairo_restore(cr);
		return;
	}
	if (key == SP_DG_KEY_IDLE)
		color = &theme->idle;
	else if (key == SP_DG_KEY_OTHER)
		color = &theme->other;
	sp_ink_mix(color, &theme->idle, level, &mix);
	sp_render_set_color(cr, &mix);
	cairo_fill(cr);
}

void sp_datagraph_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_datagraph *dg)
{
	const struct sp_timeline *tl = dg->tl;
	unsigned int r, c, nr_rows = tl->nr_rows, nr_cols = tl->window.nr_cols;
	bool image = sp_render_is_image(cr);
	struct segment *seg;
	size_t nr_seg = 0, alloc_seg = 0, i;
	cairo_pattern_t *hatch;

	sp_figure_plot_begin(cr, theme, plot, image);

	/*
	 * merge equal keys at equal ink along each row, then fill all
	 * rectangles of a key and level at once
	 */
	seg = NULL;
	for (r = 0; r < nr_rows; r++) {
		const uint32_t *k = dg->cell_key + (size_t)r * nr_cols;

		for (c = 0; c < nr_cols;) {
			unsigned int e = c + 1, level = cell_level(tl, k[c], r, c);

			while (e < nr_cols && k[e] == k[c] && cell_level(tl, k[e], r, e) == level)
				e++;
			if (k[c] != SP_DG_KEY_IDLE && level) {
				if (sp_grow_array(&seg, &alloc_seg, nr_seg + 1, sizeof(*seg))) {
					free(seg);
					cairo_restore(cr);
					return;
				}
				seg[nr_seg++] = (struct segment){ k[c], level, r, c, e };
			}
			c = e;
		}
	}
	if (nr_seg)	/* qsort() wants a valid pointer even for no elements */
		qsort(seg, nr_seg, sizeof(*seg), cmp_segment);
	hatch = sp_render_no_data(theme, image);
	for (i = 0; i < nr_seg; i++) {
		double x0 = sp_datagraph_col_x(plot, nr_cols, seg[i].c0, image);
		double x1 = sp_datagraph_col_x(plot, nr_cols, seg[i].c1, image);
		double y0, y1;

		sp_datagraph_row_span(plot, nr_rows, seg[i].row, image, &y0, &y1);
		cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
		if (i + 1 == nr_seg || seg[i + 1].key != seg[i].key ||
		    seg[i + 1].level != seg[i].level)
			key_fill(cr, theme, dg, seg[i].key, seg[i].level, hatch);
	}
	free(seg);
	if (dg->power)
		sp_dg_power_draw(cr, theme, plot, dg, hatch, image);
	cairo_pattern_destroy(hatch);

	/* socket boundaries */
	if (dg->row_socket) {
		double lw = fmax(1.0, theme->axis_line_width);

		sp_render_set_color(cr, &theme->axis);
		for (r = 1; r < nr_rows; r++) {
			double y0, y;

			if (dg->row_socket[r] == dg->row_socket[r - 1])
				continue;
			/* the bottom of row r, the top of row r - 1 */
			sp_datagraph_row_span(plot, nr_rows, r, image, &y0, &y);
			cairo_rectangle(cr, plot->x, y - lw / 2, plot->w, lw);
		}
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

static int run_row(const void *data, const struct sp_runlist_run *r)
{
	const struct sp_datagraph *dg = data;

	return r->cpu >= 0 && r->cpu < dg->tl->nr_cpus ? dg->tl->row_of_cpu[r->cpu] : -1;
}

static void run_label(const void *data, const struct sp_runlist_run *r, char *buf, size_t len)
{
	const struct sp_datagraph *dg = data;

	snprintf(buf, len, "%s-%d", sp_model_comm(dg->model, r->pid), r->pid);
}

void sp_datagraph_titles(cairo_t *cr, const struct sp_rect *plot, const struct sp_datagraph *dg,
			 const struct sp_runlist *rl, uint64_t origin_ns)
{
	struct sp_run_rows rows = { .nr_rows = dg->tl->nr_rows, .bottom_first = true,
				    .row_of = run_row, .label = run_label, .data = dg };

	sp_run_titles_draw(cr, plot, rl, origin_ns, &rows);
}

static void cpu_label(char *buf, size_t len, int cpu)
{
	snprintf(buf, len, "%d", cpu);
}

double sp_datagraph_rows_width(cairo_t *cr, const struct sp_theme *theme, const int *cpu_of_row,
			       unsigned int nr_rows)
{
	double w = 0;
	char buf[16];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (unsigned int r = 0; r < nr_rows; r++) {
		cpu_label(buf, sizeof(buf), cpu_of_row[r]);
		w = fmax(w, sp_text_width(cr, buf));
	}
	cairo_restore(cr);
	return sp_axis_left_width(cr, theme, w, true);
}

void sp_datagraph_rows_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			    const struct sp_datagraph *dg)
{
	const struct sp_timeline *tl = dg->tl;
	unsigned int nr_rows = tl->nr_rows, r, k, first = 0;
	double row_h = plot->h / nr_rows, label_h, last_y = INFINITY, label_w = 0, title_x;
	bool sockets = false, all_fit = true;
	char buf[32];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	label_h = theme->font_size * 1.15;
	k = sp_category_label_step(nr_rows, row_h, label_h);
	for (r = 0; r < nr_rows; r++) {
		double y = plot->y + plot->h - (r + 0.5) * row_h;

		if (dg->row_socket && r && dg->row_socket[r] != dg->row_socket[r - 1]) {
			first = r;
			sockets = true;
		}
		cpu_label(buf, sizeof(buf), tl->cpu_of_row[r]);
		label_w = fmax(label_w, sp_text_width(cr, buf));
		if ((r - first) % k || last_y - y < label_h)
			continue;
		last_y = y;
		sp_axis_left_tick(cr, theme, plot, y, buf);
	}

	/* the title column: each socket's name on its band, or one title */
	title_x = plot->x - theme->tick_len - theme->pad - label_w - 2 * theme->pad;
	sp_render_set_color(cr, &theme->text);
	if (sockets) {
		for (r = 0, first = 0; r <= nr_rows; r++) {
			if (r < nr_rows && dg->row_socket[r] == dg->row_socket[first])
				continue;
			snprintf(buf, sizeof(buf), dg->row_socket[first] < 0 ? "socket ?" :
				 "socket %d", dg->row_socket[first]);
			if (sp_text_width(cr, buf) + 2 * theme->pad > (r - first) * row_h)
				all_fit = false;
			first = r;
		}
		for (r = 0, first = 0; all_fit && r <= nr_rows; r++) {
			if (r < nr_rows && dg->row_socket[r] == dg->row_socket[first])
				continue;
			snprintf(buf, sizeof(buf), dg->row_socket[first] < 0 ? "socket ?" :
				 "socket %d", dg->row_socket[first]);
			sp_text_draw_vertical(cr, title_x, plot->y + plot->h -
					      (first + r) * row_h / 2,
					      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM, buf);
			first = r;
		}
	}
	if (!sockets || !all_fit)
		sp_text_draw_vertical(cr, title_x, plot->y + plot->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM,
				      sockets ? "CPU (by socket, first at the bottom)" : "CPU");
	cairo_restore(cr);
}
