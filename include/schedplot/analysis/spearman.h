/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SPEARMAN_H
#define SP_SPEARMAN_H

#include <stdbool.h>
#include <stddef.h>

/* Up to this many pairs the exact p value can be asked for (9! orders). */
#define SP_SPEARMAN_EXACT_MAX	9

/**
 * sp_spearman - Spearman's rank correlation and its two-sided p value
 * @x: @n values
 * @y: @n values paired with them
 * @n: how many pairs, >= 3
 * @exact: with @n <= %SP_SPEARMAN_EXACT_MAX, the exact p value: the share
 *         of the n! pairings of the midranks whose |rho| is at least this
 *         one's (the permutation distribution given the ties)
 * @rho: out: the Pearson correlation of the midranks of @x and @y
 * @p: out: two-sided p of rho = 0; without @exact from Student's t with
 *     n - 2 degrees of freedom, t = rho sqrt((n - 2) / (1 - rho^2)), as
 *     SciPy's scipy.stats.spearmanr computes it (0 when |rho| = 1, where
 *     the exact p of 5 pairs is 2/120); 1 when either side has no spread
 *     (rho is then NaN)
 *
 * Return: 0, -EINVAL for n < 3 or a NaN, -ENOMEM, or an error of
 * sp_betainc_eval().
 */
int sp_spearman(const double *x, const double *y, size_t n, bool exact, double *rho,
		double *p);

#endif /* SP_SPEARMAN_H */
