// SPDX-License-Identifier: GPL-2.0-only
/*
 * Antagonists (doc/design.md "Antagonists") from hand-made runs: who held
 * the CPU a task waited for, and for how long; the sums per waiting task.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/model/model.h"

static struct sp_antagonists a;
static struct sp_model_observer obs;

static void run(int cpu, int pid, uint64_t t0, uint64_t t1)
{
	obs.run(obs.data, cpu, pid, t0, t1);
}

/*
 * CPU 0: 5 runs [0, 100), 6 [100, 150), idle [150, 200), 5 [200, 300),
 * then the waiter 7 from 300.  7 waited on CPU 0 over [50, 300): behind
 * 5 for 50 + 100 ns, behind 6 for 50 ns, the CPU idle 50 ns.  CPU 1's
 * runs do not count.
 */
static void test_query(void **state)
{
	struct sp_wait w = { .start_ns = 50, .dur_ns = 250, .pid = 7, .cpu = 0 };
	struct sp_behind top[4];
	uint64_t total;
	size_t nr, n;

	(void)state;
	assert_int_equal(sp_antagonists_init(&a, 2), 0);
	sp_antagonists_observer(&a, &obs);
	run(0, 5, 0, 100);
	run(1, 9, 0, 400);
	run(0, 6, 100, 150);
	run(0, 0, 150, 200);
	run(0, 5, 200, 300);
	n = sp_antagonists_of_wait(&a, &w, top, 4, &nr, &total);
	assert_int_equal(n, 2);
	assert_int_equal(nr, 2);
	assert_int_equal(total, 200);
	assert_int_equal(top[0].pid, 5);
	assert_int_equal(top[0].ns, 150);
	assert_int_equal(top[1].pid, 6);
	assert_int_equal(top[1].ns, 50);
	/* the longest only */
	n = sp_antagonists_query(&a, 0, 7, 50, 300, top, 1, &nr, &total);
	assert_int_equal(n, 1);
	assert_int_equal(nr, 2);
	assert_int_equal(top[0].pid, 5);
	/* a task's own runs are not its antagonists; ties go to the lower pid */
	n = sp_antagonists_query(&a, 0, 5, 75, 125, top, 4, &nr, &total);
	assert_int_equal(n, 1);
	assert_int_equal(top[0].pid, 6);
	assert_int_equal(top[0].ns, 25);
	n = sp_antagonists_query(&a, 0, 7, 75, 125, top, 4, &nr, &total);
	assert_int_equal(n, 2);
	assert_int_equal(top[0].pid, 5);
	assert_int_equal(top[1].pid, 6);
	assert_int_equal(total, 50);
	/* nothing ran: none */
	n = sp_antagonists_query(&a, 0, 7, 150, 200, top, 4, &nr, &total);
	assert_int_equal(n, 0);
	assert_int_equal(total, 0);
	assert_int_equal(a.nr_partial, 0);
	sp_antagonists_release(&a);
}

/* Past the runs kept, the oldest go, and a query reaching before them says so. */
static void test_ring(void **state)
{
	struct sp_behind top[2];
	uint64_t total, i;
	size_t nr;

	(void)state;
	assert_int_equal(sp_antagonists_init(&a, 1), 0);
	sp_antagonists_observer(&a, &obs);
	a.keep = 100;
	for (i = 0; i < 1000; i++)
		run(0, 10 + (int)(i % 2), i * 10, i * 10 + 10);
	sp_antagonists_query(&a, 0, 7, 9000, 10000, top, 2, &nr, &total);
	assert_int_equal(total, 1000);
	assert_int_equal(top[0].ns, 500);
	assert_int_equal(a.nr_partial, 0);
	sp_antagonists_query(&a, 0, 7, 8000, 10000, top, 2, &nr, &total);
	assert_int_equal(total, 1000);		/* only what was kept */
	assert_int_equal(a.nr_partial, 1);
	obs.reset(obs.data);
	sp_antagonists_query(&a, 0, 7, 0, 10000, top, 2, &nr, &total);
	assert_int_equal(total, 0);
	assert_int_equal(a.nr_partial, 0);
	sp_antagonists_release(&a);
}

/*
 * A query remembers where its search ended and starts the next one there:
 * queries forward, backward, far apart and after the oldest runs were
 * dropped must give what summing every run by hand gives.  Runs of pids
 * 10..13 of lengths 1..7 ns back to back, with gaps, on one CPU.
 */
static void test_any_order(void **state)
{
	static const uint64_t waits[][2] = {
		{ 500, 520 }, { 510, 530 }, { 10, 40 }, { 3000, 3100 }, { 3000, 3001 },
		{ 0, 5 }, { 2999, 4000 }, { 1, 2 }, { 4500, 9000 }, { 200, 201 },
	};
	struct sp_behind top[1];
	uint64_t r0[600], r1[600], total, want, t = 0;
	int pids[600];
	size_t nr, n = 0, i, w;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(sp_antagonists_init(&a, 1), 0);
		sp_antagonists_observer(&a, &obs);
		if (pass)
			a.keep = 64;	/* the second pass keeps the newest 64 runs */
		for (i = 0, t = 0; i < 600; i++) {
			t += (i % 5 == 0) ? 3 : 0;
			r0[i] = t;
			r1[i] = t + 1 + i % 7;
			pids[i] = 10 + (int)(i % 4);
			t = r1[i];
			run(0, pids[i], r0[i], r1[i]);
		}
		n = pass ? 64 : 600;
		for (w = 0; w < sizeof(waits) / sizeof(waits[0]); w++) {
			uint64_t lo = waits[w][0], hi = waits[w][1];

			want = 0;
			for (i = 600 - n; i < 600; i++) {
				uint64_t b = r0[i] > lo ? r0[i] : lo, e = r1[i] < hi ? r1[i] : hi;

				if (e > b && pids[i] != 12)
					want += e - b;
			}
			sp_antagonists_query(&a, 0, 12, lo, hi, top, 1, &nr, &total);
			assert_int_equal(total, want);
		}
		sp_antagonists_release(&a);
	}
}

/* The consumer sums, per waiting task, its waits and who it waited behind. */
static void test_waited_behind(void **state)
{
	struct sp_waited_behind wb = { 0 };
	struct sp_model_observer wobs;
	struct sp_wait w1 = { .start_ns = 0, .dur_ns = 100, .pid = 7, .cpu = 0 };
	struct sp_wait w2 = { .start_ns = 200, .dur_ns = 100, .pid = 7, .cpu = 1 };
	struct sp_wait w3 = { .start_ns = 0, .dur_ns = 50, .pid = 8, .cpu = 0 };
	const struct sp_behind_entry *e;
	struct sp_behind_entry *v;
	uint64_t wait_ns;
	size_t n, nr;

	(void)state;
	assert_int_equal(sp_antagonists_init(&a, 2), 0);
	sp_antagonists_observer(&a, &obs);
	run(0, 5, 0, 60);
	run(0, 6, 60, 100);
	run(1, 6, 150, 260);
	wb.hist = &a;
	sp_scope_init(&wb.scope, 0, UINT64_MAX);
	sp_waited_behind_observer(&wb, &wobs);
	wobs.wait(wobs.data, &w1);
	wobs.wait(wobs.data, &w2);
	wobs.wait(wobs.data, &w3);
	v = sp_behind_table_sorted(&wb.table, &n);
	assert_non_null(v);
	assert_int_equal(n, 5);			/* 7: -1, 5, 6; 8: -1, 5 */
	e = sp_behind_of(v, n, 7, &wait_ns, &nr);
	assert_int_equal(wait_ns, 200);
	assert_int_equal(nr, 2);
	assert_int_equal(e[0].antagonist, 6);	/* 40 + 60 */
	assert_int_equal(e[0].ns, 100);
	assert_int_equal(e[1].antagonist, 5);
	assert_int_equal(e[1].ns, 60);
	e = sp_behind_of(v, n, 8, &wait_ns, &nr);
	assert_int_equal(wait_ns, 50);
	assert_int_equal(nr, 1);
	assert_int_equal(e[0].antagonist, 5);
	assert_int_equal(e[0].ns, 50);
	assert_null(sp_behind_of(v, n, 9, &wait_ns, &nr));
	assert_int_equal(wait_ns, 0);
	free(v);
	sp_behind_table_release(&wb.table);
	sp_antagonists_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_any_order),
		cmocka_unit_test(test_waited_behind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
