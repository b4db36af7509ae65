// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes from fork and exec (sp_model_tgid) and what --target and
 * --target-process select (model/target.c), from synthetic events shaped
 * like traces/overload.dat: a shell forks a child that runs exec and then
 * starts threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/model/model.h"
#include "schedplot/model/target.h"

static struct sp_model m;

static void ev(uint64_t ts, int type, int common, int pid, const char *comm, int other,
	       const char *other_comm)
{
	struct sp_event e = {
		.ts_ns = ts, .cpu = 0, .common_pid = common, .type = (uint8_t)type,
		.pid = pid, .other_pid = other, .comm = comm, .other_comm = other_comm,
		.target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &e), 0);
}

/*
 * sh 100 forks 101, which runs exec ("bench") and starts threads 102 and
 * 103; a thread 103 forks 104 that never runs exec; 200 ("kworker") is
 * never forked in the trace; 300 forked by 100 keeps "sh" (a subshell).
 */
static void build(void)
{
	uint64_t start = 0;

	assert_int_equal(sp_model_init(&m, 1, &start, 1000, false, NULL, NULL), 0);
	ev(10, SP_EV_SWITCH, 0, 0, "swapper/0", 100, "sh");
	ev(20, SP_EV_FORK, 100, 100, "sh", 101, "sh");
	ev(30, SP_EV_FORK, 100, 100, "sh", 300, "sh");
	ev(40, SP_EV_SWITCH, 100, 100, "sh", 101, "sh");
	ev(50, SP_EV_EXEC, 101, 101, NULL, -1, NULL);
	ev(60, SP_EV_SWITCH, 101, 101, "bench", 101, "bench");
	ev(70, SP_EV_FORK, 101, 101, "bench", 102, "bench");
	ev(80, SP_EV_FORK, 101, 101, "bench", 103, "bench");
	ev(90, SP_EV_SWITCH, 101, 101, "bench", 103, "bench");
	ev(100, SP_EV_FORK, 103, 103, "bench", 104, "helper");
	ev(110, SP_EV_SWITCH, 103, 103, "bench", 200, "kworker/0:1");
	ev(120, SP_EV_SWITCH, 200, 200, "kworker/0:1", 0, "swapper/0");
	assert_int_equal(sp_model_finish(&m), 0);
}

static void test_tgid(void **state)
{
	build();
	assert_true(sp_model_task(&m, 101)->exec_seen);
	/* the shell that started the benchmark is not its process */
	assert_int_equal(sp_model_tgid(&m, 101), 101);
	assert_int_equal(sp_model_tgid(&m, 102), 101);
	assert_int_equal(sp_model_tgid(&m, 103), 101);
	assert_int_equal(sp_model_tgid(&m, 104), 101);
	assert_int_equal(sp_model_tgid(&m, 100), 100);
	assert_int_equal(sp_model_tgid(&m, 300), 100);
	/* never forked in the trace: its own process */
	assert_int_equal(sp_model_tgid(&m, 200), 200);
	assert_int_equal(sp_model_tgid(&m, 4242), 4242);
	sp_model_release(&m);
}

static void test_patterns(void **state)
{
	char *tasks[] = { "kworker/*", "102" };
	char *procs[] = { "bench" };
	char *by_pid[] = { "101" };
	char *none[] = { "nosuch", "999" };
	struct sp_target tg = { .tasks = tasks, .nr_tasks = 2 };
	bool unmatched[2];

	build();
	/* --target: globs on the command, numbers on the pid */
	assert_true(sp_target_match(&tg, &m, 200, "kworker/0:1"));
	assert_true(sp_target_match(&tg, &m, 102, "bench"));
	assert_false(sp_target_match(&tg, &m, 103, "bench"));
	assert_false(sp_target_match(&tg, &m, 101, "bench"));
	/* --target-process by the leader's command: every thread, not the shell */
	tg = (struct sp_target){ .procs = procs, .nr_procs = 1 };
	for (int pid = 101; pid <= 104; pid++)
		assert_true(sp_target_match(&tg, &m, pid, sp_model_comm(&m, pid)));
	assert_false(sp_target_match(&tg, &m, 100, "sh"));
	assert_false(sp_target_match(&tg, &m, 200, "kworker/0:1"));
	/* by the leader's pid */
	tg = (struct sp_target){ .procs = by_pid, .nr_procs = 1 };
	assert_true(sp_target_match(&tg, &m, 104, "helper"));
	assert_false(sp_target_match(&tg, &m, 300, "sh"));
	assert_false(sp_target_match(&tg, &m, 0, "<idle>"));
	/* no patterns: everything */
	tg = (struct sp_target){ 0 };
	assert_true(sp_target_match(&tg, &m, 300, "sh"));
	/* patterns that select nothing are told apart */
	tg = (struct sp_target){ .tasks = none, .nr_tasks = 2 };
	assert_int_equal(sp_target_unmatched(&tg, &m, unmatched), 2);
	tg = (struct sp_target){ .tasks = tasks, .nr_tasks = 1, .procs = none, .nr_procs = 1 };
	assert_int_equal(sp_target_unmatched(&tg, &m, unmatched), 1);
	assert_false(unmatched[0]);
	assert_true(unmatched[1]);
	sp_model_release(&m);
}

/* --target-tree: a task and all it forked, exec or not (trace-cmd record -c) */
static void test_trees(void **state)
{
	char *sh[] = { "sh" };
	char *thread[] = { "103" };
	char *none[] = { "nosuch" };
	struct sp_target tg = { .trees = sh, .nr_trees = 1 };
	bool unmatched[2];

	build();
	/* the shell, the benchmark it started (exec), its threads, their child */
	for (int pid = 100; pid <= 104; pid++)
		assert_true(sp_target_match(&tg, &m, pid, sp_model_comm(&m, pid)));
	assert_true(sp_target_match(&tg, &m, 300, "sh"));
	assert_false(sp_target_match(&tg, &m, 200, "kworker/0:1"));
	assert_false(sp_target_match(&tg, &m, 0, "swapper/0"));
	/* --target-process sh leaves out the benchmark that ran exec */
	tg = (struct sp_target){ .procs = sh, .nr_procs = 1 };
	assert_false(sp_target_match(&tg, &m, 102, "bench"));
	/* by pid: a thread and what it forked, not its siblings or parent */
	tg = (struct sp_target){ .trees = thread, .nr_trees = 1 };
	assert_true(sp_target_match(&tg, &m, 103, "bench"));
	assert_true(sp_target_match(&tg, &m, 104, "helper"));
	assert_false(sp_target_match(&tg, &m, 102, "bench"));
	assert_false(sp_target_match(&tg, &m, 101, "bench"));
	/* a tree of no root is told apart, after the other patterns */
	tg = (struct sp_target){ .tasks = sh, .nr_tasks = 1, .trees = none, .nr_trees = 1 };
	assert_int_equal(sp_target_unmatched(&tg, &m, unmatched), 1);
	assert_false(unmatched[0]);
	assert_true(unmatched[1]);
	sp_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tgid),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
