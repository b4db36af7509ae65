/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MANNWHITNEY_H
#define SP_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/* Up to this many values in each group the p value is exact. */
#define SP_MANNWHITNEY_EXACT_MAX	25

enum sp_mannwhitney_method {
	SP_MANNWHITNEY_AUTO,		/* exact when both groups are small enough */
	SP_MANNWHITNEY_EXACT,		/* exact at any size (time and memory grow) */
	SP_MANNWHITNEY_ASYMPTOTIC,	/* normal approximation */
};

/* A two-sided Mann-Whitney U test of group A against group B. */
struct sp_mannwhitney {
	size_t nr_a;
	size_t nr_b;
	double u_a;		/* pairs (a, b) with a > b, ties counting 1/2 */
	double p;		/* two-sided, in (0, 1] */
	double z;		/* normal score with both corrections; 0 when exact */
	bool exact;		/* p from the exact distribution of U */
	bool ties;		/* some value occurs more than once */
};

/**
 * sp_mannwhitney_test - two-sided Mann-Whitney U test
 * @res: the result
 * @a: the values of group A
 * @nr_a: how many, >= 1
 * @b: the values of group B
 * @nr_b: how many, >= 1
 * @method: how the p value is computed
 *
 * The exact p value is 2 min(P(U <= u), P(U >= u)), at most 1, under the
 * distribution of U over all the ways to split the pooled midranks into
 * groups of @nr_a and @nr_b values; with ties that is the conditional
 * distribution given the ties, not the one of untied data.  The normal
 * approximation uses the tie-corrected variance and a continuity correction
 * of 1/2.  When all values are equal, p = 1.
 *
 * Return: 0, -EINVAL for an empty group or a NaN among the values, or
 * -ENOMEM.
 */
int sp_mannwhitney_test(struct sp_mannwhitney *res, const double *a, size_t nr_a,
			const double *b, size_t nr_b, enum sp_mannwhitney_method method);

/**
 * sp_mannwhitney_min_p - the smallest p value groups of these sizes can give
 * @nr_a: size of group A
 * @nr_b: size of group B
 *
 * What sp_mannwhitney_test() with %SP_MANNWHITNEY_AUTO returns when every
 * value of one group lies below every value of the other, without ties:
 * 2 / C(nr_a + nr_b, nr_a) when exact.  Three runs against three can never
 * go below 2/20 = 0.1, four against four below 2/70 = 0.0286.
 *
 * Return: the p value, 1 when a group is empty.
 */
double sp_mannwhitney_min_p(size_t nr_a, size_t nr_b);

/* Above this many pairs (nr_a * nr_b) no interval of the shift is computed. */
#define SP_MANNWHITNEY_SHIFT_MAX_PAIRS	(1u << 24)

/**
 * sp_mannwhitney_shift_ci - the distribution-free interval of the shift B - A
 * @a: the values of group A
 * @nr_a: how many, >= 1
 * @b: the values of group B
 * @nr_b: how many, >= 1
 * @level: the coverage asked for, as 0.95
 * @lo: out: the lower end
 * @hi: out: the upper end
 *
 * The interval that goes with the Mann-Whitney test (Moses; Bauer 1972),
 * as R's wilcox.test(b, a, conf.int = TRUE) gives it: of the nr_a * nr_b
 * differences b - a sorted, the k-th and the (nr_a nr_b + 1 - k)-th, k the
 * smallest q with P(U <= q) >= (1 - @level) / 2 under the null
 * distribution of U without ties (exact up to %SP_MANNWHITNEY_EXACT_MAX
 * values a group, then k = mn/2 - z sqrt(mn(m + n + 1)/12) rounded down),
 * and k >= 1.  Without ties it holds 0 exactly when the exact two-sided p
 * is above 1 - @level.
 *
 * Return: 0, -EINVAL for an empty group or a NaN, -E2BIG above
 * %SP_MANNWHITNEY_SHIFT_MAX_PAIRS pairs, or -ENOMEM.
 */
int sp_mannwhitney_shift_ci(const double *a, size_t nr_a, const double *b, size_t nr_b,
			    double level, double *lo, double *hi);

#endif /* SP_MANNWHITNEY_H */
