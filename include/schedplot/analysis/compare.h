/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_COMPARE_H
#define SP_COMPARE_H

/*
 * The statistics of schedplot compare: two groups of runs, before and after
 * a change.  Each group is summarised (sp_summary), the groups are tested
 * against each other (mannwhitney.h) and their deciles compared (shift.h).
 * Pure computation: doubles in, plain structs out, nothing printed.
 */
#include <stdbool.h>
#include <stddef.h>

#include "schedplot/analysis/hdquantile.h"
#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"

/* The confidence asked of the interval of the median. */
#define SP_SUMMARY_CI_LEVEL	0.95

/* One group: one value per run. */
struct sp_runs_summary {
	size_t nr;
	double median;		/* mean of the middle two for an even count */
	bool has_ci;		/* false below 6 values: no interval reaches 95% */
	double ci_lo;		/* x(k) of the sorted values (1-based) */
	double ci_hi;		/* x(nr - k + 1) */
	double ci_level;	/* its exact coverage, >= SP_SUMMARY_CI_LEVEL */
	double mean;
	double sd;		/* with nr - 1; NaN for one value */
	double cv;		/* sd / mean; NaN when mean is 0 or sd is NaN */
	double min;
	double max;
};

/**
 * sp_runs_summary_compute - summarise one group of values
 * @s: the summary
 * @x: @nr values in any order; not changed
 * @nr: how many, >= 1
 *
 * The interval of the median is distribution-free: [x(k), x(n-k+1)] for
 * the largest k with P(k <= B <= n-k) >= 0.95, B ~ Binomial(n, 1/2), the
 * number of values below the true median.  @s->ci_level is that
 * probability.  With fewer than 6 values even [min, max] covers less than
 * 95% (5 values: 93.75%), so @s->has_ci is false and the bounds are NaN.
 *
 * Return: 0, -EINVAL for no values or one not finite (NaN, infinity), or
 * -ENOMEM.
 */
int sp_runs_summary_compute(struct sp_runs_summary *s, const double *x, size_t nr);

#endif /* SP_COMPARE_H */
