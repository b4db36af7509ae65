// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary of a group (median and its order-statistic interval against
 * benchstat's tests and a published table), the generator (against the
 * reference splitmix64) and the shift function (its properties: identical
 * groups, a constant shift, seeds, runs as clusters).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/compare.h"
#include "schedplot/analysis/crossings.h"
#include "schedplot/analysis/rng.h"
#include "schedplot/analysis/spearman.h"
#include "schedplot/analysis/superiority.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/model/model.h"

static void close_to(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (tolerance %g)", what, got, want, tol);
}

/*
 * benchstat's TestSummaryNone (golang.org/x/perf, benchmath/
 * assumption_test.go): {-10, 2, 3, 4, 5, 6} at 0.95 has the center 3.5 and
 * the interval [-10, 6] at confidence 1 - 0.03125; below 6 values there is
 * none ("need >= 6 samples for confidence interval at level 0.95").
 */
static void test_summary_benchstat(void **state)
{
	static const double x[] = { 6, -10, 4, 2, 5, 3 };
	struct sp_runs_summary s;

	assert_int_equal(sp_runs_summary_compute(&s, x, 6), 0);
	assert_int_equal(s.nr, 6);
	close_to(s.median, 3.5, 0, "median");
	assert_true(s.has_ci);
	close_to(s.ci_lo, -10, 0, "ci_lo");
	close_to(s.ci_hi, 6, 0, "ci_hi");
	close_to(s.ci_level, 1 - 0.03125, 1e-15, "ci_level");
	close_to(s.min, -10, 0, "min");
	close_to(s.max, 6, 0, "max");
	assert_int_equal(sp_runs_summary_compute(&s, x, 5), 0);
	assert_false(s.has_ci);
	assert_true(isnan(s.ci_lo) && isnan(s.ci_hi));
	close_to(s.median, 4, 0, "median of 5");
}

/*
 * "Table A.7: Confidence Intervals for the Population Median" (a textbook
 * table, https://www.coursehero.com/file/5646626/A7/): for each n the
 * narrowest interval [x(k), x(n-k+1)] listed at 95% or more, with its
 * level in percent.  n = 5: [x(1), x(5)] covers 93.8% only.
 */
static void test_summary_table(void **state)
{
	static const struct {
		int n, k;
		double level_pct;
	} table[] = {
		{ 6, 1, 96.9 },  { 7, 1, 98.4 },  { 8, 1, 99.2 },  { 9, 2, 96.1 },
		{ 10, 2, 97.9 }, { 11, 2, 98.8 }, { 12, 3, 96.1 }, { 13, 3, 97.8 },
		{ 14, 3, 98.7 }, { 15, 4, 96.5 }, { 16, 4, 97.9 }, { 17, 5, 95.1 },
		{ 18, 5, 96.9 }, { 19, 5, 98.1 }, { 20, 6, 95.9 },
	};
	double x[20];
	struct sp_runs_summary s;

	for (size_t t = 0; t < sizeof(table) / sizeof(table[0]); t++) {
		int n = table[t].n;

		/* the values 1..n in a scrambled order: x(k) = k */
		for (int i = 0; i < n; i++)
			x[i] = (i * 23) % n + 1;
		assert_int_equal(sp_runs_summary_compute(&s, x, n), 0);
		assert_true(s.has_ci);
		close_to(s.ci_lo, table[t].k, 0, "x(k)");
		close_to(s.ci_hi, n - table[t].k + 1, 0, "x(n-k+1)");
		close_to(round(s.ci_level * 1000) / 10, table[t].level_pct, 1e-9, "level");
		close_to(s.median, (n + 1) / 2.0, 0, "median");
	}
	for (int n = 1; n <= 5; n++) {
		assert_int_equal(sp_runs_summary_compute(&s, x, n), 0);
		assert_false(s.has_ci);
	}
}

/*
 * The usual example of a standard deviation, 2 4 4 4 5 5 7 9: mean 5,
 * sum of squared deviations 32, so sd (n - 1) = sqrt(32 / 7).
 */
static void test_summary_moments(void **state)
{
	static const double x[] = { 9, 4, 2, 4, 5, 4, 7, 5 };
	struct sp_runs_summary s;
	double one = 42;

	assert_int_equal(sp_runs_summary_compute(&s, x, 8), 0);
	close_to(s.mean, 5, 0, "mean");
	close_to(s.sd, sqrt(32.0 / 7), 1e-15, "sd");
	close_to(s.cv, sqrt(32.0 / 7) / 5, 1e-15, "cv");
	close_to(s.median, 4.5, 0, "median");
	close_to(s.min, 2, 0, "min");
	close_to(s.max, 9, 0, "max");
	assert_int_equal(sp_runs_summary_compute(&s, &one, 1), 0);
	close_to(s.median, 42, 0, "median of one");
	assert_true(isnan(s.sd) && isnan(s.cv));
	assert_int_equal(sp_runs_summary_compute(&s, x, 0), -EINVAL);
	one = NAN;
	assert_int_equal(sp_runs_summary_compute(&s, &one, 1), -EINVAL);
	one = -INFINITY;
	assert_int_equal(sp_runs_summary_compute(&s, &one, 1), -EINVAL);
}

/*
 * The state after seeding with 0 is the first four outputs of splitmix64
 * from 0, as published with it (Vigna, prng.di.unimi.it/splitmix64.c).
 */
static void test_rng(void **state)
{
	struct sp_rng r, r2;
	uint64_t counts[6] = { 0 };

	sp_rng_init(&r, 0);
	assert_true(r.s[0] == 0xe220a8397b1dcdafull);
	assert_true(r.s[1] == 0x6e789e6aa1b965f4ull);
	assert_true(r.s[2] == 0x06c45d188009454full);
	assert_true(r.s[3] == 0xf88bb8a8724c81ecull);
	sp_rng_init(&r, 12345);
	sp_rng_init(&r2, 12345);
	for (int i = 0; i < 1000; i++)
		assert_true(sp_rng_next(&r) == sp_rng_next(&r2));
	for (int i = 0; i < 60000; i++)
		counts[sp_rng_below(&r, 6)]++;
	for (int i = 0; i < 6; i++)
		assert_true(counts[i] > 9500 && counts[i] < 10500);
	assert_true(sp_rng_below(&r, 1) == 0);
}

/* log-normal values, latencies of a sort, from the generator */
static void lognormal(double *x, size_t n, double mu, double sigma, uint64_t seed)
{
	struct sp_rng r;

	sp_rng_init(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double u1 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
		double u2 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;

		x[i] = exp(mu + sigma * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
	}
}

#define NR_RUNS		6
#define RUN_LEN		40

static double va[NR_RUNS * RUN_LEN], vb[NR_RUNS * RUN_LEN];

static void make_group(struct sp_shift_group *g, struct sp_shift_run *runs, const double *v)
{
	for (int i = 0; i < NR_RUNS; i++)
		runs[i] = (struct sp_shift_run){ .v = v + i * RUN_LEN, .nr = RUN_LEN };
	*g = (struct sp_shift_group){ .runs = runs, .nr_runs = NR_RUNS };
}

/* identical groups: every difference is 0, inside its interval, not significant */
static void test_shift_identical(void **state)
{
	struct sp_shift_run ra[NR_RUNS];
	struct sp_shift_group ga;
	struct sp_shift sh;

	lognormal(va, NR_RUNS * RUN_LEN, 0, 0.5, 1);
	make_group(&ga, ra, va);
	for (int mode = SP_SHIFT_VALUES; mode <= SP_SHIFT_RUNS; mode++) {
		assert_int_equal(sp_shift_compute(&sh, &ga, &ga, mode, SP_SHIFT_NR_BOOT, 7), 0);
		assert_int_equal(sh.nr_a, NR_RUNS * RUN_LEN);
		for (int d = 0; d < SP_NR_DECILES; d++) {
			close_to(sh.dec[d].q, (d + 1) / 10.0, 1e-15, "q");
			close_to(sh.dec[d].diff, 0, 0, "diff");
			assert_true(sh.dec[d].ci_lo <= 0 && 0 <= sh.dec[d].ci_hi);
			assert_false(sh.dec[d].significant);
		}
	}
}

/*
 * B = A + c: Harrell-Davis is equivariant, so every decile moves by c; the
 * intervals hold c, and a shift far above the spread is significant at
 * every decile.  Hochberg hands out 0.05/1 .. 0.05/9 once each.
 */
static void test_shift_constant(void **state)
{
	const double c = 0.75;
	struct sp_shift_run ra[NR_RUNS], rb[NR_RUNS];
	struct sp_shift_group ga, gb;
	struct sp_shift sh;
	double alpha_sum = 0;

	lognormal(va, NR_RUNS * RUN_LEN, 0, 0.25, 2);
	for (int i = 0; i < NR_RUNS * RUN_LEN; i++)
		vb[i] = va[i] + c;
	make_group(&ga, ra, va);
	make_group(&gb, rb, vb);
	assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_VALUES, SP_SHIFT_NR_BOOT, 3), 0);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		close_to(sh.dec[d].diff, c, 1e-12, "diff of A + c");
		close_to(sh.dec[d].b, sh.dec[d].a + c, 1e-12, "decile of A + c");
		assert_true(sh.dec[d].ci_lo <= c && c <= sh.dec[d].ci_hi);
		assert_true(sh.dec[d].ci_lo > 0);
		assert_true(sh.dec[d].significant);
		alpha_sum += 0.05 / sh.dec[d].alpha;
	}
	close_to(alpha_sum, 45, 1e-9, "alphas 0.05/1 .. 0.05/9");
}

/* the same seed gives the same bytes; another seed, nearly the same intervals */
static void test_shift_seed(void **state)
{
	struct sp_shift_run ra[NR_RUNS], rb[NR_RUNS];
	struct sp_shift_group ga, gb;
	struct sp_shift s1, s2, s3;

	lognormal(va, NR_RUNS * RUN_LEN, 0, 0.5, 4);
	lognormal(vb, NR_RUNS * RUN_LEN, 0.1, 0.5, 5);
	make_group(&ga, ra, va);
	make_group(&gb, rb, vb);
	for (int mode = SP_SHIFT_VALUES; mode <= SP_SHIFT_RUNS; mode++) {
		double moved = 0;

		assert_int_equal(sp_shift_compute(&s1, &ga, &gb, mode, SP_SHIFT_NR_BOOT, 99), 0);
		assert_int_equal(sp_shift_compute(&s2, &ga, &gb, mode, SP_SHIFT_NR_BOOT, 99), 0);
		assert_memory_equal(&s1, &s2, sizeof(s1));
		assert_int_equal(sp_shift_compute(&s3, &ga, &gb, mode, SP_SHIFT_NR_BOOT, 100), 0);
		for (int d = 0; d < SP_NR_DECILES; d++) {
			/* the bounds move by at most 7% of the width here */
			double tol = 0.2 * (s1.dec[d].ci_hi - s1.dec[d].ci_lo);

			close_to(s3.dec[d].diff, s1.dec[d].diff, 0, "estimate, other seed");
			close_to(s3.dec[d].ci_lo, s1.dec[d].ci_lo, tol, "ci_lo, other seed");
			close_to(s3.dec[d].ci_hi, s1.dec[d].ci_hi, tol, "ci_hi, other seed");
			moved += fabs(s3.dec[d].ci_lo - s1.dec[d].ci_lo);
		}
		assert_true(moved > 0);
	}
}

/*
 * Runs of unequal length, so resamples differ in size: the shift function
 * estimates them in the order of their sizes, which must give bit for bit
 * what drawing and estimating one resample after the other gives.  Three
 * resamples: the intervals are then the least and the largest difference.
 */
static void test_shift_runs_by_size(void **state)
{
	static const size_t len[NR_RUNS] = { 3, 40, 17, 1, 29, 8 };
	struct sp_shift_run ra[NR_RUNS], rb[NR_RUNS];
	struct sp_shift_group ga = { ra, NR_RUNS }, gb = { rb, NR_RUNS };
	double lo[SP_NR_DECILES], hi[SP_NR_DECILES], buf[NR_RUNS * RUN_LEN];
	const struct sp_shift_group *g[2] = { &ga, &gb };
	struct sp_shift sh;
	struct sp_rng rng;

	lognormal(va, NR_RUNS * RUN_LEN, 0, 0.5, 8);
	lognormal(vb, NR_RUNS * RUN_LEN, 0.2, 0.5, 9);
	for (int r = 0; r < NR_RUNS; r++) {
		ra[r] = (struct sp_shift_run){ .v = va + r * RUN_LEN, .nr = len[r] };
		rb[r] = (struct sp_shift_run){ .v = vb + r * RUN_LEN, .nr = len[NR_RUNS - 1 - r] };
	}
	assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_RUNS, 3, 11), 0);

	sp_rng_init(&rng, 11);
	for (int i = 0; i < 3; i++) {
		double est[2][SP_NR_DECILES];

		for (int k = 0; k < 2; k++) {
			size_t count[NR_RUNS] = { 0 }, n = 0;

			for (int r = 0; r < NR_RUNS; r++)
				count[sp_rng_below(&rng, NR_RUNS)]++;
			for (int r = 0; r < NR_RUNS; r++)
				for (size_t c = 0; c < count[r]; c++)
					for (size_t j = 0; j < g[k]->runs[r].nr; j++)
						buf[n++] = g[k]->runs[r].v[j];
			assert_int_equal(sp_hdquantile_deciles(buf, n, est[k]), 0);
		}
		for (int d = 0; d < SP_NR_DECILES; d++) {
			double diff = est[1][d] - est[0][d];

			lo[d] = i == 0 || diff < lo[d] ? diff : lo[d];
			hi[d] = i == 0 || diff > hi[d] ? diff : hi[d];
		}
	}
	for (int d = 0; d < SP_NR_DECILES; d++) {
		close_to(sh.dec[d].ci_lo, lo[d], 0, "least difference, resample by resample");
		close_to(sh.dec[d].ci_hi, hi[d], 0, "largest difference, resample by resample");
	}
}

/*
 * Runs as clusters: when the runs of a group sit at different levels, the
 * values of one run are not independent and resampling whole runs gives
 * wider intervals than resampling single values.
 */
static void test_shift_runs(void **state)
{
	struct sp_shift_run ra[NR_RUNS], rb[NR_RUNS];
	struct sp_shift_group ga, gb;
	struct sp_shift sv, sr;

	lognormal(va, NR_RUNS * RUN_LEN, 0, 0.1, 6);
	lognormal(vb, NR_RUNS * RUN_LEN, 0, 0.1, 7);
	for (int i = 0; i < NR_RUNS * RUN_LEN; i++) {
		va[i] += 0.5 * (i / RUN_LEN);
		vb[i] += 0.5 * ((i / RUN_LEN + 3) % NR_RUNS);
	}
	make_group(&ga, ra, va);
	make_group(&gb, rb, vb);
	assert_int_equal(sp_shift_compute(&sv, &ga, &gb, SP_SHIFT_VALUES, SP_SHIFT_NR_BOOT, 1), 0);
	assert_int_equal(sp_shift_compute(&sr, &ga, &gb, SP_SHIFT_RUNS, SP_SHIFT_NR_BOOT, 1), 0);
	for (int d = 0; d < SP_NR_DECILES; d++) {
		close_to(sr.dec[d].diff, sv.dec[d].diff, 0, "same estimate");
		assert_true(sr.dec[d].ci_hi - sr.dec[d].ci_lo > sv.dec[d].ci_hi - sv.dec[d].ci_lo);
	}
	/* runs of different lengths: the weights are cached by size */
	ra[2].nr = 5;
	rb[4].nr = 17;
	assert_int_equal(sp_shift_compute(&sr, &ga, &gb, SP_SHIFT_RUNS, 500, 1), 0);
	assert_int_equal(sr.nr_a, (NR_RUNS - 1) * RUN_LEN + 5);
}

/*
 * Hochberg's procedure by hand.  {0.01, 0.02, 0.03, 0.04, 0.05} at 0.05:
 * the largest is at its level 0.05/1, so all five are rejected (Holm's
 * step-down would stop at 0.02 > 0.05/4).  {0.06, 0.04, 0.02, 0.009}: only
 * 0.009 <= 0.05/4.  {0.045, 0.03}: 0.045 <= 0.05 rejects 0.03 > 0.05/2 too.
 */
static void test_hochberg(void **state)
{
	static const double p1[] = { 0.03, 0.01, 0.05, 0.02, 0.04 };
	static const double p2[] = { 0.04, 0.06, 0.009, 0.02 };
	static const double p3[] = { 0.03, 0.045 }, p4[] = { 0.5, 0.2, 0.5 };
	double a[5];
	bool sig[5];

	assert_int_equal(sp_hochberg_adjust(p1, 5, 0.05, a, sig), 0);
	for (int i = 0; i < 5; i++) {
		assert_true(sig[i]);
		close_to(a[i], 0.05 / (5 - (int)round(p1[i] * 100) + 1), 1e-15, "alpha of p1");
	}
	assert_int_equal(sp_hochberg_adjust(p2, 4, 0.05, a, sig), 0);
	assert_false(sig[0] || sig[1] || sig[3]);
	assert_true(sig[2]);
	close_to(a[1], 0.05, 0, "largest");
	close_to(a[0], 0.025, 0, "second");
	close_to(a[3], 0.05 / 3, 0, "third");
	close_to(a[2], 0.0125, 0, "smallest");
	assert_int_equal(sp_hochberg_adjust(p3, 2, 0.05, a, sig), 0);
	assert_true(sig[0] && sig[1]);
	close_to(a[0], 0.025, 0, "step-up");
	/* equal p values keep their order */
	assert_int_equal(sp_hochberg_adjust(p4, 3, 0.05, a, sig), 0);
	close_to(a[0], 0.05, 0, "first of equals");
	close_to(a[2], 0.025, 0, "second of equals");
	close_to(a[1], 0.05 / 3, 0, "smallest");
	assert_int_equal(sp_hochberg_adjust(p4, 0, 0.05, a, sig), -EINVAL);
	assert_int_equal(sp_hochberg_adjust(p4, 3, 0, a, sig), -EINVAL);
}


/*
 * The smallest sample a decile's interval rests on: 1 - q^n - (1-q)^n >=
 * 0.95, the coverage of the range [x(1), x(n)] (David and Nagaraja, Order
 * Statistics, 3rd ed., 7.1).  For the median that is benchstat's n >= 6
 * (five values cover it with 1 - 2/32 = 0.9375); for 0.1, 0.9^28 = 0.0523
 * is too much, 0.9^29 = 0.0471 is not.
 */
static void test_shift_min_values(void **state)
{
	const size_t want[SP_NR_DECILES] = { 29, 14, 9, 7, 6, 7, 9, 14, 29 };

	(void)state;
	for (int d = 0; d < SP_NR_DECILES; d++)
		assert_int_equal(sp_shift_min_values((d + 1) / 10.0, 0.95), want[d]);
	assert_int_equal(sp_shift_min_values(0.5, 0.9), 5);	/* 1 - 2/16 = 0.875 < 0.9 */
	assert_int_equal(sp_shift_min_values(0, 0.95), 0);
	assert_int_equal(sp_shift_min_values(0.5, 1), 0);
}

/*
 * 1 vs 1, 3 vs 3 and 10 vs 10 values, clearly apart: no decile the sample
 * cannot carry has an interval, a p value or significance; the estimates
 * stay.  Four runs a side resampled whole: none has.  Five: all have.
 */
static void test_shift_tiny(void **state)
{
	double lo[10], hi[10];
	struct sp_shift_run ra, rb, runs_a[5], runs_b[5];
	struct sp_shift_group ga = { &ra, 1 }, gb = { &rb, 1 };
	struct sp_shift sh;
	size_t n;
	int d;

	(void)state;
	for (int i = 0; i < 10; i++) {
		lo[i] = i + 1;
		hi[i] = i + 101;
	}
	for (n = 1; n <= 10; n += n == 1 ? 2 : 7) {
		ra = (struct sp_shift_run){ lo, n };
		rb = (struct sp_shift_run){ hi, n };
		assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_VALUES, 2000, 1), 0);
		for (d = 0; d < SP_NR_DECILES; d++) {
			const struct sp_shift_decile *dec = &sh.dec[d];
			bool small = n < sp_shift_min_values(dec->q, 0.95);

			close_to(dec->diff, 100, 1e-9, "the estimate stays");
			assert_int_equal(dec->support, small ? SP_SHIFT_FEW_VALUES : SP_SHIFT_SUPPORTED);
			if (small) {
				assert_false(dec->significant);
				assert_true(isnan(dec->ci_lo) && isnan(dec->ci_hi) && isnan(dec->p));
			} else {
				/* 10 vs 10, 100 apart: the middle deciles are */
				assert_true(dec->significant && dec->ci_lo > 0);
			}
		}
	}
	/* 10 values: deciles 0.3 .. 0.7 only */
	for (d = 0; d < SP_NR_DECILES; d++)
		assert_int_equal(sh.dec[d].support == SP_SHIFT_SUPPORTED, d >= 2 && d <= 6);

	for (int r = 0; r < 5; r++) {
		runs_a[r] = (struct sp_shift_run){ lo + 2 * r, 2 };
		runs_b[r] = (struct sp_shift_run){ hi + 2 * r, 2 };
	}
	ga = (struct sp_shift_group){ runs_a, 4 };
	gb = (struct sp_shift_group){ runs_b, 4 };
	assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_RUNS, 2000, 1), 0);
	for (d = 0; d < SP_NR_DECILES; d++) {
		assert_int_equal(sh.dec[d].support, SP_SHIFT_FEW_RUNS);
		assert_false(sh.dec[d].significant);
		assert_true(isnan(sh.dec[d].ci_lo));
	}
	ga.nr_runs = gb.nr_runs = 5;
	assert_int_equal(sp_shift_compute(&sh, &ga, &gb, SP_SHIFT_RUNS, 2000, 1), 0);
	for (d = 0; d < SP_NR_DECILES; d++)
		assert_int_equal(sh.dec[d].support, SP_SHIFT_SUPPORTED);
	sp_shift_withhold(&sh, SP_SHIFT_FEW_RUNS);
	for (d = 0; d < SP_NR_DECILES; d++)
		assert_true(!sh.dec[d].significant && isnan(sh.dec[d].p) && !isnan(sh.dec[d].diff));
}

/*
 * P(B > A): statpsych's ci.mann example (y1 = A, y2 = B) gives 0.795.  Its
 * standard error is checked against SciPy's scipy.stats.brunnermunzel
 * example, whose statistic is (p - 1/2) / se with this se: x = 1 2 1 1 1
 * 1 1 1 1 1 2 4 1 1, y = 3 3 4 3 1 2 3 1 1 5 4 give 3.1374674823029505.
 * (statpsych prints se 0.1401834 and [0.5202, 1] for its example, but
 * takes the ranks in the order the values were typed: reversing y1 gives
 * 0.1397; the placements, sorted, give 0.1030 whatever the order.)
 */
static void test_superiority(void **state)
{
	const double y1[] = { 32, 39, 26, 35, 43, 27, 40, 37, 34, 29 };
	const double y2[] = { 36, 44, 47, 42, 49, 39, 46, 31, 33, 48 };
	const double x[] = { 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1 };
	const double y[] = { 3, 3, 4, 3, 1, 2, 3, 1, 1, 5, 4 };
	double r1[10], shifted[10];
	struct sp_superiority s, t;

	(void)state;
	close_to(sp_normal_quantile(0.975), 1.959963984540054, 1e-15, "z 0.975");
	close_to(sp_normal_quantile(0.5), 0, 1e-15, "z 0.5");
	assert_true(isnan(sp_normal_quantile(1)));

	assert_int_equal(sp_superiority_compute(&s, y1, 10, y2, 10, 0.95), 0);
	close_to(s.p, 0.795, 1e-15, "statpsych ci.mann estimate");
	assert_true(s.has_ci);
	close_to(s.ci_lo, 0.795 - 1.959963984540054 * s.se, 1e-15, "lower: p - z se");
	close_to(s.ci_hi, 0.795 + 1.959963984540054 * s.se, 1e-15, "upper: p + z se");
	close_to(s.se, 0.10298327803850271, 1e-15, "Sen's se, sorted placements");

	assert_int_equal(sp_superiority_compute(&s, x, 14, y, 11, 0.95), 0);
	close_to((s.p - 0.5) / s.se, 3.1374674823029505, 1e-12, "scipy brunnermunzel statistic");

	/* the order of the values changes nothing */
	for (int i = 0; i < 10; i++)
		r1[i] = y1[9 - i];
	assert_int_equal(sp_superiority_compute(&t, r1, 10, y2, 10, 0.95), 0);
	assert_int_equal(sp_superiority_compute(&s, y1, 10, y2, 10, 0.95), 0);
	close_to(t.se, s.se, 0, "reversed A: the same se");
	/* identical groups: one half, an interval around it */
	assert_int_equal(sp_superiority_compute(&s, y1, 10, y1, 10, 0.95), 0);
	close_to(s.p, 0.5, 0, "identical groups");
	assert_true(s.has_ci && s.ci_lo < 0.5 && s.ci_hi > 0.5);
	/* B shifted above every A: 1, and no interval of width 0 */
	for (int i = 0; i < 10; i++)
		shifted[i] = y1[i] + 100;
	assert_int_equal(sp_superiority_compute(&s, y1, 10, shifted, 10, 0.95), 0);
	close_to(s.p, 1, 0, "B above every A");
	assert_false(s.has_ci);
	assert_true(isnan(s.ci_lo));
	/* and the other way round */
	assert_int_equal(sp_superiority_compute(&s, shifted, 10, y1, 10, 0.95), 0);
	close_to(s.p, 0, 0, "B below every A");
	/* one value a group: no se */
	assert_int_equal(sp_superiority_compute(&s, y1, 1, y2, 1, 0.95), 0);
	assert_false(s.has_ci);
	assert_int_equal(sp_superiority_compute(&s, y1, 0, y2, 1, 0.95), -EINVAL);
	assert_int_equal(sp_superiority_compute(&s, y1, 1, y2, 1, 1), -EINVAL);
}

/*
 * MSER (White 1997) on series whose change point is known: a step of
 * height 9 after 20 of 100 values is cut at 20 exactly; with Gaussian
 * noise of sd 1 (seeded), never before the step and at most 3 values
 * after it (it may drop a few noisy values of the steady state too); a
 * series that never moves is not cut; noise alone is cut early if at
 * all; scaling and shifting a series moves no cut.
 */
static void test_mser(void **state)
{
	double x[100];
	struct sp_rng r;
	size_t d;

	(void)state;
	for (int i = 0; i < 100; i++)
		x[i] = i < 20 ? 10 : 1;
	assert_int_equal(sp_mser(x, 100), 20);
	for (int i = 0; i < 100; i++)
		x[i] = 5;
	assert_int_equal(sp_mser(x, 100), 0);
	sp_rng_init(&r, 42);
	for (int k = 5; k <= 40; k += 5) {
		for (int i = 0; i < 100; i++) {
			double u1 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
			double u2 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;

			x[i] = (i < k ? 10 : 1) + sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		}
		d = sp_mser(x, 100);
		assert_true(d >= (size_t)k && d <= (size_t)k + 3);
	}
	for (int i = 0; i < 100; i++) {
		double u1 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
		double u2 = ((double)(sp_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;

		x[i] = 1 + sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
	}
	assert_true(sp_mser(x, 100) <= 20);
	/* the warm-up falls with a constant added or the series scaled */
	for (int i = 0; i < 100; i++)
		x[i] = (i < 30 ? 4 : 1) * 1e6 + 1e9;
	assert_int_equal(sp_mser(x, 100), 30);
	assert_int_equal(sp_mser(x, 3), 0);
}

/*
 * A run of 1 s: 4 tasks running and 3 waiting for its first 200 ms, then
 * 2 and 0; wakeup latencies of 1 ms then 10 us.  Its 50 windows of 20 ms
 * settle at window 10, 200 ms, by every series.
 */
static void test_warmup(void **state)
{
	struct sp_step steps[] = {
		{ 1000000000ull, 4, 3 }, { 1200000000ull, 2, 0 },
	};
	struct sp_warmup w;

	(void)state;
	assert_int_equal(sp_warmup_init(&w, 1000000000ull, 2000000000ull, 50), 0);
	sp_warmup_steps(&w, steps, 2);
	for (uint64_t t = 1000000000ull; t < 2000000000ull; t += 1000000)
		sp_warmup_wait(&w, t, t < 1200000000ull ? 1000000 : 10000);
	sp_warmup_wait(&w, 500, 7);	/* before the window: left out */
	assert_int_equal(sp_warmup_finish(&w), 0);
	close_to(w.series[SP_WARMUP_RUNNING][0], 4, 1e-12, "running, first window");
	close_to(w.series[SP_WARMUP_RUNNING][49], 2, 1e-12, "running, last window");
	close_to(w.series[SP_WARMUP_WAITING][9], 3, 1e-12, "waiting before 200 ms");
	close_to(w.series[SP_WARMUP_LATENCY][10], 10000, 0, "latency after 200 ms");
	for (int s = 0; s < SP_WARMUP_NR_SERIES; s++)
		assert_int_equal(w.settled[s], 10);
	assert_int_equal(w.end, 10);
	assert_int_equal(w.end_ns, 200000000ull);
	/* restarted: a steady run has no warm-up */
	sp_warmup_reset(&w);
	steps[0] = (struct sp_step){ 1000000000ull, 2, 1 };
	sp_warmup_steps(&w, steps, 1);
	assert_int_equal(sp_warmup_finish(&w), 0);
	assert_int_equal(w.end_ns, 0);
	sp_warmup_release(&w);
	assert_int_equal(sp_warmup_init(&w, 5, 5, 50), -EINVAL);
	sp_warmup_release(&w);
}

/*
 * Spearman's rho and its p: SciPy's scipy.stats.spearmanr example, x = 1
 * 2 3 4 5 and y = 5 6 7 8 7, gives 0.8207826816681233 and p =
 * 0.08858700531354381; reversed y gives -rho and the same p; a monotone
 * transform changes nothing; no spread gives p = 1.
 */
static void test_spearman(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 5, 6, 7, 8, 7 };
	double ny[5], ex[5], rho, p, rho2, p2, flat[5] = { 3, 3, 3, 3, 3 };

	(void)state;
	assert_int_equal(sp_spearman(x, y, 5, false, &rho, &p), 0);
	close_to(rho, 0.8207826816681233, 1e-14, "scipy spearmanr rho");
	close_to(p, 0.08858700531354381, 1e-12, "scipy spearmanr p");
	for (int i = 0; i < 5; i++) {
		ny[i] = -y[i];
		ex[i] = exp(x[i]);
	}
	assert_int_equal(sp_spearman(x, ny, 5, false, &rho2, &p2), 0);
	close_to(rho2, -rho, 1e-15, "reversed");
	close_to(p2, p, 1e-15, "reversed p");
	assert_int_equal(sp_spearman(ex, y, 5, false, &rho2, &p2), 0);
	close_to(rho2, rho, 0, "monotone transform");
	assert_int_equal(sp_spearman(x, x, 5, false, &rho2, &p2), 0);
	close_to(rho2, 1, 0, "identical");
	close_to(p2, 0, 0, "identical p");
	assert_int_equal(sp_spearman(x, flat, 5, false, &rho2, &p2), 0);
	assert_true(isnan(rho2));
	close_to(p2, 1, 0, "no spread");
	assert_int_equal(sp_spearman(x, y, 2, false, &rho2, &p2), -EINVAL);
	/*
	 * exact: of the 120 orders of five ranks, only the same order and its
	 * reverse reach |rho| = 1: p = 2/120; the SciPy example's rho 0.82 is
	 * reached by 16 of the 120 (enumerated in Python: |sum of products of
	 * the midranks' deviations| >= 8, the two 7s counted as two values)
	 */
	assert_int_equal(sp_spearman(x, x, 5, true, &rho2, &p2), 0);
	close_to(p2, 2.0 / 120, 1e-15, "exact p of rho 1, n 5");
	assert_int_equal(sp_spearman(x, y, 5, true, &rho2, &p2), 0);
	close_to(rho2, 0.8207826816681233, 1e-14, "exact: the same rho");
	close_to(p2, 16.0 / 120, 1e-15, "exact p of the SciPy example");
}

static void test_shift_errors(void **state)
{
	double nan_v[2] = { 1, NAN }, one = 1;
	struct sp_shift_run r1 = { .v = &one, .nr = 1 }, r0 = { .v = &one, .nr = 0 };
	struct sp_shift_run rn = { .v = nan_v, .nr = 2 }, mix[2] = { r1, r0 };
	struct sp_shift_group g1 = { &r1, 1 }, g0 = { &r0, 1 }, gn = { &rn, 1 };
	struct sp_shift_group gmix = { mix, 2 }, none = { NULL, 0 };
	struct sp_shift sh;

	assert_int_equal(sp_shift_compute(&sh, &g1, &g1, SP_SHIFT_VALUES, 0, 1), -EINVAL);
	assert_int_equal(sp_shift_compute(&sh, &g1, &g0, SP_SHIFT_VALUES, 10, 1), -EINVAL);
	assert_int_equal(sp_shift_compute(&sh, &none, &g1, SP_SHIFT_VALUES, 10, 1), -EINVAL);
	assert_int_equal(sp_shift_compute(&sh, &g1, &gn, SP_SHIFT_VALUES, 10, 1), -EINVAL);
	assert_int_equal(sp_shift_compute(&sh, &gmix, &g1, SP_SHIFT_RUNS, 10, 1), -EINVAL);
	/* an empty run is harmless when single values are drawn */
	assert_int_equal(sp_shift_compute(&sh, &gmix, &g1, SP_SHIFT_VALUES, 10, 1), 0);
	close_to(sh.dec[4].diff, 0, 0, "one value against one value");
}

#define NR_X	10000

static uint64_t xa[NR_X], xb[NR_X];

/* a: 1000 .. 10999 ns evenly; b: each moved by @amp sin(pi (x - 4000) / 4000) */
static size_t cross_sine(double amp, struct sp_crossing *c)
{
	for (int i = 0; i < NR_X; i++) {
		xa[i] = 1000 + (uint64_t)i;
		xb[i] = (uint64_t)llround((double)xa[i] + amp * sin(M_PI * ((double)xa[i] - 4000) / 4000));
	}
	return sp_cdf_crossings(xa, NR_X, xb, NR_X, c);
}

/* none: b slower everywhere; and a wiggle of 0.5% of the samples is none either */
static void test_crossings_none(void **state)
{
	struct sp_crossing c[SP_CROSSINGS_MAX];

	for (int i = 0; i < NR_X; i++) {
		xa[i] = 1000 + (uint64_t)i;
		xb[i] = xa[i] + 300;
	}
	assert_int_equal(sp_cdf_crossings(xa, NR_X, xb, NR_X, c), 0);
	assert_int_equal(cross_sine(50, c), 0);
	assert_int_equal(sp_cdf_crossings(xa, 0, xb, NR_X, c), 0);
}

/* one: b narrow around 6000, a wide: below 6000 a is faster, above it b */
static void test_crossings_one(void **state)
{
	struct sp_crossing c[SP_CROSSINGS_MAX];

	for (int i = 0; i < NR_X; i++) {
		xa[i] = 1000 + (uint64_t)i;
		xb[i] = 5000 + (uint64_t)i / 5;
	}
	assert_int_equal(sp_cdf_crossings(xa, NR_X, xb, NR_X, c), 1);
	assert_true(c[0].at_ns >= 5950 && c[0].at_ns <= 6050);
	assert_int_equal(c[0].below, 0);
	/* the other way round */
	assert_int_equal(sp_cdf_crossings(xb, NR_X, xa, NR_X, c), 1);
	assert_true(c[0].at_ns >= 5950 && c[0].at_ns <= 6050);
	assert_int_equal(c[0].below, 1);
}

/* two: b faster below 4000, slower up to 8000, faster again above */
static void test_crossings_two(void **state)
{
	struct sp_crossing c[SP_CROSSINGS_MAX];

	assert_int_equal(cross_sine(500, c), 2);
	assert_true(c[0].at_ns >= 3900 && c[0].at_ns <= 4100);
	assert_int_equal(c[0].below, 1);
	assert_true(c[1].at_ns >= 7900 && c[1].at_ns <= 8100);
	assert_int_equal(c[1].below, 0);
}

/* Deal the sorted @x out to @k runs, laid end to end in @out (each stays sorted). */
static void deal(const uint64_t *x, size_t n, size_t k, uint64_t *out, const uint64_t **v,
		 size_t *nr)
{
	size_t r, i, at = 0;

	for (r = 0; r < k; r++) {
		v[r] = out + at;
		nr[r] = 0;
		for (i = r; i < n; i += k)
			out[at + nr[r]++] = x[i];
		at += nr[r];
	}
}

/*
 * Samples given as sorted runs cross where the runs pooled cross: one to
 * seven runs a sample, an empty one among them, and with values made
 * coarse, so that runs share many equal values.
 */
static void test_crossings_runs(void **state)
{
	static uint64_t ra[NR_X], rb[NR_X];
	static const double amps[] = { 50, 500, 2000 };
	struct sp_crossing want[SP_CROSSINGS_MAX], got[SP_CROSSINGS_MAX];
	const uint64_t *run_a[8], *run_b[8];
	size_t na[8], nb[8];

	for (int coarse = 0; coarse < 2; coarse++) {
		for (size_t m = 0; m < sizeof(amps) / sizeof(amps[0]); m++) {
			size_t nw = cross_sine(amps[m], want);

			if (coarse) {
				for (int i = 0; i < NR_X; i++) {
					xa[i] /= 64;
					xb[i] /= 64;
				}
				nw = sp_cdf_crossings(xa, NR_X, xb, NR_X, want);
			}
			for (size_t k = 1; k <= 7; k += 2) {
				struct sp_sorted_runs a = { run_a, na, k }, b = { run_b, nb, k + 1 };

				deal(xa, NR_X, k, ra, run_a, na);
				deal(xb, NR_X, k, rb, run_b, nb);
				run_b[k] = rb;	/* an empty run */
				nb[k] = 0;
				assert_int_equal(sp_cdf_crossings_runs(&a, &b, got), (int)nw);
				for (size_t i = 0; i < nw; i++) {
					assert_int_equal(got[i].at_ns, want[i].at_ns);
					assert_int_equal(got[i].below, want[i].below);
				}
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_benchstat),
		cmocka_unit_test(test_summary_table),
		cmocka_unit_test(test_summary_moments),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_shift_identical),
		cmocka_unit_test(test_shift_constant),
		cmocka_unit_test(test_shift_seed),
		cmocka_unit_test(test_shift_runs),
		cmocka_unit_test(test_shift_runs_by_size),
		cmocka_unit_test(test_hochberg),
		cmocka_unit_test(test_superiority),
		cmocka_unit_test(test_mser),
		cmocka_unit_test(test_spearman),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_shift_min_values),
		cmocka_unit_test(test_shift_tiny),
		cmocka_unit_test(test_shift_errors),
		cmocka_unit_test(test_crossings_none),
		cmocka_unit_test(test_crossings_one),
		cmocka_unit_test(test_crossings_two),
		cmocka_unit_test(test_crossings_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
