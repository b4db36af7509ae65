// SPDX-License-Identifier: GPL-2.0-only
/*
 * The task line: runs and the waits before them land in the right columns
 * with the right owner, clipped to the window and to the CPUs counted;
 * the run list keeps runs while few and none beyond.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/model/model.h"
#include "schedplot/model/runlist.h"
#include "schedplot/model/taskline.h"

static void add(struct sp_taskline *tl, int pid, int cpu, uint64_t start, uint64_t end,
		uint64_t wait)
{
	struct sp_run r = { .start_ns = start, .end_ns = end, .cpu = cpu, .pid = pid,
			    .wait_ns = wait, .waker = -1, .prev_cpu = -1 };

	sp_taskline_add(tl, &r);
}

static unsigned int state(const struct sp_taskline_task *t, unsigned int col)
{
	return sp_taskline_state(&t->cells[col]);
}

/* 10 columns of 100 ns from 1000. */
static void test_cells(void **st)
{
	struct sp_taskline tl;
	const struct sp_taskline_task *t;

	(void)st;
	assert_int_equal(sp_taskline_init(&tl, 1000, 2000, 10, NULL, 0, 0), 0);
	/* waits 1050..1300, runs on CPU 3 1300..1620 */
	add(&tl, 7, 3, 1300, 1620, 250);
	/* pid 0 never gets a line */
	add(&tl, 0, 1, 1000, 2000, 0);
	t = sp_taskline_find(&tl, 7);
	assert_non_null(t);
	assert_null(sp_taskline_find(&tl, 0));
	assert_int_equal(t->run_ns, 320);
	assert_int_equal(t->wait_ns, 250);
	assert_int_equal(t->first_ns, 1050);
	assert_int_equal(state(t, 0), SP_TASKLINE_WAIT);	/* 50 of 100 ns */
	assert_int_equal(state(t, 1), SP_TASKLINE_WAIT);
	assert_int_equal(state(t, 2), SP_TASKLINE_WAIT);
	assert_int_equal(state(t, 3), SP_TASKLINE_CPU + 3);
	assert_int_equal(state(t, 5), SP_TASKLINE_CPU + 3);
	assert_int_equal(state(t, 6), SP_TASKLINE_CPU + 3);	/* 20 of 100 ns, alone */
	assert_int_equal(state(t, 7), SP_TASKLINE_SLEEP);
	/* column 6: a longer wait there takes it; a migration to CPU 1 later */
	add(&tl, 7, 1, 1700, 2500, 60);
	assert_int_equal(state(t, 6), SP_TASKLINE_WAIT);
	assert_int_equal(state(t, 7), SP_TASKLINE_CPU + 1);
	assert_int_equal(state(t, 9), SP_TASKLINE_CPU + 1);
	assert_int_equal(t->run_ns, 320 + 300);	/* clipped at 2000 */
	assert_int_equal(t->wait_ns, 250 + 60);
	/* outside the window: nothing */
	add(&tl, 8, 0, 2100, 2200, 50);
	assert_null(sp_taskline_find(&tl, 8));
	sp_taskline_reset(&tl);
	assert_null(sp_taskline_find(&tl, 7));
	sp_taskline_release(&tl);
}

static void test_cpus_and_many_tasks(void **st)
{
	const bool cpus[2] = { false, true };
	struct sp_taskline tl;
	const struct sp_taskline_task *t;

	(void)st;
	assert_int_equal(sp_taskline_init(&tl, 0, 1000, 10, cpus, 2, 0), 0);
	add(&tl, 5, 0, 100, 300, 0);		/* on a CPU not counted */
	assert_null(sp_taskline_find(&tl, 5));
	add(&tl, 5, 0, 400, 500, 100);		/* its wait still counts */
	t = sp_taskline_find(&tl, 5);
	assert_non_null(t);
	assert_int_equal(t->run_ns, 0);
	assert_int_equal(t->wait_ns, 100);
	assert_int_equal(state(t, 4), SP_TASKLINE_SLEEP);
	/* the index grows */
	for (int pid = 100; pid < 2100; pid++)
		add(&tl, pid, 1, (uint64_t)pid % 900, (uint64_t)pid % 900 + 50, 0);
	assert_int_equal(tl.nr_tasks, 2001);
	for (int pid = 100; pid < 2100; pid++)
		assert_int_equal(sp_taskline_find(&tl, pid)->run_ns, 50);
	sp_taskline_release(&tl);
}

static void test_runlist(void **st)
{
	struct sp_taskline tl;

	(void)st;
	assert_int_equal(sp_taskline_init(&tl, 1000, 2000, 10, NULL, 0, 3), 0);
	add(&tl, 1, 0, 900, 1100, 0);	/* overlaps: kept whole */
	add(&tl, 2, 0, 1100, 1100, 5);	/* no length */
	add(&tl, 3, 0, 2000, 2100, 0);	/* after the window */
	add(&tl, 4, 1, 1500, 1600, 0);
	assert_true(sp_runlist_usable(&tl.runs));
	assert_int_equal(tl.runs.nr_runs, 2);
	assert_int_equal(tl.runs.runs[0].start_ns, 900);
	assert_int_equal(tl.runs.runs[0].end_ns, 1100);
	assert_int_equal(tl.runs.runs[1].pid, 4);
	add(&tl, 5, 1, 1600, 1700, 0);
	assert_int_equal(tl.runs.nr_runs, 3);
	add(&tl, 6, 1, 1700, 1800, 0);	/* one too many: none kept */
	assert_false(sp_runlist_usable(&tl.runs));
	assert_int_equal(tl.runs.nr_runs, 0);
	add(&tl, 7, 1, 1800, 1900, 0);
	assert_int_equal(tl.runs.nr_runs, 0);
	sp_taskline_reset(&tl);		/* a second pass starts afresh */
	assert_true(sp_runlist_usable(&tl.runs));
	sp_taskline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_cpus_and_many_tasks),
		cmocka_unit_test(test_runlist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
