// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interrupt time from synthetic irq records: a handler's time from its
 * entry to its exit, a softirq's without the handlers that came inside
 * it, the window, exits with nothing open, entries never closed, CPUs
 * apart, the vectors' names, and a pass made again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/irqtime.h"
#include "schedplot/trace/event.h"

enum { HARD_ENTRY, HARD_EXIT, SOFT_ENTRY, SOFT_EXIT };	/* request indices the tracker is told */

static void irq_ev(struct sp_irqtime *it, uint64_t ts, int cpu, int req, const char *name,
		   uint64_t vec)
{
	union sp_value v[1];
	struct sp_event e = {
		.ts_ns = ts, .cpu = cpu, .type = SP_EV_EXTRA, .extra = (uint16_t)req,
		.pid = -1, .other_pid = -1, .target_cpu = -1, .orig_cpu = -1, .values = v,
	};

	if (req == HARD_ENTRY)
		v[0].str = name;
	else
		v[0].u64 = vec;
	sp_irqtime_add(it, &e);
}

static void init(struct sp_irqtime *it, uint64_t w0, uint64_t w1)
{
	assert_int_equal(sp_irqtime_init(it, 2, w0, w1), 0);
	for (int k = 0; k < 4; k++)
		it->req[k] = k;
}

/* the time of (@kind, @name) on @cpu; -1 when it is no source */
static int64_t time_of(const struct sp_irqtime *it, enum sp_irqtime_kind kind, const char *name,
		       int cpu)
{
	for (size_t i = 0; i < it->nr_src; i++)
		if (it->src[i].kind == kind && it->src[i].cpu == cpu &&
		    !strcmp(it->src[i].name, name))
			return (int64_t)it->src[i].ns;
	return -1;
}

/*
 *	CPU 0:  BLOCK [100 ------------------------------ 400]
 *	        virtio1-req.0   [150 -- 170]  [300 - 320]
 *	        BLOCK's time: 300 - 40 = 260, the handler's 40
 *	CPU 1:  eth0 [200 - 250], TIMER [260 - 290], a stray exit at 10
 */
static void test_nested(void **state)
{
	struct sp_irqtime it;

	(void)state;
	init(&it, 0, 1000);
	irq_ev(&it, 10, 1, HARD_EXIT, NULL, 0);
	irq_ev(&it, 100, 0, SOFT_ENTRY, NULL, 4);
	irq_ev(&it, 150, 0, HARD_ENTRY, "virtio1-req.0", 0);
	irq_ev(&it, 170, 0, HARD_EXIT, NULL, 0);
	irq_ev(&it, 200, 1, HARD_ENTRY, "eth0", 0);
	irq_ev(&it, 250, 1, HARD_EXIT, NULL, 0);
	irq_ev(&it, 260, 1, SOFT_ENTRY, NULL, 1);
	irq_ev(&it, 290, 1, SOFT_EXIT, NULL, 1);
	irq_ev(&it, 300, 0, HARD_ENTRY, "virtio1-req.0", 0);
	irq_ev(&it, 320, 0, HARD_EXIT, NULL, 0);
	irq_ev(&it, 400, 0, SOFT_EXIT, NULL, 4);
	assert_int_equal(it.error, 0);
	assert_int_equal(time_of(&it, SP_IRQTIME_SOFTIRQ, "BLOCK", 0), 260);
	assert_int_equal(time_of(&it, SP_IRQTIME_IRQ, "virtio1-req.0", 0), 40);
	assert_int_equal(time_of(&it, SP_IRQTIME_IRQ, "eth0", 1), 50);
	assert_int_equal(time_of(&it, SP_IRQTIME_SOFTIRQ, "TIMER", 1), 30);
	assert_int_equal(time_of(&it, SP_IRQTIME_IRQ, "eth0", 0), -1);
	assert_int_equal(it.nr_src, 4);

	/* a pass made again starts from nothing */
	sp_irqtime_reset(&it);
	assert_int_equal(it.nr_src, 0);
	irq_ev(&it, 500, 0, HARD_EXIT, NULL, 0);
	assert_int_equal(it.nr_src, 0);
	sp_irqtime_release(&it);
}

/*
 * The window [100, 300]: what sticks out is cut, a nested handler's time
 * is cut the same way out of its softirq; an entry another entry replaces,
 * one never closed and an unknown vector.
 */
static void test_window_unmatched(void **state)
{
	struct sp_irqtime it;

	(void)state;
	init(&it, 100, 300);
	irq_ev(&it, 50, 0, SOFT_ENTRY, NULL, 3);	/* NET_RX 50..150: 50 in it, */
	irq_ev(&it, 90, 0, HARD_ENTRY, "nic", 0);	/* less nic 90..120: 20 in it */
	irq_ev(&it, 120, 0, HARD_EXIT, NULL, 0);
	irq_ev(&it, 150, 0, SOFT_EXIT, NULL, 3);
	irq_ev(&it, 160, 0, HARD_ENTRY, "lost", 0);	/* its exit lost: replaced */
	irq_ev(&it, 200, 0, HARD_ENTRY, "nic", 0);
	irq_ev(&it, 210, 0, HARD_EXIT, NULL, 0);
	irq_ev(&it, 250, 1, SOFT_ENTRY, NULL, 42);	/* no such vector */
	irq_ev(&it, 260, 1, SOFT_EXIT, NULL, 42);
	irq_ev(&it, 280, 1, HARD_ENTRY, "never", 0);	/* never closed */
	irq_ev(&it, 290, 5, HARD_ENTRY, "cpu 5", 0);	/* a CPU the trace lacks */
	irq_ev(&it, 295, 5, HARD_EXIT, NULL, 0);
	assert_int_equal(time_of(&it, SP_IRQTIME_SOFTIRQ, "NET_RX", 0), 30);
	assert_int_equal(time_of(&it, SP_IRQTIME_IRQ, "nic", 0), 20 + 10);
	assert_true(time_of(&it, SP_IRQTIME_IRQ, "lost", 0) <= 0);
	assert_true(time_of(&it, SP_IRQTIME_IRQ, "never", 1) <= 0);
	assert_int_equal(time_of(&it, SP_IRQTIME_SOFTIRQ, "vec 42", 1), 10);
	assert_int_equal(time_of(&it, SP_IRQTIME_IRQ, "cpu 5", 5), -1);
	sp_irqtime_release(&it);
}

/* The kernel's softirq_to_name[]: HI first, RCU last. */
static void test_names(void **state)
{
	(void)state;
	assert_string_equal(sp_irqtime_softirq_name(0), "HI");
	assert_string_equal(sp_irqtime_softirq_name(4), "BLOCK");
	assert_string_equal(sp_irqtime_softirq_name(9), "RCU");
	assert_null(sp_irqtime_softirq_name(10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_window_unmatched),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
