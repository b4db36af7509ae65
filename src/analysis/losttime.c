// SPDX-License-Identifier: GPL-2.0-only
/*
 * losttime: SchedViz's lost time, wall, per CPU and per thread
 * (doc/design.md "Lost time").
 *
 * The pass tells each CPU's runs in time order but a wait only as it
 * ends, so the changes are kept and swept once, in time order, at the
 * end: each CPU's stretch of idle or busy (its runs merged while they
 * are of one kind and touch) begins and ends, a wait for a CPU begins
 * and ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/losttime.h"
#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"

enum lost_what {
	LOST_IDLE,		/* the CPU runs its idle task */
	LOST_BUSY,		/* it runs another task */
	LOST_WAITER,		/* a task waits for it */
	LOST_NR,
};

struct sp_lost_change {
	uint64_t ts_ns;
	int32_t cpu;
	int16_t what;		/* enum lost_what */
	int16_t delta;		/* +1 begins, -1 ends */
};

/* A CPU's stretch of one kind under way. */
struct sp_lost_stretch {
	uint64_t start_ns, end_ns;
	int what;		/* LOST_IDLE, LOST_BUSY, or -1: none */
};

int sp_lost_time_init(struct sp_lost_time *lt, const struct sp_scope *scope, uint64_t t0_ns,
		      uint64_t t1_ns, int nr_cpus)
{
	memset(lt, 0, sizeof(*lt));
	lt->scope = *scope;
	lt->t0_ns = t0_ns;
	lt->t1_ns = t1_ns;
	lt->nr_cpus = nr_cpus > 0 ? nr_cpus : 0;
	lt->open = sp_alloc_array((size_t)lt->nr_cpus, sizeof(*lt->open));
	if (!lt->open && lt->nr_cpus)
		return -ENOMEM;
	for (int c = 0; c < lt->nr_cpus; c++)
		lt->open[c].what = -1;
	return 0;
}

void sp_lost_time_release(struct sp_lost_time *lt)
{
	SP_FREE_AND_NULL(lt->changes);
	SP_FREE_AND_NULL(lt->open);
	lt->nr_changes = lt->alloc_changes = 0;
}

/* Keep [@t0, @t1) of @what on @cpu, cut to the window; nothing when that is empty. */
static void keep(struct sp_lost_time *lt, int cpu, int what, uint64_t t0, uint64_t t1)
{
	struct sp_lost_change *ch;

	if (t0 < lt->t0_ns)
		t0 = lt->t0_ns;
	if (t1 > lt->t1_ns)
		t1 = lt->t1_ns;
	if (t1 <= t0)
		return;
	if (sp_grow_array(&lt->changes, &lt->alloc_changes, lt->nr_changes + 2,
			  sizeof(*lt->changes))) {
		lt->error = -ENOMEM;
		return;
	}
	ch = &lt->changes[lt->nr_changes];
	ch[0] = (struct sp_lost_change){ .ts_ns = t0, .cpu = cpu, .what = (int16_t)what,
					 .delta = 1 };
	ch[1] = (struct sp_lost_change){ .ts_ns = t1, .cpu = cpu, .what = (int16_t)what,
					 .delta = -1 };
	lt->nr_changes += 2;
}

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_lost_time *lt = data;
	struct sp_lost_stretch *st;
	int what = pid == 0 ? LOST_IDLE : LOST_BUSY;

	if (cpu < 0 || cpu >= lt->nr_cpus || !sp_scope_cpu(&lt->scope, cpu))
		return;
	st = &lt->open[cpu];
	if (st->what == what && st->end_ns == t0) {
		st->end_ns = t1;
		return;
	}
	if (st->what >= 0)
		keep(lt, cpu, st->what, st->start_ns, st->end_ns);
	*st = (struct sp_lost_stretch){ .start_ns = t0, .end_ns = t1, .what = what };
}

static void on_wait(void *data, const struct sp_wait *w)
{
	struct sp_lost_time *lt = data;

	if (!w->dur_ns || w->cpu < 0 || w->cpu >= lt->nr_cpus ||
	    !sp_scope_cpu(&lt->scope, w->cpu))
		return;
	if (lt->scope.target && !sp_scope_task(&lt->scope, w->pid))
		return;
	keep(lt, w->cpu, LOST_WAITER, w->start_ns, w->start_ns + w->dur_ns);
}

static void on_reset(void *data)
{
	struct sp_lost_time *lt = data;

	lt->nr_changes = 0;
	lt->error = 0;
	for (int c = 0; c < lt->nr_cpus; c++)
		lt->open[c].what = -1;
	lt->wall_ns = lt->per_cpu_ns = lt->per_thread_ns = 0;
}

void sp_lost_time_observer(struct sp_lost_time *lt, struct sp_model_observer *obs)
{
	*obs = (struct sp_model_observer){
		.run = on_run,
		.wait = on_wait,
		.reset = on_reset,
		.data = lt,
	};
}

static int by_time(const void *pa, const void *pb)
{
	const struct sp_lost_change *a = pa, *b = pb;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return 0;
}

/* What a CPU adds to the counts: idle, overloaded, and the tasks waiting for it then. */
struct lost_counts {
	int idle, over, waiting;
};

static struct lost_counts counts_of(const int n[LOST_NR])
{
	struct lost_counts k = { 0 };

	if (n[LOST_BUSY] > 0 && n[LOST_WAITER] > 0) {
		k.over = 1;
		k.waiting = n[LOST_WAITER];
	} else if (n[LOST_BUSY] <= 0 && n[LOST_IDLE] > 0 && n[LOST_WAITER] <= 0) {
		k.idle = 1;
	}
	return k;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int sp_lost_time_finish(struct sp_lost_time *lt)
{
	int (*n)[LOST_NR];
	struct lost_counts all = { 0 };
	uint64_t last = 0;

	for (int c = 0; c < lt->nr_cpus; c++) {
		struct sp_lost_stretch *st = &lt->open[c];

		if (st->what >= 0)
			keep(lt, c, st->what, st->start_ns, st->end_ns);
		st->what = -1;
	}
	lt->wall_ns = lt->per_cpu_ns = lt->per_thread_ns = 0;
	n = sp_alloc_array((size_t)lt->nr_cpus, sizeof(*n));
	if (!n && lt->nr_cpus)
		return lt->error = -ENOMEM;
	qsort(lt->changes, lt->nr_changes, sizeof(*lt->changes), by_time);
	for (size_t i = 0; i < lt->nr_changes; i++) {
		const struct sp_lost_change *ch = &lt->changes[i];
		struct lost_counts was, now;
		uint64_t dur = i ? ch->ts_ns - last : 0;

		if (dur && all.idle > 0 && all.over > 0) {
			lt->wall_ns += dur;
			lt->per_cpu_ns += dur * min_u64((uint64_t)all.idle, (uint64_t)all.over);
			lt->per_thread_ns += dur * min_u64((uint64_t)all.idle,
							   (uint64_t)all.waiting);
		}
		last = ch->ts_ns;
		was = counts_of(n[ch->cpu]);
		n[ch->cpu][ch->what] += ch->delta;
		now = counts_of(n[ch->cpu]);
		all.idle += now.idle - was.idle;
		all.over += now.over - was.over;
		all.waiting += now.waiting - was.waiting;
	}
	free(n);
	return lt->error;
}
