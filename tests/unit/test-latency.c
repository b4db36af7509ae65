// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency collection: waits grouped by what explains them, exact
 * quantiles per group and per class, the longest waits, the filters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/latency.h"

static struct sp_wait wakeup(uint64_t start, uint64_t dur, int pid, int cpu, int prev, bool idle)
{
	return (struct sp_wait){ .start_ns = start, .dur_ns = dur, .pid = pid, .cpu = cpu,
				 .prev_cpu = prev, .waker = 1, .target_cpu = cpu,
				 .wait_class = SP_WAIT_WAKEUP, .prev_idle = idle };
}

static struct sp_wait preempt(uint64_t start, uint64_t dur, int pid, int cpu)
{
	return (struct sp_wait){ .start_ns = start, .dur_ns = dur, .pid = pid, .cpu = cpu,
				 .prev_cpu = cpu, .waker = -1, .target_cpu = cpu,
				 .wait_class = SP_WAIT_PREEMPT };
}

static void setup(struct sp_latency *l, enum sp_latency_by by)
{
	memset(l, 0, sizeof(*l));
	l->by = by;
	l->class_mask = 3;
	l->scope.t1_ns = UINT64_MAX;
	l->nr_slowest = 3;
	assert_int_equal(sp_latency_init(l), 0);
}

static void test_placement(void **state)
{
	struct sp_wait w = wakeup(0, 1, 5, 2, 2, false);

	assert_int_equal(sp_placement_of(&w), SP_PLACE_STAYED);
	w.cpu = 3;
	assert_int_equal(sp_placement_of(&w), SP_PLACE_MOVED_PREV_BUSY);
	w.prev_idle = true;
	assert_int_equal(sp_placement_of(&w), SP_PLACE_MOVED_PREV_IDLE);
	w.prev_cpu = -1;
	assert_int_equal(sp_placement_of(&w), SP_PLACE_FIRST_RUN);
	w = preempt(0, 1, 5, 2);
	assert_int_equal(sp_placement_of(&w), SP_PLACE_PREEMPTED);
	assert_string_equal(sp_placement_name(SP_PLACE_MOVED_PREV_IDLE), "moved_prev_idle");
}

/* Two groups by placement; groups sorted largest first; exact quantiles. */
static void test_groups_and_classes(void **state)
{
	struct sp_latency l;
	struct sp_wait w;
	char name[64];
	int i;

	setup(&l, SP_LAT_BY_PLACEMENT);
	for (i = 1; i <= 10; i++) {
		w = wakeup(i * 100, i * 1000, 7, 1, 1, false);		/* stayed */
		sp_latency_add(&l, &w);
	}
	for (i = 1; i <= 4; i++) {
		w = wakeup(i * 100, i * 1000000, 8, 0, 1, true);	/* moved, prev idle */
		sp_latency_add(&l, &w);
	}
	w = preempt(50, 777, 9, 0);
	sp_latency_add(&l, &w);
	assert_int_equal(sp_latency_finish(&l), 0);

	assert_int_equal(l.nr_groups, 3);
	assert_string_equal(sp_latency_group_name(&l, &l.groups[0], name, sizeof(name)),
			    "stayed");
	assert_int_equal(l.groups[0].sum.n, 10);
	assert_int_equal(l.groups[0].sum.p50, 5000);	/* rank ceil(0.5 * 10) = 5 */
	assert_int_equal(l.groups[0].sum.p90, 9000);
	assert_int_equal(l.groups[0].sum.max, 10000);
	assert_string_equal(sp_latency_group_name(&l, &l.groups[1], name, sizeof(name)),
			    "moved_prev_idle");
	assert_int_equal(l.groups[1].sum.p50, 2000000);
	assert_int_equal(l.groups[1].max.start_ns, 400);
	assert_int_equal(l.groups[2].sum.n, 1);
	/* classes over every group */
	assert_int_equal(l.classes[SP_WAIT_WAKEUP].n, 14);
	assert_int_equal(l.classes[SP_WAIT_WAKEUP].max, 4000000);
	assert_int_equal(l.classes[SP_WAIT_PREEMPT].n, 1);
	assert_int_equal(l.classes[SP_WAIT_PREEMPT].p99, 777);
	/* the three longest, longest first */
	assert_int_equal(l.nr_slowest_kept, 3);
	assert_int_equal(l.slowest[0].dur_ns, 4000000);
	assert_int_equal(l.slowest[1].dur_ns, 3000000);
	assert_int_equal(l.slowest[2].dur_ns, 2000000);
	sp_latency_release(&l);
}

/* Waits starting outside the window, of other classes or CPUs, are left out. */
static void test_filters(void **state)
{
	static const bool cpus[2] = { true, false };
	struct sp_latency l;
	struct sp_wait w;

	setup(&l, SP_LAT_BY_NONE);
	l.scope.t0_ns = 100;
	l.scope.t1_ns = 200;
	l.scope.cpus = cpus;
	l.scope.nr_cpus = 2;
	l.nr_cpus = 2;
	l.class_mask = 1u << SP_WAIT_WAKEUP;
	w = wakeup(99, 1, 5, 0, 0, false);
	sp_latency_add(&l, &w);
	w = wakeup(201, 1, 5, 0, 0, false);
	sp_latency_add(&l, &w);
	w = wakeup(150, 1, 5, 1, 0, false);	/* ran on CPU 1 */
	sp_latency_add(&l, &w);
	w = preempt(150, 1, 5, 0);
	sp_latency_add(&l, &w);
	w = wakeup(100, 42, 5, 0, 0, false);	/* the one that counts */
	sp_latency_add(&l, &w);
	assert_int_equal(sp_latency_finish(&l), 0);
	assert_int_equal(l.nr_groups, 1);
	assert_int_equal(l.groups[0].sum.n, 1);
	assert_int_equal(l.groups[0].sum.min, 42);
	sp_latency_release(&l);
}

/* A shift of every wait by a constant moves every quantile by it. */
static void test_shift(void **state)
{
	struct sp_latency a, b;
	struct sp_wait w;
	uint64_t x = 99;

	setup(&a, SP_LAT_BY_NONE);
	setup(&b, SP_LAT_BY_NONE);
	for (int i = 0; i < 1000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		w = wakeup(i, x >> 44, 3, 0, 0, false);
		sp_latency_add(&a, &w);
		w.dur_ns += 1000;
		sp_latency_add(&b, &w);
	}
	sp_latency_finish(&a);
	sp_latency_finish(&b);
	assert_int_equal(b.groups[0].sum.p50, a.groups[0].sum.p50 + 1000);
	assert_int_equal(b.groups[0].sum.p99, a.groups[0].sum.p99 + 1000);
	assert_int_equal(b.groups[0].sum.p999, a.groups[0].sum.p999 + 1000);
	assert_int_equal(b.classes[0].p90, a.classes[0].p90 + 1000);
	sp_latency_release(&a);
	sp_latency_release(&b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The summary of @n values the plain way: sorted as uint64_t, ranks read off. */
static void reference(uint64_t *v, size_t n, struct sp_summary *sum)
{
	uint64_t total = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		total += v[i];
	*sum = (struct sp_summary){
		.n = n, .min = v[0], .max = v[n - 1], .mean = total / n,
		.p50 = v[(n + 1) / 2 - 1], .p90 = v[(9 * n + 9) / 10 - 1],
		.p99 = v[(99 * n + 99) / 100 - 1], .p999 = v[(999 * n + 999) / 1000 - 1],
	};
}

/*
 * Waits on both sides of 2^32 ns (kept in 4 bytes below, 8 above), in
 * groups by pid and both classes: each class over the groups, each group
 * over its classes, and its sorted waits equal the plain reference.
 */
static void test_wide_waits(void **state)
{
	enum { NR_PIDS = 5, PER_PID = 400 };
	static uint64_t cls[2][NR_PIDS * PER_PID], grp[NR_PIDS][PER_PID];
	size_t nr_cls[2] = { 0, 0 }, nr_grp[NR_PIDS] = { 0 };
	struct sp_summary want;
	struct sp_latency l;
	uint64_t x = 2463534242ull;

	setup(&l, SP_LAT_BY_PID);
	for (int i = 0; i < NR_PIDS * PER_PID; i++) {
		int pid = i % NR_PIDS, k = i % 3 == 0;
		uint64_t d;
		struct sp_wait w;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d = x % 10 ? (1ull << 32) - 200 + x % 400 : x % 100000;
		w = k ? preempt((uint64_t)i, d, 100 + pid, 0) : wakeup((uint64_t)i, d, 100 + pid, 0, 0,
									 false);
		sp_latency_add(&l, &w);
		cls[k][nr_cls[k]++] = d;
		grp[pid][nr_grp[pid]++] = d;
	}
	assert_int_equal(sp_latency_finish(&l), 0);
	for (int k = 0; k < 2; k++) {
		reference(cls[k], nr_cls[k], &want);
		assert_memory_equal(&l.classes[k], &want, sizeof(want));
	}
	assert_int_equal(l.nr_groups, NR_PIDS);
	for (size_t g = 0; g < l.nr_groups; g++) {
		int pid = (int)l.groups[g].key - 100;

		reference(grp[pid], nr_grp[pid], &want);
		assert_memory_equal(&l.groups[g].sum, &want, sizeof(want));
		assert_int_equal(l.groups[g].all.nr, nr_grp[pid]);
		assert_true(l.groups[g].all.nr_wide > 0);
		for (size_t i = 0; i < nr_grp[pid]; i++)
			assert_int_equal(sp_samples_at(&l.groups[g].all, i), grp[pid][i]);
	}
	assert_int_equal(l.slowest[0].dur_ns, l.classes[0].max > l.classes[1].max ?
					       l.classes[0].max : l.classes[1].max);
	assert_true(l.slowest[0].dur_ns > 1ull << 32);
	sp_latency_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_groups_and_classes),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_wide_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
