/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_QUANTILE_H
#define SP_QUANTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Exact quantiles of a set of durations, from every sample: the
 * p-quantile of n sorted samples is the one at rank ceil(p * n), 1-based
 * (nearest rank, DESIGN.md "Exact semantics").  p is given as a fraction
 * num/den so that the rank is computed in integers: 0.99 * 100 is not
 * 99 in floating point, and ceil() would make it 100.
 */
struct sp_samples {
	uint64_t *v;
	size_t nr;
	size_t alloc;
	bool sorted;
};

/* What the text and JSON outputs print of a distribution. */
struct sp_summary {
	uint64_t n;
	uint64_t min, p50, p90, p99, p999, max;
	uint64_t mean;			/* rounded down */
};

/**
 * sp_samples_add - keep one sample
 * @s: the samples (zeroed before the first call)
 * @v: the value
 *
 * Return: 0, or -ENOMEM (@s is unchanged).
 */
int sp_samples_add(struct sp_samples *s, uint64_t v);

/**
 * sp_samples_sort - sort the samples, ascending
 * @s: the samples
 *
 * Least significant digit first (11 bits), only over the digits in which
 * the values differ; needs room for a second copy while it runs.
 *
 * Return: 0, or -ENOMEM (then the samples are sorted with qsort() instead).
 */
int sp_samples_sort(struct sp_samples *s);

/**
 * sp_samples_quantile - the nearest-rank quantile num/den of sorted samples
 * @s: sorted samples
 * @num: numerator of p (0 <= num <= den)
 * @den: denominator of p, not 0
 *
 * Return: the sample at rank ceil(num * n / den), the smallest for p = 0;
 * 0 when there are no samples.
 */
uint64_t sp_samples_quantile(const struct sp_samples *s, uint64_t num, uint64_t den);

/**
 * sp_samples_summarize - n, min, p50, p90, p99, p99.9, max and mean
 * @s: the samples; sorted here when they are not yet
 * @sum: filled in (all zero without samples)
 *
 * Return: 0, or -ENOMEM from the sort (@sum is filled in anyway).
 */
int sp_samples_summarize(struct sp_samples *s, struct sp_summary *sum);

/**
 * sp_samples_summary - the same as sp_samples_summarize(), without sorting
 * @s: the samples; reordered (left unsorted) unless they are sorted
 * @sum: filled in (all zero without samples)
 *
 * Each quantile is selected in place, in time linear in the samples and
 * without a second copy: for a summary alone, a few times cheaper than the
 * sort.  The numbers are the same.
 *
 * Return: 0, or -ENOMEM when it had to sort and the sort fell back to qsort().
 */
int sp_samples_summary(struct sp_samples *s, struct sp_summary *sum);

/**
 * sp_samples_release - free the samples
 * @s: the samples (zeroed after)
 */
void sp_samples_release(struct sp_samples *s);

#endif /* SP_QUANTILE_H */
