// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model from synthetic events: every rule of doc/design.md "Exact
 * semantics" with hand-computed expectations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/stats.h"
#include "schedplot/model/model.h"

#define MAX_LOG 64

struct run_log {
	int cpu, pid;
	uint64_t t0, t1;
};

struct step_log {
	uint64_t ts;
	int running, waiting;
};

struct log {
	struct run_log runs[MAX_LOG];
	int nr_runs;
	struct step_log steps[MAX_LOG];
	int nr_steps;
	uint64_t latencies[MAX_LOG];	/* of the wakeup waits */
	int nr_latencies;
	struct sp_wait waits[MAX_LOG];
	int nr_waits;
	struct sp_run infos[MAX_LOG];	/* run_info, runs of no length too */
	int nr_infos;
	struct sp_stats stats;
};

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct log *l = data;

	assert_true(l->nr_runs < MAX_LOG);
	l->runs[l->nr_runs++] = (struct run_log){ cpu, pid, t0, t1 };
}

static void on_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct log *l = data;
	size_t i;

	assert_true(n > 0 && n <= SP_STEP_BATCH);
	for (i = 0; i < n; i++) {
		assert_true(l->nr_steps < MAX_LOG);
		/* steps arrive in time order, one per timestamp, across calls too */
		if (l->nr_steps)
			assert_true(steps[i].ts > l->steps[l->nr_steps - 1].ts);
		l->steps[l->nr_steps++] = (struct step_log){ steps[i].ts, steps[i].running,
							     steps[i].waiting };
	}
	sp_stats_steps(&l->stats, steps, n);
}

static void on_wait(void *data, const struct sp_wait *w)
{
	struct log *l = data;

	assert_true(l->nr_waits < MAX_LOG);
	l->waits[l->nr_waits++] = *w;
	if (w->wait_class == SP_WAIT_WAKEUP)
		l->latencies[l->nr_latencies++] = w->dur_ns;
}

static void on_run_info(void *data, const struct sp_run *r)
{
	struct log *l = data;

	assert_true(l->nr_infos < MAX_LOG);
	l->infos[l->nr_infos++] = *r;
}

static struct log lg;
static struct sp_model m;

static void setup_model(int nr_cpus, const uint64_t *start, uint64_t end, bool waking,
			const struct sp_model_filter *filter)
{
	struct sp_model_observer obs = {
		.run = on_run, .steps = on_steps, .wait = on_wait, .run_info = on_run_info,
		.data = &lg,
	};
	uint64_t t0 = 0;
	struct sp_pass p;
	int c;

	sp_stats_release(&lg.stats);
	memset(&lg, 0, sizeof(lg));
	for (c = 0; c < nr_cpus; c++)
		if (start[c] != SP_NO_TS && start[c] > t0)
			t0 = start[c];
	sp_stats_init(&lg.stats, t0, end, nr_cpus);
	sp_pass_init_one(&p, &obs);
	assert_int_equal(sp_model_init(&m, nr_cpus, start, end, waking, &p, filter), 0);
}

static void ev_switch(uint64_t ts, int cpu, int prev, bool runnable, int next)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = prev, .type = SP_EV_SWITCH,
		.pid = prev, .other_pid = next, .prev_runnable = runnable,
		.comm = prev ? "prev" : NULL, .other_comm = next ? "next" : NULL,
		.target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void ev_switch_state(uint64_t ts, int cpu, int prev, const char *state, int next)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = prev, .type = SP_EV_SWITCH,
		.pid = prev, .other_pid = next, .prev_state = state,
		.prev_runnable = state[0] == 'R', .comm = "prev", .other_comm = "next",
		.target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void ev_wakeup(uint64_t ts, int cpu, int common, enum sp_event_type type, int pid,
		      int target)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = type,
		.pid = pid, .target_cpu = target, .orig_cpu = -1, .comm = "woken",
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

/* A wakeup-kind record written in context @ctx (enum sp_ctx). */
static void ev_wakeup_ctx(uint64_t ts, int cpu, int common, enum sp_event_type type, int pid,
			  int target, int ctx)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = type, .ctx = ctx,
		.pid = pid, .target_cpu = target, .orig_cpu = -1, .comm = "woken",
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

/* A sched record that changes no state (sched_process_exit of pid 99). */
static void ev_sched(uint64_t ts, int cpu, int common)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = SP_EV_EXIT,
		.pid = 99, .target_cpu = -1, .orig_cpu = -1,
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void ev_other(uint64_t ts, int cpu, int common)
{
	struct sp_event ev = { .ts_ns = ts, .cpu = cpu, .common_pid = common };

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void finish(void)
{
	assert_int_equal(sp_model_finish(&m), 0);
	sp_stats_finish(&lg.stats);
}

/* cpu0: idle from 100 (its first record), task 10 runs 200..500, idle to 1000 */
static void test_switch_and_busy(void **state)
{
	uint64_t start[1] = { 100 };

	setup_model(1, start, 1000, false, NULL);
	ev_other(100, 0, 0);
	ev_switch(200, 0, 0, false, 10);
	ev_switch(500, 0, 10, false, 0);
	ev_other(1000, 0, 0);
	finish();

	assert_int_equal(m.cpus[0].busy_ns, 300);
	assert_int_equal(m.cpus[0].nr_switches, 2);
	assert_int_equal(sp_model_task(&m, 10)->run_ns, 300);
	assert_int_equal(lg.nr_runs, 3);
	assert_int_equal(lg.runs[0].pid, 0);
	assert_int_equal(lg.runs[0].t0, 100);	/* current from start[c], not from the switch */
	assert_int_equal(lg.runs[1].pid, 10);
	assert_int_equal(lg.runs[1].t0, 200);
	assert_int_equal(lg.runs[1].t1, 500);
	assert_int_equal(lg.runs[2].t1, 1000);
	assert_int_equal(sp_model_nr_repairs(&m), 0);
	/* running 1 for 300 of the 900 ns window */
	assert_true(sp_stats_running_avg(&lg.stats) > 300.0 / 900 - 1e-12);
	assert_true(sp_stats_running_avg(&lg.stats) < 300.0 / 900 + 1e-12);
	sp_model_release(&m);
}

/*
 * A missed switch: cpu0 tracks task 10 (switched in at 200); at 400 a record
 * with common_pid 20 arrives.  Task 10's run ends and 20's begins at 200...
 * no: at the previous sched record on cpu0, which is the switch at 200
 * unless another sched record came later (here a wakeup at 300).
 */
static void test_repair_from_common_pid(void **state)
{
	uint64_t start[1] = { 100 };

	setup_model(1, start, 1000, false, NULL);
	ev_switch(200, 0, 0, false, 10);
	ev_wakeup(300, 0, 10, SP_EV_WAKEUP, 30, 0);
	ev_wakeup(400, 0, 20, SP_EV_WAKEUP, 31, 0);
	finish();

	assert_int_equal(m.repairs[SP_REPAIR_MISSED_SWITCH], 1);
	assert_int_equal(sp_model_task(&m, 10)->run_ns, 100);	/* 200..300 */
	assert_int_equal(sp_model_task(&m, 20)->run_ns, 700);	/* 300..1000 */
	assert_int_equal(sp_model_task(&m, 10)->state, SP_TASK_OTHER);
	/* only non-sched records before: the first sched record starts at start[c] */
	assert_int_equal(lg.runs[0].pid, 0);
	assert_int_equal(lg.runs[0].t0, 100);
	assert_int_equal(lg.runs[0].t1, 200);
	assert_int_equal(m.cpus[0].busy_ns, 800);
	sp_model_release(&m);
}

/*
 * The waker (doc/design.md "The waker"): the sched_waking that began the
 * wakeup, on any CPU, else the wakeup record; an interrupt's is the
 * interrupt.  Task 20 runs on CPU 0 and wakes 10, whose sched_wakeup is
 * written on CPU 1 by its idle task; a softirq on CPU 1 wakes 11; a
 * hard interrupt on CPU 0 writes 12's sched_wakeup itself; 13's
 * sched_wakeup_new follows no sched_waking of it.
 */
static void test_waker(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 1000, false, NULL);
	ev_other(0, 0, 20);
	ev_other(0, 1, 0);
	ev_wakeup_ctx(100, 0, 20, SP_EV_WAKING, 10, 1, SP_CTX_TASK);
	ev_wakeup_ctx(110, 1, 0, SP_EV_WAKEUP, 10, 1, SP_CTX_TASK);
	ev_switch(200, 1, 0, false, 10);
	ev_wakeup_ctx(300, 1, 10, SP_EV_WAKING, 11, 0, SP_CTX_SOFTIRQ);
	ev_wakeup_ctx(310, 0, 20, SP_EV_WAKEUP, 11, 0, SP_CTX_IRQ);
	ev_switch(400, 0, 20, false, 11);
	ev_wakeup_ctx(500, 0, 11, SP_EV_WAKEUP, 12, 1, SP_CTX_IRQ);
	ev_wakeup_ctx(510, 1, 10, SP_EV_WAKEUP_NEW, 13, 1, SP_CTX_TASK);
	ev_switch(600, 1, 10, false, 12);
	ev_switch(700, 1, 12, false, 13);
	finish();

	assert_int_equal(lg.nr_waits, 4);
	assert_int_equal(lg.waits[0].pid, 10);
	assert_int_equal(lg.waits[0].waker, 20);
	assert_int_equal(lg.waits[0].waker_cpu, 0);
	assert_int_equal(lg.waits[1].pid, 11);
	assert_int_equal(lg.waits[1].waker, SP_WAKER_SOFTIRQ);
	assert_int_equal(lg.waits[1].waker_cpu, 1);
	assert_int_equal(lg.waits[2].pid, 12);
	assert_int_equal(lg.waits[2].waker, SP_WAKER_IRQ);
	assert_int_equal(lg.waits[2].waker_cpu, 0);
	assert_int_equal(lg.waits[3].pid, 13);
	assert_int_equal(lg.waits[3].waker, 10);
	assert_int_equal(lg.waits[3].waker_cpu, 1);
	/* the runs tell the same wakers */
	assert_int_equal(lg.infos[2].pid, 10);
	assert_int_equal(lg.infos[2].waker, 20);
	sp_model_release(&m);
}

/* Wakeup makes a task wait; switch-in ends the wait; latency measured. */
static void test_wakeup_wait_latency(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 1000, false, NULL);
	ev_other(0, 0, 0);
	ev_other(0, 1, 0);
	ev_wakeup(100, 1, 0, SP_EV_WAKEUP, 10, 0);
	ev_wakeup(150, 1, 0, SP_EV_WAKEUP, 10, 0);	/* already waiting: no new wait */
	ev_switch(400, 0, 0, false, 10);
	ev_switch(600, 0, 10, true, 0);			/* preempted: waiting again */
	ev_switch(700, 1, 0, false, 10);		/* runs on cpu1 */
	finish();

	struct sp_task *t = sp_model_task(&m, 10);

	assert_int_equal(t->wakeups, 2);
	assert_int_equal(t->wait_ns, 300 + 100);
	assert_int_equal(t->run_ns, 200 + 300);
	assert_int_equal(lg.nr_latencies, 1);		/* preemption starts no latency */
	assert_int_equal(lg.latencies[0], 300);
	/* two waits: the wakeup's, then the preemption's */
	assert_int_equal(lg.nr_waits, 2);
	assert_int_equal(lg.waits[0].wait_class, SP_WAIT_WAKEUP);
	assert_int_equal(lg.waits[0].start_ns, 100);
	assert_int_equal(lg.waits[0].dur_ns, 300);
	assert_int_equal(lg.waits[0].pid, 10);
	assert_int_equal(lg.waits[0].cpu, 0);
	assert_int_equal(lg.waits[0].prev_cpu, -1);	/* never ran before */
	assert_int_equal(lg.waits[0].waker, 0);
	assert_int_equal(lg.waits[0].target_cpu, 0);
	assert_int_equal(lg.waits[1].wait_class, SP_WAIT_PREEMPT);
	assert_int_equal(lg.waits[1].start_ns, 600);
	assert_int_equal(lg.waits[1].dur_ns, 100);
	assert_int_equal(lg.waits[1].cpu, 1);
	assert_int_equal(lg.waits[1].prev_cpu, 0);
	assert_int_equal(lg.waits[1].waker, -1);
	assert_int_equal(m.nr_waits_open, 0);
	assert_int_equal(lg.stats.waiting_max, 1);
	/* waiting while cpu1 idle: 100..400 and 600..700 (cpu0 idle then too) */
	assert_int_equal(lg.stats.idle_while_waiting_ns, 400);
	sp_model_release(&m);
}

/*
 * doc/design.md's example of a repair acting at its time for every CPU: X (10)
 * runs on CPU 1 from 10; CPU 0 records a wakeup of X at 15; CPU 1's next
 * sched record, at 20, has common_pid Y (20) and its previous one was at
 * 12.  X left CPU 1 at 12, so the wakeup at 15 makes X wait; Y was current
 * on CPU 1 from 12, so a wakeup of Y at 16 starts nothing.
 */
static void test_repair_acts_at_its_time(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_sched(12, 1, 10);				/* X's last sched record on CPU 1 */
	ev_wakeup(15, 0, 0, SP_EV_WAKEUP, 10, 1);	/* X woken: held until 20 */
	ev_wakeup(16, 0, 0, SP_EV_WAKEUP, 20, 1);	/* Y woken: it is current on CPU 1 */
	ev_sched(20, 1, 20);				/* reveals the switch missed at 12 */
	ev_switch(30, 0, 0, false, 10);			/* X runs on CPU 0 at 30 */
	finish();

	struct sp_task *x = sp_model_task(&m, 10), *y = sp_model_task(&m, 20);

	assert_int_equal(sp_model_nr_repairs(&m), 1);
	assert_int_equal(x->wakeups, 1);
	assert_int_equal(x->wait_ns, 30 - 15);
	assert_int_equal(x->run_ns, (12 - 10) + (100 - 30));
	assert_int_equal(y->wakeups, 1);
	assert_int_equal(y->wait_ns, 0);
	assert_int_equal(y->run_ns, 100 - 12);
	/* one latency, X's; Y's wakeup found it current */
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 30 - 15);
	assert_int_equal(lg.nr_waits, 1);
	assert_int_equal(lg.waits[0].prev_cpu, 1);
	assert_int_equal(lg.waits[0].cpu, 0);
	assert_false(lg.waits[0].prev_idle);		/* Y was current on CPU 1 */
	assert_int_equal(lg.waits[0].target_cpu, 1);
	assert_int_equal(lg.stats.waiting_max, 1);
	assert_int_equal(lg.steps[lg.nr_steps - 1].waiting, 0);
	sp_model_release(&m);
}

/*
 * X (10), waiting since its wakeup at 10, is switched in on CPU 0 at 20
 * and out, runnable, at 25; CPU 1's record at 30 names it: the switch
 * missed there is placed at CPU 1's record at 12, so X became current on
 * CPU 1 first.  Its wait ends at 12, on CPU 1; the run on CPU 0 at 20
 * ends no wait and came from CPU 1; the wait from 25 stands.
 */
static void test_repair_before_switch_in(void **state)
{
	static const struct {
		int cpu;
		uint64_t t0, t1, wait_ns;
		int waker, prev_cpu;
	} want[] = {
		{ 0, 20, 25, 0, -1, 1 },
		{ 1, 12, 40, 2, 0, -1 },
		{ 0, 50, 100, 25, -1, 0 },
	};
	uint64_t start[2] = { 0, 0 };
	int i, n = 0;

	(void)state;
	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(5, 1, 0, false, 30);
	ev_wakeup(10, 0, 0, SP_EV_WAKEUP, 10, 0);
	ev_sched(12, 1, 30);				/* CPU 1's record before the repair */
	ev_switch(20, 0, 0, false, 10);
	ev_switch(25, 0, 10, true, 0);
	ev_sched(30, 1, 10);				/* X current: missed at 12 */
	ev_switch(40, 1, 10, true, 0);			/* still waiting since 25 */
	ev_switch(50, 0, 0, false, 10);
	finish();

	struct sp_task *x = sp_model_task(&m, 10);

	assert_int_equal(sp_model_nr_repairs(&m), 1);
	assert_int_equal(x->wait_ns, (12 - 10) + (50 - 25));
	assert_int_equal(x->run_ns, (40 - 12) + (25 - 20) + (100 - 50));
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 12 - 10);
	assert_int_equal(lg.nr_waits, 2);
	assert_int_equal(lg.waits[0].wait_class, SP_WAIT_WAKEUP);
	assert_int_equal(lg.waits[0].start_ns, 10);
	assert_int_equal(lg.waits[0].dur_ns, 2);
	assert_int_equal(lg.waits[0].cpu, 1);
	assert_int_equal(lg.waits[0].prev_cpu, -1);
	assert_int_equal(lg.waits[0].waker, 0);
	assert_int_equal(lg.waits[1].wait_class, SP_WAIT_PREEMPT);
	assert_int_equal(lg.waits[1].start_ns, 25);
	assert_int_equal(lg.waits[1].dur_ns, 25);
	assert_int_equal(lg.waits[1].cpu, 0);
	assert_int_equal(lg.waits[1].prev_cpu, 0);
	for (i = 0; i < lg.nr_infos; i++) {
		const struct sp_run *r = &lg.infos[i];

		if (r->pid != 10)
			continue;
		assert_true(n < (int)(sizeof(want) / sizeof(want[0])));
		assert_int_equal(r->cpu, want[n].cpu);
		assert_int_equal(r->start_ns, want[n].t0);
		assert_int_equal(r->end_ns, want[n].t1);
		assert_int_equal(r->wait_ns, want[n].wait_ns);
		assert_int_equal(r->waker, want[n].waker);
		assert_int_equal(r->prev_cpu, want[n].prev_cpu);
		n++;
	}
	assert_int_equal(n, 3);
	/* waiting: 1 from 10, 0 from 12 (not 20), 1 from 25, 0 from 50 */
	assert_int_equal(lg.stats.waiting_max, 1);
	for (i = 0; i < lg.nr_steps; i++) {
		if (lg.steps[i].ts == 12)
			assert_int_equal(lg.steps[i].waiting, 0);
		assert_true(lg.steps[i].ts != 20 || lg.steps[i].waiting == 0);
	}
	sp_model_release(&m);
}

/* As above, but X was woken after CPU 1's record at 12: that wait never was. */
static void test_repair_before_switch_in_no_wait(void **state)
{
	uint64_t start[2] = { 0, 0 };
	int i;

	(void)state;
	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(5, 1, 0, false, 30);
	ev_sched(12, 1, 30);
	ev_wakeup(15, 0, 0, SP_EV_WAKEUP, 10, 0);	/* X current on CPU 1 by then */
	ev_switch(20, 0, 0, false, 10);
	ev_sched(30, 1, 10);
	finish();

	struct sp_task *x = sp_model_task(&m, 10);

	assert_int_equal(x->wakeups, 1);
	assert_int_equal(x->wait_ns, 0);
	assert_int_equal(lg.nr_waits, 0);
	assert_int_equal(lg.nr_latencies, 0);
	assert_int_equal(lg.stats.waiting_max, 0);
	for (i = 0; i < lg.nr_infos; i++) {
		const struct sp_run *r = &lg.infos[i];

		if (r->pid != 10)
			continue;
		assert_int_equal(r->wait_ns, 0);
		assert_int_equal(r->waker, -1);
		/* the run on CPU 0 came from CPU 1, where X ran from 12 */
		assert_int_equal(r->prev_cpu, r->cpu == 0 ? 1 : -1);
		assert_int_equal(r->start_ns, r->cpu == 0 ? 20 : 12);
	}
	sp_model_release(&m);
}

/*
 * CPU 1's last sched record is at 5, so a repair there could still reach
 * back before X's switch-in at 20: its wait and its run are handed out
 * only at the end of the trace.
 */
static void test_held_until_end(void **state)
{
	uint64_t start[2] = { 0, 0 };

	(void)state;
	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(5, 1, 0, false, 30);
	ev_wakeup(10, 0, 0, SP_EV_WAKEUP, 10, 0);
	ev_switch(20, 0, 0, false, 10);
	ev_switch(30, 0, 10, false, 0);
	assert_int_equal(lg.nr_waits, 0);
	assert_int_equal(lg.nr_infos, 0);
	finish();

	assert_int_equal(lg.nr_waits, 1);
	assert_int_equal(lg.waits[0].start_ns, 10);
	assert_int_equal(lg.waits[0].dur_ns, 10);
	assert_int_equal(lg.waits[0].cpu, 0);
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 10);
	/* the runs in the order they ended: idle on CPU 1 and CPU 0, X, then the open ones */
	assert_int_equal(lg.nr_infos, 5);
	assert_int_equal(lg.infos[2].pid, 10);
	assert_int_equal(lg.infos[2].start_ns, 20);
	assert_int_equal(lg.infos[2].end_ns, 30);
	assert_int_equal(lg.infos[2].wait_ns, 10);
	sp_model_release(&m);
}

/* X woken while held as current on CPU 1, then switched in on CPU 0 first. */
static void test_repair_settled_elsewhere(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_sched(12, 1, 10);
	ev_wakeup(15, 0, 0, SP_EV_WAKEUP, 10, 0);
	ev_switch(18, 0, 0, false, 10);			/* X current on CPU 0 */
	ev_sched(40, 1, 20);				/* CPU 1 missed a switch at 12 */
	finish();

	struct sp_task *x = sp_model_task(&m, 10);

	assert_int_equal(sp_model_nr_repairs(&m), 1);
	assert_int_equal(x->wait_ns, 18 - 15);
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 18 - 15);
	assert_int_equal(lg.stats.waiting_max, 1);
	sp_model_release(&m);
}

/* The wakeup held for X is dropped when CPU 1's next record shows X still there. */
static void test_held_wakeup_dropped(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_wakeup(15, 0, 0, SP_EV_WAKEUP, 10, 1);
	ev_switch(20, 1, 10, false, 0);
	finish();

	struct sp_task *x = sp_model_task(&m, 10);

	assert_int_equal(sp_model_nr_repairs(&m), 0);
	assert_int_equal(x->wait_ns, 0);
	assert_int_equal(lg.nr_latencies, 0);
	assert_int_equal(lg.stats.waiting_max, 0);
	sp_model_release(&m);
}

/*
 * X, held current on CPU 1, is woken from CPU 0 and switched in there; CPU
 * 1's next sched record shows X still current: the wakeup found X running
 * and started nothing, though X became current elsewhere before that record.
 */
static void test_held_wakeup_current_elsewhere(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_wakeup(15, 0, 0, SP_EV_WAKEUP, 10, 0);
	ev_switch(18, 0, 0, false, 10);			/* X current on CPU 0 too */
	ev_sched(40, 1, 10);				/* and still on CPU 1: no repair */
	finish();

	assert_int_equal(sp_model_nr_repairs(&m), 0);
	assert_int_equal(sp_model_task(&m, 10)->wait_ns, 0);
	assert_int_equal(lg.nr_latencies, 0);
	assert_int_equal(lg.stats.waiting_max, 0);
	sp_model_release(&m);
}

/*
 * Chained repairs.  X runs on CPU 2 from 10; CPU 0 records a wakeup of X at
 * 20, its last sched record before 40, whose common_pid is X; CPU 2's next
 * sched record, at 30, shows X gone since 10.  In time order: X left CPU 2
 * at 10, the wakeup at 20 made it wait, and the repair on CPU 0, placed
 * after that record, made it current there at 20.  The second repair must
 * see the wait the first one gave X as beginning with its record at 20.
 */
static void test_chained_repairs(void **state)
{
	uint64_t start[3] = { 0, 0, 0 };

	setup_model(3, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_other(0, 1, 0);
	ev_switch(10, 2, 0, false, 10);
	ev_sched(12, 0, 0);
	ev_wakeup(20, 0, 0, SP_EV_WAKEUP, 10, 0);	/* X held current on CPU 2 */
	ev_sched(30, 2, 0);				/* CPU 2 missed a switch at 10 */
	ev_sched(40, 0, 10);				/* CPU 0 missed one at 20 */
	finish();

	assert_int_equal(sp_model_nr_repairs(&m), 2);
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 0);
	assert_int_equal(lg.nr_waits, 1);
	assert_int_equal(lg.waits[0].start_ns, 20);
	assert_int_equal(lg.waits[0].cpu, 0);
	assert_int_equal(m.nr_waits_open, 0);
	sp_model_release(&m);
}

/*
 * X runs on CPU 0 from 10; a wakeup of X at 20 is held there; X is switched
 * in on CPU 2 at 26 and sleeps at 29; CPU 0's next sched record, at 40,
 * shows X gone since 10.  The wakeup made X wait from 20 to 26, where it
 * became current: a wait of 6, not one still open at the end.
 */
static void test_held_wakeup_ran_elsewhere(void **state)
{
	uint64_t start[3] = { 0, 0, 0 };

	setup_model(3, start, 100, false, NULL);
	ev_other(0, 1, 0);
	ev_other(0, 2, 0);
	ev_switch(10, 0, 0, false, 10);
	ev_wakeup(20, 1, 0, SP_EV_WAKEUP, 10, 1);	/* X held current on CPU 0 */
	ev_switch(26, 2, 0, false, 10);
	ev_switch(29, 2, 10, false, 0);
	ev_sched(40, 0, 5);				/* CPU 0 missed a switch at 10 */
	finish();

	struct sp_task *x = sp_model_task(&m, 10);

	assert_int_equal(sp_model_nr_repairs(&m), 1);
	assert_int_equal(lg.nr_latencies, 1);
	assert_int_equal(lg.latencies[0], 6);
	assert_int_equal(x->wait_ns, 6);
	assert_int_equal(lg.waits[0].cpu, 2);
	assert_int_equal(m.nr_waits_open, 0);
	assert_int_equal(lg.stats.waiting_max, 1);
	sp_model_release(&m);
}

/*
 * A switch-out while runnable of a task held current elsewhere is held
 * there as a wakeup is.  X runs on CPU 2 from 5 and on CPU 0 from 13; CPU
 * 2 switches it out runnable at 21 and in again at 26; CPU 0's next sched
 * record, at 29, shows X gone since 13.  So X waited, preempted, from 21
 * to 26.
 */
static void test_held_preemption(void **state)
{
	uint64_t start[3] = { 0, 0, 0 };

	setup_model(3, start, 100, false, NULL);
	ev_other(0, 1, 0);
	ev_switch(5, 2, 0, false, 10);
	ev_switch(13, 0, 0, false, 10);			/* X held current on both */
	ev_switch(21, 2, 10, true, 0);			/* held on CPU 0 */
	ev_switch(26, 2, 0, false, 10);
	ev_sched(29, 0, 0);				/* CPU 0 missed a switch at 13 */
	finish();

	assert_int_equal(sp_model_nr_repairs(&m), 1);
	assert_int_equal(lg.nr_waits, 1);
	assert_int_equal(lg.waits[0].wait_class, SP_WAIT_PREEMPT);
	assert_int_equal(lg.waits[0].start_ns, 21);
	assert_int_equal(lg.waits[0].dur_ns, 5);
	assert_int_equal(lg.waits[0].cpu, 2);
	assert_int_equal(lg.nr_latencies, 0);
	assert_int_equal(sp_model_task(&m, 10)->wait_ns, 5);
	sp_model_release(&m);
}

/* A wakeup while the previous CPU idles; a wait open at the end is no sample. */
static void test_wait_prev_idle_and_open(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 100, false, NULL);
	ev_other(0, 0, 0);
	ev_other(0, 1, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_switch(20, 1, 10, false, 0);			/* 10 sleeps; CPU 1 idles */
	ev_wakeup(30, 0, 5, SP_EV_WAKEUP, 10, 0);	/* woken by 5 onto CPU 0 */
	ev_switch(35, 0, 5, false, 10);
	ev_wakeup(50, 0, 10, SP_EV_WAKEUP, 11, 0);	/* never runs: open at the end */
	finish();

	assert_int_equal(lg.nr_waits, 1);
	assert_int_equal(lg.waits[0].waker, 5);
	assert_int_equal(lg.waits[0].prev_cpu, 1);
	assert_true(lg.waits[0].prev_idle);
	assert_int_equal(lg.waits[0].cpu, 0);
	assert_int_equal(lg.waits[0].dur_ns, 5);
	assert_int_equal(m.nr_waits_open, 1);
	sp_model_release(&m);
}

/*
 * CPU 1 looked idle at the wakeup, but its next sched record shows 7 ran
 * there since 20: the wakeup left a busy CPU (and the converse on CPU 2).
 */
static void test_prev_idle_repaired(void **state)
{
	uint64_t start[3] = { 0, 0, 0 };

	setup_model(3, start, 100, false, NULL);
	ev_other(0, 0, 5);
	ev_other(0, 1, 0);
	ev_other(0, 2, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_switch(12, 2, 0, false, 11);
	ev_switch(20, 1, 10, false, 0);			/* 10 sleeps; CPU 1 "idles" */
	ev_switch(22, 2, 11, false, 8);			/* 11 sleeps; CPU 2 runs 8 */
	ev_wakeup(30, 0, 5, SP_EV_WAKEUP, 10, 0);
	ev_wakeup(31, 0, 5, SP_EV_WAKEUP, 11, 0);
	ev_sched(40, 1, 7);				/* no: 7 ran on CPU 1 from 20 */
	ev_sched(41, 2, 0);				/* no: CPU 2 idled from 22 */
	ev_switch(45, 0, 5, true, 10);
	ev_switch(46, 0, 10, false, 11);
	finish();

	assert_int_equal(lg.nr_waits, 2);
	assert_int_equal(lg.waits[0].pid, 10);
	assert_int_equal(lg.waits[0].prev_cpu, 1);
	assert_false(lg.waits[0].prev_idle);
	assert_int_equal(lg.waits[1].pid, 11);
	assert_int_equal(lg.waits[1].prev_cpu, 2);
	assert_true(lg.waits[1].prev_idle);
	sp_model_release(&m);
}

/* Without sched_wakeup records, sched_waking is the wakeup. */
static void test_waking_as_wakeup(void **state)
{
	uint64_t start[1] = { 0 };

	setup_model(1, start, 1000, true, NULL);
	ev_other(0, 0, 0);
	ev_wakeup(100, 0, 0, SP_EV_WAKING, 10, 0);
	ev_wakeup(120, 0, 0, SP_EV_WAKEUP, 11, 0);	/* ignored in this mode */
	ev_switch(300, 0, 0, false, 10);
	finish();

	assert_int_equal(sp_model_task(&m, 10)->wait_ns, 200);
	assert_int_equal(sp_model_task(&m, 10)->wakeups, 1);
	assert_null(sp_model_task(&m, 11));	/* the other kind is not a wakeup here */
	sp_model_release(&m);
}

/* A task switched in on cpu1 while cpu0 still tracks it: cpu0 leaves it alone. */
static void test_running_elsewhere_left_alone(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model(2, start, 1000, false, NULL);
	ev_switch(0, 0, 0, false, 10);
	ev_switch(0, 1, 0, false, 20);
	ev_switch(200, 1, 20, false, 10);	/* cpu0's switch-out of 10 was missed */
	ev_switch(300, 0, 10, false, 0);	/* cpu0 finally switches it out as sleeping */
	finish();

	struct sp_task *t = sp_model_task(&m, 10);

	assert_int_equal(t->state, SP_TASK_RUNNING);
	assert_int_equal(t->cpu, 1);
	assert_int_equal(t->run_ns, 300 + 800);
	sp_model_release(&m);
}

/*
 * A repair reaches back before changes already made on another CPU: the
 * observer still sees one step per timestamp, in order, with the right
 * values.
 */
static void test_steps_in_order_across_repair(void **state)
{
	uint64_t start[2] = { 0, 0 };
	int i;

	setup_model(2, start, 1000, false, NULL);
	ev_other(0, 0, 0);
	ev_other(0, 1, 0);
	ev_wakeup(100, 0, 0, SP_EV_WAKEUP, 50, 1);	/* cpu0 last sched record: 100 */
	ev_switch(200, 1, 0, false, 20);		/* running 1 at 200 */
	ev_switch(300, 1, 20, false, 0);		/* running 0 at 300 */
	ev_wakeup(400, 0, 7, SP_EV_WAKEUP, 51, 1);	/* repair: 7 runs on cpu0 from 100 */
	finish();

	assert_int_equal(m.repairs[SP_REPAIR_MISSED_SWITCH], 1);
	for (i = 1; i < lg.nr_steps; i++)
		assert_true(lg.steps[i].ts > lg.steps[i - 1].ts);
	/* at 100: 7 runs (retroactive) and 50 waits */
	assert_int_equal(lg.steps[0].ts, 100);
	assert_int_equal(lg.steps[0].running, 1);
	assert_int_equal(lg.steps[0].waiting, 1);
	assert_int_equal(lg.steps[1].ts, 200);
	assert_int_equal(lg.steps[1].running, 2);
	assert_int_equal(lg.steps[2].ts, 300);
	assert_int_equal(lg.steps[2].running, 1);
	assert_int_equal(lg.stats.running_max, 2);
	sp_model_release(&m);
}

/* The complete window starts when the last CPU starts recording. */
static void test_window_and_averages(void **state)
{
	uint64_t start[2] = { 0, 500 };

	setup_model(2, start, 1000, false, NULL);
	assert_int_equal(m.window_start_ns, 500);
	assert_int_equal(m.first_ns, 0);
	ev_switch(0, 0, 0, false, 10);
	ev_switch(500, 1, 0, false, 20);
	ev_switch(750, 1, 20, false, 0);
	finish();

	/* window 500..1000: cpu0 busy throughout, cpu1 for 250 */
	assert_true(sp_stats_running_avg(&lg.stats) > 1.5 - 1e-12);
	assert_true(sp_stats_running_avg(&lg.stats) < 1.5 + 1e-12);
	assert_int_equal(m.cpus[1].busy_ns, 250);
	assert_int_equal(m.cpus[0].busy_ns, 1000);
	sp_model_release(&m);
}

static bool only_pid_20(void *data, int pid, const char *comm)
{
	return pid == 20;
}

/* Filters: running counts selected CPUs and tasks only. */
static void test_filters(void **state)
{
	uint64_t start[2] = { 0, 0 };
	bool cpus[2] = { false, true };
	struct sp_model_filter filter = { .cpus = cpus };

	setup_model(2, start, 1000, false, &filter);
	ev_switch(0, 0, 0, false, 10);
	ev_switch(0, 1, 0, false, 20);
	finish();
	assert_int_equal(lg.stats.running_max, 1);
	sp_model_release(&m);

	filter.cpus = NULL;
	filter.task = only_pid_20;
	setup_model(2, start, 1000, false, &filter);
	ev_switch(0, 0, 0, false, 20);
	ev_switch(0, 1, 0, false, 10);
	ev_wakeup(10, 1, 10, SP_EV_WAKEUP, 30, 1);
	finish();
	assert_int_equal(lg.stats.running_max, 1);
	assert_int_equal(lg.stats.waiting_max, 0);
	sp_model_release(&m);
}

static void test_time_backwards_counted(void **state)
{
	uint64_t start[1] = { 100 };

	setup_model(1, start, 1000, false, NULL);
	ev_switch(100, 0, 0, false, 10);
	ev_switch(90, 0, 10, false, 0);
	finish();
	assert_int_equal(m.repairs[SP_REPAIR_TIME_BACKWARDS], 1);
	assert_int_equal(sp_model_task(&m, 10)->run_ns, 0);
	sp_model_release(&m);
}

static void test_comm_interning(void **state)
{
	uint64_t start[1] = { 0 };
	char name[32];
	int pid;

	setup_model(1, start, 1000, false, NULL);
	for (pid = 1; pid < 5000; pid++) {
		snprintf(name, sizeof(name), "task-%d", pid % 700);
		assert_int_equal(sp_model_set_comm(&m, pid, name), 0);
	}
	assert_string_equal(sp_model_comm(&m, 1234), "task-534");
	assert_string_equal(sp_model_comm(&m, 0), "<idle>");
	assert_string_equal(sp_model_comm(&m, 99999), "");
	assert_int_equal(sp_model_task(&m, 1234)->comm, sp_model_task(&m, 534)->comm);
	sp_model_release(&m);
}

static void test_latency_quantiles(void **state)
{
	struct sp_stats *s = calloc(1, sizeof(*s));
	int i;

	sp_stats_init(s, 0, 1, 1);
	for (i = 1; i <= 1000; i++)
		sp_stats_latency(s, (uint64_t)i * 1000);
	sp_stats_finish(s);
	/* nearest rank, exact: rank ceil(p * 1000) of 1..1000 us */
	assert_int_equal(s->latency.n, 1000);
	assert_int_equal(s->latency.min, 1000);
	assert_int_equal(s->latency.p50, 500000);
	assert_int_equal(s->latency.p90, 900000);
	assert_int_equal(s->latency.p99, 990000);
	assert_int_equal(s->latency.p999, 999000);
	assert_int_equal(s->latency.max, 1000000);
	assert_int_equal(s->latency.mean, 500500);
	sp_stats_release(s);
	free(s);
}

/* What the wakeup, migration and extra callbacks were told. */
struct call_log {
	char kind;		/* 'w'akeup, 'm'igration, 'x' extra */
	uint64_t ts;
	int a, b, c;		/* waker wakee target / pid from to / cpu extra common_pid */
	uint64_t value;		/* extra: values[0] */
};

static struct call_log calls[MAX_LOG];
static int nr_calls;

static void on_wakeup(void *data, uint64_t ts_ns, int waker, int wakee, int target_cpu)
{
	assert_ptr_equal(data, &lg);
	assert_true(nr_calls < MAX_LOG);
	calls[nr_calls++] = (struct call_log){ 'w', ts_ns, waker, wakee, target_cpu, 0 };
}

static void on_migration(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu)
{
	const struct sp_task *t = sp_model_task(&m, pid);

	assert_ptr_equal(data, &lg);
	assert_true(nr_calls < MAX_LOG);
	/* value: the task's state as the observer sees it (it decides the class) */
	calls[nr_calls++] = (struct call_log){ 'm', ts_ns, pid, from_cpu, to_cpu,
					       t ? t->state : SP_TASK_OTHER };
}

static void on_extra(void *data, const struct sp_event *ev)
{
	assert_ptr_equal(data, &lg);
	assert_true(nr_calls < MAX_LOG);
	assert_int_equal(ev->type, SP_EV_EXTRA);
	calls[nr_calls++] = (struct call_log){ 'x', ev->ts_ns, ev->cpu, ev->extra, ev->common_pid,
					       ev->values[0].u64 };
}

static void ev_migrate(uint64_t ts, int cpu, int common, int pid, int from, int to)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = SP_EV_MIGRATE,
		.pid = pid, .orig_cpu = from, .target_cpu = to, .comm = "moved",
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void ev_extra(uint64_t ts, int cpu, int common, int extra, uint64_t value)
{
	union sp_value v[1] = { { .u64 = value } };
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .common_pid = common, .type = SP_EV_EXTRA,
		.pid = -1, .other_pid = -1, .target_cpu = -1, .orig_cpu = -1,
		.extra = extra, .values = v,
	};

	assert_int_equal(sp_model_add(&m, &ev), 0);
}

static void setup_model_calls(int nr_cpus, const uint64_t *start, uint64_t end, bool waking)
{
	struct sp_model_observer obs = {
		.wakeup = on_wakeup, .migration = on_migration, .extra = on_extra, .data = &lg,
	};
	struct sp_pass p;

	memset(&lg, 0, sizeof(lg));
	memset(calls, 0, sizeof(calls));
	nr_calls = 0;
	sp_pass_init_one(&p, &obs);
	assert_int_equal(sp_model_init(&m, nr_cpus, start, end, waking, &p, NULL), 0);
}

/*
 * The wakeup, migration and extra callbacks, in the pass, with the
 * record's arguments: task 5 runs on cpu1 and wakes 10 (to cpu0) and a
 * new task 11 (to cpu1); 10 moves from cpu0 to cpu1; two records of an
 * event asked for by name.  sched_waking is not the wakeup here (the
 * trace has sched_wakeup), and other records are not extra records.  The
 * migration of a task current nowhere is held like a wait, so it is told
 * last, at the end.
 */
static void test_wakeup_migration_extra_callbacks(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model_calls(2, start, 1000, false);
	ev_other(0, 0, 0);
	ev_other(0, 1, 0);
	ev_switch(50, 1, 0, false, 5);
	ev_wakeup(90, 1, 5, SP_EV_WAKING, 10, 0);
	ev_wakeup(100, 1, 5, SP_EV_WAKEUP, 10, 0);
	ev_wakeup(120, 1, 5, SP_EV_WAKEUP_NEW, 11, 1);
	ev_extra(125, 0, 0, 2, 850000);
	ev_migrate(130, 1, 5, 10, 0, 1);
	ev_other(135, 0, 0);
	ev_wakeup(140, 0, 0, SP_EV_WAKEUP, 12, -1);
	ev_extra(150, 1, 5, 0, 7);
	finish();

	assert_int_equal(nr_calls, 6);
	assert_int_equal(calls[0].kind, 'w');
	assert_int_equal(calls[0].ts, 100);
	assert_int_equal(calls[0].a, 5);	/* waker: the record's common_pid */
	assert_int_equal(calls[0].b, 10);	/* wakee */
	assert_int_equal(calls[0].c, 0);	/* target CPU */
	assert_int_equal(calls[1].kind, 'w');
	assert_int_equal(calls[1].ts, 120);
	assert_int_equal(calls[1].a, 5);
	assert_int_equal(calls[1].b, 11);
	assert_int_equal(calls[1].c, 1);
	assert_int_equal(calls[2].kind, 'x');
	assert_int_equal(calls[2].ts, 125);
	assert_int_equal(calls[2].a, 0);	/* cpu */
	assert_int_equal(calls[2].b, 2);	/* the request */
	assert_int_equal(calls[2].c, 0);
	assert_int_equal(calls[2].value, 850000);
	/* 10 was current nowhere: its migration is told once no repair can precede it */
	assert_int_equal(calls[5].kind, 'm');
	assert_int_equal(calls[5].ts, 130);
	assert_int_equal(calls[5].a, 10);	/* pid */
	assert_int_equal(calls[5].b, 0);	/* from */
	assert_int_equal(calls[5].c, 1);	/* to */
	assert_int_equal(calls[3].kind, 'w');
	assert_int_equal(calls[3].ts, 140);
	assert_int_equal(calls[3].a, 0);
	assert_int_equal(calls[3].b, 12);
	assert_int_equal(calls[3].c, -1);
	assert_int_equal(calls[4].kind, 'x');
	assert_int_equal(calls[4].ts, 150);
	assert_int_equal(calls[4].a, 1);
	assert_int_equal(calls[4].b, 0);
	assert_int_equal(calls[4].c, 5);
	assert_int_equal(calls[4].value, 7);
	/* the callbacks change nothing the model counts: extra records are not sched records */
	assert_int_equal(m.nr_records, 11);
	assert_int_equal(m.nr_sched_records, 6);
	assert_int_equal(m.nr_migrations, 1);
	assert_int_equal(sp_model_task(&m, 10)->wakeups, 1);
	assert_int_equal(sp_model_task(&m, 10)->migrations, 1);
	assert_int_equal(sp_model_nr_repairs(&m), 0);
	sp_model_release(&m);

	/* sched_waking standing in for sched_wakeup: it is the wakeup told */
	setup_model_calls(1, start, 1000, true);
	ev_other(0, 0, 0);
	ev_wakeup(100, 0, 0, SP_EV_WAKING, 10, 0);
	ev_wakeup(110, 0, 0, SP_EV_WAKEUP, 10, 0);
	finish();
	assert_int_equal(nr_calls, 1);
	assert_int_equal(calls[0].kind, 'w');
	assert_int_equal(calls[0].ts, 100);
	assert_int_equal(calls[0].b, 10);
	sp_model_release(&m);
}

/*
 * A migration of X, held current on CPU 1, is handed out once CPU 1's
 * next sched record tells whether X was still there (doc/design.md: a repair
 * acts at its time for every CPU): X moved to CPU 0, woken and run there
 * after CPU 1's record at 12 (a placement at wakeup: X had left CPU 1 at
 * 12); Y moved while CPU 1's next record shows Y still current (balance).
 */
static void test_migration_held_until_repair(void **state)
{
	uint64_t start[2] = { 0, 0 };

	setup_model_calls(2, start, 100, false);
	ev_other(0, 0, 0);
	ev_switch(10, 1, 0, false, 10);
	ev_sched(12, 1, 10);				/* X's last sched record on CPU 1 */
	ev_migrate(15, 0, 0, 10, 1, 0);			/* X moved: held */
	ev_wakeup(16, 0, 0, SP_EV_WAKEUP, 10, 0);
	ev_switch(18, 0, 0, false, 10);			/* X current on CPU 0 */
	ev_sched(20, 1, 20);				/* CPU 1 missed a switch at 12 */
	ev_migrate(30, 0, 10, 20, 1, 0);		/* Y moved while current on CPU 1 */
	assert_int_equal(nr_calls, 2);			/* Y's is held */
	ev_sched(40, 1, 20);				/* Y was still there */
	ev_migrate(50, 0, 10, 20, 1, 0);		/* held, and no record follows */
	assert_int_equal(nr_calls, 3);
	finish();

	assert_int_equal(nr_calls, 4);
	assert_int_equal(calls[0].kind, 'w');		/* the wakeup callback is not held */
	assert_int_equal(calls[0].ts, 16);
	assert_int_equal(calls[1].kind, 'm');
	assert_int_equal(calls[1].ts, 15);
	assert_int_equal(calls[1].a, 10);
	assert_int_equal(calls[1].value, SP_TASK_OTHER);	/* asleep: placement at wakeup */
	assert_int_equal(calls[2].kind, 'm');
	assert_int_equal(calls[2].ts, 30);
	assert_int_equal(calls[2].a, 20);
	assert_int_equal(calls[2].b, 1);
	assert_int_equal(calls[2].c, 0);
	assert_int_equal(calls[2].value, SP_TASK_RUNNING);	/* balance */
	assert_int_equal(calls[3].kind, 'm');		/* handed out at the end, not lost */
	assert_int_equal(calls[3].ts, 50);
	assert_int_equal(calls[3].value, SP_TASK_RUNNING);
	assert_int_equal(sp_model_task(&m, 10)->migrations, 1);
	assert_int_equal(sp_model_task(&m, 20)->migrations, 2);
	sp_model_release(&m);
}

/*
 * run_info: every run, of no length too, with how it ended (the switch's
 * prev_state, a repair, the end) and the wait that ended as it began.
 */
static void test_run_info(void **state)
{
	static const struct {
		int cpu, pid;
		uint64_t t0, t1;
		enum sp_run_end end;
		const char *end_state;
		uint64_t wait_ns;
		int waker, prev_cpu;
	} want[] = {
		{ 0, 1, 0, 10, SP_RUN_END_SWITCH, "S", 0, -1, -1 },
		{ 1, 5, 0, 30, SP_RUN_END_SWITCH, "R+", 0, -1, -1 },
		{ 0, 2, 10, 10, SP_RUN_END_REPAIR, NULL, 0, -1, -1 },
		{ 1, 1, 30, 50, SP_RUN_END_SWITCH, "R", 10, 5, 0 },
		{ 0, 3, 10, 100, SP_RUN_END_TRACE, NULL, 0, -1, -1 },
		{ 1, 5, 50, 100, SP_RUN_END_TRACE, NULL, 20, -1, 1 },
	};
	static const uint64_t start[2] = { 0, 0 };
	int i, positive = 0;

	(void)state;
	setup_model(2, start, 100, false, NULL);
	ev_switch_state(10, 0, 1, "S", 2);
	ev_wakeup(20, 1, 5, SP_EV_WAKEUP, 1, 1);
	ev_switch_state(30, 1, 5, "R+", 1);
	ev_sched(40, 0, 3);			/* missed switch: 2 left at 10 */
	ev_switch_state(50, 1, 1, "R", 5);	/* 5 waited since 30 */
	finish();

	assert_int_equal(lg.nr_infos, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < lg.nr_infos; i++) {
		const struct sp_run *r = &lg.infos[i];

		assert_int_equal(r->cpu, want[i].cpu);
		assert_int_equal(r->pid, want[i].pid);
		assert_int_equal(r->start_ns, want[i].t0);
		assert_int_equal(r->end_ns, want[i].t1);
		assert_int_equal(r->end, want[i].end);
		if (want[i].end_state)
			assert_string_equal(r->end_state, want[i].end_state);
		else
			assert_null(r->end_state);
		assert_int_equal(r->wait_ns, want[i].wait_ns);
		assert_int_equal(r->waker, want[i].waker);
		assert_int_equal(r->prev_cpu, want[i].prev_cpu);
		/* the runs of some length are those run() is told of, in the same order */
		if (r->end_ns > r->start_ns) {
			assert_int_equal(lg.runs[positive].pid, r->pid);
			assert_int_equal(lg.runs[positive].t0, r->start_ns);
			positive++;
		}
	}
	assert_int_equal(lg.nr_runs, positive);
	sp_model_release(&m);
}

/*
 * Contradicted waits (doc/design.md "Contradicted waits"): the CPU a task
 * was placed on runs its idle task more than 1 ms after the placement
 * while the task waits.  CPU 0 runs 20, then 11; CPU 1 idles.  10 is
 * woken onto CPU 1, which idles 0.5 ms later and switches to 10 from idle
 * (a record of its idle task, but at the wait's end): not contradicted.
 * 11 is woken onto CPU 1, which idles 1.5 ms later while 11 waits, and 11
 * then runs on CPU 0: contradicted.  12 is woken onto CPU 1 and moved to
 * the busy CPU 0 at once; CPU 1 idles after, where 12 no longer is: not
 * contradicted.
 */
static void test_contradicted(void **state)
{
	uint64_t start[2] = { 0, 0 };
	int i;

	setup_model(2, start, 10000000, false, NULL);
	ev_other(0, 0, 20);
	ev_other(0, 1, 0);
	ev_wakeup(100, 0, 20, SP_EV_WAKEUP, 10, 1);
	ev_other(500100, 1, 0);
	ev_switch(2000000, 1, 0, false, 10);
	ev_switch_state(2500000, 1, 10, "S", 0);
	ev_wakeup(3000000, 0, 20, SP_EV_WAKEUP, 11, 1);
	ev_other(4500000, 1, 0);
	ev_switch_state(5000000, 0, 20, "S", 11);
	ev_wakeup(6000000, 0, 11, SP_EV_WAKEUP, 12, 1);
	ev_migrate(6100000, 0, 11, 12, 1, 0);
	ev_other(8000000, 1, 0);
	ev_switch_state(9000000, 0, 11, "S", 12);
	finish();

	assert_int_equal(lg.nr_waits, 3);
	assert_int_equal(lg.waits[0].pid, 10);
	assert_false(lg.waits[0].contradicted);
	assert_int_equal(lg.waits[1].pid, 11);
	assert_int_equal(lg.waits[1].dur_ns, 2000000);
	assert_int_equal(lg.waits[1].target_cpu, 1);
	assert_int_equal(lg.waits[1].cpu, 0);
	assert_true(lg.waits[1].contradicted);
	assert_int_equal(lg.waits[2].pid, 12);
	assert_false(lg.waits[2].contradicted);
	/* stats counts them apart, and keeps them in every other number */
	for (i = 0; i < lg.nr_waits; i++)
		sp_stats_wait(&lg.stats, &lg.waits[i]);
	assert_int_equal(lg.stats.nr_contradicted, 1);
	assert_int_equal(lg.stats.contradicted_ns, 2000000);
	assert_int_equal(lg.stats.contradicted_max.pid, 11);
	assert_int_equal(lg.stats.lat.nr, 3);
	sp_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_and_busy),
		cmocka_unit_test(test_repair_from_common_pid),
		cmocka_unit_test(test_wakeup_wait_latency),
		cmocka_unit_test(test_waker),
		cmocka_unit_test(test_repair_acts_at_its_time),
		cmocka_unit_test(test_repair_settled_elsewhere),
		cmocka_unit_test(test_repair_before_switch_in),
		cmocka_unit_test(test_repair_before_switch_in_no_wait),
		cmocka_unit_test(test_held_until_end),
		cmocka_unit_test(test_migration_held_until_repair),
		cmocka_unit_test(test_held_wakeup_dropped),
		cmocka_unit_test(test_held_wakeup_current_elsewhere),
		cmocka_unit_test(test_chained_repairs),
		cmocka_unit_test(test_held_wakeup_ran_elsewhere),
		cmocka_unit_test(test_held_preemption),
		cmocka_unit_test(test_wait_prev_idle_and_open),
		cmocka_unit_test(test_prev_idle_repaired),
		cmocka_unit_test(test_waking_as_wakeup),
		cmocka_unit_test(test_running_elsewhere_left_alone),
		cmocka_unit_test(test_steps_in_order_across_repair),
		cmocka_unit_test(test_window_and_averages),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_time_backwards_counted),
		cmocka_unit_test(test_comm_interning),
		cmocka_unit_test(test_latency_quantiles),
		cmocka_unit_test(test_wakeup_migration_extra_callbacks),
		cmocka_unit_test(test_run_info),
		cmocka_unit_test(test_contradicted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
