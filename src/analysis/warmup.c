// SPDX-License-Identifier: GPL-2.0-only
/*
 * warmup: a run's numbers window by window, and where they settle (MSER).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"

size_t sp_mser(const double *x, size_t n)
{
	double sum = 0, sumsq = 0, best = INFINITY;
	size_t d, best_d = 0;

	if (n < 4)
		return 0;
	/* from the end backwards: the sums of x_d..x_n-1 grow by one value */
	for (d = n; d-- > 0;) {
		double m, ss;

		sum += x[d];
		sumsq += x[d] * x[d];
		if (d > n / 2)
			continue;
		m = sum / (double)(n - d);
		ss = sumsq - (double)(n - d) * m * m;
		if (ss < 0)
			ss = 0;	/* rounding */
		ss /= (double)(n - d) * (double)(n - d);
		/* <= : going backwards, the smallest d wins ties */
		if (ss <= best * (1 + 1e-12)) {
			best = ss;
			best_d = d;
		}
	}
	return best_d;
}

int sp_warmup_init(struct sp_warmup *w, uint64_t t0_ns, uint64_t t1_ns, size_t nr)
{
	int i;

	memset(w, 0, sizeof(*w));
	if (t1_ns <= t0_ns || nr < 4)
		return -EINVAL;
	w->t0_ns = t0_ns;
	w->t1_ns = t1_ns;
	w->nr = nr;
	for (i = 0; i < SP_WARMUP_NR_SERIES; i++) {
		w->series[i] = sp_alloc_array(nr, sizeof(double));
		if (!w->series[i])
			return -ENOMEM;
	}
	for (i = 0; i < 2; i++) {
		w->area[i] = sp_alloc_array(nr, sizeof(double));
		if (!w->area[i])
			return -ENOMEM;
		memset(w->area[i], 0, nr * sizeof(double));
	}
	return 0;
}

void sp_warmup_reset(struct sp_warmup *w)
{
	for (int i = 0; i < 2; i++)
		memset(w->area[i], 0, w->nr * sizeof(double));
	w->nr_waits = 0;
	w->started = false;
	w->error = 0;
}

/* window i holds [t0 + i len, t0 + (i + 1) len) */
static uint64_t window_start(const struct sp_warmup *w, size_t i)
{
	return w->t0_ns + (uint64_t)((double)(w->t1_ns - w->t0_ns) * (double)i / (double)w->nr);
}

static size_t window_of(const struct sp_warmup *w, uint64_t ts)
{
	size_t i = (size_t)((double)(ts - w->t0_ns) * (double)w->nr /
			    (double)(w->t1_ns - w->t0_ns));

	if (i >= w->nr)
		i = w->nr - 1;
	/* rounding: the window whose bounds hold ts */
	while (i > 0 && ts < window_start(w, i))
		i--;
	while (i + 1 < w->nr && ts >= window_start(w, i + 1))
		i++;
	return i;
}

/* add running and waiting over [from, to) to the windows it covers */
static void integrate(struct sp_warmup *w, uint64_t from, uint64_t to)
{
	size_t i;

	if (!sp_span_clip(&from, &to, w->t0_ns, w->t1_ns))
		return;
	for (i = window_of(w, from); i < w->nr && from < to; i++) {
		uint64_t end = i + 1 < w->nr ? window_start(w, i + 1) : w->t1_ns;
		uint64_t upto = end < to ? end : to;

		if (upto > from) {
			w->area[0][i] += (double)(upto - from) * w->running;
			w->area[1][i] += (double)(upto - from) * w->waiting;
			from = upto;
		}
	}
}

void sp_warmup_steps(struct sp_warmup *w, const struct sp_step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (w->started && steps[i].ts > w->last_ns)
			integrate(w, w->last_ns, steps[i].ts);
		if (!w->started || steps[i].ts > w->last_ns)
			w->last_ns = steps[i].ts;
		w->started = true;
		w->running = steps[i].running;
		w->waiting = steps[i].waiting;
	}
}

void sp_warmup_wait(struct sp_warmup *w, uint64_t start_ns, uint64_t dur_ns)
{
	if (start_ns < w->t0_ns || start_ns >= w->t1_ns || w->error)
		return;
	if (sp_grow_array(&w->waits, &w->alloc_waits, w->nr_waits + 1, sizeof(*w->waits))) {
		w->error = -ENOMEM;
		return;
	}
	w->waits[w->nr_waits++] = (struct sp_warmup_wait){ (uint32_t)window_of(w, start_ns),
							    dur_ns };
}

static int cmp_wait(const void *pa, const void *pb)
{
	const struct sp_warmup_wait *a = pa, *b = pb;

	if (a->window != b->window)
		return (a->window > b->window) - (a->window < b->window);
	return (a->dur_ns > b->dur_ns) - (a->dur_ns < b->dur_ns);
}

/* MSER over the values that are numbers; the window of its truncation */
static size_t settle(const double *x, size_t n)
{
	double *v = sp_alloc_array(n, sizeof(*v));
	size_t *at = sp_alloc_array(n, sizeof(*at)), m = 0, d, ret = 0;
	struct sp_mannwhitney mw;

	if (v && at) {
		for (size_t i = 0; i < n; i++)
			if (!isnan(x[i])) {
				at[m] = i;
				v[m++] = x[i];
			}
		d = sp_mser(v, m);
		/* a cut only where what it drops differs from what it keeps */
		if (d > 0 && d < m && !sp_mannwhitney_test(&mw, v, d, v + d, m - d,
							   SP_MANNWHITNEY_AUTO) &&
		    mw.p <= SP_WARMUP_ALPHA)
			ret = at[d];
	}
	free(v);
	free(at);
	return ret;
}

int sp_warmup_finish(struct sp_warmup *w)
{
	size_t i, j, k;

	if (w->error)
		return w->error;
	/* the last value holds to the end of the window */
	if (w->started && w->last_ns < w->t1_ns)
		integrate(w, w->last_ns, w->t1_ns);
	for (i = 0; i < w->nr; i++) {
		double len = (double)((i + 1 < w->nr ? window_start(w, i + 1) : w->t1_ns) -
				      window_start(w, i));

		w->series[SP_WARMUP_RUNNING][i] = len > 0 ? w->area[0][i] / len : 0;
		w->series[SP_WARMUP_WAITING][i] = len > 0 ? w->area[1][i] / len : 0;
		w->series[SP_WARMUP_LATENCY][i] = NAN;
	}
	if (w->nr_waits)	/* qsort() takes no NULL, even for none */
		qsort(w->waits, w->nr_waits, sizeof(*w->waits), cmp_wait);
	for (i = 0; i < w->nr_waits; i = j) {
		for (j = i; j < w->nr_waits && w->waits[j].window == w->waits[i].window; j++)
			;
		k = i + (j - i) / 2;
		w->series[SP_WARMUP_LATENCY][w->waits[i].window] = (j - i) % 2 ?
			(double)w->waits[k].dur_ns :
			((double)w->waits[k - 1].dur_ns + (double)w->waits[k].dur_ns) / 2;
	}
	w->end = 0;
	w->by = SP_WARMUP_RUNNING;
	for (int s = 0; s < SP_WARMUP_NR_SERIES; s++) {
		w->settled[s] = settle(w->series[s], w->nr);
		if (w->settled[s] > w->end) {
			w->end = w->settled[s];
			w->by = s;
		}
	}
	w->end_ns = window_start(w, w->end) - w->t0_ns;
	return 0;
}

const char *sp_warmup_series_name(enum sp_warmup_series s)
{
	static const char *const names[] = { "running", "waiting", "wakeup latency" };

	return names[s];
}

void sp_warmup_release(struct sp_warmup *w)
{
	for (int i = 0; i < SP_WARMUP_NR_SERIES; i++)
		free(w->series[i]);
	free(w->area[0]);
	free(w->area[1]);
	free(w->waits);
	memset(w, 0, sizeof(*w));
}
