/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_HDQUANTILE_H
#define SP_HDQUANTILE_H

#include <stddef.h>

/* The deciles 0.1 .. 0.9, the quantiles a shift function compares. */
#define SP_NR_DECILES	9

/**
 * sp_betainc_eval - regularized incomplete beta function I_x(a, b)
 * @a: first shape, > 0
 * @b: second shape, > 0
 * @x: upper limit of the integral, in [0, 1]
 * @out: the value, in [0, 1]
 *
 * The continued fraction of Numerical Recipes (6.4), evaluated with the
 * modified Lentz method, on the side of @x where it converges fast.
 *
 * Return: 0, -EDOM when an argument is outside its range (NaN included), or
 * -ERANGE when the fraction did not converge (a or b beyond about 1e9).
 */
int sp_betainc_eval(double a, double b, double x, double *out);

/**
 * sp_hdquantile_weights - the Harrell-Davis weights of n order statistics
 * @n: number of values, >= 1
 * @p: the quantile, in [0, 1]
 * @w: @n weights out: w[i] = I_{(i+1)/n}(a, b) - I_{i/n}(a, b) with
 *     a = p(n+1), b = (1-p)(n+1); they sum to 1
 *
 * The weights depend on @n and @p only, so resamples of one size share them.
 * At p = 0 and p = 1 all the weight is on the minimum and the maximum.
 *
 * Return: 0, -EINVAL for n = 0 or p outside [0, 1], or an error of
 * sp_betainc_eval().
 */
int sp_hdquantile_weights(size_t n, double p, double *w);

/**
 * sp_hdquantile_sorted - Harrell-Davis estimate of the quantile @p
 * @sorted: @n finite values in ascending order
 * @n: number of values, >= 1
 * @p: the quantile, in [0, 1]
 * @out: the estimate, sum of w[i] * sorted[i]
 *
 * Return: 0, -EINVAL (see sp_hdquantile_weights()), -ENOMEM, or an error of
 * sp_betainc_eval().
 */
int sp_hdquantile_sorted(const double *sorted, size_t n, double p, double *out);

/**
 * sp_hdquantile_deciles - Harrell-Davis estimates of the deciles 0.1 .. 0.9
 * @x: @n values in any order; not changed
 * @n: number of values, >= 1
 * @dec: out: dec[d] estimates the quantile (d + 1) / 10
 *
 * Return: 0, -EINVAL for n = 0 or a value not finite, -ENOMEM, or an
 * error of sp_betainc_eval().
 */
int sp_hdquantile_deciles(const double *x, size_t n, double dec[SP_NR_DECILES]);

#endif /* SP_HDQUANTILE_H */
