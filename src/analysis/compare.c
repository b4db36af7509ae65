// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the summary of one group of runs, with the order-statistic
 * confidence interval of its median.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/compare.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

/* P(B = j) for B ~ Binomial(n, 1/2) */
static double binom_half_pmf(size_t n, size_t j)
{
	int sign;
	double ln = lgamma_r((double)n + 1, &sign) - lgamma_r((double)j + 1, &sign) -
		    lgamma_r((double)(n - j) + 1, &sign);

	return exp(ln - (double)n * M_LN2);
}

/*
 * The largest k (1-based) with P(k <= B <= n-k) = 1 - 2 P(B <= k-1) >= level,
 * or 0 when there is none; *coverage gets that probability.
 */
static size_t median_ci_rank(size_t n, double level, double *coverage)
{
	double tail = (1 - level) / 2, cdf = 0, below = 0;
	size_t j, k = 0;

	for (j = 0; j < n / 2; j++) {
		cdf += binom_half_pmf(n, j);
		if (cdf > tail)
			break;
		k = j + 1;
		below = cdf;
	}
	*coverage = 1 - 2 * below;
	return k;
}

int sp_runs_summary_compute(struct sp_runs_summary *s, const double *x, size_t nr)
{
	double *v, sum = 0, dev = 0;
	size_t i, k;
	int ret;

	if (!nr || !sp_values_finite(x, nr))
		return -EINVAL;
	ret = sp_values_sorted_copy(x, nr, &v);
	if (ret)
		return ret;

	memset(s, 0, sizeof(*s));
	s->nr = nr;
	s->min = v[0];
	s->max = v[nr - 1];
	s->median = nr % 2 ? v[nr / 2] : (v[nr / 2 - 1] + v[nr / 2]) / 2;

	k = median_ci_rank(nr, SP_SUMMARY_CI_LEVEL, &s->ci_level);
	if (k) {
		s->has_ci = true;
		s->ci_lo = v[k - 1];
		s->ci_hi = v[nr - k];
	} else {
		s->ci_lo = s->ci_hi = s->ci_level = NAN;
	}

	/* two passes: the deviations are small next to the values */
	for (i = 0; i < nr; i++)
		sum += v[i];
	s->mean = sum / (double)nr;
	for (i = 0; i < nr; i++)
		dev += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = nr > 1 ? sqrt(dev / (double)(nr - 1)) : NAN;
	s->cv = s->mean != 0 && !isnan(s->sd) ? s->sd / s->mean : NAN;
	free(v);
	return 0;
}
