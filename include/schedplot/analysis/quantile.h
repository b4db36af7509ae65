/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_QUANTILE_H
#define SP_QUANTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Exact quantiles of a set of durations, from every sample: the
 * p-quantile of n sorted samples is the one at rank ceil(p * n), 1-based
 * (nearest rank, doc/design.md "Exact semantics").  p is given as a fraction
 * num/den so that the rank is computed in integers: 0.99 * 100 is not
 * 99 in floating point, and ceil() would make it 100.
 */
struct sp_samples {
	uint32_t *v;		/* the samples below 2^32 (4.29 s in ns) */
	size_t nr_v;
	size_t alloc_v;
	uint64_t *wide;		/* the others: rare, so kept apart at 8 bytes */
	size_t nr_wide;
	size_t alloc_wide;
	size_t nr;		/* nr_v + nr_wide */
	bool sorted;
};

/*
 * sp_samples_at - the sample of rank @i + 1 of sorted samples (i < nr):
 * every narrow sample is below every wide one, so the sorted order is v,
 * then wide.
 */
static inline uint64_t sp_samples_at(const struct sp_samples *s, size_t i)
{
	return i < s->nr_v ? s->v[i] : s->wide[i - s->nr_v];
}

/* What the text and JSON outputs print of a distribution. */
struct sp_summary {
	uint64_t n;
	uint64_t min, p50, p90, p99, p999, max;
	uint64_t mean;			/* rounded down */
};

/* sp_samples_add() of a wide sample or into a full array: out of line. */
int sp_samples_add_grow(struct sp_samples *s, uint64_t v);

/**
 * sp_samples_add - keep one sample
 * @s: the samples (zeroed before the first call)
 * @v: the value
 *
 * Inline: a sample below 2^32 with room for it is kept without a call.
 *
 * Return: 0, or -ENOMEM (@s is unchanged).
 */
static inline int sp_samples_add(struct sp_samples *s, uint64_t v)
{
	if (v > UINT32_MAX || s->nr_v == s->alloc_v)
		return sp_samples_add_grow(s, v);
	s->v[s->nr_v++] = (uint32_t)v;
	s->nr++;
	s->sorted = false;
	return 0;
}

/**
 * sp_samples_clear - forget every sample, keep the memory
 * @s: the samples
 */
void sp_samples_clear(struct sp_samples *s);

/**
 * sp_samples_sort - sort the samples, ascending
 * @s: the samples
 *
 * In place (most significant byte first, over the bytes in which the
 * values differ): no second copy, so the samples' memory is all it takes.
 *
 * Return: 0.
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
 * Return: 0.
 */
int sp_samples_summarize(struct sp_samples *s, struct sp_summary *sum);

/**
 * sp_samples_summarize_sets - the summary of several sets of samples as one
 * @sets: @nr_sets pointers to sorted samples
 * @nr_sets: how many
 * @sum: filled in (all zero without samples)
 *
 * Without joining them: each quantile is the least value that has enough
 * samples at or below it, found by bisection over the values, each count
 * by bisection in every set.  The numbers are those of the joined set.
 */
void sp_samples_summarize_sets(const struct sp_samples *const *sets, size_t nr_sets,
			       struct sp_summary *sum);

/**
 * sp_samples_merge - move sorted samples into other sorted samples
 * @dst: sorted samples; gets those of @src, sorted
 * @src: sorted samples; released
 *
 * The larger array is grown and the other merged into it from the back:
 * memory at most the two sets and the smaller one again.
 *
 * Return: 0, or -ENOMEM (both unchanged).
 */
int sp_samples_merge(struct sp_samples *dst, struct sp_samples *src);

/**
 * sp_samples_summary - the same as sp_samples_summarize(), without sorting
 * @s: the samples; reordered (left unsorted) unless they are sorted
 * @sum: filled in (all zero without samples)
 *
 * Each quantile is selected in place, in time linear in the samples and
 * without a second copy: for a summary alone, a few times cheaper than the
 * sort.  The numbers are the same.
 *
 * Return: 0.
 */
int sp_samples_summary(struct sp_samples *s, struct sp_summary *sum);

/**
 * sp_samples_release - free the samples
 * @s: the samples (zeroed after)
 */
void sp_samples_release(struct sp_samples *s);

#endif /* SP_QUANTILE_H */
