// SPDX-License-Identifier: GPL-2.0-only
/*
 * antagonist: who held the CPU a task waited for, and for how long
 * (doc/design.md "Antagonists").
 *
 * Each CPU's runs are kept in a ring, oldest first; a query walks back
 * from the newest run that began before the wait's end to the first that
 * ended before its start (a CPU's runs do not overlap), summing per task.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/ring.h"
#include "schedplot/model/model.h"

/* Runs kept over all CPUs at most, and per CPU at least. */
#define KEEP_ALL	((size_t)1 << 22)
#define KEEP_MIN	4096

struct sp_antagonist_run {
	uint64_t t0, t1;
	int32_t pid;
};

int sp_antagonists_init(struct sp_antagonists *a, int nr_cpus)
{
	memset(a, 0, sizeof(*a));
	if (nr_cpus <= 0)
		return -EINVAL;
	a->cpus = sp_alloc_array(nr_cpus, sizeof(*a->cpus));
	if (!a->cpus)
		return -ENOMEM;
	a->nr_cpus = nr_cpus;
	a->keep = KEEP_ALL / (size_t)nr_cpus;
	if (a->keep < KEEP_MIN)
		a->keep = KEEP_MIN;
	return 0;
}

void sp_antagonists_release(struct sp_antagonists *a)
{
	int c;

	for (c = 0; a->cpus && c < a->nr_cpus; c++)
		free(a->cpus[c].runs);
	free(a->cpus);
	free(a->sums);
	free(a->used);
	memset(a, 0, sizeof(*a));
}

/* @h's slot @k slots after @at (both below alloc): the ring wraps once at most. */
static inline size_t ring_step(const struct sp_antagonist_cpu *h, size_t at, size_t k)
{
	at += k;
	return at < h->alloc ? at : at - h->alloc;
}

/* A CPU's @i-th kept run, oldest 0. */
#define RUN_AT(h, i)	((h)->runs[ring_step((h), (h)->head, (i))])

/*
 * Drop @h's runs that ended by @floor_ns (no query to come reaches them),
 * oldest first.  Return: how many.
 */
static size_t drop_before(struct sp_antagonist_cpu *h, uint64_t floor_ns)
{
	size_t n = 0;

	while (n < h->nr && RUN_AT(h, n).t1 <= floor_ns)
		n++;
	if (n) {
		h->dropped_ns = RUN_AT(h, n - 1).t1;
		h->head = ring_step(h, h->head, n);
		h->nr -= n;
		h->finger = h->finger > n ? h->finger - n : 0;
	}
	return n;
}

/* With a->model, drop what no query can reach.  Return: true when that freed half. */
static bool dropped_half(const struct sp_antagonists *a, struct sp_antagonist_cpu *h)
{
	return a->model && h->alloc >= KEEP_MIN &&
	       drop_before(h, sp_model_settled(a->model)) >= h->alloc / 2;
}

/*
 * Room for @alloc runs in @h's ring.  Its runs go to slot 0 on, so that
 * while none is dropped the next growth is a realloc() that moves none (a
 * copy cost most of keeping them).  Return: 0 or -ENOMEM.
 */
static int grow(struct sp_antagonist_cpu *h, size_t alloc)
{
	if (sp_ring_regrow(&h->runs, &h->alloc, h->head, h->nr, alloc, 0, sizeof(*h->runs)))
		return -ENOMEM;
	h->head = 0;
	return 0;
}

/* Room for a run in @h's full ring: grown, or its oldest runs dropped.  Return: 0 or -ENOMEM. */
static __attribute__((noinline)) int make_room(struct sp_antagonists *a,
					       struct sp_antagonist_cpu *h)
{
	/* full at this size: grow, unless dropping what no query can reach freed half */
	if (h->alloc < a->keep && !dropped_half(a, h)) {
		size_t alloc = h->alloc ? h->alloc * 2 : 64;

		if (grow(h, alloc < a->keep ? alloc : a->keep))
			return -ENOMEM;
	}
	if (h->nr == h->alloc) {
		/* full: the oldest goes */
		h->dropped_ns = h->runs[h->head].t1;
		h->head = ring_step(h, h->head, 1);
		h->nr--;
		if (h->finger)
			h->finger--;
	}
	return 0;
}

/* on_run() of a run that finds @h's ring full: its room made first. */
static __attribute__((noinline)) void keep_in_full(struct sp_antagonists *a,
						   struct sp_antagonist_cpu *h, int pid,
						   uint64_t t0, uint64_t t1)
{
	if (make_room(a, h)) {
		a->error = -ENOMEM;
		return;
	}
	RUN_AT(h, h->nr) = (struct sp_antagonist_run){ t0, t1, pid };
	h->nr++;
}

static void on_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_antagonists *a = data;
	struct sp_antagonist_cpu *h;

	/* the idle task holds no CPU from anyone */
	if (pid == 0 || cpu < 0 || cpu >= a->nr_cpus)
		return;
	h = &a->cpus[cpu];
	/* out of line, so that a run kept in room there is costs no frame */
	if (h->nr == h->alloc) {
		keep_in_full(a, h, pid, t0, t1);
		return;
	}
	RUN_AT(h, h->nr) = (struct sp_antagonist_run){ t0, t1, pid };
	h->nr++;
}

static void on_reset(void *data)
{
	struct sp_antagonists *a = data;
	int c;

	for (c = 0; c < a->nr_cpus; c++) {
		a->cpus[c].head = a->cpus[c].nr = a->cpus[c].finger = 0;
		a->cpus[c].dropped_ns = 0;
	}
	a->nr_partial = 0;
	a->error = 0;
}

void sp_antagonists_observer(struct sp_antagonists *a, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(a, .run = on_run, .reset = on_reset);
}

static inline size_t pid_hash(int32_t pid, size_t mask)
{
	return ((uint32_t)pid * 2654435761u) & mask;
}

/* Add @ns to @pid's sum in the scratch table.  Return: 0 or -ENOMEM. */
static int sum_add(struct sp_antagonists *a, int32_t pid, uint64_t ns)
{
	size_t mask, i;

	if ((a->nr_sums + 1) * 2 > a->alloc_sums) {
		size_t alloc = a->alloc_sums ? a->alloc_sums * 2 : 64;
		struct sp_behind *old = a->sums, *v = sp_alloc_array(alloc, sizeof(*v));
		size_t *used = sp_alloc_array(alloc / 2, sizeof(*used));

		if (!v || !used) {
			free(v);
			free(used);
			return -ENOMEM;
		}
		for (i = 0; i < alloc; i++)
			v[i].pid = -1;
		for (size_t j = 0; j < a->nr_sums; j++) {
			const struct sp_behind *o = &old[a->used[j]];

			for (i = pid_hash(o->pid, alloc - 1); v[i].pid >= 0; i = (i + 1) & (alloc - 1))
				;
			v[i] = *o;
			used[j] = i;
		}
		free(old);
		free(a->used);
		a->sums = v;
		a->used = used;
		a->alloc_sums = alloc;
	}
	mask = a->alloc_sums - 1;
	for (i = pid_hash(pid, mask); a->sums[i].pid >= 0 && a->sums[i].pid != pid;
	     i = (i + 1) & mask)
		;
	if (a->sums[i].pid < 0) {
		a->sums[i].pid = pid;
		a->sums[i].ns = 0;
		a->used[a->nr_sums++] = i;
	}
	a->sums[i].ns += ns;
	return 0;
}

/*
 * The first of a CPU's runs (oldest 0) that began at or after @t1; its
 * runs are in time order.  Queries come in nearly the order of their
 * waits, many runs behind the newest: gallop from where the last one
 * ended, then bisect.
 */
static size_t first_begun_by(struct sp_antagonist_cpu *h, uint64_t t1)
{
	size_t below, above, step, at = h->finger < h->nr ? h->finger : h->nr;

	if (at < h->nr && RUN_AT(h, at).t0 < t1) {
		/* forward: runs[below - 1] began before t1 */
		below = at + 1;
		above = h->nr;
		for (step = 1; below < above; step *= 2) {
			at = below - 1 + step < above ? below - 1 + step : above;
			if (at == above || RUN_AT(h, at).t0 >= t1) {
				above = at;
				break;
			}
			below = at + 1;
		}
	} else {
		/* backward: runs[above] and later began at or after t1 */
		above = at;
		below = 0;
		for (step = 1; above > 0; step *= 2) {
			at = above > step ? above - step : 0;
			if (RUN_AT(h, at).t0 < t1) {
				below = at + 1;
				break;
			}
			above = at;
		}
	}
	while (below < above) {
		size_t mid = below + (above - below) / 2;

		if (RUN_AT(h, mid).t0 < t1)
			below = mid + 1;
		else
			above = mid;
	}
	h->finger = below;
	return below;
}

/* Longer first; the lower pid first on ties. */
static bool behind_before(const struct sp_behind *x, const struct sp_behind *y)
{
	return x->ns != y->ns ? x->ns > y->ns : x->pid < y->pid;
}

/*
 * Sum per task, in the query's scratch (a->sums at a->used[0, nr_sums)),
 * the runs of @h other than @pid's inside [@t0, @t1), and set @total_ns
 * to their time together.  Return: 0, or -ENOMEM (a->error says so too).
 */
static inline int sum_runs(struct sp_antagonists *a, struct sp_antagonist_cpu *h, int pid,
			   uint64_t t0, uint64_t t1, uint64_t *total_ns)
{
	size_t i, k;

	if (h->dropped_ns > t0)
		a->nr_partial++;
	for (i = 0; i < a->nr_sums; i++)
		a->sums[a->used[i]].pid = -1;
	a->nr_sums = 0;
	/* from the newest run that began before t1 back to the first that ended by t0 */
	for (k = first_begun_by(h, t1); k-- > 0;) {
		const struct sp_antagonist_run *r = &RUN_AT(h, k);
		uint64_t lo = r->t0 > t0 ? r->t0 : t0, hi = r->t1 < t1 ? r->t1 : t1;

		if (r->t1 <= t0)
			break;
		if (hi <= lo || r->pid == pid)
			continue;
		if (sum_add(a, r->pid, hi - lo)) {
			a->error = -ENOMEM;
			return -ENOMEM;
		}
		*total_ns += hi - lo;
	}
	return 0;
}

size_t sp_antagonists_query(struct sp_antagonists *a, int cpu, int pid, uint64_t t0,
			    uint64_t t1, struct sp_behind *top, size_t max, size_t *nr,
			    uint64_t *total_ns)
{
	size_t n = 0, i;

	*nr = 0;
	*total_ns = 0;
	if (cpu < 0 || cpu >= a->nr_cpus || t1 <= t0)
		return 0;
	if (sum_runs(a, &a->cpus[cpu], pid, t0, t1, total_ns)) {
		*total_ns = 0;
		return 0;
	}
	/* the @max longest, by insertion: few antagonists per wait */
	for (i = 0; i < a->nr_sums; i++) {
		struct sp_behind b = a->sums[a->used[i]];
		size_t j;

		(*nr)++;
		if (n < max)
			n++;
		else if (!max || !behind_before(&b, &top[n - 1]))
			continue;
		for (j = n - 1; j > 0 && behind_before(&b, &top[j - 1]); j--)
			top[j] = top[j - 1];
		top[j] = b;
	}
	return n;
}

size_t sp_antagonists_of_wait(struct sp_antagonists *a, const struct sp_wait *w,
			      struct sp_behind *top, size_t max, size_t *nr, uint64_t *total_ns)
{
	return sp_antagonists_query(a, w->cpu, w->pid, w->start_ns, w->start_ns + w->dur_ns, top,
				    max, nr, total_ns);
}

/* ---- sums per waiting task ---- */

void sp_behind_table_insert(struct sp_behind_table *t, int waiter, int antagonist, uint64_t ns)
{
	size_t mask, i;

	if ((t->nr + 1) * 2 > t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256, j;
		struct sp_behind_pair *v = sp_alloc_array(alloc, sizeof(*v));

		if (!v) {
			t->error = -ENOMEM;
			return;
		}
		for (i = 0; i < alloc; i++)
			v[i].waiter = INT32_MIN;
		for (j = 0; j < t->alloc; j++) {
			const struct sp_behind_pair *p = &t->pairs[j];

			if (p->waiter == INT32_MIN)
				continue;
			for (i = sp_behind_hash(p->waiter, p->antagonist, alloc - 1);
			     v[i].waiter != INT32_MIN; i = (i + 1) & (alloc - 1))
				;
			v[i] = *p;
		}
		free(t->pairs);
		t->pairs = v;
		t->alloc = alloc;
	}
	mask = t->alloc - 1;
	for (i = sp_behind_hash(waiter, antagonist, mask);
	     t->pairs[i].waiter != INT32_MIN &&
	     (t->pairs[i].waiter != waiter || t->pairs[i].antagonist != antagonist);
	     i = (i + 1) & mask)
		;
	if (t->pairs[i].waiter == INT32_MIN) {
		t->pairs[i] = (struct sp_behind_pair){ waiter, antagonist, 0 };
		t->nr++;
	}
	t->pairs[i].ns += ns;
}

void sp_behind_table_each(const struct sp_behind_table *t,
			  void (*fn)(void *data, int waiter, int antagonist, uint64_t ns),
			  void *data)
{
	for (size_t i = 0; i < t->alloc; i++)
		if (t->pairs[i].waiter != INT32_MIN)
			fn(data, t->pairs[i].waiter, t->pairs[i].antagonist, t->pairs[i].ns);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct sp_behind_entry *a = pa, *b = pb;

	if (a->waiter != b->waiter)
		return a->waiter < b->waiter ? -1 : 1;
	if ((a->antagonist == SP_BEHIND_TOTAL) != (b->antagonist == SP_BEHIND_TOTAL))
		return a->antagonist == SP_BEHIND_TOTAL ? -1 : 1;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (a->antagonist > b->antagonist) - (a->antagonist < b->antagonist);
}

struct sp_behind_entry *sp_behind_table_sorted(const struct sp_behind_table *t, size_t *nr)
{
	struct sp_behind_entry *v;
	size_t i, n = 0;

	*nr = 0;
	if (!t->nr)
		return NULL;
	v = sp_alloc_array(t->nr, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < t->alloc; i++) {
		const struct sp_behind_pair *p = &t->pairs[i];

		if (p->waiter != INT32_MIN)
			v[n++] = (struct sp_behind_entry){ p->waiter, p->antagonist, p->ns };
	}
	qsort(v, n, sizeof(*v), cmp_entry);
	*nr = n;
	return v;
}

const struct sp_behind_entry *sp_behind_of(const struct sp_behind_entry *v, size_t nr,
					   int waiter, uint64_t *wait_ns, size_t *nr_of)
{
	size_t lo = 0, hi = nr, e;

	*wait_ns = 0;
	*nr_of = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].waiter < waiter)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nr && v[lo].waiter == waiter && v[lo].antagonist == SP_BEHIND_TOTAL)
		*wait_ns = v[lo++].ns;
	for (e = lo; e < nr && v[e].waiter == waiter; e++)
		;
	*nr_of = e - lo;
	return e > lo ? &v[lo] : NULL;
}

void sp_behind_table_clear(struct sp_behind_table *t)
{
	for (size_t i = 0; i < t->alloc; i++)
		t->pairs[i].waiter = INT32_MIN;
	t->nr = 0;
	t->error = 0;
}

/*
 * The query most waits make: the run at @h's finger began before @t1 and
 * ended by @t0, and the one after it (if kept) began at or after @t1, so
 * that no run of @h overlaps [@t0, @t1).  Return: true when so, the finger
 * then where first_begun_by() would have left it; false: search.
 */
static inline bool none_at_finger(struct sp_antagonist_cpu *h, uint64_t t0, uint64_t t1)
{
	size_t at = h->finger;
	const struct sp_antagonist_run *r;

	if (at >= h->nr)
		return false;
	r = &RUN_AT(h, at);
	if (r->t0 >= t1 || r->t1 > t0 || (at + 1 < h->nr && RUN_AT(h, at + 1).t0 < t1))
		return false;
	h->finger = at + 1;
	return true;
}

/* behind_wait() of a wait that some run of @h may overlap: its antagonists summed. */
static __attribute__((noinline)) void behind_search(struct sp_waited_behind *wb,
						    struct sp_antagonist_cpu *h,
						    const struct sp_wait *w, uint64_t t1)
{
	struct sp_antagonists *a = wb->hist;
	uint64_t total = 0;

	/* every antagonist, summed in the query's scratch */
	if (sum_runs(a, h, w->pid, w->start_ns, t1, &total))
		return;
	for (size_t i = 0; i < a->nr_sums; i++)
		sp_behind_table_add(&wb->table, w->pid, a->sums[a->used[i]].pid,
				    a->sums[a->used[i]].ns);
}

/* total_add() of a waiter whose hint is wrong: the table's own lookup, and the hint set. */
static __attribute__((noinline)) void total_add_looked_up(struct sp_waited_behind *wb,
							  int pid, uint64_t ns)
{
	struct sp_behind_table *t = &wb->table;
	size_t mask, i;

	sp_behind_table_add(t, pid, SP_BEHIND_TOTAL, ns);
	if (!t->alloc)
		return;
	mask = t->alloc - 1;
	for (i = sp_behind_hash(pid, SP_BEHIND_TOTAL, mask); t->pairs[i].waiter != INT32_MIN;
	     i = (i + 1) & mask) {
		if (t->pairs[i].waiter == pid && t->pairs[i].antagonist == SP_BEHIND_TOTAL) {
			wb->total_at[(uint32_t)pid & (SP_BEHIND_HINTS - 1)] = (uint32_t)i;
			return;
		}
	}
}

/*
 * sp_behind_table_add(&wb->table, @pid, SP_BEHIND_TOTAL, @ns), once a
 * wait, where the hint finds the pair: no hash, no probe.  Return: false
 * (nothing added) when it does not, or when the table would grow at this
 * add (sp_behind_table_add() grows it before it looks, and so it must
 * grow, and lay its pairs out, as it did).
 */
static inline bool total_add_hinted(struct sp_waited_behind *wb, int pid, uint64_t ns)
{
	struct sp_behind_table *t = &wb->table;
	uint32_t at = wb->total_at[(uint32_t)pid & (SP_BEHIND_HINTS - 1)];

	/* a hint from before the table was released may lie past its end */
	if ((t->nr + 1) * 2 > t->alloc || at >= t->alloc || t->pairs[at].waiter != pid ||
	    t->pairs[at].antagonist != SP_BEHIND_TOTAL)
		return false;
	t->pairs[at].ns += ns;
	return true;
}

/* A wait counted, its total added: who it waited behind. */
static inline __attribute__((always_inline)) void behind_wait_counted(struct sp_waited_behind *wb,
								      const struct sp_wait *w)
{
	struct sp_antagonists *a = wb->hist;
	struct sp_antagonist_cpu *h;
	uint64_t t1 = w->start_ns + w->dur_ns;

	/* a wait of no time (the wakeup and the switch at once) had no antagonist */
	if (t1 <= w->start_ns || w->cpu < 0 || w->cpu >= a->nr_cpus)
		return;
	h = &a->cpus[w->cpu];
	/* most found the CPU idle: no search, no scratch to clear (nothing is added from it) */
	if (none_at_finger(h, w->start_ns, t1)) {
		if (h->dropped_ns > w->start_ns)
			a->nr_partial++;
		return;
	}
	behind_search(wb, h, w, t1);
}

/* behind_wait() of a wait with a target to check, or whose total the hint did not find. */
static __attribute__((noinline)) void behind_wait_looked_up(struct sp_waited_behind *wb,
							    const struct sp_wait *w)
{
	if (wb->scope.target && !sp_scope_task(&wb->scope, w->pid))
		return;
	total_add_looked_up(wb, w->pid, w->dur_ns);
	behind_wait_counted(wb, w);
}

/*
 * Every call it makes is its last, so that a wait whose total the hint
 * finds and whose CPU was idle costs no frame.
 */
static void behind_wait(void *data, const struct sp_wait *w)
{
	struct sp_waited_behind *wb = data;

	if (!sp_scope_time(&wb->scope, w->start_ns) || !sp_scope_cpu(&wb->scope, w->cpu))
		return;
	if (wb->scope.target || !total_add_hinted(wb, w->pid, w->dur_ns)) {
		behind_wait_looked_up(wb, w);
		return;
	}
	behind_wait_counted(wb, w);
}

static void behind_reset(void *data)
{
	struct sp_waited_behind *wb = data;

	sp_behind_table_clear(&wb->table);
}

void sp_waited_behind_observer(struct sp_waited_behind *wb, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(wb, .wait = behind_wait, .reset = behind_reset);
}

void sp_behind_table_release(struct sp_behind_table *t)
{
	free(t->pairs);
	memset(t, 0, sizeof(*t));
}
