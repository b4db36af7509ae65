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
 *
 * Nothing is sorted.  Each CPU's stretches come in time order and are
 * kept so, in the CPU's lane, one change where a stretch ends as the next
 * begins.  The waits come in the order of their ends (the model holds
 * them back, so not in step with the runs) into a lane of their own: a
 * wait's beginning goes a few places back, or, when that is further (a
 * long wait), into a heap; its end goes last.  A sweep takes the changes
 * of the waits' lane and the heap in turn, each after the CPUs' changes
 * up to it, which a loser tree merges (a comparison or two a change), and
 * sums each change as it comes: its CPU's counts are one word, and which
 * of them are above 0 says from a table what the CPU adds to I, O and W.
 * While no task waits, nothing is lost until a wait begins: a CPU's
 * changes up to the next one of a wait are summed in a row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/losttime.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/losertree.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"

/* Changes kept before the first sweep is tried, and at least between two. */
#define SWEEP_EVERY	((size_t)1 << 14)

/* How far back a wait's beginning goes in the waits' lane; further: the heap. */
#define BACK_MAX	32

/* A source of the sweep with nothing (more) to sweep; no change is this late. */
#define NONE_LEFT	UINT64_MAX

enum lost_what {
	LOST_IDLE,		/* the CPU runs its idle task */
	LOST_BUSY,		/* it runs another task */
	LOST_WAITER,		/* a task waits for it */
	LOST_NR,
};

/* A lane's stretch under way: none, or begun (its beginning kept) or not, of a kind. */
enum lost_stretch {
	STRETCH_OFF = -2,	/* a CPU out of the set, or the waits' lane: never one */
	STRETCH_NONE = -1,
	STRETCH_BEGUN = 0,	/* + LOST_IDLE or LOST_BUSY */
	STRETCH_NOT_BEGUN = 2,	/* + LOST_IDLE or LOST_BUSY */
};

/*
 * What a change does to its CPU's stretches and waiters: one of them
 * begins or ends, or a stretch of the other kind ends where one begins.
 */
enum lost_delta {
	BEGINS,			/* + enum lost_what */
	ENDS = BEGINS + LOST_NR,	/* + enum lost_what */
	TURNS_TO = ENDS + LOST_NR,	/* + LOST_IDLE or LOST_BUSY */
	DELTA_NR = TURNS_TO + 2,
};

/* At @ts_ns, @delta (enum lost_delta) on @cpu. */
struct sp_lost_change {
	uint64_t ts_ns;
	int32_t cpu;
	int32_t delta;
};

/*
 * A CPU's changes in time order in v[head, nr) (those before head are
 * swept) and its stretch under way, [start_ns, end_ns) of a kind; the
 * waits' lane, after the CPUs', has changes only.
 */
struct sp_lost_lane {
	struct sp_lost_change *v;
	size_t head, nr, alloc;
	uint64_t start_ns, end_ns;
	int stretch;		/* enum lost_stretch */
};

/* A sweep's place in a lane, and the lane's end. */
struct sp_lost_cursor {
	const struct sp_lost_change *at, *end;
};

/*
 * A CPU's stretches and waiters as swept so far, by enum lost_what, in one
 * word: each a field with a bias, so that a change adds one word (delta_of)
 * and, after ONES is taken away, a field's top bit says its count is above
 * 0.  Idle and busy stretches overlap only where runs do, a few at most:
 * 16 bits each; the waiters take the high 32.
 */
#define IDLE_BIAS	((uint64_t)1 << 15)
#define BUSY_BIAS	((uint64_t)1 << 31)
#define WAITER_BIAS	((uint64_t)1 << 63)
#define COUNTS_ZERO	(IDLE_BIAS | BUSY_BIAS | WAITER_BIAS)
#define ONES		(1 | (uint64_t)1 << 16 | (uint64_t)1 << 32)

static const uint64_t delta_of[DELTA_NR] = {
	[BEGINS + LOST_IDLE] = 1,
	[BEGINS + LOST_BUSY] = (uint64_t)1 << 16,
	[BEGINS + LOST_WAITER] = (uint64_t)1 << 32,
	[ENDS + LOST_IDLE] = -(uint64_t)1,
	[ENDS + LOST_BUSY] = -((uint64_t)1 << 16),
	[ENDS + LOST_WAITER] = -((uint64_t)1 << 32),
	[TURNS_TO + LOST_IDLE] = 1 - ((uint64_t)1 << 16),
	[TURNS_TO + LOST_BUSY] = ((uint64_t)1 << 16) - 1,
};

/* What a change adds to the waiters of all CPUs. */
static const uint32_t waiter_of[DELTA_NR] = {
	[BEGINS + LOST_WAITER] = 1,
	[ENDS + LOST_WAITER] = UINT32_MAX,
};

/* I and O in one word, I in the low half, O in the high one: one addition a change. */
#define OVER_SHIFT	32

/*
 * Which counts are above 0, a bit each by enum lost_what: the fields' top
 * bits, 15, 31 and 63, multiplied up to 61, 62 and 63 (no two of the
 * products land on one bit, so nothing carries).
 */
static inline unsigned int above_0(uint64_t counts)
{
	uint64_t m = (counts - ONES) & COUNTS_ZERO;

	return (unsigned int)((m * ((uint64_t)1 << 46 | (uint64_t)1 << 31 | 1)) >> 61);
}

/*
 * By which counts are above 0: what a CPU adds to I and O (OVER_SHIFT),
 * and a mask for its waiters, added to W when it is
 * overloaded.  Idle: idle, neither busy nor waited for; overloaded: busy
 * and waited for.
 */
static const struct {
	uint64_t idle_over;
	uint32_t waiters;
} share_of[8] = {
	[1 << LOST_IDLE] = { .idle_over = 1 },
	[1 << LOST_BUSY | 1 << LOST_WAITER] = { .idle_over = (uint64_t)1 << OVER_SHIFT,
						.waiters = UINT32_MAX },
	[1 << LOST_IDLE | 1 << LOST_BUSY | 1 << LOST_WAITER] = {
		.idle_over = (uint64_t)1 << OVER_SHIFT, .waiters = UINT32_MAX },
};

/* A CPU as swept so far: its counts, and what it adds to I and O (OVER_SHIFT) and W. */
struct sp_lost_cpu {
	uint64_t counts;
	uint64_t idle_over;
	uint32_t waiting;
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
	for (int c = 0; c <= lt->nr_cpus; c++) {
		struct sp_lost_lane *l = &lt->lanes[c];

		l->head = l->nr = 0;
		l->start_ns = l->end_ns = 0;
		l->stretch = c < lt->nr_cpus && sp_scope_cpu(&lt->scope, c) ? STRETCH_NONE :
									       STRETCH_OFF;
	}
	for (int c = 0; c < lt->nr_cpus; c++)
		lt->swept[c] = (struct sp_lost_cpu){ .counts = COUNTS_ZERO };
	lt->nr_late = 0;
	lt->sweep_in = 0;
	lt->error = 0;
	lt->all = (struct sp_lost_counts){ 0 };
	lt->waiters = 0;
	lt->swept_ns = 0;
	lt->wall_ns = lt->per_cpu_ns = lt->per_thread_ns = 0;
}

int sp_lost_time_init(struct sp_lost_time *lt, const struct sp_scope *scope, uint64_t t0_ns,
		      uint64_t t1_ns, int nr_cpus, const struct sp_model *model)
{
	memset(lt, 0, sizeof(*lt));
	lt->scope = *scope;
	lt->t0_ns = t0_ns;
	/* (a window to the end of time ends a nanosecond before: see NONE_LEFT) */
	lt->t1_ns = min_u64(t1_ns, NONE_LEFT - 1);
	lt->nr_cpus = nr_cpus > 0 ? nr_cpus : 0;
	lt->model = model;
	lt->sweep_every = SWEEP_EVERY;
	/* the CPUs' lanes are the leaves of the sweep's tree */
	for (lt->nr_leaves = 1; lt->nr_leaves < lt->nr_cpus; lt->nr_leaves *= 2)
		;
	lt->lanes = sp_alloc_array((size_t)lt->nr_cpus + 1, sizeof(*lt->lanes));
	lt->swept = sp_alloc_array((size_t)lt->nr_cpus, sizeof(*lt->swept));
	lt->next_ns = sp_alloc_array((size_t)lt->nr_leaves, sizeof(*lt->next_ns));
	lt->losers = sp_alloc_array((size_t)lt->nr_leaves, sizeof(*lt->losers));
	lt->cursors = sp_alloc_array((size_t)lt->nr_cpus + 1, sizeof(*lt->cursors));
	if (!lt->lanes || !lt->swept || !lt->next_ns || !lt->losers || !lt->cursors) {
		sp_lost_time_release(lt);
		return -ENOMEM;
	}
	forget(lt);
	return 0;
}

void sp_lost_time_release(struct sp_lost_time *lt)
{
	for (int c = 0; lt->lanes && c <= lt->nr_cpus; c++)
		free(lt->lanes[c].v);
	SP_FREE_ALL(lt->lanes, lt->late, lt->next_ns, lt->losers, lt->cursors, lt->swept);
	memset(lt, 0, sizeof(*lt));
}

/* Into the heap of changes that came too late for their lane, by time. */
static void late_push(struct sp_lost_time *lt, const struct sp_lost_change *ch)
{
	struct sp_lost_change *h;
	size_t i;

	if (lt->nr_late == lt->alloc_late &&
	    sp_grow_array_uninit(&lt->late, &lt->alloc_late, lt->nr_late + 1, sizeof(*lt->late))) {
		lt->error = -ENOMEM;
		return;
	}
	lt->sweep_in--;
	h = lt->late;
	for (i = lt->nr_late++; i > 0 && h[(i - 1) / 2].ts_ns > ch->ts_ns; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = *ch;
}

/* Take the heap's earliest change out, into @top. */
static void late_pop(struct sp_lost_time *lt, struct sp_lost_change *top)
{
	struct sp_lost_change *h = lt->late, last = h[--lt->nr_late];
	size_t n = lt->nr_late, i = 0, k;

	*top = h[0];
	while ((k = 2 * i + 1) < n) {
		if (k + 1 < n && h[k + 1].ts_ns < h[k].ts_ns)
			k++;
		if (h[k].ts_ns >= last.ts_ns)
			break;
		h[i] = h[k];
		i = k;
	}
	if (n)
		h[i] = last;
}

/*
 * Room for @n more changes at the end of @l: the swept ones before its
 * head are dropped once they are half of it.  Return: 0, or -ENOMEM (then
 * @lt->error says so).
 */
static int room(struct sp_lost_time *lt, struct sp_lost_lane *l, size_t n)
{
	size_t was = l->alloc;

	if (l->head && l->head >= l->alloc / 2) {
		memmove(l->v, l->v + l->head, (l->nr - l->head) * sizeof(*l->v));
		l->nr -= l->head;
		l->head = 0;
	}
	if (l->nr + n <= l->alloc)
		return 0;
	if (sp_grow_array_uninit(&l->v, &l->alloc, l->nr + n, sizeof(*l->v)))
		return lt->error = -ENOMEM;
	lt->alloc_changes += l->alloc - was;
	return 0;
}

/*
 * Keep a change of a stretch of @cpu at @ts: after those kept already,
 * as the pass tells a CPU's runs in time order; one before them (runs
 * that overlap) goes to the heap.
 */
static void keep_stretch(struct sp_lost_time *lt, int cpu, uint64_t ts, int delta)
{
	struct sp_lost_lane *l = &lt->lanes[cpu];
	struct sp_lost_change ch = { .ts_ns = ts, .cpu = cpu, .delta = delta };

	if (l->nr > l->head && l->v[l->nr - 1].ts_ns > ts) {
		late_push(lt, &ch);
		return;
	}
	if (l->nr == l->alloc && room(lt, l, 1))
		return;
	l->v[l->nr++] = ch;
	lt->sweep_in--;
}

/*
 * Keep @ch, a change of a wait, in time order: a few places from the end
 * at most, else in the heap.  Changes at one time stay in the order they
 * came, which does not matter: nothing is summed between them.
 */
static void keep_wait(struct sp_lost_time *lt, const struct sp_lost_change *ch)
{
	struct sp_lost_lane *l = &lt->lanes[lt->nr_cpus];
	struct sp_lost_change *v;
	size_t i, stop;

	if (l->nr == l->alloc && room(lt, l, 1))
		return;
	v = l->v;
	i = l->nr;
	stop = i - l->head > BACK_MAX ? i - BACK_MAX : l->head;
	while (i > stop && v[i - 1].ts_ns > ch->ts_ns) {
		v[i] = v[i - 1];
		i--;
	}
	if (i > l->head && v[i - 1].ts_ns > ch->ts_ns) {
		/* too far back: put back what moved */
		memmove(v + i, v + i + 1, (l->nr - i) * sizeof(*v));
		late_push(lt, ch);
		return;
	}
	v[i] = *ch;
	l->nr++;
	lt->sweep_in--;
}

/*
 * @cpu's stretch under way ends where it ends now.  One whose beginning
 * was kept ends after the window's start and after that beginning
 * (settle_cpus() says why), so only its end is left to keep.
 */
static void close_stretch(struct sp_lost_time *lt, int cpu)
{
	struct sp_lost_lane *l = &lt->lanes[cpu];
	uint64_t t0 = l->start_ns, t1 = l->end_ns;

	if (l->stretch < STRETCH_BEGUN)
		return;
	if (l->stretch < STRETCH_NOT_BEGUN) {
		keep_stretch(lt, cpu, min_u64(t1, lt->t1_ns), ENDS + l->stretch);
	} else if (sp_span_clip(&t0, &t1, lt->t0_ns, lt->t1_ns)) {
		keep_stretch(lt, cpu, t0, BEGINS + l->stretch - STRETCH_NOT_BEGUN);
		keep_stretch(lt, cpu, t1, ENDS + l->stretch - STRETCH_NOT_BEGUN);
	}
	l->stretch = STRETCH_NONE;
}

/* Keep the beginning of @cpu's stretch under way, when it begins before @upto. */
static void begin_stretch(struct sp_lost_time *lt, int cpu, uint64_t upto)
{
	struct sp_lost_lane *l = &lt->lanes[cpu];
	uint64_t start = max_u64(l->start_ns, lt->t0_ns);

	if (l->stretch >= STRETCH_NOT_BEGUN && start < upto) {
		l->stretch -= STRETCH_NOT_BEGUN;
		keep_stretch(lt, cpu, start, BEGINS + l->stretch);
	}
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
		struct sp_lost_lane *l = &lt->lanes[c];
		uint64_t since;
		int pid, what, was;

		if (l->stretch == STRETCH_OFF)
			continue;
		pid = sp_model_current(lt->model, c, &since);
		what = pid == 0 ? LOST_IDLE : LOST_BUSY;
		was = l->stretch < 0 ? -1 : l->stretch % STRETCH_NOT_BEGUN;
		/* (a current run that began before the stretch's end is the one being told) */
		if (pid >= 0 && since < settled && (was < 0 || since >= l->end_ns)) {
			if (was != what || l->end_ns != since) {
				close_stretch(lt, c);
				l->start_ns = l->end_ns = since;
				l->stretch = STRETCH_NOT_BEGUN + what;
			}
		} else if (l->end_ns < settled) {
			close_stretch(lt, c);
		}
		begin_stretch(lt, c, upto);
	}
}

/* The time of @cpu's next change up to @upto, or NONE_LEFT (also for a leaf of no CPU). */
static uint64_t next_of(const struct sp_lost_time *lt, int cpu, uint64_t upto)
{
	const struct sp_lost_lane *l = &lt->lanes[cpu];
	uint64_t ts;

	if (cpu >= lt->nr_cpus || l->head == l->nr)
		return NONE_LEFT;
	ts = l->v[l->head].ts_ns;
	return ts <= upto ? ts : NONE_LEFT;
}

static bool leaf_before(const void *data, int a, int b)
{
	const struct sp_lost_time *lt = data;

	return lt->next_ns[a] < lt->next_ns[b];
}

/* Leaf @win's next change is at @at now: replay its matches; return the winner. */
static inline int replay(int *losers, uint64_t *next, unsigned int leaves, int win, uint64_t at)
{
	next[win] = at;
	for (unsigned int i = ((unsigned int)win + leaves) / 2; i; i /= 2) {
		int l = losers[i];

		if (next[l] < at) {
			losers[i] = win;
			win = l;
			at = next[l];
		}
	}
	return win;
}

/* The end of the changes in [@at, @end) up to @upto: those after it wait for a later sweep. */
static const struct sp_lost_change *before(const struct sp_lost_change *at,
					   const struct sp_lost_change *end, uint64_t upto)
{
	if (at == end || end[-1].ts_ns <= upto)
		return end;
	while (at < end) {
		const struct sp_lost_change *mid = at + (end - at) / 2;

		if (mid->ts_ns <= upto)
			at = mid + 1;
		else
			end = mid;
	}
	return at;
}

/* A sweep's sums so far (sweep() keeps them in registers). */
struct sums {
	uint64_t idle_over;	/* I and O (OVER_SHIFT) */
	uint64_t swept;		/* the last change's time */
	uint64_t wall, per_cpu, per_thread;
	uint32_t waiting;	/* W */
	uint32_t waiters;	/* the tasks waiting for any CPU */
	bool losing;		/* I > 0 and O > 0 */
};

/* Sum what lies since the change before, then change @delta of @c at @ts. */
static inline __attribute__((always_inline)) void sum(struct sums *s, struct sp_lost_cpu *c,
						      uint64_t ts, int delta)
{
	uint64_t n;
	uint32_t nw;
	unsigned int k;

	if (s->losing) {
		uint64_t dur = ts - s->swept;
		uint32_t idle = (uint32_t)s->idle_over, o = (uint32_t)(s->idle_over >> OVER_SHIFT);

		s->wall += dur;
		s->per_cpu += dur * (idle < o ? idle : o);
		s->per_thread += dur * (idle < s->waiting ? idle : s->waiting);
	}
	s->swept = ts;
	s->waiters += waiter_of[delta];
	n = c->counts += delta_of[delta];
	k = above_0(n);
	s->idle_over += share_of[k].idle_over - c->idle_over;
	c->idle_over = share_of[k].idle_over;
	nw = ((uint32_t)(n >> 32) - (uint32_t)(WAITER_BIAS >> 32)) & share_of[k].waiters;
	s->waiting += nw - c->waiting;
	c->waiting = nw;
	s->losing = (uint32_t)s->idle_over && s->idle_over >> OVER_SHIFT;
}

/*
 * Sum the changes up to @upto in time order, and drop them; no change
 * kept later is before @upto.  Changes at one time may be summed in any
 * order, and some now and the others later: nothing is summed between
 * them.  The waits' lane and the heap are taken in turn, each change
 * after the CPUs' changes up to it: the CPUs' lanes, each cut at @upto,
 * are the leaves of a loser tree, the winner's change is summed, then its next one plays the
 * losers on its way up.  Up to each change, what lies since the one
 * before is summed, then its CPU's share of I, O and W, as it was and as
 * it is.  While no task waits, no CPU is overloaded until a wait begins:
 * then the winner's changes up to the next of a wait are summed in a row,
 * in one match for them all.
 */
static void sweep(struct sp_lost_time *lt, uint64_t upto)
{
	uint64_t *next = lt->next_ns;
	int *losers = lt->losers, nr_cpus = lt->nr_cpus, win;
	unsigned int leaves = (unsigned int)lt->nr_leaves;
	struct sp_lost_cursor *cur = lt->cursors;
	struct sp_lost_cpu *cpus = lt->swept;
	struct sp_lost_lane *wl = &lt->lanes[nr_cpus];
	const struct sp_lost_change *w = wl->v, *w_end = wl->v;
	struct sp_lost_change late;
	struct sums s = {
		.idle_over = (uint64_t)lt->all.idle | (uint64_t)lt->all.over << OVER_SHIFT,
		.swept = lt->swept_ns,
		.waiting = (uint32_t)lt->all.waiting,
		.waiters = lt->waiters,
	};
	s.losing = (uint32_t)s.idle_over && s.idle_over >> OVER_SHIFT;
	if (w) {
		w += wl->head;
		w_end += wl->nr;
	}
	for (int i = 0; i < nr_cpus; i++) {
		const struct sp_lost_lane *l = &lt->lanes[i];

		cur[i].at = cur[i].end = l->v;
		if (l->v) {
			cur[i].at += l->head;
			cur[i].end += l->nr;
		}
		cur[i].end = before(cur[i].at, cur[i].end, upto);
	}
	for (int i = 0; i < lt->nr_leaves; i++)
		next[i] = next_of(lt, i, upto);
	win = sp_losertree_build(lt->losers, lt->nr_leaves, leaf_before, lt);
	for (;;) {
		const struct sp_lost_change *ch;
		uint64_t tw = w < w_end ? w->ts_ns : NONE_LEFT, until;
		bool from_late = lt->nr_late && lt->late[0].ts_ns < tw;

		if (from_late)
			tw = lt->late[0].ts_ns;
		until = min_u64(tw, upto);
		if (s.waiters) {
			/* the CPUs' changes up to the next of a wait, one by one */
			while (next[win] <= until) {
				struct sp_lost_cursor *cu = &cur[win];
				uint64_t at;

				ch = cu->at++;
				at = cu->at < cu->end ? cu->at->ts_ns : NONE_LEFT;
				sum(&s, &cpus[win], ch->ts_ns, ch->delta);
				win = replay(losers, next, leaves, win, at);
			}
		} else {
			/* or each CPU's in a row: nothing is lost before a wait begins */
			while (next[win] <= until) {
				struct sp_lost_cursor *cu = &cur[win];
				const struct sp_lost_change *end = cu->end;
				struct sp_lost_cpu *c = &cpus[win];
				uint64_t n = c->counts, at;
				unsigned int k;

				ch = cu->at;
				do
					n += delta_of[ch++->delta];
				while (ch < end && ch->ts_ns <= until);
				cu->at = ch;
				c->counts = n;
				k = above_0(n);
				s.idle_over += share_of[k].idle_over - c->idle_over;
				c->idle_over = share_of[k].idle_over;
				at = ch < end ? ch->ts_ns : NONE_LEFT;
				win = replay(losers, next, leaves, win, at);
			}
		}
		if (tw > upto)
			break;
		if (from_late) {
			late_pop(lt, &late);
			ch = &late;
		} else {
			ch = w++;
		}
		sum(&s, &cpus[ch->cpu], ch->ts_ns, ch->delta);
	}
	for (int i = 0; i <= nr_cpus; i++) {
		struct sp_lost_lane *l = &lt->lanes[i];
		const struct sp_lost_change *at = i < nr_cpus ? cur[i].at : w;

		if (!l->v)
			continue;
		l->head = (size_t)(at - l->v);
		if (l->head == l->nr)
			l->head = l->nr = 0;
	}
	lt->all = (struct sp_lost_counts){ .idle = (int)(uint32_t)s.idle_over,
					   .over = (int)(s.idle_over >> OVER_SHIFT),
					   .waiting = (int)s.waiting };
	lt->waiters = s.waiters;
	lt->swept_ns = s.swept;
	lt->wall_ns += s.wall;
	lt->per_cpu_ns += s.per_cpu;
	lt->per_thread_ns += s.per_thread;
}

/* Sweep what the model says is complete; try again once what is kept has doubled. */
__attribute__((noinline)) static void sweep_settled(struct sp_lost_time *lt)
{
	uint64_t settled, upto;

	size_t kept = lt->nr_late;

	if (!lt->model) {
		lt->sweep_in = PTRDIFF_MAX;
		return;
	}
	settled = sp_model_settled(lt->model);
	upto = min_u64(settled, lt->t1_ns);
	settle_cpus(lt, settled, upto);
	sweep(lt, upto);
	for (int c = 0; c <= lt->nr_cpus; c++)
		kept += lt->lanes[c].nr - lt->lanes[c].head;
	/* (what stays, after an old wait still open, is not looked at again before) */
	lt->sweep_in = (ptrdiff_t)max_u64(2 * kept, lt->sweep_every) - (ptrdiff_t)kept;
}

/*
 * A run of @what on @cpu that neither goes on with the stretch under way
 * nor begins where that one ends inside the window, or a CPU out of the
 * set: what on_run() does not.
 */
__attribute__((noinline)) static void other_run(struct sp_lost_time *lt, int cpu, int what, uint64_t t0, uint64_t t1)
{
	struct sp_lost_lane *l = &lt->lanes[cpu];

	if (l->stretch == STRETCH_OFF)
		return;
	if (l->stretch >= 0 && l->stretch % STRETCH_NOT_BEGUN == what && l->end_ns == t0) {
		/* it goes on with a stretch that reaches into the window only now */
		l->end_ns = t1;
		begin_stretch(lt, cpu, min_u64(t1, lt->t1_ns));
		return;
	}
	close_stretch(lt, cpu);
	l->start_ns = t0;
	l->end_ns = t1;
	l->stretch = STRETCH_NOT_BEGUN + what;
	begin_stretch(lt, cpu, min_u64(t1, lt->t1_ns));
	if (lt->sweep_in <= 0)
		sweep_settled(lt);
}

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_lost_time *lt = data;
	struct sp_lost_lane *l;
	int what = pid != 0;	/* LOST_IDLE or LOST_BUSY */

	if ((unsigned int)cpu >= (unsigned int)lt->nr_cpus)
		return;
	l = &lt->lanes[cpu];
	if (l->end_ns == t0) {
		/* of the run's kind or the other, when begun (STRETCH_BEGUN is 0) */
		unsigned int other = (unsigned int)l->stretch ^ (unsigned int)what;

		/* the run goes on with the stretch under way */
		if (!other) {
			l->end_ns = t1;
			return;
		}
		/*
		 * Or, mostly, the stretch under way is of the other kind and
		 * ends where this one begins inside the window: one change,
		 * after the CPU's others (they are before the stretch's
		 * beginning).
		 */
		if (other == 1 && t0 < t1 && t0 >= lt->t0_ns && t0 < lt->t1_ns && l->nr < l->alloc) {
			struct sp_lost_change *ch = &l->v[l->nr++];

			ch->ts_ns = t0;
			ch->cpu = cpu;
			ch->delta = TURNS_TO + what;
			l->end_ns = t1;
			l->stretch = what;
			if (--lt->sweep_in <= 0)
				sweep_settled(lt);
			return;
		}
	}
	other_run(lt, cpu, what, t0, t1);
}

/* Keep a wait's beginning at @t0 and its end at @t1 on @cpu where keep_wait() finds them places. */
__attribute__((noinline)) static void other_wait(struct sp_lost_time *lt, int cpu, uint64_t t0,
						 uint64_t t1)
{
	struct sp_lost_change begin = { .ts_ns = t0, .cpu = cpu, .delta = BEGINS + LOST_WAITER };
	struct sp_lost_change end = { .ts_ns = t1, .cpu = cpu, .delta = ENDS + LOST_WAITER };

	keep_wait(lt, &begin);
	keep_wait(lt, &end);
	if (lt->sweep_in <= 0)
		sweep_settled(lt);
}

/* Keep wait @w of the set, on a CPU of the set. */
static inline __attribute__((always_inline)) void add_wait(struct sp_lost_time *lt,
							    const struct sp_wait *w)
{
	struct sp_lost_change *v, *begin;
	struct sp_lost_lane *l;
	uint64_t t0 = w->start_ns, t1 = t0 + w->dur_ns;
	size_t n;
	int cpu = w->cpu;

	if (!sp_span_clip(&t0, &t1, lt->t0_ns, lt->t1_ns))
		return;
	/*
	 * Mostly the beginning goes at the end or a place before, the end
	 * last (the waits end in order); else other_wait() finds their places.
	 */
	l = &lt->lanes[lt->nr_cpus];
	v = l->v;
	n = l->nr;
	if (n + 2 > l->alloc || n - l->head < 2 || v[n - 1].ts_ns > t1 || v[n - 2].ts_ns > t0) {
		other_wait(lt, cpu, t0, t1);
		return;
	}
	begin = &v[n];
	if (v[n - 1].ts_ns > t0) {
		v[n] = v[n - 1];
		begin = &v[n - 1];
	}
	*begin = (struct sp_lost_change){ .ts_ns = t0, .cpu = cpu, .delta = BEGINS + LOST_WAITER };
	v[n + 1] = (struct sp_lost_change){ .ts_ns = t1, .cpu = cpu, .delta = ENDS + LOST_WAITER };
	l->nr = n + 2;
	lt->sweep_in -= 2;
	if (lt->sweep_in <= 0)
		sweep_settled(lt);
}

/* Wait @w, on a CPU of the set, when the set has a target: kept if its task is of the set. */
__attribute__((noinline)) static void target_wait(struct sp_lost_time *lt, const struct sp_wait *w)
{
	if (sp_scope_task(&lt->scope, w->pid))
		add_wait(lt, w);
}

/* (No call but the last, so that a wait not kept costs no frame.) */
static void on_wait(void *data, const struct sp_wait *w)
{
	struct sp_lost_time *lt = data;

	if (!w->dur_ns || (unsigned int)w->cpu >= (unsigned int)lt->nr_cpus ||
	    lt->lanes[w->cpu].stretch == STRETCH_OFF)
		return;
	if (lt->scope.target)
		target_wait(lt, w);
	else
		add_wait(lt, w);
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
	sweep(lt, NONE_LEFT - 1);
	return lt->error;
}
