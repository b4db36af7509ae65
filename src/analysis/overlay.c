// SPDX-License-Identifier: GPL-2.0-only
/*
 * overlay: the marks drawn over the rows of a per-CPU chart (migrations,
 * wakeup arrows, placement rings, any event's ticks), gathered in the one
 * pass as a consumer of its own.  See include/schedplot/analysis/overlay.h;
 * views/datagraph-marks.c draws them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/overlay.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/muldiv.h"
#include "schedplot/model/timeline.h"

/* The ftrace:print text kept over the window, at most. */
#define MAX_TEXT	(8u << 20)

bool sp_overlay_any(const struct sp_overlay *mk)
{
	return mk->migrations || mk->wakeups || mk->placement || mk->nr_events;
}

void sp_overlay_init(struct sp_overlay *mk, const struct sp_timeline *tl,
		      const struct sp_model *model, const int *socket, int nr_cpus)
{
	int move = mk->mig.move_numa_req, swap = mk->mig.swap_numa_req;

	mk->tl = tl;
	mk->model = model;
	sp_migrations_init(&mk->mig, model, socket, nr_cpus, tl->window.t0_ns, tl->window.t1_ns);
	mk->mig.move_numa_req = move;
	mk->mig.swap_numa_req = swap;
	sp_placement_init(&mk->place, tl->window.t0_ns, tl->window.t1_ns);
}

static bool in_window(const struct sp_overlay *mk, uint64_t ts)
{
	return ts >= mk->tl->window.t0_ns && ts <= mk->tl->window.t1_ns;
}

static int row_of(const struct sp_overlay *mk, int cpu)
{
	if (cpu < 0 || cpu >= mk->tl->nr_cpus)
		return -1;
	return mk->tl->row_of_cpu[cpu];
}

static struct sp_overlay_mark *push(struct sp_overlay *mk, struct sp_overlay_mark **arr, size_t *nr,
			       size_t *alloc)
{
	struct sp_overlay_mark *m;

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
static bool collapsible(const struct sp_overlay_mark *m)
{
	return m->kind != SP_OVERLAY_WAKEUP && !m->label;
}

static uint64_t col_of(const struct sp_overlay *mk, uint64_t ts)
{
	return sp_cols_of(&mk->tl->window, ts);
}

static bool same_place(const struct sp_overlay *mk, const struct sp_overlay_mark *a,
		       const struct sp_overlay_mark *b)
{
	return a->col == b->col && a->cpu == b->cpu && a->cpu2 == b->cpu2 &&
	       a->kind == b->kind && a->cls == b->cls && a->cross == b->cross &&
	       (a->kind != SP_OVERLAY_PLACEMENT ||
		col_of(mk, a->ts2_ns) == col_of(mk, b->ts2_ns));
}

static size_t place_hash(const struct sp_overlay *mk, const struct sp_overlay_mark *m)
{
	uint64_t h = (uint64_t)m->col << 32 ^ (uint64_t)(uint32_t)m->cpu << 16 ^
		     (uint64_t)(uint32_t)m->cpu2 << 40 ^ (uint64_t)m->kind << 58 ^
		     (uint64_t)m->cls << 4 ^ (uint64_t)m->cross << 62;

	if (m->kind == SP_OVERLAY_PLACEMENT)
		h ^= col_of(mk, m->ts2_ns) * 0x9e3779b97f4a7c15ull;
	/* splitmix64's finalizer */
	h = (h ^ h >> 30) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ h >> 27) * 0x94d049bb133111ebull;
	return (size_t)(h ^ h >> 31);
}

/* The slot of @m's place: the index + 1 of the mark kept there, or 0 (free). */
static uint32_t *place_slot(const struct sp_overlay *mk, const struct sp_overlay_mark *m)
{
	size_t mask = mk->alloc_places - 1, i = place_hash(mk, m) & mask;

	while (mk->places[i] && !same_place(mk, &mk->marks[mk->places[i] - 1], m))
		i = (i + 1) & mask;
	return &mk->places[i];
}

/* Room for one more place at a load of at most a half */
static int places_grow(struct sp_overlay *mk)
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
static void add_mark(struct sp_overlay *mk, struct sp_overlay_mark *m)
{
	uint32_t *slot = NULL, *recent = NULL;

	m->col = (uint32_t)col_of(mk, m->ts_ns);
	if (collapsible(m)) {
		/* most often, the mark kept last of this kind from this CPU */
		if (m->cpu >= 0 && m->cpu < mk->tl->nr_cpus && !mk->recent)
			mk->recent = sp_alloc_array((size_t)mk->tl->nr_cpus * SP_OVERLAY_NR,
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
	struct sp_overlay *mk = data;
	enum sp_mig_class c;
	bool cross;

	c = sp_migrations_add(&mk->mig, ts, pid, from, to, &cross);
	if (!in_window(mk, ts) || (row_of(mk, from) < 0 && row_of(mk, to) < 0))
		return;
	add_mark(mk, &(struct sp_overlay_mark){ .kind = SP_OVERLAY_MIGRATION, .ts_ns = ts, .cpu = from,
					   .cpu2 = to, .pid = -1, .cls = (uint8_t)c,
					   .cross = cross });
}

/* Arrows drawn at most: the timeline has a column per pixel (two per point) */
static uint64_t arrows_max(const struct sp_overlay *mk)
{
	return (uint64_t)(mk->tl->window.nr_cols / SP_OVERLAY_ARROW_SPACING);
}

static void marks_wakeup(void *data, uint64_t ts, int waker, int wakee, int target_cpu)
{
	struct sp_overlay *mk = data;
	const struct sp_task *t;

	if (!in_window(mk, ts))
		return;
	/* only the wakeups that made a task wait lead to a run */
	t = sp_model_task(mk->model, wakee);
	if (!t || t->state != SP_TASK_WAITING || t->wake_ns != ts ||
	    row_of(mk, mk->model->waker_cpu) < 0)
		return;
	/* past what the widest plot could draw, they are only counted */
	if (++mk->nr_wakeup_arrows > arrows_max(mk))
		return;
	add_mark(mk, &(struct sp_overlay_mark){ .kind = SP_OVERLAY_WAKEUP, .ts_ns = ts,
					   .cpu = mk->model->waker_cpu, .cpu2 = -1,
					   .pid = wakee });
}

static void marks_wait(void *data, const struct sp_wait *w)
{
	struct sp_overlay *mk = data;
	enum sp_placement p;
	struct sp_overlay_mark *m;

	p = sp_placement_add(&mk->place, w);
	if (!in_window(mk, w->start_ns) || w->wait_class != SP_WAIT_WAKEUP)
		return;
	if (mk->placement && p == SP_PLACE_MOVED_PREV_IDLE) {
		add_mark(mk, &(struct sp_overlay_mark){ .kind = SP_OVERLAY_PLACEMENT,
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

static uint32_t keep_text(struct sp_overlay *mk, const char *s)
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
	sp_migrations_extra(&((struct sp_overlay *)data)->mig, ev);
}

/* A label's text: a string as it is, a number in decimal. */
static uint32_t keep_label(struct sp_overlay *mk, const struct sp_overlay_event *e,
			   const union sp_value *v)
{
	char num[24];

	if (e->label_kind == SP_VALUE_STR)
		return keep_text(mk, v->str);
	if (e->label_kind == SP_VALUE_S64)
		snprintf(num, sizeof(num), "%lld", (long long)v->s64);
	else
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v->u64);
	return keep_text(mk, num);
}

static void marks_watch(void *data, const struct sp_event *ev)
{
	struct sp_overlay *mk = data;
	int i;

	if (!in_window(mk, ev->ts_ns) || row_of(mk, ev->cpu) < 0)
		return;
	for (i = 0; i < mk->nr_events; i++) {
		struct sp_overlay_event *e = &mk->events[i];
		struct sp_overlay_mark m = { .kind = SP_OVERLAY_EVENT, .ts_ns = ev->ts_ns,
					     .cpu = ev->cpu, .cpu2 = -1, .pid = ev->common_pid,
					     .cls = (uint8_t)i };

		if (!(ev->watched >> e->watch & 1))
			continue;
		e->nr++;
		if (e->text)
			m.label = keep_label(mk, e, &ev->watch_values[e->watch][0]);
		add_mark(mk, &m);
	}
}

static void marks_reset(void *data)
{
	struct sp_overlay *mk = data;
	int i;

	sp_migrations_reset(&mk->mig);
	sp_placement_init(&mk->place, mk->place.t0_ns, mk->place.t1_ns);
	for (i = 0; i < mk->nr_events; i++)
		mk->events[i].nr = 0;
	mk->nr_marks = mk->nr_runs = mk->nr_text = 0;
	if (mk->places)
		memset(mk->places, 0, mk->alloc_places * sizeof(*mk->places));
	if (mk->recent)
		memset(mk->recent, 0, (size_t)mk->tl->nr_cpus * SP_OVERLAY_NR *
		       sizeof(*mk->recent));
	mk->nr_places = 0;
	mk->nr_wakeup_arrows = 0;
	mk->error = 0;
}

void sp_overlay_observer(struct sp_overlay *mk, struct sp_model_observer *obs)
{
	/* only what the marks asked for is told */
	*obs = SP_MODEL_OBSERVER(mk, .wait = marks_wait, .reset = marks_reset,
				 .migration = mk->migrations ? marks_migration : NULL,
				 .extra = mk->migrations ? marks_extra : NULL,
				 .wakeup = mk->wakeups ? marks_wakeup : NULL,
				 .watch = mk->nr_events ? marks_watch : NULL);
}

static int cmp_pid_ts(const void *a, const void *b)
{
	const struct sp_overlay_mark *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

int sp_overlay_finish(struct sp_overlay *mk)
{
	size_t i;

	if (mk->error)
		return mk->error;
	/* each wakeup's arrow ends where that wait ended: the same task and start */
	if (mk->nr_runs)
		qsort(mk->runs, mk->nr_runs, sizeof(*mk->runs), cmp_pid_ts);
	for (i = 0; i < mk->nr_marks; i++) {
		struct sp_overlay_mark *m = &mk->marks[i], *r;

		if (m->kind != SP_OVERLAY_WAKEUP)
			continue;
		r = mk->nr_runs ? bsearch(m, mk->runs, mk->nr_runs, sizeof(*m), cmp_pid_ts) : NULL;
		m->cpu2 = r ? r->cpu2 : -1;
	}
	return 0;
}

void sp_overlay_release(struct sp_overlay *mk)
{
	SP_FREE_AND_NULL(mk->marks);
	SP_FREE_AND_NULL(mk->runs);
	SP_FREE_AND_NULL(mk->text);
	SP_FREE_AND_NULL(mk->places);
	SP_FREE_AND_NULL(mk->recent);
	mk->nr_places = mk->alloc_places = 0;
	mk->nr_marks = mk->nr_runs = mk->nr_text = 0;
	mk->alloc_marks = mk->alloc_runs = mk->alloc_text = 0;
}
