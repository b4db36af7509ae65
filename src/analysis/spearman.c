// SPDX-License-Identifier: GPL-2.0-only
/*
 * spearman: rank correlation of two paired series, with Student's t for
 * its p value.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "schedplot/analysis/hdquantile.h"
#include "schedplot/analysis/spearman.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

/* v first: sp_values_cmp() orders it */
struct ranked {
	double v;
	size_t i;
};

/* the midranks of @v into @r, 1-based */
static int midranks(const double *v, size_t n, double *r)
{
	struct ranked *t = sp_alloc_array(n, sizeof(*t));
	size_t i, j, k;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		t[i] = (struct ranked){ v[i], i };
	qsort(t, n, sizeof(*t), sp_values_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && t[j].v == t[i].v; j++)
			;
		for (k = i; k < j; k++)
			r[t[k].i] = (double)(i + j + 1) / 2;
	}
	free(t);
	return 0;
}

/*
 * The share of the orders of @ry against @rx whose |sum of products of
 * deviations| reaches |@sxy|: Heap's algorithm over the n! orders.
 */
static double exact_p(const double *rx, const double *ry, size_t n, double sxy)
{
	double a[SP_SPEARMAN_EXACT_MAX], mean = ((double)n + 1) / 2, tol = 1e-9 * (1 + fabs(sxy));
	size_t c[SP_SPEARMAN_EXACT_MAX] = { 0 }, i = 1, hits = 0, total = 0;

	for (size_t k = 0; k < n; k++)
		a[k] = ry[k];
	for (;;) {
		double s = 0, t;

		for (size_t k = 0; k < n; k++)
			s += (rx[k] - mean) * (a[k] - mean);
		hits += fabs(s) >= fabs(sxy) - tol;
		total++;
		while (i < n && c[i] >= i) {
			c[i] = 0;
			i++;
		}
		if (i >= n)
			break;
		if (i % 2) {
			t = a[c[i]];
			a[c[i]] = a[i];
		} else {
			t = a[0];
			a[0] = a[i];
		}
		a[i] = t;
		c[i]++;
		i = 1;
	}
	return (double)hits / (double)total;
}

int sp_spearman(const double *x, const double *y, size_t n, bool exact, double *rho,
		double *p)
{
	double *rx, *ry, mean = ((double)n + 1) / 2, sxy = 0, sxx = 0, syy = 0, r, t, df;
	size_t i;
	int ret;

	if (n < 3 || sp_values_have_nan(x, n) || sp_values_have_nan(y, n))
		return -EINVAL;
	rx = sp_alloc_array(n, sizeof(*rx));
	ry = sp_alloc_array(n, sizeof(*ry));
	ret = rx && ry ? 0 : -ENOMEM;
	if (!ret)
		ret = midranks(x, n, rx);
	if (!ret)
		ret = midranks(y, n, ry);
	if (!ret)
		for (i = 0; i < n; i++) {
			sxy += (rx[i] - mean) * (ry[i] - mean);
			sxx += (rx[i] - mean) * (rx[i] - mean);
			syy += (ry[i] - mean) * (ry[i] - mean);
		}
	if (!ret && sxx > 0 && syy > 0 && exact && n <= SP_SPEARMAN_EXACT_MAX) {
		*rho = sxy / sqrt(sxx * syy);
		*p = exact_p(rx, ry, n, sxy);
		free(rx);
		free(ry);
		return 0;
	}
	free(rx);
	free(ry);
	if (ret)
		return ret;
	if (sxx == 0 || syy == 0) {
		*rho = NAN;
		*p = 1;
		return 0;
	}
	r = sxy / sqrt(sxx * syy);
	*rho = r;
	if (fabs(r) >= 1) {
		*p = 0;
		return 0;
	}
	df = (double)n - 2;
	t = r * sqrt(df / (1 - r * r));
	/* two-sided: P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return sp_betainc_eval(df / 2, 0.5, df / (df + t * t), p);
}
