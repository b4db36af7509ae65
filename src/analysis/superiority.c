// SPDX-License-Identifier: GPL-2.0-only
/*
 * superiority: P(B > A), the effect size of the Mann-Whitney test, with
 * Sen's standard error from the placements of the values.
 *
 * Both groups are sorted; the placement of a value (the share of the other
 * group below it, ties one half) is two binary searches.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/superiority.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

/* how many of the @n sorted @v are below @x, and how many equal it */
static void count_below(const double *v, size_t n, double x, size_t *below, size_t *equal)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	*below = lo;
	for (hi = lo; hi < n && v[hi] == x; hi++)
		;
	*equal = hi - lo;
}

/*
 * Mean and variance (n - 1) of the placements of @x among @other: the
 * share of @other below each value of @x, ties one half.
 */
static void placements(const double *x, size_t nx, const double *other, size_t no,
		       double *mean, double *var)
{
	double sum = 0, dev = 0;
	size_t i, below, equal;

	for (i = 0; i < nx; i++) {
		count_below(other, no, x[i], &below, &equal);
		sum += ((double)below + (double)equal / 2) / (double)no;
	}
	*mean = sum / (double)nx;
	for (i = 0; i < nx; i++) {
		double pl;

		count_below(other, no, x[i], &below, &equal);
		pl = ((double)below + (double)equal / 2) / (double)no;
		dev += (pl - *mean) * (pl - *mean);
	}
	*var = nx > 1 ? dev / (double)(nx - 1) : NAN;
}

double sp_normal_quantile(double p)
{
	double lo = -40, hi = 40, mid;

	if (!(p > 0 && p < 1))
		return NAN;
	/* Phi(x) = erfc(-x / sqrt 2) / 2 rises with x: bisect to the last bit */
	for (int i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (mid == lo || mid == hi)
			break;
		if (erfc(-mid / M_SQRT2) / 2 < p)
			lo = mid;
		else
			hi = mid;
	}
	return mid;
}

int sp_superiority_compute(struct sp_superiority *s, const double *a, size_t nr_a,
			   const double *b, size_t nr_b, double level)
{
	double *sa, *sb, mean_a, var_a, mean_b, var_b, z;
	int ret;

	if (!nr_a || !nr_b || !(level > 0 && level < 1) || sp_values_have_nan(a, nr_a) ||
	    sp_values_have_nan(b, nr_b))
		return -EINVAL;
	ret = sp_values_sorted_copy(a, nr_a, &sa);
	if (ret)
		return ret;
	ret = sp_values_sorted_copy(b, nr_b, &sb);
	if (ret) {
		free(sa);
		return ret;
	}
	/* B's values placed among A's: their mean is P(B > A) + P(B = A) / 2 */
	placements(sb, nr_b, sa, nr_a, &mean_b, &var_b);
	placements(sa, nr_a, sb, nr_b, &mean_a, &var_a);
	free(sa);
	free(sb);

	memset(s, 0, sizeof(*s));
	s->p = mean_b;
	s->se = sqrt(var_a / (double)nr_a + var_b / (double)nr_b);
	s->ci_lo = s->ci_hi = NAN;
	if (!(s->se > 0))
		return 0;
	z = sp_normal_quantile(1 - (1 - level) / 2);
	s->has_ci = true;
	s->ci_lo = fmax(0, s->p - z * s->se);
	s->ci_hi = fmin(1, s->p + z * s->se);
	return 0;
}
