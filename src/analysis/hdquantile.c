// SPDX-License-Identifier: GPL-2.0-only
/*
 * hdquantile: the Harrell-Davis quantile estimator and the regularized
 * incomplete beta function its weights come from.
 *
 * The estimate of the quantile p of n sorted values is sum w_i x_(i), where
 * w_i is the mass the Beta(p(n+1), (1-p)(n+1)) distribution puts on
 * ((i-1)/n, i/n].  Every order statistic contributes, so the estimate moves
 * smoothly with the data (unlike one order statistic) and it is equivariant:
 * adding c to every value adds c to the estimate, scaling scales it.
 *
 * For large n nearly all the mass lies in a window around p; the weights
 * outside it are below SP_HD_TAIL and are set to 0, the two tails being
 * folded into the first and the last weight of the window so that the
 * weights still sum to 1.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/hdquantile.h"
#include "schedplot/analysis/values.h"
#include "schedplot/base/alloc.h"

#define BETACF_EPS	(4 * DBL_EPSILON)
#define BETACF_MAXIT	1000000
/* below this many values every weight is computed */
#define HD_TRIM_MIN	64
/* tail mass left out of the window; far below a double's resolution */
#define SP_HD_TAIL	1e-20

#define LENTZ_TINY	(DBL_MIN / DBL_EPSILON)

/*
 * One term @aa of the fraction in the modified Lentz method: updates @c
 * and @d (kept off 0) and returns the factor the fraction's value takes.
 */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/*
 * The continued fraction for I_x(a, b) (Numerical Recipes 6.4.5) by the
 * modified Lentz method; converges fast for x < (a + 1) / (a + b + 2), in
 * about sqrt(max(a, b)) steps.
 */
static int betacf(double a, double b, double x, double *out)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;
	long m;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= BETACF_MAXIT; m++) {
		double m2 = 2.0 * m, del;

		/* the even term, then the odd one */
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < BETACF_EPS) {
			*out = h;
			return 0;
		}
	}
	return -ERANGE;
}

/* x^a (1-x)^b / (a B(a, b)), the factor in front of the fraction, times a */
static double beta_front(double a, double b, double x)
{
	int sign;
	double lab = lgamma_r(a + b, &sign), la = lgamma_r(a, &sign), lb = lgamma_r(b, &sign);

	return exp(lab - la - lb + a * log(x) + b * log1p(-x));
}

int sp_betainc_eval(double a, double b, double x, double *out)
{
	double cf;
	int ret;

	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return -EDOM;
	if (x == 0 || x == 1) {
		*out = x;
		return 0;
	}
	if (x < (a + 1) / (a + b + 2)) {
		ret = betacf(a, b, x, &cf);
		if (ret)
			return ret;
		*out = beta_front(a, b, x) * cf / a;
	} else {
		ret = betacf(b, a, 1 - x, &cf);
		if (ret)
			return ret;
		*out = 1 - beta_front(b, a, 1 - x) * cf / b;
	}
	if (*out < 0)
		*out = 0;
	else if (*out > 1)
		*out = 1;
	return 0;
}

/* I_{i/n}(a, b) */
static int hd_cdf(size_t i, size_t n, double a, double b, double *out)
{
	if (i == 0) {
		*out = 0;
		return 0;
	}
	if (i >= n) {
		*out = 1;
		return 0;
	}
	return sp_betainc_eval(a, b, (double)i / (double)n, out);
}

/* 1 - I_{i/n}(a, b) = I_{(n-i)/n}(b, a), precise where it is small */
static int hd_ccdf(size_t i, size_t n, double a, double b, double *out)
{
	return hd_cdf(n - i, n, b, a, out);
}

/*
 * Where the monotone @mass(i) of i in [0, n] crosses SP_HD_TAIL, by
 * bisection.  @rising: mass rises with i, invariant mass(l) <= tail <
 * mass(r), *@at gets l; else it falls, invariant mass(l) > tail >=
 * mass(r), *@at gets r.
 */
static int hd_tail_edge(int (*mass)(size_t i, size_t n, double a, double b, double *out),
			size_t n, double a, double b, bool rising, size_t *at)
{
	size_t l = 0, r = n;
	double v;
	int ret;

	while (r - l > 1) {
		size_t m = l + (r - l) / 2;

		ret = mass(m, n, a, b, &v);
		if (ret)
			return ret;
		if ((v <= SP_HD_TAIL) == rising)
			l = m;
		else
			r = m;
	}
	*at = rising ? l : r;
	return 0;
}

/*
 * The window [*lo, *hi) of weights that matter: I(lo/n) <= SP_HD_TAIL and
 * 1 - I(hi/n) <= SP_HD_TAIL, found by bisection since I is monotone in i.
 */
static int hd_window(size_t n, double a, double b, size_t *lo, size_t *hi)
{
	int ret = hd_tail_edge(hd_cdf, n, a, b, true, lo);

	return ret ? ret : hd_tail_edge(hd_ccdf, n, a, b, false, hi);
}

int sp_hdquantile_weights(size_t n, double p, double *w)
{
	size_t lo = 0, hi = n, i;
	double a, b, prev = 0;
	int ret;

	if (!n || !(p >= 0 && p <= 1))
		return -EINVAL;
	memset(w, 0, n * sizeof(*w));
	if (n == 1 || p == 0) {
		w[0] = 1;
		return 0;
	}
	if (p == 1) {
		w[n - 1] = 1;
		return 0;
	}
	a = p * (double)(n + 1);
	b = (1 - p) * (double)(n + 1);
	if (n >= HD_TRIM_MIN) {
		ret = hd_window(n, a, b, &lo, &hi);
		if (ret)
			return ret;
	}
	/* I(lo/n) counts as 0 and I(hi/n) as 1: the tails join the ends */
	for (i = lo; i < hi; i++) {
		double cur;

		if (i + 1 == hi) {
			cur = 1;
		} else {
			ret = hd_cdf(i + 1, n, a, b, &cur);
			if (ret)
				return ret;
		}
		w[i] = cur - prev;
		prev = cur;
	}
	return 0;
}

int sp_hdquantile_sorted(const double *sorted, size_t n, double p, double *out)
{
	double *w, sum = 0;
	size_t i;
	int ret;

	if (!n)
		return -EINVAL;
	w = sp_alloc_array(n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	ret = sp_hdquantile_weights(n, p, w);
	if (!ret) {
		for (i = 0; i < n; i++)
			sum += w[i] * sorted[i];
		*out = sum;
	}
	free(w);
	return ret;
}

int sp_hdquantile_deciles(const double *x, size_t n, double dec[SP_NR_DECILES])
{
	double *s;
	int d, ret;

	if (!n || !sp_values_finite(x, n))
		return -EINVAL;
	ret = sp_values_sorted_copy(x, n, &s);
	if (ret)
		return ret;
	for (d = 0; d < SP_NR_DECILES && !ret; d++)
		ret = sp_hdquantile_sorted(s, n, (d + 1) / 10.0, &dec[d]);
	free(s);
	return ret;
}
