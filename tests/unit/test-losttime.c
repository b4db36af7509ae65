// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lost time (doc/design.md "Lost time") from hand-made runs and waits:
 * wall, per CPU and per thread, over a window and a set of CPUs; and from
 * a long pass through the model, in memory that does not grow with it.
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
static int nr_fillers;		/* short waits told before the long ones end */

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
	for (int i = 0; i < nr_fillers; i++)
		wait_for(0, 100 + i, 95, 96);
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
	assert_int_equal(sp_lost_time_init(&lt, &scope, t0, t1, 5, NULL), 0);
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

/*
 * Waits that begin long before those told since: 64 more tasks wait for
 * CPU 0 over [95, 96), where it is overloaded already and W is more than I
 * with or without them; the beginnings of 9's and 11's waits come after
 * all of theirs and are summed in their places all the same.
 */
static void test_late(void **state)
{
	(void)state;
	nr_fillers = 64;
	measure(NULL, 0, 100, 100, 180, 200);
	nr_fillers = 0;
}

static struct sp_model model;

static void add(uint64_t ts, int cpu, int common, enum sp_event_type type, int pid, bool runnable,
		int other)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = type, .pid = pid,
		.other_pid = other, .prev_runnable = runnable, .prev_state = runnable ? "R" : "S",
		.comm = "task", .other_comm = "task", .target_cpu = cpu, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&model, &ev), 0);
}

/*
 * Three CPUs, N periods of 1000 ns from t = 1000 i:
 *
 *	CPU 0	tasks 1 and 2 take turns at t, the one switched out waits
 *	CPU 1	task 3 sleeps at t + 100, is woken at t + 600, runs at t + 700
 *	CPU 2	idle all along, with a sched record at t + 300
 *
 * CPU 0 is overloaded all along but in the last period (that wait never
 * ends), CPU 2 idle: wall, per CPU and per thread (N - 1) x 1000.  The
 * waits end a period after they begin and CPU 2's idle run lasts the
 * whole pass: the changes kept stay a few sweeps' worth, told with the
 * model or not, swept often or seldom, the same numbers.
 */
static void test_bounded(void **state)
{
	static const uint64_t start[3] = { 0, 0, 0 };
	enum { N = 100000 };
	struct sp_lost_time lt[3];
	struct sp_model_observer o;
	struct sp_scope scope;
	struct sp_pass pass;

	(void)state;
	sp_scope_init(&scope, 0, UINT64_MAX);
	sp_pass_init(&pass);
	for (int k = 0; k < 3; k++) {
		/* with the model, swept as rarely as it can be and as often; without */
		assert_int_equal(sp_lost_time_init(&lt[k], &scope, 0, UINT64_MAX, 3,
						   k < 2 ? &model : NULL), 0);
		if (k == 1)
			lt[k].sweep_every = 1;
		sp_lost_time_observer(&lt[k], &o);
		assert_int_equal(sp_pass_add(&pass, &o), 0);
	}
	assert_int_equal(sp_model_init(&model, 3, start, (N - 1) * 1000 + 700, false, &pass,
				       NULL), 0);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t t = i * 1000;
		int prev = i % 2 ? 2 : 1;

		add(t, 0, prev, SP_EV_SWITCH, prev, true, 3 - prev);
		add(t + 100, 1, 3, SP_EV_SWITCH, 3, false, 0);
		add(t + 300, 2, 0, SP_EV_EXIT, 99, false, -1);
		add(t + 600, 1, 0, SP_EV_WAKEUP, 3, false, -1);
		add(t + 700, 1, 0, SP_EV_SWITCH, 0, false, 3);
	}
	assert_int_equal(sp_model_finish(&model), 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(sp_lost_time_finish(&lt[k]), 0);
		assert_int_equal(lt[k].wall_ns, (N - 1) * 1000ull);
		assert_int_equal(lt[k].per_cpu_ns, (N - 1) * 1000ull);
		assert_int_equal(lt[k].per_thread_ns, (N - 1) * 1000ull);
	}
	/*
	 * 6 changes a period (CPU 1's stretches end as the next begin: one
	 * change each), 600000 in all, a few thousand kept at a time
	 */
	assert_true(lt[0].alloc_changes + lt[0].alloc_late <= 4 * lt[0].sweep_every);
	assert_true(lt[1].alloc_changes + lt[1].alloc_late <= 8192);
	assert_true(lt[2].alloc_changes >= 6 * (N - 1));
	for (int k = 0; k < 3; k++)
		sp_lost_time_release(&lt[k]);
	sp_model_release(&model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
