// SPDX-License-Identifier: GPL-2.0-only
/*
 * spans: start..end intervals matched by key, counted and kept for
 * drawing.  See include/schedplot/analysis/spans.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/spans.h"
#include "schedplot/base/alloc.h"
#include "schedplot/trace/reader.h"

static uint64_t reader_gaps(const void *reader)
{
	return sp_reader_gaps_seen(reader);
}

int sp_spans_init(struct sp_spans *sp, const struct sp_scope *scope,
		  const struct sp_reader *reader, int nr_cpus)
{
	int k;

	sp->scope = *scope;
	sp->gaps_seen = reader_gaps;
	sp->gaps_src = reader;
	sp->nr_cpus = nr_cpus;
	for (k = 0; k < sp->nr_kinds; k++) {
		sp->kinds[k].last = sp_alloc_array((size_t)nr_cpus, sizeof(*sp->kinds[k].last));
		if (!sp->kinds[k].last)
			return -ENOMEM;
	}
	return 0;
}

void sp_spans_keep(struct sp_spans *sp, uint64_t t0_ns, uint64_t t1_ns, uint64_t merge_ns)
{
	sp->keep = true;
	sp->draw_t0_ns = t0_ns;
	sp->draw_t1_ns = t1_ns;
	sp->merge_ns = merge_ns;
}

/* A key's fields as numbers: a string by its FNV-1a hash. */
static void key_of(const union sp_value *v, const uint8_t *kinds, int nr, uint64_t *key)
{
	int i;

	memset(key, 0, SP_SPANS_MAX_KEYS * sizeof(*key));
	for (i = 0; i < nr; i++) {
		if (kinds[i] == SP_VALUE_STR) {
			uint64_t h = 0xcbf29ce484222325ull;

			for (const unsigned char *s = (const void *)(v[i].str ? v[i].str : ""); *s; s++)
				h = (h ^ *s) * 0x100000001b3ull;
			key[i] = h;
		} else {
			key[i] = v[i].u64;
		}
	}
}

static size_t key_hash(const uint64_t *key)
{
	uint64_t h = key[0] * 0x9e3779b97f4a7c15ull ^ key[1];

	h = (h ^ h >> 30) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ h >> 27) * 0x94d049bb133111ebull;
	return (size_t)(h ^ h >> 31);
}

/* The slot of @key in @k's open spans: the one holding it, or the free one where it goes. */
static struct sp_span_open *slot(struct sp_span_kind *k, const uint64_t *key)
{
	size_t mask = k->alloc_open - 1, i = key_hash(key) & mask;

	while (k->open[i].used && memcmp(k->open[i].key, key, sizeof(k->open[i].key)))
		i = (i + 1) & mask;
	return &k->open[i];
}

/* Room for one more open span, at a load of at most a half.  Return: 0 or -ENOMEM. */
static int open_grow(struct sp_span_kind *k)
{
	struct sp_span_open *old = k->open;
	size_t n = k->alloc_open ? k->alloc_open * 2 : 64, i, nr = k->alloc_open;

	if (k->nr_open + 1 <= k->alloc_open / 2)
		return 0;
	k->open = sp_alloc_array(n, sizeof(*k->open));
	if (!k->open) {
		k->open = old;
		return -ENOMEM;
	}
	k->alloc_open = n;
	for (i = 0; i < nr; i++)
		if (old[i].used)
			*slot(k, old[i].key) = old[i];
	free(old);
	return 0;
}

/* Take @o out of the table, closing the gap it leaves (linear probing). */
static void open_remove(struct sp_span_kind *k, struct sp_span_open *o)
{
	size_t mask = k->alloc_open - 1, i = (size_t)(o - k->open), j = i;

	o->used = false;
	k->nr_open--;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!k->open[j].used)
			return;
		home = key_hash(k->open[j].key) & mask;
		/* the entry at j may move to i when i lies on its way from home to j */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			k->open[i] = k->open[j];
			k->open[j].used = false;
			i = j;
		}
	}
}

static bool counts(const struct sp_spans *sp, uint64_t ts_ns, int cpu, int pid)
{
	return sp_scope_time(&sp->scope, ts_ns) && sp_scope_cpu(&sp->scope, cpu) &&
	       (!sp->scope.target || sp_scope_task(&sp->scope, pid));
}

/*
 * Keep the span for drawing, merged with the CPU's last piece when close
 * to it and of the same task (the tasks chart draws it on the task's row).
 */
static void keep_piece(struct sp_spans *sp, int kind, const struct sp_span_open *o,
		       uint64_t end_ns)
{
	uint64_t *last = &sp->kinds[kind].last[o->cpu];
	struct sp_span_piece *p;

	if (end_ns < sp->draw_t0_ns || o->ts_ns > sp->draw_t1_ns)
		return;
	if (*last) {
		p = &sp->pieces[*last - 1];
		if (o->ts_ns <= p->t1_ns + sp->merge_ns && p->pid == o->pid) {
			if (end_ns > p->t1_ns)
				p->t1_ns = end_ns;
			p->nr++;
			return;
		}
	}
	if (sp->error || sp_grow_array(&sp->pieces, &sp->alloc_pieces, sp->nr_pieces + 1,
				       sizeof(*sp->pieces))) {
		sp->error = -ENOMEM;
		return;
	}
	sp->pieces[sp->nr_pieces++] = (struct sp_span_piece){
		.t0_ns = o->ts_ns, .t1_ns = end_ns, .cpu = o->cpu, .pid = o->pid, .nr = 1,
		.kind = (uint8_t)kind };
	*last = sp->nr_pieces;
}

static void span_end(struct sp_spans *sp, int kind, const struct sp_event *ev, uint64_t gaps)
{
	struct sp_span_kind *k = &sp->kinds[kind];
	uint64_t key[SP_SPANS_MAX_KEYS], dur;
	struct sp_span_open *o;

	key_of(ev->watch_values[k->end_watch], k->end_kind, k->nr_keys, key);
	o = k->alloc_open ? slot(k, key) : NULL;
	if (!o || !o->used) {
		/* a record that also starts a span of the kind is only a start then */
		if (!(ev->watched >> k->start_watch & 1) &&
		    counts(sp, ev->ts_ns, ev->cpu, ev->common_pid))
			k->unmatched_end++;
		return;
	}
	if (counts(sp, o->ts_ns, o->cpu, o->pid)) {
		if (o->lost != gaps) {
			k->broken++;
		} else {
			dur = ev->ts_ns - o->ts_ns;
			if (sp_samples_add(&k->durs, dur))
				sp->error = -ENOMEM;
			k->total_ns += dur;
			if (sp->on_span)
				sp->on_span(sp->hook_data, kind, o->ts_ns, ev->ts_ns, o->cpu, o->pid,
					    ev->watch_values[k->end_watch]);
		}
	}
	if (sp->keep && o->lost == gaps && o->cpu >= 0 && o->cpu < sp->nr_cpus)
		keep_piece(sp, kind, o, ev->ts_ns);
	open_remove(k, o);
}

static void span_start(struct sp_spans *sp, int kind, const struct sp_event *ev, uint64_t gaps)
{
	struct sp_span_kind *k = &sp->kinds[kind];
	uint64_t key[SP_SPANS_MAX_KEYS];
	struct sp_span_open *o;

	key_of(ev->watch_values[k->start_watch], k->start_kind, k->nr_keys, key);
	if (open_grow(k)) {
		sp->error = -ENOMEM;
		return;
	}
	o = slot(k, key);
	if (o->used) {
		/* a second start before an end: the first had none */
		if (counts(sp, o->ts_ns, o->cpu, o->pid))
			k->unmatched_start++;
	} else {
		k->nr_open++;
	}
	*o = (struct sp_span_open){ .ts_ns = ev->ts_ns, .lost = gaps, .cpu = ev->cpu,
				    .pid = ev->common_pid, .used = true };
	memcpy(o->key, key, sizeof(o->key));
}

static void spans_watch(void *data, const struct sp_event *ev)
{
	struct sp_spans *sp = data;
	uint64_t gaps = sp->gaps_seen(sp->gaps_src);
	int i;

	for (i = 0; i < sp->nr_marks; i++)
		if (ev->watched >> sp->marks[i].watch & 1 &&
		    counts(sp, ev->ts_ns, ev->cpu, ev->common_pid)) {
			sp->marks[i].nr++;
			if (sp->on_mark)
				sp->on_mark(sp->hook_data, i, ev);
		}
	/* ends first: a record that ends one span and starts the next does both */
	for (i = 0; i < sp->nr_kinds; i++)
		if (ev->watched >> sp->kinds[i].end_watch & 1)
			span_end(sp, i, ev, gaps);
	for (i = 0; i < sp->nr_kinds; i++)
		if (ev->watched >> sp->kinds[i].start_watch & 1)
			span_start(sp, i, ev, gaps);
}

static void spans_reset(void *data)
{
	struct sp_spans *sp = data;
	int i;

	for (i = 0; i < sp->nr_kinds; i++) {
		struct sp_span_kind *k = &sp->kinds[i];

		sp_samples_clear(&k->durs);
		k->total_ns = k->unmatched_start = k->unmatched_end = k->broken = 0;
		if (k->open)
			memset(k->open, 0, k->alloc_open * sizeof(*k->open));
		k->nr_open = 0;
		memset(k->last, 0, (size_t)sp->nr_cpus * sizeof(*k->last));
	}
	for (i = 0; i < sp->nr_marks; i++)
		sp->marks[i].nr = 0;
	sp->nr_pieces = 0;
	sp->error = 0;
}

void sp_spans_observer(struct sp_spans *sp, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(sp, .watch = spans_watch, .reset = spans_reset);
}

int sp_spans_finish(struct sp_spans *sp)
{
	size_t j;
	int i;

	for (i = 0; i < sp->nr_kinds; i++) {
		struct sp_span_kind *k = &sp->kinds[i];

		for (j = 0; j < k->alloc_open; j++)
			if (k->open[j].used && counts(sp, k->open[j].ts_ns, k->open[j].cpu,
						      k->open[j].pid))
				k->unmatched_start++;
		if (k->open)
			memset(k->open, 0, k->alloc_open * sizeof(*k->open));
		k->nr_open = 0;
	}
	return sp->error;
}

void sp_spans_release(struct sp_spans *sp)
{
	int i;

	for (i = 0; i < sp->nr_kinds; i++) {
		sp_samples_release(&sp->kinds[i].durs);
		free(sp->kinds[i].open);
		free(sp->kinds[i].last);
		sp->kinds[i].open = NULL;
		sp->kinds[i].last = NULL;
		sp->kinds[i].alloc_open = sp->kinds[i].nr_open = 0;
	}
	free(sp->pieces);
	sp->pieces = NULL;
	sp->nr_pieces = sp->alloc_pieces = 0;
}
