/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CROSSINGS_H
#define SP_CROSSINGS_H

#include <stddef.h>
#include <stdint.h>

#define SP_CROSSINGS_MAX	8	/* crossings reported at most */
#define SP_CROSSINGS_HOLD	0.02	/* |F_a - F_b| that counts as a side */
#define SP_CROSSINGS_LO		0.05	/* only between these shares of the */
#define SP_CROSSINGS_HI		0.95	/* pooled samples of both */

/* Where the CDFs of two samples cross. */
struct sp_crossing {
	uint64_t at_ns;		/* the first value after which the sides changed */
	int below;		/* 0: a is faster below at_ns (its CDF above), 1: b */
};

/**
 * sp_cdf_crossings - where the empirical CDFs of two samples cross
 * @a: sorted ascending
 * @na: how many, >= 1
 * @b: sorted ascending
 * @nb: how many, >= 1
 * @out: room for %SP_CROSSINGS_MAX
 *
 * D(t) = F_a(t) - F_b(t) at every value t of either sample between the
 * %SP_CROSSINGS_LO and %SP_CROSSINGS_HI nearest-rank quantiles of both
 * pooled.  A side holds where |D| >= %SP_CROSSINGS_HOLD; D changing from
 * one held side to the other is a crossing, at the first t after the last
 * on the old side where D no longer had the old sign.  Wiggles that never
 * reach the other held side are none.
 *
 * Return: the number of crossings (at most %SP_CROSSINGS_MAX), 0 without
 * samples.
 */
size_t sp_cdf_crossings(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
			struct sp_crossing *out);

/* A sample given as runs, each sorted on its own (the runs of a group). */
struct sp_sorted_runs {
	const uint64_t *const *v;	/* run r's values, sorted ascending */
	const size_t *nr;		/* how many run r has (0 is fine) */
	size_t nr_runs;
};

/**
 * sp_cdf_crossings_runs - sp_cdf_crossings() of samples given as sorted runs
 * @a: the runs of the first sample
 * @b: the runs of the second
 * @out: room for %SP_CROSSINGS_MAX
 *
 * The same crossings as sp_cdf_crossings() of each sample's runs pooled
 * and sorted, without pooling them: the runs are walked in step, each run's
 * values scanned once, a heap step (logarithmic in the runs) per distinct
 * value of a run.
 *
 * Return: the number of crossings (0 without samples in either), or -ENOMEM.
 */
int sp_cdf_crossings_runs(const struct sp_sorted_runs *a, const struct sp_sorted_runs *b,
			  struct sp_crossing *out);

#endif /* SP_CROSSINGS_H */
