// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph-marks: migrations, wakeup arrows, placement rings and any
 * event's ticks drawn over the datagraph's rows, from what analysis/
 * overlay.c gathered in the one pass.  See
 * include/schedplot/views/datagraph-marks.h for what each looks like.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/muldiv.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/stamp.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-marks.h"

/* Labels are drawn when, on average, this many units apart (arrows: overlay.h). */
#define LABEL_SPACING	60.0

static const struct sp_rgb mig_color[SP_MIG_NR_CLASSES] = {
	[SP_MIG_WAKEUP] = { 0, 0, 0 },
	[SP_MIG_BALANCE] = { 0.80, 0.0, 0.0 },
	[SP_MIG_NUMA] = { 0.45, 0.0, 0.60 },
};
static const struct sp_rgb wakeup_color = { 0.0, 0.25, 0.85 };
static const struct sp_rgb placement_color = { 1.0, 0.55, 0.0 };
/* spans: dark and saturated, to read as a bar over any task's color, with a white edge */
const struct sp_rgb sp_span_color[SP_SPANS_MAX_KINDS] = {
	{ 0.10, 0.10, 0.10 }, { 0.75, 0.0, 0.35 }, { 0.0, 0.35, 0.75 }, { 0.45, 0.25, 0.0 },
	{ 0.0, 0.45, 0.20 }, { 0.45, 0.0, 0.65 }, { 0.80, 0.40, 0.0 }, { 0.35, 0.35, 0.35 },
};
/* none black, blue or orange: those of the migrations, wakeups and placement */
static const struct sp_rgb event_color[SP_OVERLAY_MAX_EVENTS] = {
	{ 0.85, 0.1, 0.55 }, { 0.0, 0.55, 0.25 }, { 0.55, 0.35, 0.0 }, { 0.0, 0.45, 0.55 },
	{ 0.45, 0.45, 0.0 }, { 0.5, 0.3, 0.6 }, { 0.6, 0.0, 0.0 }, { 0.45, 0.45, 0.45 },
};

/* A migration's line or tick to draw, merged with those it overlaps */
struct sp_dg_seg {
	uint64_t key;		/* lines: the column; ticks: the row */
	double a, b;		/* from, to: y of a line, x of a tick */
	double at;		/* x of a line, y of a tick */
};

static void migration_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			     double size);
static void event_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			 double size);

/* The samples of migration lines: a class's dashes, or thick across sockets */
#define SAMPLE_CROSS SP_MIG_NR_CLASSES

static struct sp_legend_entry *entry(struct sp_dg_marks *mk, const struct sp_rgb *color,
				     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static struct sp_legend_entry *entry(struct sp_dg_marks *mk, const struct sp_rgb *color,
				     const char *fmt, ...)
{
	size_t i = mk->nr_entries++;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mk->labels[i], sizeof(mk->labels[i]), fmt, ap);
	va_end(ap);
	memset(&mk->entries[i], 0, sizeof(mk->entries[i]));
	mk->entries[i].color = *color;
	mk->entries[i].label = mk->labels[i];
	return &mk->entries[i];
}

/* A legend entry drawn by @sample in @style */
static void sampled(struct sp_legend_entry *e, void (*sample)(cairo_t *,
		    const struct sp_legend_entry *, double, double, double), int style)
{
	e->sample = sample;
	e->style = style;
}

bool sp_dg_marks_any(const struct sp_dg_marks *mk)
{
	return sp_overlay_any(&mk->ov) || mk->spans.nr_kinds;
}

int sp_dg_marks_finish(struct sp_dg_marks *mk)
{
	const struct sp_overlay *ov = &mk->ov;
	const struct sp_placement_count *p = ov->place.by;
	size_t i, nr_mig = 0;
	int k, ret;

	ret = sp_overlay_finish(&mk->ov);
	if (ret)
		return ret;

	/* room for the ticks of every migration, two each, to merge when drawn */
	for (i = 0; i < mk->ov.nr_marks; i++)
		nr_mig += mk->ov.marks[i].kind == SP_OVERLAY_MIGRATION;
	free(mk->segs);
	free(mk->open_ticks);
	mk->segs = nr_mig ? sp_alloc_array(2 * nr_mig, sizeof(*mk->segs)) : NULL;
	mk->open_ticks = nr_mig ? sp_alloc_array(mk->ov.tl->nr_rows, sizeof(*mk->open_ticks)) : NULL;
	if (nr_mig && (!mk->segs || !mk->open_ticks))
		return -ENOMEM;

	mk->nr_entries = 0;
	if (mk->ov.migrations) {
		for (k = 0; k < SP_MIG_NR_CLASSES; k++) {
			if (k == SP_MIG_NUMA && !mk->ov.mig.nr[k])
				continue;
			sampled(entry(mk, &mig_color[k], "%s: %" PRIu64,
				      k == SP_MIG_WAKEUP ? "migr. at wakeup" :
				      k == SP_MIG_BALANCE ? "migr. balance" : "migr. NUMA",
				      mk->ov.mig.nr[k]), migration_sample, k);
		}
		if (mk->ov.mig.socket)
			sampled(entry(mk, &mig_color[SP_MIG_WAKEUP], "migr. across sockets: %" PRIu64,
				      mk->ov.mig.nr_cross_socket), migration_sample, SAMPLE_CROSS);
	}
	if (mk->ov.placement)
		entry(mk, &placement_color, "left idle CPU: %" PRIu64,
		      p[SP_PLACE_MOVED_PREV_IDLE].nr);
	if (mk->ov.wakeups)
		entry(mk, &wakeup_color, "wakeup arrows: %" PRIu64, mk->ov.nr_wakeup_arrows);
	for (k = 0; k < mk->ov.nr_events; k++)
		sampled(entry(mk, &event_color[k], "%s: %" PRIu64, mk->ov.events[k].name,
			      mk->ov.events[k].nr), event_sample, k);
	ret = mk->spans.nr_kinds ? sp_spans_finish(&mk->spans) : 0;
	for (k = 0; k < mk->spans.nr_kinds && !ret; k++)
		sampled(entry(mk, &sp_span_color[k], "%s: %zu", mk->spans.kinds[k].name,
			      mk->spans.kinds[k].durs.nr), sp_legend_bar_sample, 0);
	return ret;
}

const struct sp_legend_entry *sp_dg_marks_legend(const struct sp_dg_marks *mk, size_t *n)
{
	*n = mk->nr_entries;
	return mk->entries;
}

void sp_dg_marks_chart_legend(const struct sp_dg_marks *mk, const struct sp_datagraph *dg,
			      struct sp_legend *legend, struct sp_legend_entry *buf)
{
	size_t nr_marks = mk ? mk->nr_entries : 0;

	sp_datagraph_legend(dg, legend, 64);
	if (!nr_marks)
		return;
	memcpy(buf, mk->entries, nr_marks * sizeof(*buf));
	if (legend->nr_entries)
		memcpy(buf + nr_marks, legend->entries, legend->nr_entries * sizeof(*buf));
	legend->entries = buf;
	legend->nr_entries += nr_marks;
}

/* ---- drawing ---- */

/* The row @cpu is drawn on, -1 when none */
static int row_of(const struct sp_dg_marks *mk, int cpu)
{
	const struct sp_timeline *tl = mk->ov.tl;

	return cpu < 0 || cpu >= tl->nr_cpus ? -1 : tl->row_of_cpu[cpu];
}

struct geom {
	const struct sp_rect *plot;
	const struct sp_timeline *tl;
	double row_h;
};

static double x_of(const struct geom *g, uint64_t ts)
{
	double span = (double)(g->tl->window.t1_ns - g->tl->window.t0_ns);

	return g->plot->x + (double)(ts - g->tl->window.t0_ns) / span * g->plot->w;
}

static double y_of(const struct geom *g, int row)
{
	return g->plot->y + g->plot->h - (row + 0.5) * g->row_h;
}

/* A line in @color over a white halo, to read over any task's color. */
static void halo_stroke(cairo_t *cr, const struct sp_rgb *color, double w)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, w * 2.5);
	cairo_stroke_preserve(cr);
	sp_render_set_color(cr, color);
	cairo_set_line_width(cr, w);
	cairo_stroke(cr);
}

/*
 * A migration's line and ticks, gathered by style and merged: the lines
 * of a class in one column of the timeline that overlap are one line, so
 * are its ticks on a row that overlap.  Stroked one by one, the thousands
 * of a large trace took seconds; merged, the picture is the same but for
 * a line's place inside its column and which class lies on top where
 * they cross.  There the most frequent class is drawn last: a column
 * packed with migrations shows the class most of them had (time order
 * showed the last one's, and its white halo over the others).
 */
static int cmp_seg(const void *pa, const void *pb)
{
	const struct sp_dg_seg *x = pa, *y = pb;

	return x->a < y->a ? -1 : x->a > y->a;
}

/*
 * Merge the overlapping segments of @s that share a key, when those of a
 * key come one after another (the marks are in time order: the lines of a
 * column do); returns how many are left.
 */
static size_t merge_runs(struct sp_dg_seg *s, size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && s[j].key == s[i].key; j++)
			;
		qsort(s + i, j - i, sizeof(*s), cmp_seg);
		s[k] = s[i];
		for (size_t t = i + 1; t < j; t++) {
			if (s[t].a <= s[k].b)
				s[k].b = fmax(s[k].b, s[t].b);
			else
				s[++k] = s[t];
		}
		k++;
	}
	return k;
}

/* The order the migration classes are drawn in: the most frequent last, on top */
static void class_order(const struct sp_dg_marks *mk, int order[SP_MIG_NR_CLASSES])
{
	for (int k = 0; k < SP_MIG_NR_CLASSES; k++)
		order[k] = k;
	/* by count, stable: classes drawn as often keep their order */
	for (int k = 1; k < SP_MIG_NR_CLASSES; k++) {
		int c = order[k], j = k;

		for (; j > 0 && mk->ov.mig.nr[order[j - 1]] > mk->ov.mig.nr[c]; j--)
			order[j] = order[j - 1];
		order[j] = c;
	}
}

/* The migrations of class @cls, across sockets or not: lines, then ticks */
static void draw_migrations(cairo_t *cr, const struct geom *g, double lw,
			    const struct sp_dg_marks *mk, int cls, bool cross)
{
	static const double dash[] = { 4, 3 }, dot[] = { 1, 2 };
	double tick = fmin(g->row_h * 0.35, 8), w = cross ? lw * 2 : lw;
	struct sp_dg_seg *s = mk->segs;
	size_t i, n = 0, *open = mk->open_ticks;

	for (i = 0; i < mk->ov.nr_marks; i++) {
		const struct sp_overlay_mark *m = &mk->ov.marks[i];
		int r0 = row_of(mk, m->cpu), r1 = row_of(mk, m->cpu2);

		if (m->kind != SP_OVERLAY_MIGRATION || m->cls != cls || m->cross != cross ||
		    r0 < 0 || r1 < 0)
			continue;
		s[n++] = (struct sp_dg_seg){ m->col, fmin(y_of(g, r0), y_of(g, r1)),
					     fmax(y_of(g, r0), y_of(g, r1)), x_of(g, m->ts_ns) };
	}
	n = merge_runs(s, n);
	if (cls == SP_MIG_BALANCE)
		cairo_set_dash(cr, dash, 2, 0);
	else if (cls == SP_MIG_NUMA)
		cairo_set_dash(cr, dot, 2, 0);
	for (i = 0; i < n; i++) {
		cairo_move_to(cr, s[i].at, s[i].a);
		cairo_line_to(cr, s[i].at, s[i].b);
		halo_stroke(cr, &mig_color[cls], w);
	}
	cairo_set_dash(cr, NULL, 0, 0);

	/*
	 * The ticks: where it left (below the line's end) and where it went.
	 * A row's come from left to right: each joins the row's last one when
	 * they overlap.
	 */
	for (i = 0; i < mk->ov.tl->nr_rows; i++)
		open[i] = SIZE_MAX;
	n = 0;
	for (i = 0; i < mk->ov.nr_marks; i++) {
		const struct sp_overlay_mark *m = &mk->ov.marks[i];
		double x = x_of(g, m->ts_ns);

		if (m->kind != SP_OVERLAY_MIGRATION || m->cls != cls || m->cross != cross)
			continue;
		for (int k = 0; k < 2; k++) {
			int r = row_of(mk, k ? m->cpu2 : m->cpu);
			struct sp_dg_seg t = { (uint64_t)r, x - tick * 0.6, x + tick * 0.6,
					       y_of(g, r) };

			if (r < 0)
				continue;
			if (open[r] != SIZE_MAX && t.a >= s[open[r]].a && t.a <= s[open[r]].b) {
				s[open[r]].b = fmax(s[open[r]].b, t.b);
				continue;
			}
			open[r] = n;
			s[n++] = t;
		}
	}
	for (i = 0; i < n; i++) {
		cairo_move_to(cr, s[i].a, s[i].at);
		cairo_line_to(cr, s[i].b, s[i].at);
		halo_stroke(cr, &mig_color[cls], w * 1.5);
	}
}

static void arrow_head(cairo_t *cr, double x, double y, double dir, double size)
{
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x - size * 0.5, y - dir * size);
	cairo_line_to(cr, x + size * 0.5, y - dir * size);
	cairo_close_path(cr);
}

static void draw_wakeup(cairo_t *cr, const struct geom *g, const struct sp_overlay_mark *m, double lw,
			const struct sp_dg_marks *mk)
{
	int r0 = row_of(mk, m->cpu), r1 = row_of(mk, m->cpu2);
	double x = x_of(g, m->ts_ns), y0, y1, head = fmin(g->row_h * 0.4, 7), dir;

	if (r0 < 0 || r1 < 0)
		return;
	y0 = y_of(g, r0);
	y1 = y_of(g, r1);
	if (r0 == r1) {
		/* woken where it then ran: a short arrow down onto the row */
		y0 = y1 - g->row_h * 0.45;
	}
	dir = y1 > y0 ? 1 : -1;
	cairo_move_to(cr, x, y0);
	cairo_line_to(cr, x, y1 - dir * head);
	halo_stroke(cr, &wakeup_color, lw);
	arrow_head(cr, x, y1, dir, head);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, lw * 1.5);
	cairo_stroke_preserve(cr);
	sp_render_set_color(cr, &wakeup_color);
	cairo_fill(cr);
}

/* What a stamp of a ring or an event's shape draws */
struct shape {
	int shape;		/* an event's index; -1: a placement ring */
	double size;		/* the ring's radius, the shape's half side */
	double lw;
};

static void event_shape(cairo_t *cr, int shape, double x, double y, double s);

static void shape_draw(cairo_t *cr, double x, double y, const void *arg)
{
	const struct shape *sh = arg;

	if (sh->shape < 0) {
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, sh->size, 0, 2 * M_PI);
		halo_stroke(cr, &placement_color, sh->lw * 1.5);
		return;
	}
	event_shape(cr, sh->shape, x, y, sh->size);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, sh->lw);
	cairo_stroke_preserve(cr);
	sp_render_set_color(cr, &event_color[sh->shape]);
	cairo_fill(cr);
}

static void draw_placement(cairo_t *cr, const struct geom *g, const struct sp_overlay_mark *m,
			   double lw, bool lines, const struct sp_dg_marks *mk,
			   struct sp_stamp *ring)
{
	static const double dot[] = { 1, 2 };
	int r0 = row_of(mk, m->cpu), r1 = row_of(mk, m->cpu2);
	double x = x_of(g, m->ts_ns);

	if (r0 < 0)
		return;
	if (r1 >= 0 && lines) {
		cairo_move_to(cr, x, y_of(g, r0));
		cairo_line_to(cr, x_of(g, m->ts2_ns), y_of(g, r1));
		cairo_set_dash(cr, dot, 2, 0);
		halo_stroke(cr, &placement_color, lw);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	sp_stamp_put(ring, cr, x, y_of(g, r0));
}

static void event_shape(cairo_t *cr, int shape, double x, double y, double s)
{
	switch (shape % 5) {
	case 0:		/* triangle, pointing down at the moment */
		cairo_move_to(cr, x, y + s);
		cairo_line_to(cr, x - s, y - s);
		cairo_line_to(cr, x + s, y - s);
		cairo_close_path(cr);
		break;
	case 1:
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, s, 0, 2 * M_PI);
		break;
	case 2:
		cairo_rectangle(cr, x - s, y - s, 2 * s, 2 * s);
		break;
	case 3:
		cairo_move_to(cr, x, y - s * 1.2);
		cairo_line_to(cr, x + s * 1.2, y);
		cairo_line_to(cr, x, y + s * 1.2);
		cairo_line_to(cr, x - s * 1.2, y);
		cairo_close_path(cr);
		break;
	default:	/* triangle, pointing up */
		cairo_move_to(cr, x, y - s);
		cairo_line_to(cr, x - s, y + s);
		cairo_line_to(cr, x + s, y + s);
		cairo_close_path(cr);
		break;
	}
}

/* Legend samples: what the picture draws, at the legend's size */
static void migration_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			     double size)
{
	static const double dash[] = { 3, 2 }, dot[] = { 1, 1.5 };

	cairo_move_to(cr, x - size / 2, y);
	cairo_line_to(cr, x + size / 2, y);
	if (e->style == SP_MIG_BALANCE)
		cairo_set_dash(cr, dash, 2, 0);
	else if (e->style == SP_MIG_NUMA)
		cairo_set_dash(cr, dot, 2, 0);
	sp_render_set_color(cr, &e->color);
	cairo_set_line_width(cr, e->style == SAMPLE_CROSS ? 3 : 1.5);
	cairo_stroke(cr);
}

static void event_sample(cairo_t *cr, const struct sp_legend_entry *e, double x, double y,
			 double size)
{
	event_shape(cr, e->style, x, y, size * 0.4);
	sp_render_set_color(cr, &e->color);
	cairo_fill_preserve(cr);
	sp_render_set_color(cr, &(struct sp_rgb){ 0.15, 0.15, 0.15 });
	cairo_set_line_width(cr, 0.5);
	cairo_stroke(cr);
}

static void draw_event(cairo_t *cr, const struct sp_theme *theme, const struct geom *g,
		       const struct sp_overlay_mark *m, bool label, const struct sp_dg_marks *mk,
		       struct sp_stamp *shape)
{
	int r = row_of(mk, m->cpu);
	double x = x_of(g, m->ts_ns), y, s = fmin(g->row_h * 0.25, 5);

	if (r < 0)
		return;
	y = y_of(g, r);
	sp_stamp_put(shape, cr, x, y);
	if (!label || !m->label)
		return;
	/* on a white box, to the right of the shape */
	{
		const char *text = mk->ov.text + m->label - 1;
		double tw = sp_text_width(cr, text), th = sp_text_height(cr);
		double tx = x + s + theme->pad / 2, ty = y - s - th;

		if (ty < g->plot->y)
			ty = y + s;
		cairo_rectangle(cr, tx, ty, tw + theme->pad, th);
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_fill(cr);
		sp_render_set_color(cr, &theme->text);
		sp_text_draw(cr, tx + theme->pad / 2, ty, SP_ALIGN_LEFT | SP_ALIGN_TOP, text);
	}
}

static void draw_note(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const char *note)
{
	double tw = sp_text_width(cr, note), th = sp_text_height(cr);
	double x = plot->x + theme->pad, y = plot->y + theme->pad;

	cairo_rectangle(cr, x, y, tw + 2 * theme->pad, th + theme->pad);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
	cairo_fill_preserve(cr);
	sp_render_set_color(cr, &theme->axis);
	cairo_set_line_width(cr, theme->axis_line_width);
	cairo_stroke(cr);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, x + theme->pad, y + theme->pad / 2, SP_ALIGN_LEFT | SP_ALIGN_TOP, note);
}

bool sp_dg_marks_arrows(const struct sp_dg_marks *mk, double plot_w)
{
	return mk->ov.nr_wakeup_arrows <= plot_w / SP_OVERLAY_ARROW_SPACING;
}

void sp_span_bar_draw(cairo_t *cr, double x0, double x1, double y, double bar, int kind)
{
	double edge = bar * 0.2;

	if (x1 - x0 < 1)
		x1 = x0 + 1;
	cairo_rectangle(cr, x0, y - edge, x1 - x0, bar + 2 * edge);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill(cr);
	cairo_rectangle(cr, x0, y, x1 - x0, bar);
	sp_render_set_color(cr, &sp_span_color[kind]);
	cairo_fill(cr);
}

/*
 * The spans, a bar each along the lower part of its CPU's row, the kinds
 * one above the other; a span shorter than a pixel is a pixel wide.
 */
static void draw_spans(cairo_t *cr, const struct geom *g, const struct sp_dg_marks *mk)
{
	const struct sp_spans *sp = &mk->spans;
	double bar = fmax(fmin(g->row_h * 0.5 / sp->nr_kinds, 6), 1.5), edge = bar * 0.2;
	size_t i;

	for (i = 0; i < sp->nr_pieces; i++) {
		const struct sp_span_piece *p = &sp->pieces[i];
		int r = row_of(mk, p->cpu);
		double x0, x1, y;

		if (r < 0)
			continue;
		x0 = x_of(g, p->t0_ns < g->tl->window.t0_ns ? g->tl->window.t0_ns : p->t0_ns);
		x1 = x_of(g, p->t1_ns > g->tl->window.t1_ns ? g->tl->window.t1_ns : p->t1_ns);
		y = g->plot->y + g->plot->h - r * g->row_h - g->row_h * 0.1 -
		    (p->kind + 1) * (bar + edge);
		sp_span_bar_draw(cr, x0, x1, y, bar, p->kind);
	}
}

void sp_dg_marks_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_dg_marks *mk)
{
	struct geom g = { plot, mk->ov.tl, plot->h / mk->ov.tl->nr_rows };
	double lw = fmax(theme->data_line_width * 0.75, 0.75);
	bool arrows = sp_dg_marks_arrows(mk, plot->w);
	/* the line to where the task ran, when as few as the arrows */
	bool placement_lines = mk->ov.place.by[SP_PLACE_MOVED_PREV_IDLE].nr <=
			       plot->w / SP_OVERLAY_ARROW_SPACING;
	struct shape ring_shape = { -1, fmin(g.row_h * 0.3, 6), lw };
	struct shape event_shapes[SP_OVERLAY_MAX_EVENTS];
	struct sp_stamp ring, shapes[SP_OVERLAY_MAX_EVENTS];
	int order[SP_MIG_NR_CLASSES];
	uint64_t nr_labels = 0;
	char note[160];
	size_t i;
	int k;

	for (k = 0; k < mk->ov.nr_events; k++)
		if (mk->ov.events[k].text)
			nr_labels += mk->ov.events[k].nr;
	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	sp_render_font(cr, theme, theme->font_size * 0.85, false);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	/* a ring reaches out by its radius and half its halo */
	sp_stamp_init(&ring, cr, ring_shape.size + lw * 1.5 * 2.5 / 2, shape_draw, &ring_shape);
	for (k = 0; k < mk->ov.nr_events; k++) {
		event_shapes[k] = (struct shape){ k, fmin(g.row_h * 0.25, 5), lw };
		sp_stamp_init(&shapes[k], cr, event_shapes[k].size * 1.2 + lw / 2, shape_draw,
			      &event_shapes[k]);
	}
	if (mk->spans.nr_kinds)
		draw_spans(cr, &g, mk);
	/* under the others: placement, then migrations, arrows, events */
	for (i = 0; i < mk->ov.nr_marks && mk->ov.placement; i++)
		if (mk->ov.marks[i].kind == SP_OVERLAY_PLACEMENT)
			draw_placement(cr, &g, &mk->ov.marks[i], lw, placement_lines, mk, &ring);
	class_order(mk, order);
	/* the room to merge them in is there when there are migrations to draw */
	for (k = 0; k < SP_MIG_NR_CLASSES && mk->segs; k++)
		for (int cross = 0; cross < 2; cross++)
			draw_migrations(cr, &g, lw, mk, order[k], cross);
	for (i = 0; i < mk->ov.nr_marks && arrows; i++)
		if (mk->ov.marks[i].kind == SP_OVERLAY_WAKEUP)
			draw_wakeup(cr, &g, &mk->ov.marks[i], lw, mk);
	for (i = 0; i < mk->ov.nr_marks; i++) {
		const struct sp_overlay_mark *m = &mk->ov.marks[i];

		if (m->kind == SP_OVERLAY_EVENT)
			draw_event(cr, theme, &g, m, nr_labels <= plot->w / LABEL_SPACING, mk,
				   &shapes[m->cls]);
	}
	sp_stamp_release(&ring);
	for (k = 0; k < mk->ov.nr_events; k++)
		sp_stamp_release(&shapes[k]);
	if (mk->ov.wakeups && !arrows) {
		snprintf(note, sizeof(note), "%" PRIu64 " wakeups: too many to draw their arrows; "
			 "zoom in to at most %.0f", mk->ov.nr_wakeup_arrows, plot->w / SP_OVERLAY_ARROW_SPACING);
		draw_note(cr, theme, plot, note);
	}
	cairo_restore(cr);
}

void sp_dg_marks_release(struct sp_dg_marks *mk)
{
	sp_overlay_release(&mk->ov);
	sp_spans_release(&mk->spans);
	free(mk->segs);
	free(mk->open_ticks);
	mk->segs = NULL;
	mk->open_ticks = NULL;
}
