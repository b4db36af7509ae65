// SPDX-License-Identifier: GPL-2.0-only
/*
 * The regularized incomplete beta function and the Harrell-Davis quantile
 * estimator, against SciPy's documented and tested values and against
 * identities that hold exactly.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/hdquantile.h"

static void close_to(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (tolerance %g)", what, got, want, tol);
}

/*
 * SciPy's docstring of scipy.special.betainc (scipy/special/_add_newdocs.py):
 * betainc(1.4, 3.1, 0.5) = 0.8148904036225296 and betainc(2.2, 3.1, 0.4) =
 * 0.49339638807619446.  For integer shapes I_x(a, b) is a binomial tail,
 * P(Binomial(a + b - 1, x) >= a): I_0.5(2, 3) = 11/16, I_0.3(1, 1) = 0.3.
 */
static void test_betainc_known(void **state)
{
	double v;

	assert_int_equal(sp_betainc_eval(1.4, 3.1, 0.5, &v), 0);
	close_to(v, 0.8148904036225296, 1e-14, "I_0.5(1.4, 3.1)");
	assert_int_equal(sp_betainc_eval(2.2, 3.1, 0.4, &v), 0);
	close_to(v, 0.49339638807619446, 1e-14, "I_0.4(2.2, 3.1)");
	/* the symmetry SciPy shows next to it: I_x(a, b) = 1 - I_{1-x}(b, a) */
	assert_int_equal(sp_betainc_eval(3.1, 2.2, 0.6, &v), 0);
	close_to(1 - v, 0.49339638807619446, 1e-14, "1 - I_0.6(3.1, 2.2)");
	assert_int_equal(sp_betainc_eval(2, 3, 0.5, &v), 0);
	close_to(v, 11.0 / 16, 1e-15, "I_0.5(2, 3)");
	assert_int_equal(sp_betainc_eval(1, 1, 0.3, &v), 0);
	close_to(v, 0.3, 1e-15, "I_0.3(1, 1)");
	/* I_x(a, 1) = x^a and I_x(1, b) = 1 - (1-x)^b */
	assert_int_equal(sp_betainc_eval(7.5, 1, 0.9, &v), 0);
	close_to(v, pow(0.9, 7.5), 1e-14, "I_0.9(7.5, 1)");
	assert_int_equal(sp_betainc_eval(1, 40, 0.02, &v), 0);
	close_to(v, 1 - pow(0.98, 40), 1e-14, "I_0.02(1, 40)");
	assert_int_equal(sp_betainc_eval(2, 3, 0, &v), 0);
	close_to(v, 0, 0, "I_0");
	assert_int_equal(sp_betainc_eval(2, 3, 1, &v), 0);
	close_to(v, 1, 0, "I_1");
}

/* A binomial tail with large shapes: I_x(a, b) = P(Bin(a+b-1, x) >= a). */
static void test_betainc_binomial(void **state)
{
	const int n = 199, a = 60;
	const double x = 0.3;
	double tail = 0, v, pmf;
	int k;

	for (k = a; k <= n; k++) {
		pmf = exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(x) +
			  (n - k) * log1p(-x));
		tail += pmf;
	}
	assert_int_equal(sp_betainc_eval(a, n + 1 - a, x, &v), 0);
	close_to(v, tail, 1e-12, "I_0.3(60, 140)");
}

static void test_betainc_domain(void **state)
{
	double v;

	assert_int_equal(sp_betainc_eval(0, 1, 0.5, &v), -EDOM);
	assert_int_equal(sp_betainc_eval(1, -1, 0.5, &v), -EDOM);
	assert_int_equal(sp_betainc_eval(1, 1, 1.5, &v), -EDOM);
	assert_int_equal(sp_betainc_eval(1, 1, NAN, &v), -EDOM);
	assert_int_equal(sp_betainc_eval(INFINITY, 1, 0.5, &v), -EDOM);
}

/* SciPy's TestQuantiles data (scipy/stats/tests/test_mstats_basic.py). */
static const double scipy_data[100] = {
	0.706560797, 0.727229578, 0.990399276, 0.927065621, 0.158953014,
	0.887764025, 0.239407086, 0.349638551, 0.972791145, 0.149789972,
	0.936947700, 0.132359948, 0.046041972, 0.641675031, 0.945530547,
	0.224218684, 0.771450991, 0.820257774, 0.336458052, 0.589113496,
	0.509736129, 0.696838829, 0.491323573, 0.622767425, 0.775189248,
	0.641461450, 0.118455200, 0.773029450, 0.319280007, 0.752229111,
	0.047841438, 0.466295911, 0.583850781, 0.840581845, 0.550086491,
	0.466470062, 0.504765074, 0.226855960, 0.362641207, 0.891620942,
	0.127898691, 0.490094097, 0.044882048, 0.041441695, 0.317976349,
	0.504135618, 0.567353033, 0.434617473, 0.636243375, 0.231803616,
	0.230154113, 0.160011327, 0.819464108, 0.854706985, 0.438809221,
	0.487427267, 0.786907310, 0.408367937, 0.405534192, 0.250444460,
	0.995309248, 0.144389588, 0.739947527, 0.953543606, 0.680051621,
	0.388382017, 0.863530727, 0.006514031, 0.118007779, 0.924024803,
	0.384236354, 0.893687694, 0.626534881, 0.473051932, 0.750134705,
	0.241843555, 0.432947602, 0.689538104, 0.136934797, 0.150206859,
	0.474335206, 0.907775349, 0.525869295, 0.189184225, 0.854284286,
	0.831089744, 0.251637345, 0.587038213, 0.254475554, 0.237781276,
	0.827928620, 0.480283781, 0.594514455, 0.213641488, 0.024194386,
	0.536668589, 0.699497811, 0.892804071, 0.093835427, 0.731107772,
};

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * SciPy's test_hdquantiles: hdquantiles(data, [0, 1]) = [0.006514031,
 * 0.995309248] and hdquantiles(data, [0.25, 0.5, 0.75]) = [0.253210762,
 * 0.512847491, 0.762232442], checked there to 7 decimals.
 */
static void test_hd_scipy(void **state)
{
	static const double p[] = { 0, 1, 0.25, 0.5, 0.75 };
	static const double want[] = { 0.006514031, 0.995309248, 0.253210762, 0.512847491,
				       0.762232442 };
	double s[100], v;

	memcpy(s, scipy_data, sizeof(s));
	qsort(s, 100, sizeof(s[0]), cmp_double);
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		assert_int_equal(sp_hdquantile_sorted(s, 100, p[i], &v), 0);
		close_to(v, want[i], 5e-9, "hdquantiles of SciPy's data");
	}
}

/*
 * SciPy's test_hdmedian: hdmedian(arange(11)) = 5 (rtol 1e-14), and with
 * only the first 7 values unmasked, 3: the estimator is symmetric.
 */
static void test_hd_median_symmetric(void **state)
{
	double x[11], v;

	for (int i = 0; i < 11; i++)
		x[i] = i;
	assert_int_equal(sp_hdquantile_sorted(x, 11, 0.5, &v), 0);
	close_to(v, 5, 5e-14, "hdmedian(0..10)");
	assert_int_equal(sp_hdquantile_sorted(x, 7, 0.5, &v), 0);
	close_to(v, 3, 3e-14, "hdmedian(0..6)");
}

/* the weights sum to 1, whether the window is trimmed (n >= 64) or not */
static void test_hd_weights(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 10, 63, 64, 100, 1000, 100000 };
	static double w[100000];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int d = 0; d <= 10; d++) {
			double sum = 0;

			assert_int_equal(sp_hdquantile_weights(sizes[i], d / 10.0, w), 0);
			for (size_t j = 0; j < sizes[i]; j++) {
				assert_true(w[j] >= 0);
				sum += w[j];
			}
			close_to(sum, 1, 1e-12, "sum of the weights");
		}
	}
	assert_int_equal(sp_hdquantile_weights(0, 0.5, w), -EINVAL);
	assert_int_equal(sp_hdquantile_weights(10, 1.5, w), -EINVAL);
}

/* equivariance: hd(c + s x) = c + s hd(x), in any order of the input */
static void test_hd_deciles_equivariant(void **state)
{
	double x[100], y[100], dx[SP_NR_DECILES], dy[SP_NR_DECILES];

	for (int i = 0; i < 100; i++)
		y[99 - i] = 1000 + 3 * scipy_data[i];
	memcpy(x, scipy_data, sizeof(x));
	assert_int_equal(sp_hdquantile_deciles(x, 100, dx), 0);
	assert_int_equal(sp_hdquantile_deciles(y, 100, dy), 0);
	for (int d = 0; d < SP_NR_DECILES; d++)
		close_to(dy[d], 1000 + 3 * dx[d], 1e-11, "hd of 1000 + 3x");
	/* the input is left as it was */
	assert_memory_equal(x, scipy_data, sizeof(x));
	/* the median is SciPy's */
	close_to(dx[4], 0.512847491, 5e-9, "decile 0.5");
	x[7] = NAN;
	assert_int_equal(sp_hdquantile_deciles(x, 100, dx), -EINVAL);
	x[7] = INFINITY;
	assert_int_equal(sp_hdquantile_deciles(x, 100, dx), -EINVAL);
	assert_int_equal(sp_hdquantile_deciles(x, 0, dx), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_betainc_known),
		cmocka_unit_test(test_betainc_binomial),
		cmocka_unit_test(test_betainc_domain),
		cmocka_unit_test(test_hd_scipy),
		cmocka_unit_test(test_hd_median_symmetric),
		cmocka_unit_test(test_hd_weights),
		cmocka_unit_test(test_hd_deciles_equivariant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
