// SPDX-License-Identifier: GPL-2.0-only
/*
 * Migration classes and wakeup placement from synthetic events: each class
 * of analysis/migrations.h and each placement of analysis/placement.h, with
 * hand-computed expectations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/placement.h"
#include "schedplot/model/model.h"

static struct sp_model m;
static struct sp_migrations mg;
static struct sp_placement_stats pl;
/* the migrations told, by their time (not told in time order: some are held) */
static struct told { uint64_t ts; enum sp_mig_class cls; bool cross; } told[16];
static int nr_told;

static void on_migration(void *data, uint64_t ts, int pid, int from, int to)
{
	(void)data;
	assert_true(nr_told < 16);
	told[nr_told].ts = ts;
	told[nr_told].cls = sp_migrations_add(&mg, ts, pid, from, to, &told[nr_told].cross);
	nr_told++;
}

/* The migration at @ts was told once, in class @cls, crossing a socket or not. */
static void expect(uint64_t ts, enum sp_mig_class cls, bool cross)
{
	int i, n = 0;

	for (i = 0; i < nr_told; i++) {
		if (told[i].ts != ts)
			continue;
		n++;
		assert_int_equal(told[i].cls, cls);
		assert_int_equal(told[i].cross, cross);
	}
	assert_int_equal(n, 1);
}

static void on_wait(void *data, const struct sp_wait *w)
{
	(void)data;
	sp_placement_add(&pl, w);
}

static void on_extra(void *data, const struct sp_event *ev)
{
	(void)data;
	sp_migrations_extra(&mg, ev);
}

/* 4 CPUs, CPUs 0-1 on socket 0, 2-3 on socket 1 */
static const int sockets[4] = { 0, 0, 1, 1 };

static void setup(bool waking)
{
	struct sp_model_observer obs = {
		.migration = on_migration, .wait = on_wait, .extra = on_extra,
	};
	uint64_t start[4] = { 0, 0, 0, 0 };
	struct sp_pass p;

	nr_told = 0;
	sp_pass_init_one(&p, &obs);
	assert_int_equal(sp_model_init(&m, 4, start, 1000, waking, &p, NULL), 0);
	sp_migrations_init(&mg, &m, sockets, 4, 0, 1000);
	mg.move_numa_req = 0;
	mg.swap_numa_req = 1;
	sp_placement_init(&pl, 0, 1000);
}

static void add(struct sp_event ev)
{
	if (ev.type != SP_EV_SWITCH && !ev.other_pid)
		ev.other_pid = -1;
	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void sw(uint64_t ts, int cpu, int prev, bool runnable, int next)
{
	add((struct sp_event){ .ts_ns = ts, .cpu = cpu, .common_pid = prev,
			       .type = SP_EV_SWITCH, .pid = prev, .other_pid = next,
			       .prev_runnable = runnable, .target_cpu = -1, .orig_cpu = -1 });
}

static void wake(uint64_t ts, int cpu, int common, enum sp_event_type type, int pid, int to)
{
	add((struct sp_event){ .ts_ns = ts, .cpu = cpu, .common_pid = common, .type = type,
			       .pid = pid, .target_cpu = to, .orig_cpu = -1 });
}

static void migrate(uint64_t ts, int cpu, int common, int pid, int from, int to)
{
	add((struct sp_event){ .ts_ns = ts, .cpu = cpu, .common_pid = common,
			       .type = SP_EV_MIGRATE, .pid = pid, .orig_cpu = from,
			       .target_cpu = to });
}

static void numa(uint64_t ts, int cpu, int common, int request, int64_t a, int64_t b)
{
	union sp_value v[2] = { { .s64 = a }, { .s64 = b } };

	add((struct sp_event){ .ts_ns = ts, .cpu = cpu, .common_pid = common,
			       .type = SP_EV_EXTRA, .extra = (uint16_t)request, .values = v,
			       .pid = -1, .target_cpu = -1, .orig_cpu = -1 });
}

/* asleep: wakeup; waiting or running: balance; named by NUMA records: numa */
static void test_classes(void **state)
{
	(void)state;
	setup(false);
	sw(0, 0, 0, false, 10);
	sw(0, 1, 0, false, 20);
	sw(0, 2, 0, false, 0);
	sw(0, 3, 0, false, 0);
	sw(10, 0, 10, false, 30);			/* 10 sleeps */
	migrate(20, 1, 20, 10, 0, 2);			/* placed while asleep */
	wake(21, 1, 20, SP_EV_WAKEUP, 10, 2);
	sw(30, 1, 20, true, 40);			/* 20 preempted: waiting */
	migrate(31, 3, 0, 20, 1, 3);			/* pulled by idle CPU 3 */
	sw(32, 3, 0, false, 20);
	migrate(40, 3, 20, 20, 3, 2);			/* running: active balance */
	numa(50, 1, 40, 0, 30, 0);			/* sched_move_numa pid=30 */
	migrate(51, 0, 30, 30, 0, 1);			/* recorded where 30 runs */
	numa(60, 1, 40, 1, 40, 20);			/* sched_swap_numa 40 <-> 20 */
	migrate(61, 1, 40, 40, 1, 2);
	migrate(62, 3, 20, 20, 2, 1);
	migrate(63, 3, 20, 20, 1, 3);			/* nothing pending any more */
	assert_int_equal(sp_model_finish(&m), 0);
	expect(20, SP_MIG_WAKEUP, true);
	expect(31, SP_MIG_BALANCE, true);
	expect(40, SP_MIG_BALANCE, false);
	expect(51, SP_MIG_NUMA, false);
	expect(61, SP_MIG_NUMA, true);
	expect(62, SP_MIG_NUMA, true);
	expect(63, SP_MIG_BALANCE, true);
	assert_int_equal(mg.nr[SP_MIG_WAKEUP], 1);
	assert_int_equal(mg.nr[SP_MIG_BALANCE], 3);
	assert_int_equal(mg.nr[SP_MIG_NUMA], 3);
	assert_int_equal(mg.nr_cross_socket, 5);
	sp_model_release(&m);
}

/* sched_waking as the wakeup comes before the placement: still a wakeup, until it runs */
static void test_waking_trace(void **state)
{
	(void)state;
	setup(true);
	sw(0, 0, 0, false, 10);
	sw(0, 1, 0, false, 20);
	sw(10, 0, 10, false, 0);			/* 10 sleeps */
	wake(20, 1, 20, SP_EV_WAKING, 10, 0);
	migrate(21, 1, 20, 10, 0, 1);
	sw(30, 1, 20, true, 10);			/* 10 runs, 20 waits (preempted) */
	migrate(40, 0, 0, 20, 1, 0);
	assert_int_equal(sp_model_finish(&m), 0);
	expect(21, SP_MIG_WAKEUP, false);
	expect(40, SP_MIG_BALANCE, false);
	sp_model_release(&m);
}

/*
 * A repair found after a migration can show the task was current at its
 * time: CPU 0 switches to 30 at 10, but its next sched record, at 40,
 * names 10, so 10 was current on CPU 0 from 10 (a missed switch).  The
 * migration of 10 at 20, seen while the model held it asleep, moved a
 * running task: load balancing, not a placement at wakeup.
 */
static void test_repair_after_migration(void **state)
{
	(void)state;
	setup(false);
	sw(0, 0, 0, false, 10);
	sw(0, 1, 0, false, 20);
	sw(5, 0, 10, false, 0);				/* 10 sleeps */
	sw(10, 0, 0, false, 30);
	migrate(20, 1, 20, 10, 1, 0);			/* 10 asleep, as far as known */
	wake(25, 1, 20, SP_EV_WAKEUP, 10, 0);		/* found it current: nothing */
	sw(40, 0, 10, false, 0);			/* common_pid 10: 30 left at 10 */
	assert_int_equal(sp_model_finish(&m), 0);
	expect(20, SP_MIG_BALANCE, false);
	assert_int_equal(sp_model_task(&m, 10)->wait_ns, 0);
	sp_model_release(&m);
}

/* stayed, left an idle previous CPU, left a busy one; first runs not counted */
static void test_placement(void **state)
{
	(void)state;
	setup(false);
	sw(0, 0, 0, false, 10);
	sw(0, 1, 0, false, 20);
	sw(0, 2, 0, false, 0);
	sw(0, 3, 0, false, 0);
	sw(10, 0, 10, false, 0);			/* 10 sleeps, CPU 0 idles */
	sw(10, 1, 20, false, 0);			/* 20 sleeps, CPU 1 idles */
	wake(20, 2, 0, SP_EV_WAKEUP, 10, 0);
	sw(25, 0, 0, false, 10);			/* stayed, waited 5 */
	wake(30, 2, 0, SP_EV_WAKEUP, 20, 2);
	sw(37, 2, 0, false, 20);			/* left idle CPU 1, waited 7 */
	wake(40, 3, 0, SP_EV_WAKEUP, 50, 3);
	sw(41, 3, 0, false, 50);			/* 50's first run */
	sw(50, 2, 20, false, 0);			/* 20 sleeps on CPU 2 (idle) */
	sw(51, 2, 0, false, 60);			/* CPU 2 busy with 60 */
	wake(60, 3, 50, SP_EV_WAKEUP, 20, 3);
	sw(71, 3, 50, false, 20);			/* left busy CPU 2, waited 11 */
	assert_int_equal(sp_model_finish(&m), 0);
	assert_int_equal(pl.by[SP_PLACE_STAYED].nr, 1);
	assert_int_equal(pl.by[SP_PLACE_STAYED].wait_ns, 5);
	assert_int_equal(pl.by[SP_PLACE_MOVED_PREV_IDLE].nr, 1);
	assert_int_equal(pl.by[SP_PLACE_MOVED_PREV_IDLE].wait_ns, 7);
	assert_int_equal(pl.by[SP_PLACE_MOVED_PREV_BUSY].nr, 1);
	assert_int_equal(pl.by[SP_PLACE_MOVED_PREV_BUSY].wait_ns, 11);
	sp_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_waking_trace),
		cmocka_unit_test(test_repair_after_migration),
		cmocka_unit_test(test_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
