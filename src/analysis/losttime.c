// SPDX-License-Identifier: GPL-2.0-only
/*
 * losttime: SchedViz's lost time, wall, per CPU and per thread
 * (doc/design.md "Lost time").
 *
 * The pass tells each CPU's runs in time order but a wait only as it
 * ends, so the changes are kept and swept in time order: each CPU's
 * stretch of idle or busy (its runs merged while they are of one kind
 * and touch) begins and ends, a wait for a CPU begins and ends.  What
 * lies before the model's settled time (sp_model_settled()) is complete
 * and is swept as the pass goes, the rest at the end:
 *
 *	CPU 0	|busy----------|idle---------(current run, not told yet)
 *	CPU 1	|idle----|busy--------------------(current run)
 *	task 7	       |waits..........(still open)
 *	                       ^ settled: swept before it, kept after
 *
 * A stretch's beginning is kept as soon as it is known, so that a long
 * run holds nothing back: the kind of a CPU's current run is known
 * (sp_model_current()) before it is told.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/losttime.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"
#include "schedplot/trace/radix.h"

/* Changes kept before the first sweep is tried, and at least between two. */
#define SWEEP_EVERY	((size_t)1 << 14)

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
	bool begun;		/* its beginning is kept already */
};

/* A CPU's stretches and waiters as swept so far, by enum lost_what. */
struct sp_lost_cpu {
	int n[LOST_NR];
};

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void forget(struct sp_lost_time *lt)
{
	lt->nr_changes = 0;
	lt->sweep_at = 0;
	lt->error = 0;
	for (int c = 0; c < lt->nr_cpus; c++) {
		lt->open[c].what = -1;
		memset(&lt->swept[c], 0, sizeof(lt->swept[c]));
	}
	lt->all = (struct sp_lost_counts){ 0 };
	lt->swept_ns = 0;
	lt->wall_ns = lt->per_cpu_ns = lt->per_thread_ns = 0;
}

int sp_lost_time_init(struct sp_lost_time *lt, const struct sp_scope *scope, uint64_t t0_ns,
		      uint64_t t1_ns, int nr_cpus, const struct sp_model *model)
{
	memset(lt, 0, sizeof(*lt));
	lt->scope = *scope;
	lt->t0_ns = t0_ns;
	lt->t1_ns = t1_ns;
	lt->nr_cpus = nr_cpus > 0 ? nr_cpus : 0;
	lt->model = model;
	lt->sweep_every = SWEEP_EVERY;
	lt->open = sp_alloc_array((size_t)lt->nr_cpus, sizeof(*lt->open));
	lt->swept = sp_alloc_array((size_t)lt->nr_cpus, sizeof(*lt->swept));
	if ((!lt->open || !lt->swept) && lt->nr_cpus) {
		sp_lost_time_release(lt);
		return -ENOMEM;
	}
	forget(lt);
	return 0;
}

void sp_lost_time_release(struct sp_lost_time *lt)
{
	SP_FREE_AND_NULL(lt->changes);
	SP_FREE_AND_NULL(lt->keys);
	SP_FREE_AND_NULL(lt->open);
	SP_FREE_AND_NULL(lt->swept);
	lt->nr_changes = lt->alloc_changes = lt->alloc_keys = 0;
}

/* Room for @n more changes.  Return: 0, or -ENOMEM (then @lt->error says so). */
static int room(struct sp_lost_time *lt, size_t n)
{
	if (lt->nr_changes + n <= lt->alloc_changes)
		return 0;
	if (sp_grow_array_uninit(&lt->changes, &lt->alloc_changes, lt->nr_changes + n,
				 sizeof(*lt->changes)))
		return lt->error = -ENOMEM;
	return 0;
}

static inline void put(struct sp_lost_time *lt, int cpu, int what, uint64_t ts, int delta)
{
	lt->changes[lt->nr_changes++] = (struct sp_lost_change){
		.ts_ns = ts, .cpu = cpu, .what = (int16_t)what, .delta = (int16_t)delta };
}

/* Keep one change: @what on @cpu begins (@delta +1) or ends (-1) at @ts. */
static void keep_change(struct sp_lost_time *lt, int cpu, int what, uint64_t ts, int delta)
{
	if (!room(lt, 1))
		put(lt, cpu, what, ts, delta);
}

/* Keep [@t0, @t1) of @what on @cpu, cut to the window; nothing when that is empty. */
static void keep(struct sp_lost_time *lt, int cpu, int what, uint64_t t0, uint64_t t1)
{
	if (!sp_span_clip(&t0, &t1, lt->t0_ns, lt->t1_ns) || room(lt, 2))
		return;
	put(lt, cpu, what, t0, 1);
	put(lt, cpu, what, t1, -1);
}

/*
 * @cpu's stretch under way ends where it ends now.  One whose beginning
 * was kept ends after the window's start and after that beginning
 * (settle_cpus() says why), so only its end is left to keep.
 */
static void close_stretch(struct sp_lost_time *lt, int cpu)
{
	struct sp_lost_stretch *st = &lt->open[cpu];

	if (st->what < 0)
		return;
	if (st->begun)
		keep_change(lt, cpu, st->what, min_u64(st->end_ns, lt->t1_ns), -1);
	else
		keep(lt, cpu, st->what, st->start_ns, st->end_ns);
	st->what = -1;
}

/*
 * Before a sweep to @upto (@settled, cut to the window): keep what is
 * known of each CPU before it.  A CPU's current run lasts until @settled
 * at least and is of a known kind: it goes on with the stretch under way
 * or begins one.  Without one that begins before @settled, the next run
 * begins at @settled or later: a stretch that ends before it is over.  A
 * stretch's beginning before @upto is then kept, as its end is at
 * @settled or later: the stretch is not empty.
 */
static void settle_cpus(struct sp_lost_time *lt, uint64_t settled, uint64_t upto)
{
	for (int c = 0; c < lt->nr_cpus; c++) {
		struct sp_lost_stretch *st = &lt->open[c];
		uint64_t since, start;
		int pid, what;

		if (!sp_scope_cpu(&lt->scope, c))
			continue;
		pid = sp_model_current(lt->model, c, &since);
		what = pid == 0 ? LOST_IDLE : LOST_BUSY;
		/* (a current run that began before the stretch's end is the one being told) */
		if (pid >= 0 && since < settled && (st->what < 0 || since >= st->end_ns)) {
			if (st->what != what || st->end_ns != since) {
				close_stretch(lt, c);
				*st = (struct sp_lost_stretch){ .start_ns = since, .end_ns = since,
								.what = what };
			}
		} else if (st->end_ns < settled) {
			close_stretch(lt, c);
		}
		start = max_u64(st->start_ns, lt->t0_ns);
		if (st->what >= 0 && !st->begun && start < upto) {
			keep_change(lt, c, st->what, start, 1);
			st->begun = true;
		}
	}
}

/* What a CPU adds to the counts: idle, overloaded, and the tasks waiting for it then. */
static struct sp_lost_counts counts_of(const int n[LOST_NR])
{
	struct sp_lost_counts k = { 0 };

	if (n[LOST_BUSY] > 0 && n[LOST_WAITER] > 0) {
		k.over = 1;
		k.waiting = n[LOST_WAITER];
	} else if (n[LOST_BUSY] <= 0 && n[LOST_IDLE] > 0 && n[LOST_WAITER] <= 0) {
		k.idle = 1;
	}
	return k;
}

/*
 * The first @nr changes' indices in time order, or NULL when they are
 * one change or none.  A radix sort: a comparison sort of the changes was
 * most of what lost time cost.  Return: the order, or NULL with @lt->error
 * set when there is no room (then they are summed as they are kept).
 */
static const struct sp_radix_key *in_time_order(struct sp_lost_time *lt, size_t nr)
{
	if (nr < 2)
		return NULL;
	if (2 * nr > lt->alloc_keys &&
	    sp_grow_array_uninit(&lt->keys, &lt->alloc_keys, 2 * nr, sizeof(*lt->keys))) {
		lt->error = -ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < nr; i++)
		lt->keys[i] = (struct sp_radix_key){ .ts = lt->changes[i].ts_ns, .item = (uint32_t)i };
	return sp_radix_sort(lt->keys, lt->keys + nr, nr);
}

/*
 * Sum the changes up to @upto in time order, and drop them; no change
 * kept later is before @upto.  Changes at one time may be summed in any
 * order, and some now and the others later: nothing is summed between
 * them.
 */
static void sweep(struct sp_lost_time *lt, uint64_t upto)
{
	struct sp_lost_change *v = lt->changes;
	const struct sp_radix_key *order;
	size_t nr = 0, i;

	for (i = 0; i < lt->nr_changes; i++) {
		if (v[i].ts_ns <= upto) {
			struct sp_lost_change ch = v[i];

			if (i != nr) {
				v[i] = v[nr];
				v[nr] = ch;
			}
			nr++;
		}
	}
	order = in_time_order(lt, nr);
	for (i = 0; i < nr; i++) {
		const struct sp_lost_change *ch = &v[order ? order[i].item : i];
		struct sp_lost_counts *all = &lt->all, was, now;
		int *n = lt->swept[ch->cpu].n;
		uint64_t dur = ch->ts_ns - lt->swept_ns;

		if (dur && all->idle > 0 && all->over > 0) {
			lt->wall_ns += dur;
			lt->per_cpu_ns += dur * min_u64((uint64_t)all->idle, (uint64_t)all->over);
			lt->per_thread_ns += dur * min_u64((uint64_t)all->idle,
							   (uint64_t)all->waiting);
		}
		lt->swept_ns = ch->ts_ns;
		was = counts_of(n);
		n[ch->what] += ch->delta;
		now = counts_of(n);
		all->idle += now.idle - was.idle;
		all->over += now.over - was.over;
		all->waiting += now.waiting - was.waiting;
	}
	memmove(v, v + nr, (lt->nr_changes - nr) * sizeof(*v));
	lt->nr_changes -= nr;
}

/* Now and then, sweep what the model says is complete. */
static void sweep_settled(struct sp_lost_time *lt)
{
	uint64_t settled, upto;

	if (!lt->model || lt->nr_changes < max_u64(lt->sweep_at, lt->sweep_every))
		return;
	settled = sp_model_settled(lt->model);
	upto = min_u64(settled, lt->t1_ns);
	settle_cpus(lt, settled, upto);
	sweep(lt, upto);
	/* what stays (an old wait still open) is sorted again only once it has doubled */
	lt->sweep_at = 2 * lt->nr_changes;
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
	close_stretch(lt, cpu);
	*st = (struct sp_lost_stretch){ .start_ns = t0, .end_ns = t1, .what = what };
	sweep_settled(lt);
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
	sweep_settled(lt);
}

static void on_reset(void *data)
{
	forget(data);
}

void sp_lost_time_observer(struct sp_lost_time *lt, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(lt, .run = on_run, .wait = on_wait, .reset = on_reset);
}

int sp_lost_time_finish(struct sp_lost_time *lt)
{
	for (int c = 0; c < lt->nr_cpus; c++)
		close_stretch(lt, c);
	sweep(lt, UINT64_MAX);
	return lt->error;
}
