// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Mann-Whitney U test against SciPy's documentation, benchstat's tests
 * (ties included) and NAG's example with ties, then its properties.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "schedplot/analysis/mannwhitney.h"

static void close_to(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (tolerance %g)", what, got, want, tol);
}

#define N(x) (sizeof(x) / sizeof((x)[0]))

/*
 * SciPy's scipy.stats.mannwhitneyu documentation, the diagnosis ages of
 * males [19, 22, 16, 29, 24] and females [20, 11, 17, 12]: U1 = 17, the
 * exact two-sided p = 0.1111111111111111 and, with method="asymptotic",
 * 0.11134688653314041.  Swapped, U = 3 and the same p.
 */
static void test_scipy_example(void **state)
{
	static const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	struct sp_mannwhitney r;

	assert_int_equal(sp_mannwhitney_test(&r, males, 5, females, 4, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.u_a, 17, 0, "U1");
	close_to(r.p, 0.1111111111111111, 1e-15, "exact p");
	assert_true(r.exact);
	assert_false(r.ties);
	assert_int_equal(sp_mannwhitney_test(&r, males, 5, females, 4,
					     SP_MANNWHITNEY_ASYMPTOTIC), 0);
	close_to(r.u_a, 17, 0, "U1");
	close_to(r.p, 0.11134688653314041, 1e-14, "asymptotic p");
	assert_false(r.exact);
	assert_int_equal(sp_mannwhitney_test(&r, females, 4, males, 5, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.u_a, 3, 0, "U2");
	close_to(r.p, 0.1111111111111111, 1e-15, "exact p, swapped");
}

/*
 * benchstat's tests (golang.org/x/perf, benchmath/assumption_test.go,
 * TestCompareNone): {-1, -1, -1} against {1, 1, 1} gives p = 0.1;
 * four -1 against four 1, p = 0.02857142857142857; with ties,
 * {1, -1, -1, -1} against {-1, 1, 1, 1}, p = 0.4857142857142857;
 * all values equal, p = 1.
 */
static void test_benchstat(void **state)
{
	static const double m3[] = { -1, -1, -1 }, p3[] = { 1, 1, 1 };
	static const double m4[] = { -1, -1, -1, -1 }, p4[] = { 1, 1, 1, 1 };
	static const double t1[] = { 1, -1, -1, -1 }, t2[] = { -1, 1, 1, 1 };
	struct sp_mannwhitney r;

	assert_int_equal(sp_mannwhitney_test(&r, m3, 3, p3, 3, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.p, 0.1, 1e-15, "3 against 3");
	close_to(r.u_a, 0, 0, "U of 3 against 3");
	assert_int_equal(sp_mannwhitney_test(&r, m4, 4, p4, 4, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.p, 0.02857142857142857, 1e-15, "4 against 4");
	assert_int_equal(sp_mannwhitney_test(&r, t1, 4, t2, 4, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.p, 0.4857142857142857, 1e-15, "4 against 4 with ties");
	close_to(r.u_a, 4, 0, "U with ties");
	assert_true(r.ties);
	assert_int_equal(sp_mannwhitney_test(&r, p4, 4, p4, 4, SP_MANNWHITNEY_AUTO), 0);
	close_to(r.p, 1, 0, "all equal");
	close_to(r.u_a, 8, 0, "U of all equal");
	assert_int_equal(sp_mannwhitney_test(&r, p4, 4, p4, 4, SP_MANNWHITNEY_ASYMPTOTIC), 0);
	close_to(r.p, 1, 0, "all equal, asymptotic");

	/* benchstat's uTestSamples: alpha 0.05 needs 4 against 4 */
	close_to(sp_mannwhitney_min_p(3, 3), 0.1, 1e-15, "min p 3+3");
	close_to(sp_mannwhitney_min_p(4, 4), 0.02857142857142857, 1e-15, "min p 4+4");
	assert_true(sp_mannwhitney_min_p(3, 3) >= 0.05);
	assert_true(sp_mannwhitney_min_p(4, 4) < 0.05);
	close_to(sp_mannwhitney_min_p(1, 1), 1, 0, "min p 1+1");
	close_to(sp_mannwhitney_min_p(0, 5), 1, 0, "min p, empty");
}

/*
 * NAG's example for g08amc / g08akf (Mann-Whitney with ties), groups of 16
 * and 23 with many ties: U = 86, normal statistic -2.8039 (tie- and
 * continuity-corrected), one-tailed approximate probability 0.0025 and
 * exact 0.0020.  Two-sided here: twice those.
 */
static void test_nag_ties(void **state)
{
	static const double g1[] = { 13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8 };
	static const double g2[] = { 17, 6, 10, 8, 15, 8, 15, 10, 15, 10, 14, 10, 14, 11,
				     14, 11, 13, 12, 13, 12, 13, 12, 12 };
	struct sp_mannwhitney r;

	assert_int_equal(sp_mannwhitney_test(&r, g1, N(g1), g2, N(g2), SP_MANNWHITNEY_AUTO), 0);
	close_to(r.u_a, 86, 0, "U");
	assert_true(r.exact);
	assert_true(r.ties);
	close_to(r.p / 2, 0.0020, 0.00005, "exact tail");
	assert_int_equal(sp_mannwhitney_test(&r, g1, N(g1), g2, N(g2),
					     SP_MANNWHITNEY_ASYMPTOTIC), 0);
	close_to(r.z, -2.8039, 0.00005, "normal statistic");
	close_to(r.p / 2, 0.0025, 0.00005, "approximate tail");
}

/* identical groups: U = nm/2 and p = 1, whatever the method */
static void test_identical(void **state)
{
	static const double x[] = { 3.5, 1, 7, 2, 9, 4.25, 6, 8, 5, 0.5 };
	double big[60];
	struct sp_mannwhitney r;

	assert_int_equal(sp_mannwhitney_test(&r, x, N(x), x, N(x), SP_MANNWHITNEY_AUTO), 0);
	close_to(r.u_a, 50, 0, "U");
	close_to(r.p, 1, 0, "p exact");
	assert_int_equal(sp_mannwhitney_test(&r, x, N(x), x, N(x), SP_MANNWHITNEY_ASYMPTOTIC), 0);
	close_to(r.p, 1, 0, "p asymptotic");
	for (int i = 0; i < 60; i++)
		big[i] = (i * 37) % 60;
	assert_int_equal(sp_mannwhitney_test(&r, big, 60, big, 60, SP_MANNWHITNEY_AUTO), 0);
	assert_false(r.exact);
	close_to(r.u_a, 1800, 0, "U of 60");
	close_to(r.p, 1, 0, "p of 60");
}

/*
 * The exact and the normal p values meet for groups of 25 (the largest
 * exact size), and the smallest p is reached by disjoint groups.
 */
static void test_exact_against_normal(void **state)
{
	double a[25], b[25];
	struct sp_mannwhitney e, n;

	for (int i = 0; i < 25; i++) {
		a[i] = i * 2 + 0.25 * (i % 3);
		b[i] = i * 2 + 7;
	}
	assert_int_equal(sp_mannwhitney_test(&e, a, 25, b, 25, SP_MANNWHITNEY_AUTO), 0);
	assert_int_equal(sp_mannwhitney_test(&n, a, 25, b, 25, SP_MANNWHITNEY_ASYMPTOTIC), 0);
	assert_true(e.exact);
	close_to(e.u_a, n.u_a, 0, "U");
	close_to(e.p, n.p, 0.1 * e.p, "exact against normal p");

	for (int i = 0; i < 25; i++)
		b[i] = 100 + i;
	assert_int_equal(sp_mannwhitney_test(&e, a, 25, b, 12, SP_MANNWHITNEY_AUTO), 0);
	close_to(e.p, sp_mannwhitney_min_p(25, 12), 1e-20, "disjoint groups");
	assert_int_equal(sp_mannwhitney_test(&e, a, 25, b, 25, SP_MANNWHITNEY_ASYMPTOTIC), 0);
	close_to(e.p, erfc((25 * 25 / 2.0 - 0.5) / sqrt(25 * 25 * 51 / 12.0) / M_SQRT2),
		 1e-25, "disjoint groups, normal");
}

/*
 * The interval of the shift: Hollander & Wolfe (1973, p. 69), the
 * permeability example of R's ?wilcox.test: x (term) against y (12 to 26
 * weeks) gives W = 35, p = 0.2544 and wilcox.test(x, y, conf.int = TRUE)
 * the 95% interval of x - y [-0.15, 0.76] (k = 9 of the 50 differences;
 * 90%: [-0.08, 0.72], k = 12; 99%: [-0.35, 1.01], k = 5), reproduced by
 * enumerating the 3003 splits in Python.  Properties: shifting B by c
 * shifts the interval by c; without ties the 95% interval holds 0 exactly
 * when the exact p is above 0.05, for sizes where p can reach 0.05
 * (checked on seeded random groups of 3 to 8); with one pair the bounds
 * are that pair's difference.
 */
static void test_shift_ci(void **state)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double lo, hi, xs[10], one = 2, two = 5;
	struct sp_mannwhitney mw;
	uint64_t seed = 12345;

	(void)state;
	assert_int_equal(sp_mannwhitney_shift_ci(y, 5, x, 10, 0.95, &lo, &hi), 0);
	close_to(lo, -0.15, 1e-12, "H&W 95% lower");
	close_to(hi, 0.76, 1e-12, "H&W 95% upper");
	assert_int_equal(sp_mannwhitney_shift_ci(y, 5, x, 10, 0.90, &lo, &hi), 0);
	close_to(lo, -0.08, 1e-12, "H&W 90% lower");
	close_to(hi, 0.72, 1e-12, "H&W 90% upper");
	assert_int_equal(sp_mannwhitney_shift_ci(y, 5, x, 10, 0.99, &lo, &hi), 0);
	close_to(lo, -0.35, 1e-12, "H&W 99% lower");
	close_to(hi, 1.01, 1e-12, "H&W 99% upper");
	assert_int_equal(sp_mannwhitney_test(&mw, x, 10, y, 5, SP_MANNWHITNEY_AUTO), 0);
	close_to(mw.u_a, 35, 0, "H&W W");
	close_to(mw.p, 0.2544122544122544, 1e-12, "H&W p");

	for (int i = 0; i < 10; i++)
		xs[i] = x[i] + 10;
	assert_int_equal(sp_mannwhitney_shift_ci(y, 5, xs, 10, 0.95, &lo, &hi), 0);
	close_to(lo, 10 - 0.15, 1e-12, "shifted lower");
	close_to(hi, 10 + 0.76, 1e-12, "shifted upper");
	assert_int_equal(sp_mannwhitney_shift_ci(&one, 1, &two, 1, 0.95, &lo, &hi), 0);
	assert_true(lo == 3 && hi == 3);

	for (int trial = 0; trial < 400; trial++) {
		double a[8], b[8];
		size_t na = 3 + trial % 6, nb = 3 + (trial / 6) % 6;

		/* distinct values: a permutation of 0 .. na + nb - 1 */
		double pool[16];
		size_t n = na + nb;

		for (size_t i = 0; i < n; i++)
			pool[i] = (double)i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j;
			double t;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			j = (size_t)(seed >> 33) % (i + 1);
			t = pool[i];
			pool[i] = pool[j];
			pool[j] = t;
		}
		for (size_t i = 0; i < na; i++)
			a[i] = pool[i];
		for (size_t i = 0; i < nb; i++)
			b[i] = pool[na + i];
		assert_int_equal(sp_mannwhitney_test(&mw, a, na, b, nb, SP_MANNWHITNEY_AUTO), 0);
		assert_int_equal(sp_mannwhitney_shift_ci(a, na, b, nb, 0.95, &lo, &hi), 0);
		assert_true(lo <= hi);
		/* where no p can reach 0.05, k is 1 and the interval is [min, max] (as R's) */
		if (sp_mannwhitney_min_p(na, nb) <= 0.05)
			assert_true((lo <= 0 && 0 <= hi) == (mw.p > 0.05));
	}
	assert_int_equal(sp_mannwhitney_shift_ci(x, 0, y, 5, 0.95, &lo, &hi), -EINVAL);
}

static void test_errors(void **state)
{
	static const double x[] = { 1, 2, NAN };
	double big[201] = { 0 };
	struct sp_mannwhitney r;

	assert_int_equal(sp_mannwhitney_test(&r, x, 0, x, 2, SP_MANNWHITNEY_AUTO), -EINVAL);
	assert_int_equal(sp_mannwhitney_test(&r, x, 2, x, 3, SP_MANNWHITNEY_AUTO), -EINVAL);
	assert_int_equal(sp_mannwhitney_test(&r, big, 101, big, 100, SP_MANNWHITNEY_EXACT),
			 -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scipy_example),
		cmocka_unit_test(test_benchstat),
		cmocka_unit_test(test_nag_ties),
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_exact_against_normal),
		cmocka_unit_test(test_shift_ci),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
