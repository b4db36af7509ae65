// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where two CDFs cross.  See include/schedplot/analysis/crossings.h.
 *
 * Each sample is given as sorted runs (the runs of a group, each sorted
 * on its own).  They are walked value by value through a heap of the
 * runs ordered by their next value, never pooled: no copy, and each
 * distinct value of a run costs a heap step, so the many equal values
 * of wait times cost a scan.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "schedplot/analysis/crossings.h"

struct cursor {
	const uint64_t *v, *end;	/* what is left of a run, not empty */
	bool b;				/* of sample b */
};

/* The runs of both samples in a heap by their next value: the smallest first. */
struct walk {
	struct cursor *heap;
	size_t nr;
	size_t i, j;		/* values of a, of b, up to the last one walked */
};

static void sift_down(struct walk *w, size_t k)
{
	struct cursor c = w->heap[k];
	size_t child;

	while ((child = 2 * k + 1) < w->nr) {
		if (child + 1 < w->nr && *w->heap[child + 1].v < *w->heap[child].v)
			child++;
		if (*c.v <= *w->heap[child].v)
			break;
		w->heap[k] = w->heap[child];
		k = child;
	}
	w->heap[k] = c;
}

/* @heap has room for every run of @a and @b. */
static void walk_start(struct walk *w, struct cursor *heap, const struct sp_sorted_runs *a,
		       const struct sp_sorted_runs *b)
{
	const struct sp_sorted_runs *s[2] = { a, b };
	size_t r, k;

	w->heap = heap;
	w->nr = w->i = w->j = 0;
	for (k = 0; k < 2; k++)
		for (r = 0; r < s[k]->nr_runs; r++)
			if (s[k]->nr[r])
				w->heap[w->nr++] = (struct cursor){ s[k]->v[r],
					s[k]->v[r] + s[k]->nr[r], k };
	for (k = w->nr / 2; k-- > 0;)
		sift_down(w, k);
}

/* The next value of both samples into @t, past all its copies; false at the end. */
static bool walk_next(struct walk *w, uint64_t *t)
{
	if (!w->nr)
		return false;
	*t = *w->heap[0].v;
	while (w->nr && *w->heap[0].v == *t) {
		struct cursor *c = &w->heap[0];
		const uint64_t *from = c->v;

		while (c->v < c->end && *c->v == *t)
			c->v++;
		if (c->b)
			w->j += (size_t)(c->v - from);
		else
			w->i += (size_t)(c->v - from);
		if (c->v == c->end)
			w->heap[0] = w->heap[--w->nr];
		if (w->nr)
			sift_down(w, 0);
	}
	return true;
}

static size_t total(const struct sp_sorted_runs *s)
{
	size_t n = 0, r;

	for (r = 0; r < s->nr_runs; r++)
		n += s->nr[r];
	return n;
}

/* the rank of the nearest-rank p-quantile of @n values, at least 1 */
static size_t rank(size_t n, double p)
{
	size_t k = (size_t)ceil(p * (double)n);

	return k ? k : 1;
}

static size_t crossings(struct cursor *heap, const struct sp_sorted_runs *a,
			const struct sp_sorted_runs *b, struct sp_crossing *out)
{
	size_t na = total(a), nb = total(b), n = 0, k_lo, k_hi;
	uint64_t t, lo = 0, hi = 0, left_at = 0;
	int side = 0;		/* the held side: 1 a's CDF above, -1 b's, 0 none yet */
	int away = 0;		/* D has left the held side since left_at */
	bool has_lo = false;
	struct walk w;

	if (!na || !nb)
		return 0;
	/* the quantiles of both pooled: the first values with that many up to them */
	k_lo = rank(na + nb, SP_CROSSINGS_LO);
	k_hi = rank(na + nb, SP_CROSSINGS_HI);
	walk_start(&w, heap, a, b);
	while (walk_next(&w, &t)) {
		if (w.i + w.j >= k_lo && !has_lo) {
			lo = t;
			has_lo = true;
		}
		if (w.i + w.j >= k_hi) {
			hi = t;
			break;
		}
	}
	walk_start(&w, heap, a, b);
	while (walk_next(&w, &t)) {
		double d;

		if (t < lo)
			continue;
		if (t > hi)
			break;
		d = (double)w.i / (double)na - (double)w.j / (double)nb;
		if (side && d * side > 0) {
			away = 0;
		} else if (side && !away) {
			away = 1;
			left_at = t;
		}
		if (fabs(d) >= SP_CROSSINGS_HOLD && (d > 0 ? 1 : -1) != side) {
			if (side && n < SP_CROSSINGS_MAX)
				out[n++] = (struct sp_crossing){ left_at, side > 0 ? 0 : 1 };
			side = d > 0 ? 1 : -1;
			away = 0;
		}
	}
	return n;
}

int sp_cdf_crossings_runs(const struct sp_sorted_runs *a, const struct sp_sorted_runs *b,
			  struct sp_crossing *out)
{
	struct cursor *heap = calloc(a->nr_runs + b->nr_runs + 1, sizeof(*heap));
	size_t n;

	if (!heap)
		return -ENOMEM;
	n = crossings(heap, a, b, out);
	free(heap);
	return (int)n;
}

size_t sp_cdf_crossings(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
			struct sp_crossing *out)
{
	struct sp_sorted_runs ra = { &a, &na, 1 }, rb = { &b, &nb, 1 };
	struct cursor heap[2];

	return crossings(heap, &ra, &rb, out);
}
