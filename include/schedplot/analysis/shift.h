/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SHIFT_H
#define SP_SHIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/hdquantile.h"

#define SP_SHIFT_NR_BOOT	2000	/* resamples; what Wilcox's qcomhd uses */
#define SP_SHIFT_ALPHA		0.05	/* family-wise, over the nine deciles */
/*
 * Runs a group needs before resampling whole runs supports an interval.  A
 * resample that draws one run n times has probability n * n^-n: from 5
 * runs 0.0016, below the tail of the narrowest interval (0.05 / 9 / 2 =
 * 0.0028), so its ends are not one run's deciles; from 4 runs 0.0156.
 */
#define SP_SHIFT_MIN_RUNS	5

/* What one bootstrap resample draws with replacement. */
enum sp_shift_resample {
	SP_SHIFT_VALUES,	/* single values of the group, all runs pooled */
	SP_SHIFT_RUNS,		/* whole runs of the group: runs as clusters */
};

/* Why a decile has no interval, p value or significance. */
enum sp_shift_support {
	SP_SHIFT_SUPPORTED,	/* it has them */
	SP_SHIFT_FEW_VALUES,	/* a group has fewer values than the decile needs */
	SP_SHIFT_FEW_RUNS,	/* runs were not resampled: a group has too few */
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
	double ci_hi;		/* level 1 - alpha; NaN when not supported */
	double p;		/* bootstrap p value of diff = 0, two-sided; or NaN */
	double alpha;		/* Hochberg's critical level for this decile; or NaN */
	bool significant;	/* rejected by Hochberg's step-up procedure */
	enum sp_shift_support support;
	size_t min_n;		/* SP_SHIFT_FEW_VALUES: values each group needs */
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
 * Too small a sample withholds a decile (its support says why; interval,
 * p and alpha NaN, never significant): with %SP_SHIFT_VALUES when a group
 * has fewer values than sp_shift_min_values() of the decile at level
 * 1 - %SP_SHIFT_ALPHA, with %SP_SHIFT_RUNS when a group has fewer than
 * %SP_SHIFT_MIN_RUNS runs.  Hochberg's procedure runs over the deciles
 * that are left.  With none left, nothing is resampled.
 *
 * Return: 0, -EINVAL for a group without values, a value not finite, an
 * empty run with %SP_SHIFT_RUNS or @nr_boot = 0, -ENOMEM, or an error of
 * sp_betainc_eval().
 */
int sp_shift_compute(struct sp_shift *sh, const struct sp_shift_group *a,
		     const struct sp_shift_group *b, enum sp_shift_resample mode,
		     size_t nr_boot, uint64_t seed);

/**
 * sp_shift_min_values - the smallest sample a decile's interval can rest on
 * @q: the quantile, in (0, 1)
 * @level: the confidence asked, in (0, 1)
 *
 * The smallest n for which the sample's range [x(1), x(n)] covers the true
 * q-quantile with probability 1 - q^n - (1 - q)^n >= @level (the coverage
 * of an interval of order statistics: David and Nagaraja, "Order
 * Statistics", 3rd ed., section 7.1).  With fewer values no interval
 * between order statistics reaches @level, and a percentile-bootstrap
 * interval, which never leaves the range, claims more than the data hold.
 * For the median at 95% this is benchstat's n >= 6; at 95% the deciles 0.1
 * to 0.9 need 29, 14, 9, 7, 6, 7, 9, 14 and 29 values.
 *
 * Return: n, or 0 for an argument outside its range.
 */
size_t sp_shift_min_values(double q, double level);

/**
 * sp_shift_withhold - take every decile's interval and significance away
 * @sh: computed by sp_shift_compute()
 * @why: the reason, not %SP_SHIFT_SUPPORTED
 *
 * For a caller that resampled what cannot carry the comparison, e.g.
 * single waits of fewer than %SP_SHIFT_MIN_RUNS runs: the estimates stay.
 */
void sp_shift_withhold(struct sp_shift *sh, enum sp_shift_support why);

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
