// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lost time (doc/design.md "Lost time") from hand-made runs and waits:
 * wall, per CPU and per thread, over a window and a set of CPUs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "schedplot/analysis/losttime.h"
#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

static struct sp_model_observer obs;

static void wait_for(int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_wait w = { .start_ns = t0, .dur_ns = t1 - t0, .pid = pid, .cpu = cpu };

	obs.wait(obs.data, &w);
}

/*
 * Five CPUs over [0, 100):
 *
 *	CPU 0	5 [0, 40), 6 [40, 100)	8 waits [10, 60), 9 waits [30, 100)
 *	CPU 1	idle [0, 50), 7 [50, 100)
 *	CPU 2	idle [0, 100)		10 waits [80, 90): neither idle nor overloaded
 *	CPU 3	12 [0, 100)		11 waits [0, 100)
 *	CPU 4	idle [0, 100)
 *
 *	from	0   10  30  50  60  80  90
 *	I	3   3   3   2   2   1   2
 *	O	1   2   2   2   2   2   2
 *	W	1   2   3   3   2   2   2
 *
 * wall 100; per CPU 10 + 40 + 40 + 20 + 40 + 10 + 20 = 180; per thread
 * 10 + 40 + 60 + 20 + 40 + 10 + 20 = 200.  Each CPU's runs are told in
 * time order, the waits as they end.
 */
static void tell(void)
{
	obs.run(obs.data, 0, 5, 0, 40);
	obs.run(obs.data, 1, 0, 0, 50);
	obs.run(obs.data, 0, 6, 40, 100);
	wait_for(0, 8, 10, 60);
	obs.run(obs.data, 2, 0, 0, 100);
	obs.run(obs.data, 1, 7, 50, 100);
	obs.run(obs.data, 3, 12, 0, 100);
	obs.run(obs.data, 4, 0, 0, 100);
	wait_for(2, 10, 80, 90);
	wait_for(0, 9, 30, 100);
	wait_for(3, 11, 0, 100);
}

static void measure(const bool *cpus, uint64_t t0, uint64_t t1, uint64_t wall,
		    uint64_t per_cpu, uint64_t per_thread)
{
	struct sp_lost_time lt;
	struct sp_scope scope;

	sp_scope_init(&scope, 0, UINT64_MAX);
	scope.cpus = cpus;
	scope.nr_cpus = 5;
	assert_int_equal(sp_lost_time_init(&lt, &scope, t0, t1, 5), 0);
	sp_lost_time_observer(&lt, &obs);
	tell();
	/* a second pass forgets the first */
	obs.reset(obs.data);
	tell();
	assert_int_equal(sp_lost_time_finish(&lt), 0);
	assert_int_equal(lt.wall_ns, wall);
	assert_int_equal(lt.per_cpu_ns, per_cpu);
	assert_int_equal(lt.per_thread_ns, per_thread);
	sp_lost_time_release(&lt);
}

static void test_all(void **state)
{
	(void)state;
	measure(NULL, 0, 100, 100, 180, 200);
}

/* [20, 70): 10 x (1, 2, 2) + 20 x (1, 2, 3) + 10 x (1, 2, 2) + 10 x (1, 2, 2) */
static void test_window(void **state)
{
	(void)state;
	measure(NULL, 20, 70, 50, 100, 120);
}

/*
 * Without CPU 4, I is one less: 10 x (1, 1, 1), 20 x (1, 2, 2),
 * 20 x (1, 2, 2), 10 x (1, 1, 1), 20 x (1, 1, 1), nothing over [80, 90),
 * 10 x (1, 1, 1).
 */
static void test_cpus(void **state)
{
	static const bool cpus[5] = { true, true, true, true, false };

	(void)state;
	measure(cpus, 0, 100, 90, 130, 130);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
