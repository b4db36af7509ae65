// SPDX-License-Identifier: GPL-2.0-only
/*
 * values: the order of doubles and the checks of a series, for every
 * statistic that sorts or validates its inputs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

int sp_values_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

bool sp_values_have_nan(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return true;
	return false;
}

bool sp_values_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return false;
	return true;
}

int sp_values_sorted_copy(const double *v, size_t n, double **out)
{
	*out = sp_alloc_array(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	memcpy(*out, v, n * sizeof(**out));
	qsort(*out, n, sizeof(**out), sp_values_cmp);
	return 0;
}
