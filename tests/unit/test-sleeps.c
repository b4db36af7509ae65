// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleeps (doc/design.md "Sleeps") from hand-made runs: each sleep's state
 * from the switch-out that began it, its length up to the wakeup, its
 * waker; its blocking place from the records that name it; and the task
 * line's share of sleep in state D.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "schedplot/analysis/sleeps.h"
#include "schedplot/model/model.h"
#include "schedplot/model/taskline.h"

static struct sp_run run(int pid, uint64_t start, uint64_t end, uint64_t wait, int waker,
			 int how, const char *state)
{
	return (struct sp_run){ .start_ns = start, .end_ns = end, .cpu = 0, .pid = pid,
				.wait_ns = wait, .waker = waker, .prev_cpu = 0, .end = (uint8_t)how,
				.end_state = state, .end_runnable = state && state[0] == 'R' };
}

/*
 * Task 7: runs [0, 100) and is switched out in D; woken by 9 at 250, runs
 * at 300 (a D sleep of 150 ns), out in S at 400; an interrupt wakes it, it
 * runs at once at 1000 (an S sleep of 600 ns); preempted (R+) at 1100 and
 * back at 1200: no sleep; out in I at 1300, woken by 9 and run at 2000 (700
 * ns of another state); its run then ends by a repair (state unknown), and
 * the next begins no sleep.
 */
static void test_sleeps(void **state)
{
	struct sp_run runs[] = {
		run(7, 0, 100, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D"),
		run(7, 300, 400, 50, 9, SP_RUN_END_SWITCH, "S"),
		run(7, 1000, 1100, 0, SP_WAKER_IRQ, SP_RUN_END_SWITCH, "R+"),
		run(7, 1200, 1300, 100, SP_WAKER_NONE, SP_RUN_END_SWITCH, "I"),
		run(7, 2000, 2100, 0, 9, SP_RUN_END_REPAIR, NULL),
		run(7, 3000, 3100, 0, 9, SP_RUN_END_TRACE, NULL),
	};
	const struct sp_sleep_task *t;
	const struct sp_behind_entry *e;
	struct sp_behind_entry *v;
	struct sp_sleeps sl;
	struct sp_scope scope;
	uint64_t total;
	size_t i, n, nr;

	(void)state;
	sp_scope_init(&scope, 0, UINT64_MAX);
	sp_sleeps_init(&sl, &scope);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		sp_sleeps_add(&sl, &runs[i]);
	sp_sleeps_finish(&sl);
	assert_int_equal(sl.error, 0);
	t = sp_sleeps_find(&sl, 7);
	assert_non_null(t);
	assert_int_equal(t->nr[SP_SLEEP_D], 1);
	assert_int_equal(t->ns[SP_SLEEP_D], 150);
	assert_int_equal(t->nr[SP_SLEEP_S], 1);
	assert_int_equal(t->ns[SP_SLEEP_S], 600);
	assert_int_equal(t->nr[SP_SLEEP_OTHER], 1);
	assert_int_equal(t->ns[SP_SLEEP_OTHER], 700);
	assert_null(sp_sleeps_find(&sl, 9));
	/* who woke them: 9 twice, the interrupt once */
	v = sp_behind_table_sorted(&sl.wakers, &n);
	assert_non_null(v);
	e = sp_behind_of(v, n, 7, &total, &nr);
	assert_int_equal(nr, 2);
	assert_int_equal(e[0].antagonist, 9);
	assert_int_equal(e[0].ns, 2);
	assert_int_equal(e[1].antagonist, SP_WAKER_IRQ);
	assert_int_equal(e[1].ns, 1);
	free(v);
	/* a window: the sleeps that began in it */
	sp_sleeps_release(&sl);
	sp_scope_init(&scope, 200, UINT64_MAX);
	sp_sleeps_init(&sl, &scope);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		sp_sleeps_add(&sl, &runs[i]);
	sp_sleeps_finish(&sl);
	t = sp_sleeps_find(&sl, 7);
	assert_non_null(t);
	assert_int_equal(t->nr[SP_SLEEP_D], 0);
	assert_int_equal(t->nr[SP_SLEEP_S], 1);
	sp_sleeps_release(&sl);
	assert_int_equal(sp_sleep_state_of("D|K"), SP_SLEEP_D);
	assert_int_equal(sp_sleep_state_of("S"), SP_SLEEP_S);
	assert_int_equal(sp_sleep_state_of("I"), SP_SLEEP_OTHER);
	assert_int_equal(sp_sleep_state_of(NULL), SP_SLEEP_OTHER);
}

/*
 * Runs told out of the order of their ends, as a pass tells a run a
 * repair ended: task 7 out in D at 100, woken at 250 by 9; its run
 * [300, 400) is told after [1000, 1100), which an interrupt woke it for
 * at 950 after an S sleep from 400.  Each sleep is measured from the run
 * before it in time.
 */
static void test_order(void **state)
{
	struct sp_run runs[] = {
		run(7, 0, 100, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D"),
		run(7, 1000, 1100, 50, SP_WAKER_IRQ, SP_RUN_END_SWITCH, "S"),
		run(7, 300, 400, 50, 9, SP_RUN_END_SWITCH, "S"),
	};
	const struct sp_sleep_task *t;
	struct sp_sleeps sl;
	struct sp_scope scope;

	(void)state;
	sp_scope_init(&scope, 0, UINT64_MAX);
	sp_sleeps_init(&sl, &scope);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		sp_sleeps_add(&sl, &runs[i]);
	sp_sleeps_finish(&sl);
	assert_int_equal(sl.error, 0);
	t = sp_sleeps_find(&sl, 7);
	assert_non_null(t);
	assert_int_equal(t->nr[SP_SLEEP_D], 1);
	assert_int_equal(t->ns[SP_SLEEP_D], 150);
	assert_int_equal(t->nr[SP_SLEEP_S], 1);
	assert_int_equal(t->ns[SP_SLEEP_S], 550);
	sp_sleeps_release(&sl);
}

/*
 * Blocking places (doc/design.md "Sleeps"), task 7 on CPU 0:
 *   [0, 100) out in D; a stack on CPU 1 at 102 (not the CPU it left), its
 *   stack on CPU 0 at 105 (__iomap_dio_rw), a reason at 250 (a stack names
 *   it first); woken at 250, runs [300, 400): D 150 ns in __iomap_dio_rw;
 *   out in S; only a reason at 900 (pipe_read); woken at 950, runs [1000,
 *   1100): S 550 ns in pipe_read;
 *   out in S; a stack at 1050, before the sleep: S 900 ns until its run at
 *   2000, no place;
 *   [2000, 2100) out in D, a stack at 2101; runs at 2500 at once: D 400 ns
 *   in __iomap_dio_rw.
 * So: __iomap_dio_rw D 2 sleeps 550 ns, pipe_read S 1 sleep 550 ns (S
 * first on the tie).
 */
static void test_places(void **state)
{
	struct sp_run runs[] = {
		run(7, 0, 100, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D"),
		run(7, 300, 400, 50, 9, SP_RUN_END_SWITCH, "S"),
		run(7, 1000, 1100, 50, 9, SP_RUN_END_SWITCH, "S"),
		run(7, 2000, 2100, 0, SP_WAKER_IRQ, SP_RUN_END_SWITCH, "D"),
		run(7, 2500, 2600, 0, SP_WAKER_IRQ, SP_RUN_END_TRACE, NULL),
	};
	const struct sp_sleep_place *pl[3];
	const struct sp_sleep_task *t;
	struct sp_sleeps sl;
	struct sp_scope scope;

	(void)state;
	sp_scope_init(&scope, 0, UINT64_MAX);
	sp_sleeps_init(&sl, &scope);
	assert_false(sl.has_places);
	sp_sleeps_add(&sl, &runs[0]);
	sp_sleeps_place_seen(&sl, SP_SLEEP_STACK, 7, 1, 102, "wrong_cpu");
	sp_sleeps_place_seen(&sl, SP_SLEEP_STACK, 7, 0, 105, "__iomap_dio_rw");
	sp_sleeps_place_seen(&sl, SP_SLEEP_REASON, 7, 1, 250, "reason_after_stack");
	sp_sleeps_add(&sl, &runs[1]);
	sp_sleeps_place_seen(&sl, SP_SLEEP_REASON, 7, 1, 900, "pipe_read");
	sp_sleeps_place_seen(&sl, SP_SLEEP_STACK, 7, 0, 1050, "before_the_sleep");
	sp_sleeps_add(&sl, &runs[2]);
	sp_sleeps_add(&sl, &runs[3]);
	sp_sleeps_place_seen(&sl, SP_SLEEP_STACK, 7, 0, 2101, "__iomap_dio_rw");
	sp_sleeps_add(&sl, &runs[4]);
	sp_sleeps_finish(&sl);
	assert_int_equal(sl.error, 0);
	assert_true(sl.has_places);
	t = sp_sleeps_find(&sl, 7);
	assert_non_null(t);
	assert_int_equal(t->nr[SP_SLEEP_S], 2);
	assert_int_equal(t->ns[SP_SLEEP_S], 1450);
	assert_int_equal(t->nr[SP_SLEEP_D], 2);
	assert_int_equal(t->ns[SP_SLEEP_D], 550);
	assert_int_equal(sp_sleep_task_places(t, pl, 3), 2);
	assert_string_equal(sl.places[pl[0]->place], "pipe_read");
	assert_int_equal(pl[0]->state, SP_SLEEP_S);
	assert_int_equal(pl[0]->nr, 1);
	assert_int_equal(pl[0]->ns, 550);
	assert_string_equal(sl.places[pl[1]->place], "__iomap_dio_rw");
	assert_int_equal(pl[1]->state, SP_SLEEP_D);
	assert_int_equal(pl[1]->nr, 2);
	assert_int_equal(pl[1]->ns, 550);
	assert_int_equal(sp_sleep_task_places(t, pl, 1), 1);
	assert_string_equal(sl.places[pl[0]->place], "pipe_read");
	sp_sleeps_release(&sl);
}

/* The place a stack names: past the tracing and the scheduling functions. */
static void test_place_of_stack(void **state)
{
	static const char *const ext4[] = {
		"trace_event_raw_event_sched_switch", "__traceiter_sched_switch", "__schedule",
		"schedule", "io_schedule", "bit_wait_io", "__wait_on_bit",
		"out_of_line_wait_on_bit", "__ext4_find_entry", "ext4_lookup",
	};
	static const char *const lock[] = { NULL, "schedule", "schedule_preempt_disabled",
					    "__mutex_lock", "mutex_lock_killable", "do_wait" };
	static const char *const plumbing[] = { "__schedule", "schedule", "schedule_timeout",
						"wait_for_completion_killable", NULL };

	(void)state;
	assert_string_equal(sp_sleep_place_of_stack(ext4, 10), "__ext4_find_entry");
	assert_string_equal(sp_sleep_place_of_stack(lock, 6), "do_wait");
	assert_null(sp_sleep_place_of_stack(plumbing, 5));
	assert_null(sp_sleep_place_of_stack(ext4, 0));
}

/*
 * The task line: 10 columns of 100 ns from 0.  Task 7 runs [0, 100), out
 * in D, runnable again at 500 (a wait of 50 before its run at 550): columns
 * 1 to 4 are blocked.  Over [1000, 2000), task 8's D sleep from 50, before
 * the window, until its run at 1500 fills the first half.
 */
static void test_taskline_blocked(void **state)
{
	struct sp_run a = run(7, 0, 100, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D");
	struct sp_run b = run(7, 550, 600, 50, 9, SP_RUN_END_SWITCH, "S");
	struct sp_run c = run(8, 0, 50, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D");
	struct sp_run d = run(8, 1500, 1600, 0, 9, SP_RUN_END_SWITCH, "S");
	const struct sp_taskline_task *t;
	struct sp_taskline tl;
	unsigned int col;

	(void)state;
	assert_int_equal(sp_taskline_init(&tl, 0, 1000, 10, NULL, 0, 0), 0);
	sp_taskline_add(&tl, &a);
	sp_taskline_add(&tl, &b);
	t = sp_taskline_find(&tl, 7);
	assert_non_null(t);
	assert_int_equal(t->blocked_ns, 400);
	assert_int_equal(sp_taskline_state(&t->cells[0]), SP_TASKLINE_CPU + 0);
	for (col = 1; col <= 4; col++) {
		assert_int_equal(sp_taskline_state(&t->cells[col]), SP_TASKLINE_BLOCKED);
		assert_int_equal(t->cells[col].blocked, SP_TASKLINE_SHARE_MAX);
	}
	assert_int_equal(sp_taskline_state(&t->cells[5]), SP_TASKLINE_CPU + 0);
	assert_int_equal(t->cells[5].wait, SP_TASKLINE_SHARE_MAX / 2 + 1);
	assert_int_equal(sp_taskline_state(&t->cells[6]), SP_TASKLINE_SLEEP);
	sp_taskline_release(&tl);

	assert_int_equal(sp_taskline_init(&tl, 1000, 2000, 10, NULL, 0, 0), 0);
	sp_taskline_add(&tl, &c);
	assert_null(sp_taskline_find(&tl, 8));	/* nothing in the window yet */
	sp_taskline_add(&tl, &d);
	t = sp_taskline_find(&tl, 8);
	assert_non_null(t);
	assert_int_equal(t->blocked_ns, 500);
	assert_int_equal(sp_taskline_state(&t->cells[4]), SP_TASKLINE_BLOCKED);
	assert_int_equal(sp_taskline_state(&t->cells[5]), SP_TASKLINE_CPU + 0);
	sp_taskline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeps),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_places),
		cmocka_unit_test(test_place_of_stack),
		cmocka_unit_test(test_taskline_blocked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
