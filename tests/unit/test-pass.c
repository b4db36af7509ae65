// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pass and the scope: consumers are told in the order registered, each
 * only of what it asked for, and reset together; the scope's predicates
 * count a wait, a run and a migration as doc/design.md ("Scope") says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"
#include "schedplot/model/target.h"

static char told[64];
static size_t nr_told;

static void note(char c)
{
	assert_true(nr_told + 1 < sizeof(told));
	told[nr_told++] = c;
	told[nr_told] = '\0';
}

static void a_wait(void *data, const struct sp_wait *w)
{
	note('a');
}

static void b_wait(void *data, const struct sp_wait *w)
{
	note('b');
}

static void b_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	note('R');
}

static void reset(void *data)
{
	note(*(const char *)data);
}

static struct sp_model m;

static void event(uint64_t ts, int cpu, int common, int type, int pid, int other)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = (uint8_t)type,
		.pid = pid, .other_pid = other, .target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void test_consumers_in_order(void **state)
{
	static const char a = 'A', b = 'B';
	uint64_t start[1] = { 0 };
	struct sp_pass p;

	sp_pass_init(&p);
	assert_int_equal(sp_pass_add(&p, &(struct sp_model_observer){
		.wait = a_wait, .reset = reset, .data = (void *)&a }), 0);
	assert_int_equal(sp_pass_add(&p, &(struct sp_model_observer){
		.wait = b_wait, .run = b_run, .reset = reset, .data = (void *)&b }), 0);
	assert_int_equal(sp_pass_add(&p, NULL), 0);
	/* what nobody asked for is not filed */
	assert_int_equal(p.nr_wait, 2);
	assert_int_equal(p.nr_run, 1);
	assert_int_equal(p.nr_steps, 0);
	assert_null(p.steps[0].fn);

	nr_told = 0;
	sp_pass_reset(&p);
	assert_string_equal(told, "AB");

	nr_told = 0;
	assert_int_equal(sp_model_init(&m, 1, start, 100, false, &p, NULL), 0);
	event(0, 0, 0, SP_EV_OTHER, -1, -1);
	event(10, 0, 0, SP_EV_WAKEUP, 5, -1);
	event(20, 0, 0, SP_EV_SWITCH, 0, 5);	/* idle ran 0-20; 5 waited 10-20 */
	assert_int_equal(sp_model_finish(&m), 0);
	/* runs: idle's, then 5's at the end; the wait to a, then to b */
	assert_non_null(strstr(told, "ab"));
	assert_int_equal((int)strspn(told, "abR"), (int)nr_told);
	sp_model_release(&m);
}

static void pid_run_info(void *data, const struct sp_run *r)
{
	note(r->pid ? 'T' : 'I');
}

/* The idle task's runs: told when any run_info consumer wants them, else not held. */
static void test_run_info_no_idle(void **state)
{
	const struct sp_model_observer tasks_only = { .run_info = pid_run_info,
						      .run_info_no_idle = true };
	uint64_t start[1] = { 0 };
	struct sp_pass p;
	int both;

	for (both = 0; both < 2; both++) {
		sp_pass_init(&p);
		assert_int_equal(sp_pass_add(&p, &tasks_only), 0);
		if (both)
			assert_int_equal(sp_pass_add(&p, &(struct sp_model_observer){
				.run_info = pid_run_info }), 0);
		assert_int_equal(p.nr_run_info_idle, both);
		nr_told = 0;
		told[0] = '\0';
		assert_int_equal(sp_model_init(&m, 1, start, 100, false, &p, NULL), 0);
		event(0, 0, 0, SP_EV_OTHER, -1, -1);
		event(10, 0, 0, SP_EV_WAKEUP, 5, -1);
		event(20, 0, 0, SP_EV_SWITCH, 0, 5);	/* idle ran 0-20 */
		event(30, 0, 5, SP_EV_SWITCH, 5, 0);	/* 5 ran 20-30 */
		assert_int_equal(sp_model_finish(&m), 0);
		/* idle's runs 0-20 and 30-100 to both consumers, or to none */
		assert_string_equal(told, both ? "IITTII" : "T");
		sp_model_release(&m);
	}
}

static void test_pass_full(void **state)
{
	struct sp_model_observer obs = { .wait = a_wait };
	struct sp_pass p;
	int i;

	sp_pass_init(&p);
	for (i = 0; i < SP_PASS_MAX_CONSUMERS; i++)
		assert_int_equal(sp_pass_add(&p, &obs), 0);
	assert_int_equal(sp_pass_add(&p, &obs), -ENOSPC);
	assert_int_equal(p.error, -ENOSPC);
	assert_null(p.wait[SP_PASS_MAX_CONSUMERS].fn);
}

static void test_scope_predicates(void **state)
{
	static char *const names[] = { "wo*" };
	const struct sp_target tg = { .tasks = names, .nr_tasks = 1 };
	const bool cpus[2] = { false, true };
	uint64_t start[2] = { 0, 0 };
	struct sp_scope s;
	struct sp_wait w = { .start_ns = 150, .pid = 7, .cpu = 1 };
	struct sp_run r = { .start_ns = 100, .end_ns = 200, .cpu = 1, .pid = 7 };

	assert_int_equal(sp_model_init(&m, 2, start, 1000, false, NULL, NULL), 0);
	assert_int_equal(sp_model_set_comm(&m, 7, "worker"), 0);
	assert_int_equal(sp_model_set_comm(&m, 8, "other"), 0);

	sp_scope_init(&s, 100, 200);
	assert_false(sp_scope_narrowed(&s));
	assert_true(sp_scope_wait(&s, &w));
	w.start_ns = 201;
	assert_false(sp_scope_wait(&s, &w));	/* began after the window */
	w.start_ns = 200;
	assert_true(sp_scope_wait(&s, &w));	/* both ends inside */

	s.cpus = cpus;
	s.nr_cpus = 2;
	s.target = &tg;
	s.model = &m;
	assert_true(sp_scope_narrowed(&s));
	assert_true(sp_scope_wait(&s, &w));
	w.cpu = 0;
	assert_false(sp_scope_wait(&s, &w));	/* ended on a CPU left out */
	w.cpu = 1;
	w.pid = 8;
	assert_false(sp_scope_wait(&s, &w));	/* not a target */

	/* a run: overlapping the window, by its name as it began */
	assert_false(sp_scope_run(&s, &r));	/* nameless as it began */
	r.start_comm = sp_model_task(&m, 7)->comm;
	assert_true(sp_scope_run(&s, &r));
	r.end_ns = 100;
	r.start_ns = 50;
	assert_false(sp_scope_run(&s, &r));	/* touches the window's start only */
	r.start_ns = r.end_ns = 100;
	assert_true(sp_scope_run(&s, &r));	/* of no length, inside */
	r.pid = 8;
	r.start_comm = sp_model_task(&m, 8)->comm;
	assert_false(sp_scope_run(&s, &r));

	/* a migration: inside the window, from or to a CPU counted */
	assert_true(sp_scope_migration(&s, 150, 7, 0, 1));
	assert_false(sp_scope_migration(&s, 150, 7, 0, -1));
	assert_false(sp_scope_migration(&s, 250, 7, 0, 1));
	assert_false(sp_scope_migration(&s, 150, 8, 1, 1));
	sp_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consumers_in_order),
		cmocka_unit_test(test_run_info_no_idle),
		cmocka_unit_test(test_pass_full),
		cmocka_unit_test(test_scope_predicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
