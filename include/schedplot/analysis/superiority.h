/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SUPERIORITY_H
#define SP_SUPERIORITY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The probability of superiority of B over A (the "common language effect
 * size", the Mann-Whitney parameter, the AUC): the chance that a run of B
 * has a larger value than a run of A, ties counting one half.
 */
struct sp_superiority {
	double p;		/* P(B > A) + P(B = A) / 2 = U_B / (nA nB) */
	double se;		/* Sen's (DeLong's) standard error; NaN below 2 a group */
	bool has_ci;		/* false when se is 0 or NaN */
	double ci_lo;		/* p -+ z se, held to [0, 1]; NaN without */
	double ci_hi;
};

/**
 * sp_superiority_compute - P(B > A) with its interval
 * @s: the result
 * @a: group A, @nr_a >= 1 values, any order
 * @b: group B, @nr_b >= 1 values
 * @level: the confidence of the interval, in (0, 1)
 *
 * The estimate is U_B / (nA nB).  Its standard error is Sen's (1967, "A
 * note on asymptotically distribution-free confidence bounds for P(X <
 * Y)"), the one DeLong, DeLong and Clarke-Pearson (1988) give for an AUC
 * and Brunner and Munzel (2000) divide by: with the placements of each
 * value (the share of the other group below it, ties one half), se^2 =
 * var(placements of A) / nA + var(placements of B) / nB, each variance
 * with n - 1.  The interval is p -+ z(1 - (1 - level) / 2) se, held to
 * [0, 1] as statpsych's ci.mann does.  It does not depend on the order of
 * the values.  When se is 0 (one group wholly above the other, or all
 * values equal) or a group has one value, there is no interval: a Wald
 * interval of width 0 would claim certainty the runs do not give.
 *
 * Return: 0, -EINVAL for an empty group, a NaN or @level out of range,
 * or -ENOMEM.
 */
int sp_superiority_compute(struct sp_superiority *s, const double *a, size_t nr_a,
			   const double *b, size_t nr_b, double level);

/**
 * sp_normal_quantile - the standard normal quantile
 * @p: in (0, 1)
 *
 * Return: x with Phi(x) = @p to double precision, NaN outside (0, 1).
 */
double sp_normal_quantile(double p);

#endif /* SP_SUPERIORITY_H */
