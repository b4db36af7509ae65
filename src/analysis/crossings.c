// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where two CDFs cross.  See include/schedplot/analysis/crossings.h.
 */
#include <math.h>

#include "schedplot/analysis/crossings.h"

/* the p-quantile of a and b pooled, nearest rank, by merging */
static uint64_t pooled_rank(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, double p)
{
	size_t k = (size_t)ceil(p * (double)(na + nb)), i = 0, j = 0;
	uint64_t v = 0;

	if (!k)
		k = 1;
	while (k--)
		v = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
	return v;
}

size_t sp_cdf_crossings(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
			struct sp_crossing *out)
{
	uint64_t lo, hi, left_at = 0;
	size_t i = 0, j = 0, n = 0;
	int side = 0;		/* the held side: 1 a's CDF above, -1 b's, 0 none yet */
	int away = 0;		/* D has left the held side since left_at */

	if (!na || !nb)
		return 0;
	lo = pooled_rank(a, na, b, nb, SP_CROSSINGS_LO);
	hi = pooled_rank(a, na, b, nb, SP_CROSSINGS_HI);
	while (i < na || j < nb) {
		uint64_t t = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
		double d;

		while (i < na && a[i] == t)
			i++;
		while (j < nb && b[j] == t)
			j++;
		if (t < lo)
			continue;
		if (t > hi)
			break;
		d = (double)i / (double)na - (double)j / (double)nb;
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
