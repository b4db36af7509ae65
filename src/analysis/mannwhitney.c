// SPDX-License-Identifier: GPL-2.0-only
/*
 * mannwhitney: the two-sided Mann-Whitney U test (the Wilcoxon rank-sum
 * test) between two groups of runs.
 *
 * Ranks are kept doubled so that midranks of ties are integers: the rank
 * sum of a group and U = R - n(n+1)/2 are then exact, and the exact null
 * distribution is a count of the subsets of the pooled doubled ranks by
 * their sum (a knapsack over the N values, at most C(50, 25) ~ 1.3e14 ways,
 * exact in a double).  Counting subsets of the smaller group is enough: its
 * rank sum fixes the other one.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/superiority.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

/* Forced exact tests above this many values would need too much memory. */
#define MW_EXACT_LIMIT	200

/* v first: sp_values_cmp() orders it */
struct mw_value {
	double v;
	int in_a;
};

/*
 * P(R <= r2) and P(R >= r2) where R is the doubled rank sum of a random
 * subset of @m of the @n doubled ranks @rank2.
 */
static int mw_exact_tails(const uint32_t *rank2, size_t n, size_t m, uint64_t r2,
			  double *lower, double *upper)
{
	uint64_t smax = 0;
	double *dp, total = 0, le = 0, ge = 0;
	size_t k, c, width;
	uint64_t s;

	/* the largest sum: the m largest ranks (rank2 is ascending) */
	for (k = n - m; k < n; k++)
		smax += rank2[k];
	width = (size_t)smax + 1;
	dp = sp_alloc_array((m + 1) * width, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp[0] = 1;
	for (k = 0; k < n; k++) {
		size_t cmax = k + 1 < m ? k + 1 : m;

		for (c = cmax; c >= 1; c--) {
			double *to = dp + c * width, *from = dp + (c - 1) * width;

			for (s = smax; s >= rank2[k]; s--)
				to[s] += from[s - rank2[k]];
		}
	}
	for (s = 0; s <= smax; s++) {
		double cnt = dp[m * width + s];

		total += cnt;
		if (s <= r2)
			le += cnt;
		if (s >= r2)
			ge += cnt;
	}
	free(dp);
	*lower = le / total;
	*upper = ge / total;
	return 0;
}

int sp_mannwhitney_test(struct sp_mannwhitney *res, const double *a, size_t nr_a,
			const double *b, size_t nr_b, enum sp_mannwhitney_method method)
{
	size_t n = nr_a + nr_b, i, j, small;
	struct mw_value *pool;
	uint32_t *rank2 = NULL;
	uint64_t r2_a = 0, r2_small;
	double tie_sum = 0, mu, var;
	int ret = 0;

	if (!nr_a || !nr_b || sp_values_have_nan(a, nr_a) || sp_values_have_nan(b, nr_b))
		return -EINVAL;
	if (method == SP_MANNWHITNEY_EXACT && n > MW_EXACT_LIMIT)
		return -E2BIG;
	pool = sp_alloc_array(n, sizeof(*pool));
	rank2 = sp_alloc_array(n, sizeof(*rank2));
	if (!pool || !rank2) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr_a; i++)
		pool[i] = (struct mw_value){ .v = a[i], .in_a = 1 };
	for (i = 0; i < nr_b; i++)
		pool[nr_a + i] = (struct mw_value){ .v = b[i], .in_a = 0 };
	qsort(pool, n, sizeof(*pool), sp_values_cmp);

	*res = (struct sp_mannwhitney){ .nr_a = nr_a, .nr_b = nr_b };
	/* the tie run [i, j) holds ranks i+1 .. j, midrank (i+1+j)/2 */
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && pool[j].v == pool[i].v; j++)
			;
		t = (double)(j - i);
		if (j - i > 1) {
			res->ties = true;
			tie_sum += t * t * t - t;
		}
		for (size_t k = i; k < j; k++) {
			rank2[k] = (uint32_t)(i + 1 + j);
			if (pool[k].in_a)
				r2_a += rank2[k];
		}
	}
	res->u_a = (double)r2_a / 2 - (double)nr_a * (double)(nr_a + 1) / 2;

	if (method == SP_MANNWHITNEY_EXACT ||
	    (method == SP_MANNWHITNEY_AUTO && nr_a <= SP_MANNWHITNEY_EXACT_MAX &&
	     nr_b <= SP_MANNWHITNEY_EXACT_MAX)) {
		double lower, upper;

		small = nr_a <= nr_b ? nr_a : nr_b;
		/* the rank sum of B is the total n(n+1) (doubled) less that of A */
		r2_small = small == nr_a ? r2_a : (uint64_t)n * (n + 1) - r2_a;
		ret = mw_exact_tails(rank2, n, small, r2_small, &lower, &upper);
		if (ret)
			goto out;
		res->exact = true;
		res->p = 2 * (lower < upper ? lower : upper);
		if (res->p > 1)
			res->p = 1;
		goto out;
	}

	mu = (double)nr_a * (double)nr_b / 2;
	var = (double)nr_a * (double)nr_b / 12 *
	      ((double)(n + 1) - tie_sum / ((double)n * (double)(n - 1)));
	if (!(var > 0)) {
		res->p = 1;	/* all values equal */
		goto out;
	}
	{
		double d = fabs(res->u_a - mu) - 0.5;

		if (d < 0)
			d = 0;
		res->z = copysign(d / sqrt(var), res->u_a - mu);
		res->p = erfc(fabs(res->z) / M_SQRT2);
	}
out:
	free(pool);
	free(rank2);
	return ret;
}

double sp_mannwhitney_min_p(size_t nr_a, size_t nr_b)
{
	double na = (double)nr_a, nb = (double)nr_b, p;

	if (!nr_a || !nr_b)
		return 1;
	if (nr_a <= SP_MANNWHITNEY_EXACT_MAX && nr_b <= SP_MANNWHITNEY_EXACT_MAX) {
		double ways = 1;
		size_t m = nr_a < nr_b ? nr_a : nr_b, n = nr_a + nr_b, i;

		/* C(n, m), exact in a double up to C(50, 25) */
		for (i = 1; i <= m; i++)
			ways = ways * (double)(n - m + i) / (double)i;
		p = 2 / ways;
	} else {
		double sd = sqrt(na * nb * (na + nb + 1) / 12);

		p = erfc((na * nb / 2 - 0.5) / sd / M_SQRT2);
	}
	return p < 1 ? p : 1;
}

/*
 * The smallest q with P(U <= q) >= @p, U the statistic of groups of @m and
 * @n values without ties (R's qwilcox()): the counts of U by the recurrence
 * c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u), a row per i.
 */
static int u_quantile(size_t m, size_t n, double p, size_t *q)
{
	size_t width = m * n + 1, i, j, u;
	double *prev = sp_alloc_array((n + 1) * width, sizeof(*prev));
	double *cur = sp_alloc_array((n + 1) * width, sizeof(*cur));
	double total = 0, cum = 0, *t;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	/* i = 0: U is 0 whatever j */
	for (j = 0; j <= n; j++)
		for (u = 0; u < width; u++)
			prev[j * width + u] = u == 0;
	for (i = 1; i <= m; i++) {
		for (u = 0; u < width; u++)
			cur[u] = u == 0;
		for (j = 1; j <= n; j++)
			for (u = 0; u < width; u++)
				cur[j * width + u] = (u >= j ? prev[j * width + u - j] : 0) +
						     cur[(j - 1) * width + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	for (u = 0; u < width; u++)
		total += prev[n * width + u];
	*q = width - 1;
	for (u = 0; u < width; u++) {
		cum += prev[n * width + u];
		/* a relative tolerance: the counts are exact, their ratio not */
		if (cum / total >= p * (1 - 1e-12)) {
			*q = u;
			break;
		}
	}
	free(prev);
	free(cur);
	return 0;
}

int sp_mannwhitney_shift_ci(const double *a, size_t nr_a, const double *b, size_t nr_b,
			    double level, double *lo, double *hi)
{
	size_t mn = nr_a * nr_b, k, i, j;
	double *d;
	int ret;

	if (!nr_a || !nr_b || !(level > 0 && level < 1))
		return -EINVAL;
	if (nr_a > SP_MANNWHITNEY_SHIFT_MAX_PAIRS / nr_b)
		return -E2BIG;
	if (sp_values_have_nan(a, nr_a) || sp_values_have_nan(b, nr_b))
		return -EINVAL;
	if (nr_a <= SP_MANNWHITNEY_EXACT_MAX && nr_b <= SP_MANNWHITNEY_EXACT_MAX) {
		ret = u_quantile(nr_a, nr_b, (1 - level) / 2, &k);
		if (ret)
			return ret;
	} else {
		double m = (double)nr_a, n = (double)nr_b;
		double z = sp_normal_quantile(1 - (1 - level) / 2);
		double kd = floor(m * n / 2 - z * sqrt(m * n * (m + n + 1) / 12));

		k = kd > 0 ? (size_t)kd : 0;
	}
	if (k < 1)
		k = 1;
	d = sp_alloc_array(mn, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < nr_a; i++)
		for (j = 0; j < nr_b; j++)
			d[i * nr_b + j] = b[j] - a[i];
	qsort(d, mn, sizeof(*d), sp_values_cmp);
	*lo = d[k - 1];
	*hi = d[mn - k];
	free(d);
	return 0;
}
