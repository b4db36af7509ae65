// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chain of a target (doc/design.md "The chain of a target"), computed
 * by hand: a small trace written with the writer and read back through
 * the pass (a wait behind the waker's CPU hog, sleeps ended by two
 * wakers, a window that cuts pieces), and hand-made runs told out of the
 * order of their ends, with D sleeps, an interrupt's wakeup and a repair.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedplot/analysis/chain.h"
#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/writer.h"

#define T0 1000000000ull

static void put(struct sp_writer *w, struct sp_event ev)
{
	struct sp_error err;

	sp_error_clear(&err);
	ev.ts_ns += T0;
	if (ev.type != SP_EV_SWITCH)
		ev.other_pid = -1;
	ev.orig_cpu = -1;
	if (sp_writer_write_event(w, &ev, &err))
		fail_msg("write at %llu: %s", (unsigned long long)ev.ts_ns, err.msg);
}

static void sw(struct sp_writer *w, int cpu, uint64_t ts, int prev, const char *prev_comm,
	       bool runnable, int next, const char *next_comm)
{
	put(w, (struct sp_event){ .ts_ns = ts, .cpu = cpu, .type = SP_EV_SWITCH, .common_pid = prev,
				  .pid = prev, .comm = prev_comm, .prev_runnable = runnable,
				  .other_pid = next, .other_comm = next_comm, .target_cpu = -1 });
}

/* sched_waking then sched_wakeup of @pid, both by @waker on @cpu, placing it on @target */
static void wake(struct sp_writer *w, int cpu, uint64_t ts, int waker, int pid, int target)
{
	put(w, (struct sp_event){ .ts_ns = ts, .cpu = cpu, .type = SP_EV_WAKING, .common_pid = waker,
				  .pid = pid, .comm = "t", .target_cpu = target });
	put(w, (struct sp_event){ .ts_ns = ts, .cpu = cpu, .type = SP_EV_WAKEUP, .common_pid = waker,
				  .pid = pid, .comm = "t", .target_cpu = target });
}

/*
 * Times in ns after T0.  Task t (10) runs on CPU 0 [0, 100) and sleeps
 * (S); hog (20), running on CPU 1 since 0, wakes it at 300 onto CPU 1 and
 * holds that CPU until 450; t runs [450, 700) and sleeps; waker (30),
 * running on CPU 0 since 800, wakes it at 1000 onto CPU 0 and yields it at
 * 1050; t runs [1050, 1100) and sleeps for good.
 *
 *	t:  ran 100 | S 200, woken by 20 | CPU held by 20 150 | ran 250 |
 *	    S 300, woken by 30 | CPU held by 30 50 | ran 50           = 1100
 */
static void write_trace(const char *path)
{
	struct sp_writer_options wo = { .nr_cpus = 2, .uname = "Linux test 6.0.0 x86_64" };
	struct sp_writer *w;
	struct sp_error err;

	sp_error_clear(&err);
	w = sp_writer_open(path, &wo, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	sw(w, 0, 0, 0, "swapper/0", true, 10, "t");
	sw(w, 1, 0, 0, "swapper/1", true, 20, "hog");
	sw(w, 0, 100, 10, "t", false, 0, "swapper/0");
	wake(w, 1, 300, 20, 10, 1);
	sw(w, 1, 450, 20, "hog", true, 10, "t");
	sw(w, 1, 700, 10, "t", false, 20, "hog");
	sw(w, 0, 800, 0, "swapper/0", true, 30, "waker");
	wake(w, 0, 1000, 30, 10, 0);
	sw(w, 0, 1050, 30, "waker", false, 10, "t");
	sw(w, 0, 1100, 10, "t", false, 0, "swapper/0");
	sw(w, 1, 1100, 20, "hog", true, 20, "hog");
	assert_int_equal(sp_writer_close(w, &err), 0);
}

/* @pid's time for @kind and @who in @v, and its pieces in @c; -1 when none */
static long long cause_ns(const struct sp_behind_entry *v, size_t nr, int pid,
			  enum sp_chain_kind kind, int who)
{
	const struct sp_behind_entry *e;
	uint64_t total;
	size_t n;

	e = sp_behind_of(v, nr, pid, &total, &n);
	for (size_t i = 0; e && i < n; i++)
		if (e[i].antagonist == sp_chain_code((struct sp_chain_cause){ kind, who }))
			return (long long)e[i].ns;
	return -1;
}

static long long total_ns(const struct sp_behind_entry *v, size_t nr, int pid)
{
	uint64_t total;
	size_t n;

	sp_behind_of(v, nr, pid, &total, &n);
	return (long long)total;
}

/* Follow every task of the trace over [T0 + @t0, T0 + @t1]: the sorted times and pieces. */
static void chain_of(const char *path, uint64_t t0, uint64_t t1, struct sp_behind_entry **ns,
		     size_t *nr_ns, struct sp_behind_entry **count, size_t *nr_count)
{
	struct sp_antagonists hist;
	struct sp_model_observer obs;
	struct sp_scope scope;
	struct sp_chain ch;
	struct sp_pass pass;
	struct sp_trace t;
	struct sp_error err;

	sp_error_clear(&err);
	assert_int_equal(sp_trace_open(&t, path, &err), 0);
	sp_scope_init(&scope, T0 + t0, T0 + t1);
	assert_int_equal(sp_antagonists_init(&hist, t.nr_cpus), 0);
	sp_chain_init(&ch, &hist, &scope, true);
	sp_pass_init(&pass);
	sp_antagonists_observer(&hist, &obs);
	sp_pass_add(&pass, &obs);
	sp_chain_observer(&ch, &obs);
	sp_pass_add(&pass, &obs);
	assert_int_equal(sp_trace_run(&t, &pass, NULL, &err), 0);
	sp_chain_finish(&ch);
	assert_int_equal(ch.error, 0);
	*ns = sp_behind_table_sorted(&ch.ns, nr_ns);
	*count = sp_behind_table_sorted(&ch.count, nr_count);
	assert_non_null(*ns);
	assert_non_null(*count);
	sp_chain_release(&ch);
	sp_antagonists_release(&hist);
	sp_trace_close(&t);
}

static void test_trace(void **state)
{
	char path[] = "/tmp/test-chain.XXXXXX";
	struct sp_behind_entry *ns, *count;
	struct sp_chain_cause pole;
	uint64_t pole_ns, total;
	size_t nr_ns, nr_count;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_trace(path);

	chain_of(path, 0, UINT64_MAX - T0, &ns, &nr_ns, &count, &nr_count);
	assert_int_equal(total_ns(ns, nr_ns, 10), 1100);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_RAN, -1), 400);
	assert_int_equal(cause_ns(count, nr_count, 10, SP_CHAIN_RAN, -1), 3);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_SLEPT_S, 20), 200);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_SLEPT_S, 30), 300);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_CPU, 20), 150);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_CPU, 30), 50);
	assert_int_equal(cause_ns(count, nr_count, 10, SP_CHAIN_CPU, 30), 1);
	/* the CPU never idled while t waited */
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_CPU, -1), -1);
	assert_true(sp_chain_long_pole(ns, nr_ns, 10, &pole, &pole_ns, &total));
	assert_int_equal(pole.kind, SP_CHAIN_SLEPT_S);
	assert_int_equal(pole.who, 30);
	assert_int_equal(pole_ns, 300);
	assert_int_equal(total, 1100);
	/* hog waited for CPU 1 [450, 700) while t held it */
	assert_int_equal(cause_ns(ns, nr_ns, 20, SP_CHAIN_CPU, 10), 250);
	free(ns);
	free(count);

	/* the window [200, 1020] cuts the first sleep and the last wait, drops the last run */
	chain_of(path, 200, 1020, &ns, &nr_ns, &count, &nr_count);
	assert_int_equal(total_ns(ns, nr_ns, 10), 100 + 150 + 250 + 300 + 20);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_SLEPT_S, 20), 100);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_CPU, 30), 20);
	assert_int_equal(cause_ns(ns, nr_ns, 10, SP_CHAIN_RAN, -1), 250);
	assert_int_equal(cause_ns(count, nr_count, 10, SP_CHAIN_RAN, -1), 1);
	free(ns);
	free(count);
	unlink(path);
}

static struct sp_run run(int cpu, uint64_t start, uint64_t end, uint64_t wait, int waker,
			 int how, const char *state)
{
	return (struct sp_run){ .start_ns = start, .end_ns = end, .cpu = cpu, .pid = 7,
				.wait_ns = wait, .waker = waker, .prev_cpu = 0, .end = (uint8_t)how,
				.end_state = state, .end_runnable = state && state[0] == 'R' };
}

/*
 * Task 7, its runs told as a pass may tell them: the run a repair ended at
 * 400 only after the next, which ended at 1100.  In order: [0, 100) out in
 * D, woken by 9 at 250 (D 150), waits behind 5 on CPU 1 to 300; [300, 400)
 * ended by a repair, an interrupt wakes it at 1000 (not known, 600), runs
 * at once [1000, 1100), out in S; woken by softirq at 1150 (S 50), waits
 * to 1200 on an idle CPU 0 (the rest of a wait: no task held it).
 */
static void test_order(void **state)
{
	struct sp_antagonists hist;
	struct sp_model_observer obs;
	struct sp_behind_entry *ns;
	struct sp_scope scope;
	struct sp_chain ch;
	size_t nr;
	struct sp_run runs[] = {
		run(0, 0, 100, 0, SP_WAKER_NONE, SP_RUN_END_SWITCH, "D"),
		run(1, 1000, 1100, 0, SP_WAKER_IRQ, SP_RUN_END_SWITCH, "S"),
		run(1, 300, 400, 50, 9, SP_RUN_END_REPAIR, NULL),
		run(0, 1200, 1300, 50, SP_WAKER_SOFTIRQ, SP_RUN_END_TRACE, NULL),
	};

	(void)state;
	sp_scope_init(&scope, 0, UINT64_MAX);
	assert_int_equal(sp_antagonists_init(&hist, 2), 0);
	sp_antagonists_observer(&hist, &obs);
	obs.run(obs.data, 1, 5, 200, 300);
	sp_chain_init(&ch, &hist, &scope, false);
	sp_chain_observer(&ch, &obs);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		obs.run_info(obs.data, &runs[i]);
	sp_chain_finish(&ch);
	assert_int_equal(ch.error, 0);
	ns = sp_behind_table_sorted(&ch.ns, &nr);
	assert_non_null(ns);
	assert_int_equal(total_ns(ns, nr, 7), 1300);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_RAN, -1), 400);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_SLEPT_D, 9), 150);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_CPU, 5), 50);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_UNKNOWN, SP_WAKER_IRQ), 600);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_SLEPT_S, SP_WAKER_SOFTIRQ), 50);
	assert_int_equal(cause_ns(ns, nr, 7, SP_CHAIN_CPU, -1), 50);
	free(ns);
	sp_chain_release(&ch);
	sp_antagonists_release(&hist);
}

/* Causes round-trip through their keys, interrupts and the highest pid too. */
static void test_code(void **state)
{
	const int who[] = { -3, -2, -1, 0, 1, 4194304 };

	(void)state;
	for (int k = 0; k < SP_CHAIN_NR; k++) {
		for (size_t i = 0; i < sizeof(who) / sizeof(who[0]); i++) {
			struct sp_chain_cause c = { (enum sp_chain_kind)k, who[i] };
			int32_t code = sp_chain_code(c);

			assert_true(code >= 0);
			assert_int_equal(sp_chain_cause_of(code).kind, k);
			assert_int_equal(sp_chain_cause_of(code).who, who[i]);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
