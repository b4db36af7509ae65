// SPDX-License-Identifier: GPL-2.0-only
/*
 * shift: the shift function of two groups of runs, decile by decile, with
 * percentile-bootstrap intervals adjusted by Hochberg's procedure.
 *
 * A resample is drawn as counts over the sorted pool of the group, which
 * gives it sorted without a sort: counts of single values, or counts of
 * runs, every value of a run then coming as often as its run was drawn.
 *
 * The Harrell-Davis weights depend on the size of a resample only, and
 * computing them (a few thousand incomplete beta functions per decile) costs
 * far more than the weighted sums.  Resampling single values keeps the size,
 * so one set of weights serves every resample.  Resampling runs changes the
 * size from one resample to the next unless the runs are of equal length:
 * then every resample's counts are drawn first, and the resamples are
 * estimated in the order of their sizes, so that each size's weights are
 * computed once and only one size's are held at a time.
 *
 * A decile the sample cannot carry (too few values, or runs) is not
 * resampled into an interval: see sp_shift_compute().
 *
 * The generator is drawn from in one fixed order (all of A, then all of B,
 * resample after resample), so a seed names the result; the order in which
 * resamples are estimated changes no bit of it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/rng.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

#define HD_CACHE_SLOTS	8

struct hd_cache_entry {
	size_t n;
	double *w;		/* SP_NR_DECILES rows of n weights */
	size_t lo[SP_NR_DECILES];	/* the nonzero weights of row d: [lo, hi) */
	size_t hi[SP_NR_DECILES];
};

struct shift_group {
	const struct sp_shift_group *g;
	double *pool;		/* every value of the group, sorted */
	size_t *pool_run;	/* the run of each pooled value */
	size_t nr;
	double *buf;		/* one resample */
	size_t *count;		/* draws of each pooled value, or of each run */
	size_t *draws;		/* runs: nr_runs counts of every resample */
	struct sized *order;	/* runs: every resample's size, then by size */
	struct hd_cache_entry cache[HD_CACHE_SLOTS];
	unsigned int cache_next;
};

struct sized {
	size_t size;
	size_t i;		/* the resample */
};

/* v first: sp_values_cmp() orders it */
struct tagged {
	double v;
	size_t run;
};

/* by value, then by run */
static int cmp_tagged(const void *pa, const void *pb)
{
	const struct tagged *a = pa, *b = pb;
	int by_value = sp_values_cmp(a, b);

	return by_value ? by_value : (a->run > b->run) - (a->run < b->run);
}

static int hd_cache_get(struct shift_group *sg, size_t n, const struct hd_cache_entry **w)
{
	struct hd_cache_entry *e;
	int d, ret;

	for (d = 0; d < HD_CACHE_SLOTS; d++) {
		if (sg->cache[d].w && sg->cache[d].n == n) {
			*w = &sg->cache[d];
			return 0;
		}
	}
	e = &sg->cache[sg->cache_next];
	sg->cache_next = (sg->cache_next + 1) % HD_CACHE_SLOTS;
	free(e->w);
	e->n = n;
	e->w = sp_alloc_array(n, SP_NR_DECILES * sizeof(double));
	if (!e->w)
		return -ENOMEM;
	for (d = 0; d < SP_NR_DECILES; d++) {
		double *row = e->w + (size_t)d * n;

		ret = sp_hdquantile_weights(n, (d + 1) / 10.0, row);
		if (ret) {
			free(e->w);
			e->w = NULL;
			return ret;
		}
		for (e->lo[d] = 0; e->lo[d] < n - 1 && row[e->lo[d]] == 0; e->lo[d]++)
			;
		for (e->hi[d] = n; e->hi[d] > e->lo[d] + 1 && row[e->hi[d] - 1] == 0; e->hi[d]--)
			;
	}
	*w = e;
	return 0;
}

/* the nine Harrell-Davis deciles of @n sorted values */
static int group_deciles(struct shift_group *sg, const double *sorted, size_t n,
			 double est[SP_NR_DECILES])
{
	const struct hd_cache_entry *e;
	int d, ret;

	ret = hd_cache_get(sg, n, &e);
	if (ret)
		return ret;
	for (d = 0; d < SP_NR_DECILES; d++) {
		const double *wd = e->w + (size_t)d * n;
		double sum = 0;

		/* for large n most weights are 0: only the window counts */
		for (size_t i = e->lo[d]; i < e->hi[d]; i++)
			sum += wd[i] * sorted[i];
		est[d] = sum;
	}
	return 0;
}

static int group_prepare(struct shift_group *sg, const struct sp_shift_group *g,
			 enum sp_shift_resample mode)
{
	struct tagged *t;
	size_t r, i, nr = 0;

	sg->g = g;
	for (r = 0; r < g->nr_runs; r++) {
		if (!g->runs[r].nr && mode == SP_SHIFT_RUNS)
			return -EINVAL;
		if (!sp_values_finite(g->runs[r].v, g->runs[r].nr))
			return -EINVAL;
		nr += g->runs[r].nr;
	}
	if (!nr)
		return -EINVAL;
	sg->nr = nr;
	t = sp_alloc_array(nr, sizeof(*t));
	if (!t)
		return -ENOMEM;
	nr = 0;
	for (r = 0; r < g->nr_runs; r++)
		for (i = 0; i < g->runs[r].nr; i++)
			t[nr++] = (struct tagged){ .v = g->runs[r].v[i], .run = r };
	qsort(t, nr, sizeof(*t), cmp_tagged);
	sg->pool = sp_alloc_array(nr, sizeof(*sg->pool));
	sg->pool_run = sp_alloc_array(nr, sizeof(*sg->pool_run));
	/* a resample of runs holds at most nr_runs times the longest run */
	if (mode == SP_SHIFT_RUNS) {
		size_t max_run = 0;

		for (r = 0; r < g->nr_runs; r++)
			if (g->runs[r].nr > max_run)
				max_run = g->runs[r].nr;
		if (g->nr_runs <= (size_t)-1 / max_run)
			sg->buf = sp_alloc_array(g->nr_runs * max_run, sizeof(*sg->buf));
	} else {
		sg->buf = sp_alloc_array(nr, sizeof(*sg->buf));
	}
	sg->count = sp_alloc_array(mode == SP_SHIFT_RUNS ? g->nr_runs : nr, sizeof(*sg->count));
	if (!sg->pool || !sg->pool_run || !sg->buf || !sg->count) {
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		sg->pool[i] = t[i].v;
		sg->pool_run[i] = t[i].run;
	}
	free(t);
	return 0;
}

static void group_release(struct shift_group *sg)
{
	for (int i = 0; i < HD_CACHE_SLOTS; i++)
		free(sg->cache[i].w);
	SP_FREE_ALL(sg->pool, sg->pool_run, sg->buf, sg->count, sg->draws, sg->order);
	memset(sg, 0, sizeof(*sg));
}

/* draw one resample of single values, sorted, and estimate its deciles */
static int group_resample_values(struct shift_group *sg, struct sp_rng *rng,
				 double est[SP_NR_DECILES])
{
	size_t i, c, n = 0;

	memset(sg->count, 0, sg->nr * sizeof(*sg->count));
	for (i = 0; i < sg->nr; i++)
		sg->count[sp_rng_below(rng, sg->nr)]++;
	for (i = 0; i < sg->nr; i++)
		for (c = 0; c < sg->count[i]; c++)
			sg->buf[n++] = sg->pool[i];
	return group_deciles(sg, sg->buf, n, est);
}

static int group_alloc_draws(struct shift_group *sg, size_t nr_boot)
{
	sg->draws = sp_alloc_array(nr_boot, sg->g->nr_runs * sizeof(*sg->draws));
	sg->order = sp_alloc_array(nr_boot, sizeof(*sg->order));
	return sg->draws && sg->order ? 0 : -ENOMEM;
}

/* draw resample @i of whole runs: how often each run comes, and its size */
static void group_draw_runs(struct shift_group *sg, struct sp_rng *rng, size_t i)
{
	size_t nr_runs = sg->g->nr_runs, *count = sg->draws + i * nr_runs, r;

	memset(count, 0, nr_runs * sizeof(*count));
	for (r = 0; r < nr_runs; r++)
		count[sp_rng_below(rng, nr_runs)]++;
	sg->order[i] = (struct sized){ .size = 0, .i = i };
	for (r = 0; r < nr_runs; r++)
		sg->order[i].size += count[r] * sg->g->runs[r].nr;
}

static int cmp_sized(const void *pa, const void *pb)
{
	const struct sized *a = pa, *b = pb;

	if (a->size != b->size)
		return (a->size > b->size) - (a->size < b->size);
	return (a->i > b->i) - (a->i < b->i);
}

/* the deciles of every drawn resample of runs, est[i * 9 + d], by size */
static int group_estimate_runs(struct shift_group *sg, size_t nr_boot, double *est)
{
	size_t nr_runs = sg->g->nr_runs, i, j, c;

	qsort(sg->order, nr_boot, sizeof(*sg->order), cmp_sized);
	for (j = 0; j < nr_boot; j++) {
		const size_t *count;
		size_t n = 0;
		int ret;

		i = sg->order[j].i;
		count = sg->draws + i * nr_runs;
		for (c = 0; c < sg->nr; c++)
			for (size_t k = 0; k < count[sg->pool_run[c]]; k++)
				sg->buf[n++] = sg->pool[c];
		ret = group_deciles(sg, sg->buf, n, est + i * SP_NR_DECILES);
		if (ret)
			return ret;
	}
	return 0;
}

int sp_hochberg_adjust(const double *p, size_t n, double alpha, double *alpha_crit,
		       bool *significant)
{
	size_t *order, i, j, first = n;

	if (!n || !(alpha > 0 && alpha <= 1))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	order = sp_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	/* by p, largest first; equal p values keep their order (stable) */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && p[order[j - 1]] < p[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	/* step up: from the largest p, the first at or below its level rejects */
	for (j = 0; j < n; j++) {
		alpha_crit[order[j]] = alpha / (double)(j + 1);
		if (first == n && p[order[j]] <= alpha_crit[order[j]])
			first = j;
		significant[order[j]] = first <= j;
	}
	free(order);
	return 0;
}

/* Hochberg's levels for the supported deciles' p values, then their intervals */
static int shift_adjust(struct sp_shift *sh, double *boot, size_t nr_boot)
{
	double p[SP_NR_DECILES], alpha[SP_NR_DECILES];
	bool sig[SP_NR_DECILES];
	int idx[SP_NR_DECILES], i, n = 0, ret;

	for (i = 0; i < SP_NR_DECILES; i++)
		if (sh->dec[i].support == SP_SHIFT_SUPPORTED) {
			idx[n] = i;
			p[n++] = sh->dec[i].p;
		}
	if (!n)
		return 0;
	ret = sp_hochberg_adjust(p, n, SP_SHIFT_ALPHA, alpha, sig);
	if (ret)
		return ret;
	for (int j = 0; j < n; j++) {
		struct sp_shift_decile *d = &sh->dec[idx[j]];
		double *row = boot + (size_t)idx[j] * nr_boot;
		size_t lo = (size_t)llround(alpha[j] / 2 * (double)nr_boot), hi;

		d->alpha = alpha[j];
		d->significant = sig[j];
		if (lo > (nr_boot - 1) / 2)
			lo = (nr_boot - 1) / 2;
		hi = nr_boot - 1 - lo;
		d->ci_lo = row[lo];
		d->ci_hi = row[hi];
	}
	return 0;
}

size_t sp_shift_min_values(double q, double level)
{
	size_t n;

	if (!(q > 0 && q < 1 && level > 0 && level < 1))
		return 0;
	/* 1 - q^n - (1-q)^n grows with n toward 1 */
	for (n = 1; 1 - pow(q, (double)n) - pow(1 - q, (double)n) < level; n++)
		;
	return n;
}

static void decile_withhold(struct sp_shift_decile *d, enum sp_shift_support why)
{
	d->support = why;
	d->significant = false;
	d->ci_lo = d->ci_hi = d->p = d->alpha = NAN;
}

void sp_shift_withhold(struct sp_shift *sh, enum sp_shift_support why)
{
	for (int d = 0; d < SP_NR_DECILES; d++)
		decile_withhold(&sh->dec[d], why);
}

/*
 * Every resample's nine differences B - A into @boot, decile after decile:
 * boot[d * nr_boot + i].  The counts are drawn resample after resample, A
 * before B, whichever the mode.
 */
static int shift_bootstrap(struct shift_group *ga, struct shift_group *gb,
			   struct sp_rng *rng, enum sp_shift_resample mode,
			   size_t nr_boot, double *boot)
{
	double *est_a, *est_b;
	size_t i;
	int d, ret = 0;

	est_a = sp_alloc_array(nr_boot, SP_NR_DECILES * sizeof(*est_a));
	est_b = sp_alloc_array(nr_boot, SP_NR_DECILES * sizeof(*est_b));
	if (!est_a || !est_b) {
		ret = -ENOMEM;
		goto out;
	}
	if (mode == SP_SHIFT_VALUES) {
		for (i = 0; i < nr_boot && !ret; i++) {
			ret = group_resample_values(ga, rng, est_a + i * SP_NR_DECILES);
			if (!ret)
				ret = group_resample_values(gb, rng, est_b + i * SP_NR_DECILES);
		}
	} else {
		ret = group_alloc_draws(ga, nr_boot);
		if (!ret)
			ret = group_alloc_draws(gb, nr_boot);
		for (i = 0; i < nr_boot && !ret; i++) {
			group_draw_runs(ga, rng, i);
			group_draw_runs(gb, rng, i);
		}
		if (!ret)
			ret = group_estimate_runs(ga, nr_boot, est_a);
		if (!ret)
			ret = group_estimate_runs(gb, nr_boot, est_b);
	}
	for (i = 0; i < nr_boot && !ret; i++)
		for (d = 0; d < SP_NR_DECILES; d++)
			boot[(size_t)d * nr_boot + i] = est_b[i * SP_NR_DECILES + d] -
							 est_a[i * SP_NR_DECILES + d];
out:
	free(est_a);
	free(est_b);
	return ret;
}

int sp_shift_compute(struct sp_shift *sh, const struct sp_shift_group *a,
		     const struct sp_shift_group *b, enum sp_shift_resample mode,
		     size_t nr_boot, uint64_t seed)
{
	struct shift_group ga = { 0 }, gb = { 0 };
	double est_a[SP_NR_DECILES], est_b[SP_NR_DECILES], *boot = NULL;
	struct sp_rng rng;
	size_t i, units_a, units_b;
	int d, ret, nr_supported = 0;

	if (!nr_boot || (mode != SP_SHIFT_VALUES && mode != SP_SHIFT_RUNS))
		return -EINVAL;
	ret = group_prepare(&ga, a, mode);
	if (!ret)
		ret = group_prepare(&gb, b, mode);
	if (ret)
		goto out;
	boot = sp_alloc_array(nr_boot, SP_NR_DECILES * sizeof(*boot));
	if (!boot) {
		ret = -ENOMEM;
		goto out;
	}

	memset(sh, 0, sizeof(*sh));
	sh->mode = mode;
	sh->nr_boot = nr_boot;
	sh->seed = seed;
	sh->nr_a = ga.nr;
	sh->nr_b = gb.nr;
	ret = group_deciles(&ga, ga.pool, ga.nr, est_a);
	if (!ret)
		ret = group_deciles(&gb, gb.pool, gb.nr, est_b);
	if (ret)
		goto out;
	for (d = 0; d < SP_NR_DECILES; d++) {
		sh->dec[d].q = (d + 1) / 10.0;
		sh->dec[d].a = est_a[d];
		sh->dec[d].b = est_b[d];
		sh->dec[d].diff = est_b[d] - est_a[d];
	}
	/* the units resampled: values, or runs */
	units_a = mode == SP_SHIFT_RUNS ? a->nr_runs : ga.nr;
	units_b = mode == SP_SHIFT_RUNS ? b->nr_runs : gb.nr;
	for (d = 0; d < SP_NR_DECILES; d++) {
		struct sp_shift_decile *dec = &sh->dec[d];

		if (mode == SP_SHIFT_RUNS) {
			if (units_a < SP_SHIFT_MIN_RUNS || units_b < SP_SHIFT_MIN_RUNS)
				decile_withhold(dec, SP_SHIFT_FEW_RUNS);
		} else {
			dec->min_n = sp_shift_min_values(dec->q, 1 - SP_SHIFT_ALPHA);
			if (units_a < dec->min_n || units_b < dec->min_n)
				decile_withhold(dec, SP_SHIFT_FEW_VALUES);
		}
		nr_supported += dec->support == SP_SHIFT_SUPPORTED;
	}
	if (!nr_supported)
		goto out;

	sp_rng_init(&rng, seed);
	ret = shift_bootstrap(&ga, &gb, &rng, mode, nr_boot, boot);
	if (ret)
		goto out;
	for (d = 0; d < SP_NR_DECILES; d++) {
		double *row = boot + (size_t)d * nr_boot, below = 0, pstar;

		if (sh->dec[d].support != SP_SHIFT_SUPPORTED)
			continue;

		for (i = 0; i < nr_boot; i++)
			below += row[i] < 0 ? 1 : row[i] == 0 ? 0.5 : 0;
		pstar = below / (double)nr_boot;
		sh->dec[d].p = 2 * (pstar < 1 - pstar ? pstar : 1 - pstar);
		qsort(row, nr_boot, sizeof(*row), sp_values_cmp);
	}
	ret = shift_adjust(sh, boot, nr_boot);
out:
	free(boot);
	group_release(&ga);
	group_release(&gb);
	return ret;
}
