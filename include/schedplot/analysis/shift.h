/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SHIFT_H
#define SP_SHIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/hdquantile.h"

#define SP_SHIFT_NR_BOOT	2000	/* resamples; what Wilcox's qcomhd uses */
#define SP_SHIFT_ALPHA		0.05	/* family-wise, over the nine deciles */

/* What one bootstrap resample draws with replacement. */
enum sp_shift_resample {
	SP_SHIFT_VALUES,	/* single values of the group, all runs pooled */
	SP_SHIFT_RUNS,		/* whole runs of the group: runs as clusters */
};

/* One run: its values (latencies, durations, ...). */
struct sp_shift_run {
	const double *v;
	size_t nr;
};

/* One group: before or after. */
struct sp_shift_group {
	const struct sp_shift_run *runs;
	size_t nr_runs;
};

struct sp_shift_decile {
	double q;		/* 0.1 .. 0.9 */
	double a;		/* Harrell-Davis estimate of the decile in A */
	double b;		/* and in B */
	double diff;		/* b - a: above 0, B is slower there */
	double ci_lo;		/* percentile-bootstrap interval of diff at */
	double ci_hi;		/* level 1 - alpha */
	double p;		/* bootstrap p value of diff = 0, two-sided */
	double alpha;		/* Hochberg's critical level for this decile */
	bool significant;	/* rejected by Hochberg's step-up procedure */
};

struct sp_shift {
	struct sp_shift_decile dec[SP_NR_DECILES];
	enum sp_shift_resample mode;
	size_t nr_boot;
	uint64_t seed;
	size_t nr_a;		/* values in A, all runs */
	size_t nr_b;
};

/**
 * sp_shift_compute - the shift function of B against A over the deciles
 * @sh: the result
 * @a: group A (before)
 * @b: group B (after)
 * @mode: resample single values or whole runs
 * @nr_boot: resamples, %SP_SHIFT_NR_BOOT unless there is a reason
 * @seed: seeds the generator; the same seed gives the same result, bit
 *        for bit
 *
 * As Wilcox's qcomhd (Wilcox, Erceg-Hurn, Clark and Carlson 2014): each
 * decile of each group is estimated by Harrell-Davis; every resample draws
 * A and B anew (each within its own group) and gives nine differences.  A
 * decile's p value is 2 min(P*(d < 0) + P*(d = 0) / 2, its complement) over
 * the resamples.  Hochberg: with the p values sorted from the largest, the
 * j-th gets alpha = %SP_SHIFT_ALPHA / j; the first that falls at or below
 * its alpha and all smaller ones are significant.  Each interval is the
 * percentile interval at level 1 - alpha of its decile: values number
 * round(nr_boot alpha / 2) + 1 and nr_boot - round(nr_boot alpha / 2) of
 * the sorted differences (1-based).  An interval leaves out 0 about when
 * its decile's p is below its alpha; the widest, the decile of the smallest
 * p, is at 1 - 0.05 / 9.
 *
 * Return: 0, -EINVAL for a group without values, a value not finite, an
 * empty run with %SP_SHIFT_RUNS or @nr_boot = 0, -ENOMEM, or an error of
 * sp_betainc_eval().
 */
int sp_shift_compute(struct sp_shift *sh, const struct sp_shift_group *a,
		     const struct sp_shift_group *b, enum sp_shift_resample mode,
		     size_t nr_boot, uint64_t seed);

/**
 * sp_hochberg_adjust - Hochberg's step-up procedure over @n p values
 * @p: the p values, each in [0, 1]
 * @n: how many, >= 1
 * @alpha: the family-wise level, in (0, 1]
 * @alpha_crit: out: the level of each p value: with the p values sorted
 *              from the largest, the j-th (1-based) gets @alpha / j (equal
 *              p values keep their order)
 * @significant: out: whether each is rejected: the first p value, from the
 *               largest, at or below its level and every smaller one
 *
 * Hochberg, "A sharper Bonferroni procedure for multiple tests of
 * significance", Biometrika 75 (1988).  Unlike Holm's step-down, a p value
 * above its own level is rejected when a larger one is at or below its own.
 *
 * Return: 0, -EINVAL for n = 0 or an argument outside its range, or
 * -ENOMEM.
 */
int sp_hochberg_adjust(const double *p, size_t n, double alpha, double *alpha_crit,
		       bool *significant);

#endif /* SP_SHIFT_H */
