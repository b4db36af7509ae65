// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph-marks: migrations, wakeup arrows, placement rings and any
 * event's ticks over the datagraph's rows, gathered in the one pass.  See
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

/* Labels and arrows are drawn when, on average, this many units apart. */
#define ARROW_SPACING	8.0
#define LABEL_SPACING	60.0
/* The ftrace:print text kept over the window, at most. */
#define MAX_TEXT	(8u << 20)

static const struct sp_rgb mig_color[SP_MIG_NR_CLASSES] = {
	[SP_MIG_WAKEUP] = { 0, 0, 0 },
	[SP_MIG_BALANCE] = { 0.80, 0.0, 0.0 },
	[SP_MIG_NUMA] = { 0.45, 0.0, 0.60 },
};
static const struct sp_rgb wakeup_color = { 0.0, 0.25, 0.85 };
static const struct sp_rgb placement_color = { 1.0, 0.55, 0.0 };
/* none black, blue or orange: those of the migrations, wakeups and placement */
static const struct sp_rgb event_color[SP_DG_MAX_EVENTS] = {
	{ 0.85, 0.1, 0.55 }, { 0.0, 0.55, 0.25 }, { 0.55, 0.35, 0.0 }, { 0.0, 0.45, 0.55 },
	{ 0.45, 0.45, 0.0 }, { 0.5, 0.3, 0.6 }, { 0.6, 0.0, 0.0 }, { 0.45, 0.45, 0.45 },
};

/* A migration's line or tick to draw, merged with those it overlaps */
struct sp_dg_seg {
	uint64_t key;		/* lines: the column; ticks: the row */
	double a, b;		/* from, to: y of a line, x of a tick */
	double at;		/* x of a line, y of a tick */
};

bool sp_dg_marks_any(const struct sp_dg_marks *mk)
{
	return mk->migrations || mk->wakeups || mk->placement || mk->nr_events;
}

void sp_dg_marks_init(struct sp_dg_marks *mk, const struct sp_timeline *tl,
		      const struct sp_model *model, const int *socket, int nr_cpus)
{
	int move = mk->mig.move_numa_req, swap = mk->mig.swap_numa_req;

	mk->tl = tl;
	mk->model = model;
	sp_migrations_init(&mk->mig, model, socket, nr_cpus, tl->t0_ns, tl->t1_ns);
	mk->mig.move_numa_req = move;
	mk->mig.swap_numa_req = swap;
	sp_placement_init(&mk->place, tl->t0_ns, tl->t1_ns);
}

static bool in_window(const struct sp_dg_marks *mk, uint64_t ts)
{
	return ts >= mk->tl->t0_ns && ts <= mk->tl->t1_ns;
}

static int row_of(const struct sp_dg_marks *mk, int cpu)
{
	if (cpu < 0 || cpu >= mk->tl->nr_cpus)
		return -1;
	return mk->tl->row_of_cpu[cpu];
}

static struct sp_dg_mark *push(struct sp_dg_marks *mk, struct sp_dg_mark **arr, size_t *nr,
			       size_t *alloc)
{
	struct sp_dg_mark *m;

	if (mk->error || sp_grow_array(arr, alloc, *nr + 1, sizeof(**arr))) {
		mk->error = -ENOMEM;
		return NULL;
	}
	m = &(*arr)[(*nr)++];
	memset(m, 0, sizeof(*m));
	m->cpu = m->cpu2 = m->pid = -1;
	return m;
}

/*
 * Collapsing: marks of one kind and class, from and to the same CPUs, in
 * the same column of the timeline (a pixel of a PNG), would be drawn on
 * one another; only the first is kept.  A placement's line also has to
 * end in the same column.  The counts are kept apart, so they stay exact.
 * Wakeups (their end is known only after the pass) and labelled events
 * are all kept.
 */
static bool collapsible(const struct sp_dg_mark *m)
{
	return m->kind != SP_DG_MARK_WAKEUP && !m->label;
}

static uint64_t col_of(const struct sp_dg_marks *mk, uint64_t ts)
{
	return sp_col_of(mk->tl->t0_ns, mk->tl->t1_ns - mk->tl->t0_ns, mk->tl->nr_cols, ts);
}

static bool same_place(const struct sp_dg_marks *mk, const struct sp_dg_mark *a,
		       const struct sp_dg_mark *b)
{
	return a->col == b->col && a->cpu == b->cpu && a->cpu2 == b->cpu2 &&
	       a->kind == b->kind && a->cls == b->cls && a->cross == b->cross &&
	       (a->kind != SP_DG_MARK_PLACEMENT ||
		col_of(mk, a->ts2_ns) == col_of(mk, b->ts2_ns));
}

static size_t place_hash(const struct sp_dg_marks *mk, const struct sp_dg_mark *m)
{
	uint64_t h = (uint64_t)m->col << 32 ^ (uint64_t)(uint32_t)m->cpu << 16 ^
		     (uint64_t)(uint32_t)m->cpu2 << 40 ^ (uint64_t)m->kind << 58 ^
		     (uint64_t)m->cls << 4 ^ (uint64_t)m->cross << 62;

	if (m->kind == SP_DG_MARK_PLACEMENT)
		h ^= col_of(mk, m->ts2_ns) * 0x9e3779b97f4a7c15ull;
	/* splitmix64's finalizer */
	h = (h ^ h >> 30) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ h >> 27) * 0x94d049bb133111ebull;
	return (size_t)(h ^ h >> 31);
}

/* The slot of @m's place: the index + 1 of the mark kept there, or 0 (free). */
static uint32_t *place_slot(const struct sp_dg_marks *mk, const struct sp_dg_mark *m)
{
	size_t mask = mk->alloc_places - 1, i = place_hash(mk, m) & mask;

	while (mk->places[i] && !same_place(mk, &mk->marks[mk->places[i] - 1], m))
		i = (i + 1) & mask;
	return &mk->places[i];
}

/* Room for one more place at a load of at most a half */
static int places_grow(struct sp_dg_marks *mk)
{
	size_t n = mk->alloc_places ? mk->alloc_places * 2 : 1024, i;
	uint32_t *old = mk->places;

	if (mk->nr_places < mk->alloc_places / 2)
		return 0;
	if (mk->nr_marks >= UINT32_MAX)
		return -ENOMEM;
	mk->places = sp_alloc_array(n, sizeof(*mk->places));
	if (!mk->places) {
		mk->places = old;
		return -ENOMEM;
	}
	mk->alloc_places = n;
	for (i = 0; i < mk->nr_marks; i++)
		if (collapsible(&mk->marks[i]))
			*place_slot(mk, &mk->marks[i]) = (uint32_t)i + 1;
	free(old);
	return 0;
}

/* Keep @m, a mark inside the window, unless one just like it is kept already */
static void add_mark(struct sp_dg_marks *mk, struct sp_dg_mark *m)
{
	uint32_t *slot = NULL, *recent = NULL;

	m->col = (uint32_t)col_of(mk, m->ts_ns);
	if (collapsible(m)) {
		/* most often, the mark kept last of this kind from this CPU */
		if (m->cpu >= 0 && m->cpu < mk->tl->nr_cpus && !mk->recent)
			mk->recent = sp_alloc_array((size_t)mk->tl->nr_cpus * SP_DG_MARK_NR,
						    sizeof(*mk->recent));
		if (m->cpu >= 0 && m->cpu < mk->tl->nr_cpus && mk->recent) {
			recent = &mk->recent[(size_t)m->kind * mk->tl->nr_cpus + m->cpu];
			if (*recent && same_place(mk, &mk->marks[*recent - 1], m))
				return;
		}
		if (mk->error || places_grow(mk)) {
			mk->error = -ENOMEM;
			return;
		}
		slot = place_slot(mk, m);
		if (recent && *slot)
			*recent = *slot;
		if (*slot)
			return;
	}
	if (mk->error || sp_grow_array(&mk->marks, &mk->alloc_marks, mk->nr_marks + 1,
				       sizeof(*mk->marks))) {
		mk->error = -ENOMEM;
		return;
	}
	mk->marks[mk->nr_marks++] = *m;
	if (slot) {
		*slot = (uint32_t)mk->nr_marks;
		mk->nr_places++;
	}
	if (recent)
		*recent = (uint32_t)mk->nr_marks;
}

static void marks_migration(void *data, uint64_t ts, int pid, int from, int to)
{
	struct sp_dg_marks *mk = data;
	enum sp_mig_class c;
	bool cross;

	c = sp_migrations_add(&mk->mig, ts, pid, from, to, &cross);
	if (!in_window(mk, ts) || (row_of(mk, from) < 0 && row_of(mk, to) < 0))
		return;
	add_mark(mk, &(struct sp_dg_mark){ .kind = SP_DG_MARK_MIGRATION, .ts_ns = ts, .cpu = from,
					   .cpu2 = to, .pid = -1, .cls = (uint8_t)c,
					   .cross = cross });
}

/* Arrows drawn at most: the timeline has a column per pixel (two per point) */
static uint64_t arrows_max(const struct sp_dg_marks *mk)
{
	return (uint64_t)(mk->tl->nr_cols / ARROW_SPACING);
}

static void marks_wakeup(void *data, uint64_t ts, int waker, int wakee, int target_cpu)
{
	struct sp_dg_marks *mk = data;
	const struct sp_task *t;

	if (!in_window(mk, ts))
		return;
	/* only the wakeups that made a task wait lead to a run */
	t = sp_model_task(mk->model, wakee);
	if (!t || t->state != SP_TASK_WAITING || t->wake_ns != ts ||
	    row_of(mk, mk->model->ev_cpu) < 0)
		return;
	/* past what the widest plot could draw, they are only counted */
	if (++mk->nr_wakeup_arrows > arrows_max(mk))
		return;
	add_mark(mk, &(struct sp_dg_mark){ .kind = SP_DG_MARK_WAKEUP, .ts_ns = ts,
					   .cpu = mk->model->ev_cpu, .cpu2 = -1, .pid = wakee });
}

static void marks_wait(void *data, const struct sp_wait *w)
{
	struct sp_dg_marks *mk = data;
	enum sp_placement p;
	struct sp_dg_mark *m;

	p = sp_placement_add(&mk->place, w);
	if (!in_window(mk, w->start_ns) || w->wait_class != SP_WAIT_WAKEUP)
		return;
	if (mk->placement && p == SP_PLACE_MOVED_PREV_IDLE) {
		add_mark(mk, &(struct sp_dg_mark){ .kind = SP_DG_MARK_PLACEMENT,
						   .ts_ns = w->start_ns,
						   .ts2_ns = w->start_ns + w->dur_ns,
						   .cpu = w->prev_cpu, .cpu2 = w->cpu, .pid = -1 });
	}
	if (mk->wakeups && mk->nr_wakeup_arrows <= arrows_max(mk)) {
		m = push(mk, &mk->runs, &mk->nr_runs, &mk->alloc_runs);
		if (m) {
			m->ts_ns = w->start_ns;
			m->pid = w->pid;
			m->cpu2 = w->cpu;
		}
	}
}

static uint32_t keep_text(struct sp_dg_marks *mk, const char *s)
{
	size_t len;
	uint32_t off;

	if (!s)
		return 0;
	len = strcspn(s, "\n") + 1;
	if (len > 200)
		len = 200;
	if (mk->nr_text + len > MAX_TEXT)
		return 0;
	if (sp_grow_array(&mk->text, &mk->alloc_text, mk->nr_text + len, 1)) {
		mk->error = -ENOMEM;
		return 0;
	}
	off = (uint32_t)mk->nr_text;
	memcpy(mk->text + off, s, len - 1);
	mk->text[off + len - 1] = '\0';
	mk->nr_text += len;
	return off + 1;
}

static void marks_extra(void *data, const struct sp_event *ev)
{
	struct sp_dg_marks *mk = data;
	struct sp_dg_mark m = { .kind = SP_DG_MARK_EVENT, .cpu2 = -1, .pid = -1 };
	int i;

	if (mk->migrations)
		sp_migrations_extra(&mk->mig, ev);
	for (i = 0; i < mk->nr_events; i++)
		if (mk->events[i].request == ev->extra)
			break;
	if (i == mk->nr_events || !in_window(mk, ev->ts_ns) || row_of(mk, ev->cpu) < 0)
		return;
	mk->events[i].nr++;
	m.ts_ns = ev->ts_ns;
	m.cpu = ev->cpu;
	m.cls = (uint8_t)i;
	if (mk->events[i].text)
		m.label = keep_text(mk, ev->values[0].str);
	add_mark(mk, &m);
}

static void marks_reset(void *data)
{
	struct sp_dg_marks *mk = data;
	int i;

	sp_migrations_reset(&mk->mig);
	sp_placement_init(&mk->place, mk->place.t0_ns, mk->place.t1_ns);
	for (i = 0; i < mk->nr_events; i++)
		mk->events[i].nr = 0;
	mk->nr_marks = mk->nr_runs = mk->nr_text = 0;
	if (mk->places)
		memset(mk->places, 0, mk->alloc_places * sizeof(*mk->places));
	if (mk->recent)
		memset(mk->recent, 0, (size_t)mk->tl->nr_cpus * SP_DG_MARK_NR *
		       sizeof(*mk->recent));
	mk->nr_places = 0;
	mk->nr_wakeup_arrows = 0;
	mk->error = 0;
}

void sp_dg_marks_observer(struct sp_dg_marks *mk, struct sp_model_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	/* only what the marks asked for is told */
	obs->migration = mk->migrations ? marks_migration : NULL;
	obs->wakeup = mk->wakeups ? marks_wakeup : NULL;
	obs->wait = marks_wait;
	obs->extra = mk->migrations || mk->nr_events ? marks_extra : NULL;
	obs->reset = marks_reset;
	obs->data = mk;
}

static int cmp_pid_ts(const void *a, const void *b)
{
	const struct sp_dg_mark *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

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

int sp_dg_marks_finish(struct sp_dg_marks *mk)
{
	const struct sp_placement_count *p = mk->place.by;
	size_t i, nr_mig = 0;
	int k;

	if (mk->error)
		return mk->error;
	/* each wakeup's arrow ends where that wait ended: the same task and start */
	if (mk->nr_runs)
		qsort(mk->runs, mk->nr_runs, sizeof(*mk->runs), cmp_pid_ts);
	for (i = 0; i < mk->nr_marks; i++) {
		struct sp_dg_mark *m = &mk->marks[i], *r;

		if (m->kind != SP_DG_MARK_WAKEUP)
			continue;
		r = mk->nr_runs ? bsearch(m, mk->runs, mk->nr_runs, sizeof(*m), cmp_pid_ts) : NULL;
		m->cpu2 = r ? r->cpu2 : -1;
	}

	/* room for the ticks of every migration, two each, to merge when drawn */
	for (i = 0; i < mk->nr_marks; i++)
		nr_mig += mk->marks[i].kind == SP_DG_MARK_MIGRATION;
	free(mk->segs);
	free(mk->open_ticks);
	mk->segs = nr_mig ? sp_alloc_array(2 * nr_mig, sizeof(*mk->segs)) : NULL;
	mk->open_ticks = nr_mig ? sp_alloc_array(mk->tl->nr_rows, sizeof(*mk->open_ticks)) : NULL;
	if (nr_mig && (!mk->segs || !mk->open_ticks))
		return -ENOMEM;

	mk->nr_entries = 0;
	if (mk->migrations) {
		for (k = 0; k < SP_MIG_NR_CLASSES; k++) {
			if (k == SP_MIG_NUMA && !mk->mig.nr[k])
				continue;
			sampled(entry(mk, &mig_color[k], "%s: %" PRIu64,
				      k == SP_MIG_WAKEUP ? "migr. at wakeup" :
				      k == SP_MIG_BALANCE ? "migr. balance" : "migr. NUMA",
				      mk->mig.nr[k]), migration_sample, k);
		}
		if (mk->mig.socket)
			sampled(entry(mk, &mig_color[SP_MIG_WAKEUP], "migr. across sockets: %" PRIu64,
				      mk->mig.nr_cross_socket), migration_sample, SAMPLE_CROSS);
	}
	if (mk->placement)
		entry(mk, &placement_color, "left idle CPU: %" PRIu64,
		      p[SP_PLACE_MOVED_PREV_IDLE].nr);
	if (mk->wakeups)
		entry(mk, &wakeup_color, "wakeup arrows: %" PRIu64, mk->nr_wakeup_arrows);
	for (k = 0; k < mk->nr_events; k++)
		sampled(entry(mk, &event_color[k], "%s: %" PRIu64, mk->events[k].name,
			      mk->events[k].nr), event_sample, k);
	return 0;
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

struct geom {
	const struct sp_rect *plot;
	const struct sp_timeline *tl;
	double row_h;
};

static double x_of(const struct geom *g, uint64_t ts)
{
	double span = (double)(g->tl->t1_ns - g->tl->t0_ns);

	return g->plot->x + (double)(ts - g->tl->t0_ns) / span * g->plot->w;
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

		for (; j > 0 && mk->mig.nr[order[j - 1]] > mk->mig.nr[c]; j--)
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

	for (i = 0; i < mk->nr_marks; i++) {
		const struct sp_dg_mark *m = &mk->marks[i];
		int r0 = row_of(mk, m->cpu), r1 = row_of(mk, m->cpu2);

		if (m->kind != SP_DG_MARK_MIGRATION || m->cls != cls || m->cross != cross ||
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
	for (i = 0; i < mk->tl->nr_rows; i++)
		open[i] = SIZE_MAX;
	n = 0;
	for (i = 0; i < mk->nr_marks; i++) {
		const struct sp_dg_mark *m = &mk->marks[i];
		double x = x_of(g, m->ts_ns);

		if (m->kind != SP_DG_MARK_MIGRATION || m->cls != cls || m->cross != cross)
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

static void draw_wakeup(cairo_t *cr, const struct geom *g, const struct sp_dg_mark *m, double lw,
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

static void draw_placement(cairo_t *cr, const struct geom *g, const struct sp_dg_mark *m,
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
		       const struct sp_dg_mark *m, bool label, const struct sp_dg_marks *mk,
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
		const char *text = mk->text + m->label - 1;
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
	return mk->nr_wakeup_arrows <= plot_w / ARROW_SPACING;
}

void sp_dg_marks_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_dg_marks *mk)
{
	struct geom g = { plot, mk->tl, plot->h / mk->tl->nr_rows };
	double lw = fmax(theme->data_line_width * 0.75, 0.75);
	bool arrows = sp_dg_marks_arrows(mk, plot->w);
	/* the line to where the task ran, when as few as the arrows */
	bool placement_lines = mk->place.by[SP_PLACE_MOVED_PREV_IDLE].nr <=
			       plot->w / ARROW_SPACING;
	struct shape ring_shape = { -1, fmin(g.row_h * 0.3, 6), lw };
	struct shape event_shapes[SP_DG_MAX_EVENTS];
	struct sp_stamp ring, shapes[SP_DG_MAX_EVENTS];
	int order[SP_MIG_NR_CLASSES];
	uint64_t nr_labels = 0;
	char note[160];
	size_t i;
	int k;

	for (k = 0; k < mk->nr_events; k++)
		if (mk->events[k].text)
			nr_labels += mk->events[k].nr;
	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	sp_render_font(cr, theme, theme->font_size * 0.85, false);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	/* a ring reaches out by its radius and half its halo */
	sp_stamp_init(&ring, cr, ring_shape.size + lw * 1.5 * 2.5 / 2, shape_draw, &ring_shape);
	for (k = 0; k < mk->nr_events; k++) {
		event_shapes[k] = (struct shape){ k, fmin(g.row_h * 0.25, 5), lw };
		sp_stamp_init(&shapes[k], cr, event_shapes[k].size * 1.2 + lw / 2, shape_draw,
			      &event_shapes[k]);
	}
	/* under the others: placement, then migrations, arrows, events */
	for (i = 0; i < mk->nr_marks && mk->placement; i++)
		if (mk->marks[i].kind == SP_DG_MARK_PLACEMENT)
			draw_placement(cr, &g, &mk->marks[i], lw, placement_lines, mk, &ring);
	class_order(mk, order);
	/* the room to merge them in is there when there are migrations to draw */
	for (k = 0; k < SP_MIG_NR_CLASSES && mk->segs; k++)
		for (int cross = 0; cross < 2; cross++)
			draw_migrations(cr, &g, lw, mk, order[k], cross);
	for (i = 0; i < mk->nr_marks && arrows; i++)
		if (mk->marks[i].kind == SP_DG_MARK_WAKEUP)
			draw_wakeup(cr, &g, &mk->marks[i], lw, mk);
	for (i = 0; i < mk->nr_marks; i++) {
		const struct sp_dg_mark *m = &mk->marks[i];

		if (m->kind == SP_DG_MARK_EVENT)
			draw_event(cr, theme, &g, m, nr_labels <= plot->w / LABEL_SPACING, mk,
				   &shapes[m->cls]);
	}
	sp_stamp_release(&ring);
	for (k = 0; k < mk->nr_events; k++)
		sp_stamp_release(&shapes[k]);
	if (mk->wakeups && !arrows) {
		snprintf(note, sizeof(note), "%" PRIu64 " wakeups: too many to draw their arrows; "
			 "zoom in to at most %.0f", mk->nr_wakeup_arrows, plot->w / ARROW_SPACING);
		draw_note(cr, theme, plot, note);
	}
	cairo_restore(cr);
}

void sp_dg_marks_release(struct sp_dg_marks *mk)
{
	free(mk->marks);
	free(mk->runs);
	free(mk->text);
	free(mk->places);
	free(mk->recent);
	free(mk->segs);
	free(mk->open_ticks);
	mk->recent = NULL;
	mk->segs = NULL;
	mk->open_ticks = NULL;
	mk->places = NULL;
	mk->nr_places = mk->alloc_places = 0;
	mk->marks = mk->runs = NULL;
	mk->text = NULL;
	mk->nr_marks = mk->nr_runs = mk->nr_text = 0;
	mk->alloc_marks = mk->alloc_runs = mk->alloc_text = 0;
}
