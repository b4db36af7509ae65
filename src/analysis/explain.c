// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain: the worst scheduler decisions of a trace and what surrounds
 * each, gathered in the one pass.  See include/schedplot/analysis/explain.h
 * for what is ranked and kept.
 *
 * A wait is told when it ends, after the runs that ended before it; so
 * when a wait ranks among the worst, what happened before it on its CPUs
 * is in the rings, and what comes after is collected as it is told:
 *
 *	     t0          wakeup W               wait ends E           t1
 *	prev  |--run--|  idle ...  (told later: still idle at E)        |
 *	waker |---- waker ---------|----- behind ------|                 |
 *	ran   |                    [ waits .......... ][ runs ....     |
 *	      ^ from the rings at E                        ^ collected until a
 *	                                                     run ends after t1
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/explain.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/base/alloc.h"

struct sp_explain_ring {
	struct sp_explain_run *runs;	/* x->ring_size of them */
	size_t size;
	size_t head, nr;		/* oldest at head */
	uint64_t known_ns;		/* runs complete from here (the end of one dropped) */
	uint64_t last_end_ns;		/* the end of the last run told */
};

struct sp_explain_mig {
	int32_t pid;			/* first: the key in sp_explain.migs */
	int32_t from, to;
	uint64_t ts_ns;
};

/* Before the wakeup, a window reaches back this many times the wait at most... */
#define LOOKBACK_WAITS 4
/* ... and at least this far (ns), so that a short wait still shows its CPUs' story. */
#define LOOKBACK_MIN_NS 1000000ull

static const char *const what_names[SP_EXPLAIN_NR_WHAT] = {
	[SP_EXPLAIN_PLACEMENT] = "placement",
	[SP_EXPLAIN_WAIT] = "wait",
	[SP_EXPLAIN_MIGRATION] = "migration",
	[SP_EXPLAIN_IDLE_WAIT] = "idle-while-waiting",
	[SP_EXPLAIN_AT] = "at",
};

const char *sp_explain_what_name(enum sp_explain_what what)
{
	return what < SP_EXPLAIN_NR_WHAT ? what_names[what] : "?";
}

enum sp_explain_what sp_explain_what_parse(const char *name)
{
	for (int i = 0; i < SP_EXPLAIN_AT; i++)
		if (!strcmp(name, what_names[i]))
			return (enum sp_explain_what)i;
	return SP_EXPLAIN_NR_WHAT;
}

int sp_explain_row_of(const struct sp_explain_case *c, int cpu)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (c->rows[i].cpu == cpu)
			return i;
	return -1;
}

static void cases_free(struct sp_explain *x)
{
	for (size_t i = 0; x->cases && i < x->nr_cases; i++)
		for (int r = 0; r < x->cases[i].nr_rows; r++)
			free(x->cases[i].rows[r].runs);
	x->nr_cases = 0;
}

static void reset(struct sp_explain *x)
{
	cases_free(x);
	for (int c = 0; c < x->nr_cpus; c++) {
		x->rings[c].head = x->rings[c].nr = 0;
		x->rings[c].known_ns = x->rings[c].last_end_ns = 0;
	}
	sp_pidtab_clear(&x->migs, sizeof(struct sp_explain_mig));
	x->nr_busy_edges = 0;
	x->all_busy = false;
	x->last_step_ns = 0;
	x->nr_candidates = 0;
	x->seq = 0;
}

int sp_explain_init(struct sp_explain *x)
{
	size_t size;

	x->cases = NULL;
	x->nr_cases = 0;
	x->nr_candidates = 0;
	x->error = 0;
	x->rings = NULL;
	x->migs = (struct sp_pidtab){ 0 };
	x->busy_edges = NULL;
	x->nr_busy_edges = x->alloc_busy_edges = 0;
	x->all_busy = false;
	x->last_step_ns = 0;
	x->seq = 0;
	if (x->nr_cpus < 1 || !x->top || !x->hist)
		return -EINVAL;
	x->cases = sp_alloc_array(x->top, sizeof(*x->cases));
	x->rings = sp_alloc_array((size_t)x->nr_cpus, sizeof(*x->rings));
	if (!x->cases || !x->rings) {
		sp_explain_release(x);
		return -ENOMEM;
	}
	memset(x->cases, 0, x->top * sizeof(*x->cases));
	memset(x->rings, 0, (size_t)x->nr_cpus * sizeof(*x->rings));
	size = SP_EXPLAIN_RING_RUNS / (size_t)x->nr_cpus;
	size = size < SP_EXPLAIN_RING_MIN ? SP_EXPLAIN_RING_MIN
					  : size > SP_EXPLAIN_RING_MAX ? SP_EXPLAIN_RING_MAX : size;
	for (int c = 0; c < x->nr_cpus; c++) {
		x->rings[c].size = size;
		x->rings[c].runs = sp_alloc_array(size, sizeof(*x->rings[c].runs));
		if (!x->rings[c].runs) {
			sp_explain_release(x);
			return -ENOMEM;
		}
	}
	return 0;
}

void sp_explain_release(struct sp_explain *x)
{
	cases_free(x);
	SP_FREE_AND_NULL(x->cases);
	for (int c = 0; x->rings && c < x->nr_cpus; c++)
		free(x->rings[c].runs);
	SP_FREE_AND_NULL(x->rings);
	sp_pidtab_release(&x->migs);
	SP_FREE_AND_NULL(x->busy_edges);
	x->nr_busy_edges = x->alloc_busy_edges = 0;
}

/* ---- what each CPU ran lately ---- */

static const struct sp_explain_run *ring_at(const struct sp_explain_ring *r, size_t i)
{
	return &r->runs[(r->head + i) % r->size];
}

static void ring_push(struct sp_explain_ring *r, const struct sp_explain_run *run)
{
	if (r->nr == r->size) {
		r->known_ns = r->runs[r->head].end_ns;
		r->head = (r->head + 1) % r->size;
		r->nr--;
	}
	r->runs[(r->head + r->nr) % r->size] = *run;
	r->nr++;
	r->last_end_ns = run->end_ns;
}

/* Idle time of a CPU's runs held in its ring inside [t0, t1). */
static uint64_t ring_idle(const struct sp_explain_ring *r, uint64_t t0, uint64_t t1)
{
	uint64_t ns = 0;

	for (size_t i = r->nr; i-- > 0;) {
		const struct sp_explain_run *run = ring_at(r, i);

		if (run->end_ns <= t0)
			break;
		if (run->pid == 0 && run->start_ns < t1) {
			uint64_t a = run->start_ns > t0 ? run->start_ns : t0;
			uint64_t b = run->end_ns < t1 ? run->end_ns : t1;

			ns += b - a;
		}
	}
	return ns;
}

/* ---- the last migration of each task ---- */

static void on_migration(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu)
{
	struct sp_explain *x = data;
	struct sp_explain_mig *m;

	if (pid <= 0 || x->error)
		return;
	m = sp_pidtab_get(&x->migs, pid, sizeof(*m), 1024);
	if (!m) {
		x->error = -ENOMEM;
		return;
	}
	*m = (struct sp_explain_mig){ pid, from_cpu, to_cpu, ts_ns };
}

/* ---- when every CPU was busy ---- */

static void on_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct sp_explain *x = data;

	for (size_t i = 0; i < n; i++) {
		bool busy = steps[i].running >= x->nr_counted;

		x->last_step_ns = steps[i].ts;
		if (busy == x->all_busy)
			continue;
		if (sp_grow_array(&x->busy_edges, &x->alloc_busy_edges, x->nr_busy_edges + 1,
				  sizeof(*x->busy_edges))) {
			x->error = -ENOMEM;
			return;
		}
		x->busy_edges[x->nr_busy_edges++] = steps[i].ts;
		x->all_busy = busy;
	}
}

/* Time in [t0, t1) during which not every CPU of the scope was busy. */
static uint64_t idle_while(const struct sp_explain *x, uint64_t t0, uint64_t t1)
{
	const uint64_t *e = x->busy_edges;
	size_t n = x->nr_busy_edges, lo = 0, hi = n, i;
	uint64_t busy = 0, t = t0;

	/* the first edge after t0: edges[i - 1] <= t0 < edges[i] */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (e[mid] <= t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; t < t1; i++) {
		uint64_t next = i < n && e[i] < t1 ? e[i] : t1;

		/* an odd number of edges up to t: every CPU busy since the last */
		if (i % 2 == 1)
			busy += next - t;
		t = next;
		if (i >= n)
			break;
	}
	return t1 - t0 - (busy < t1 - t0 ? busy : t1 - t0);
}

/* ---- ranking ---- */

/* Whether case a goes before case b: worse first, then earlier, then by pid. */
static bool case_before(const struct sp_explain_case *a, const struct sp_explain_case *b)
{
	if (a->score != b->score)
		return a->score > b->score;
	if (a->w.start_ns != b->w.start_ns)
		return a->w.start_ns < b->w.start_ns;
	return a->w.pid < b->w.pid;
}

/* The score of a wait for what was asked; false when it is no candidate. */
static bool score_of(const struct sp_explain *x, const struct sp_wait *w, uint64_t *score)
{
	uint64_t end = w->start_ns + w->dur_ns;

	switch (x->what) {
	case SP_EXPLAIN_PLACEMENT:
		*score = w->dur_ns;
		return sp_placement_of(w) == SP_PLACE_MOVED_PREV_IDLE;
	case SP_EXPLAIN_WAIT:
		*score = w->dur_ns;
		return true;
	case SP_EXPLAIN_MIGRATION:
		*score = w->dur_ns;
		return w->prev_cpu >= 0 && w->prev_cpu != w->cpu;
	case SP_EXPLAIN_IDLE_WAIT:
		*score = idle_while(x, w->start_ns, end);
		return *score > 0;
	case SP_EXPLAIN_AT:
		if (w->pid != x->at_pid)
			return false;
		if (w->start_ns <= x->at_ns && x->at_ns <= end)
			*score = UINT64_MAX;
		else
			*score = UINT64_MAX - 1 -
				 (w->start_ns > x->at_ns ? w->start_ns - x->at_ns
							 : x->at_ns - w->start_ns);
		return true;
	default:
		return false;
	}
}

/* ---- a case ---- */

static int row_add(struct sp_explain_case *c, int cpu, unsigned int role)
{
	int i;

	if (cpu < 0)
		return -1;
	i = sp_explain_row_of(c, cpu);
	if (i < 0 && c->nr_rows < SP_EXPLAIN_MAX_ROWS) {
		i = c->nr_rows++;
		memset(&c->rows[i], 0, sizeof(c->rows[i]));
		c->rows[i].cpu = cpu;
	}
	if (i >= 0)
		c->rows[i].roles |= role;
	return i;
}

static int row_append(struct sp_explain_row *row, const struct sp_explain_run *run)
{
	if (sp_grow_array(&row->runs, &row->alloc_runs, row->nr_runs + 1, sizeof(*row->runs)))
		return -ENOMEM;
	row->runs[row->nr_runs++] = *run;
	return 0;
}

/* What the rings hold of a row's CPU inside the window. */
static int row_fill(struct sp_explain *x, struct sp_explain_case *c, struct sp_explain_row *row)
{
	const struct sp_explain_ring *r = &x->rings[row->cpu];

	row->known_ns = r->known_ns > c->t0_ns ? r->known_ns : c->t0_ns;
	for (size_t i = 0; i < r->nr; i++) {
		const struct sp_explain_run *run = ring_at(r, i);

		if (run->end_ns <= c->t0_ns || run->start_ns >= c->t1_ns)
			continue;
		if (row_append(row, run))
			return -ENOMEM;
	}
	row->done = r->nr && r->last_end_ns >= c->t1_ns;
	return 0;
}

/*
 * The window of a case: from the story before the wakeup (the task's
 * last run on its previous CPU, the last other task that ran there), as
 * far back as LOOKBACK_WAITS waits, to a little after the task ran again.
 */
static void case_window(struct sp_explain *x, struct sp_explain_case *c)
{
	const struct sp_wait *w = &c->w;
	uint64_t wake = w->start_ns, end = wake + w->dur_ns, d = w->dur_ns;
	uint64_t back = d * LOOKBACK_WAITS > LOOKBACK_MIN_NS ? d * LOOKBACK_WAITS : LOOKBACK_MIN_NS;
	uint64_t limit = wake > back ? wake - back : 0, a, b, pad, known = 0;

	a = wake - (wake > d / 2 ? d / 2 : wake);
	/* the other task that ran last on the previous CPU: all of it, or its end */
	if (c->prev_last_other.pid > 0) {
		const struct sp_explain_run *k = &c->prev_last_other;

		if (k->start_ns >= limit && k->start_ns < a)
			a = k->start_ns;
		else if (k->start_ns < limit && k->end_ns > limit && limit < a)
			a = limit;
	}
	if (c->last_ran_ns != SP_NO_TS && c->last_ran_ns >= limit && c->last_ran_ns < a)
		a = c->last_ran_ns;
	/* the task's run before its sleep, a little of it */
	if (c->last_ran_ns != SP_NO_TS && c->last_ran_ns >= limit)
		a -= (a - limit) / 4 < (end - a) / 6 ? (a - limit) / 4 : (end - a) / 6;
	b = end + (end - a) / 5;
	pad = (b - a) / 25;
	a = a > pad ? a - pad : 0;
	for (int i = 0; i < c->nr_rows; i++)
		if (x->rings[c->rows[i].cpu].known_ns > known)
			known = x->rings[c->rows[i].cpu].known_ns;
	/* no earlier than the rings hold, unless that leaves out the wakeup */
	if (known > a && known < wake)
		a = known;
	if (a < x->first_ns)
		a = x->first_ns;
	if (b > x->end_ns)
		b = x->end_ns;
	if (b <= a)
		b = a + 1;
	c->t0_ns = a;
	c->t1_ns = b;
}

/* The story of the previous CPU before the wakeup, from its ring. */
static void case_prev_story(struct sp_explain *x, struct sp_explain_case *c)
{
	const struct sp_wait *w = &c->w;
	const struct sp_explain_ring *r;

	c->last_ran_ns = SP_NO_TS;
	c->prev_busy_end_ns = SP_NO_TS;
	c->prev_idle_exact = false;
	c->prev_last_other.pid = -1;
	if (w->prev_cpu < 0 || w->prev_cpu >= x->nr_cpus)
		return;
	r = &x->rings[w->prev_cpu];
	for (size_t i = r->nr; i-- > 0;) {
		const struct sp_explain_run *run = ring_at(r, i);

		if (run->end_ns > w->start_ns || run->pid == 0)
			continue;
		if (c->prev_busy_end_ns == SP_NO_TS) {
			c->prev_busy_end_ns = run->end_ns;
			c->prev_idle_exact = true;
		}
		if (run->pid == w->pid && c->last_ran_ns == SP_NO_TS)
			c->last_ran_ns = run->end_ns;
		if (run->pid != w->pid && c->prev_last_other.pid < 0)
			c->prev_last_other = *run;
		if (c->last_ran_ns != SP_NO_TS && c->prev_last_other.pid >= 0)
			break;
	}
	if (c->prev_busy_end_ns == SP_NO_TS)
		c->prev_busy_end_ns = r->known_ns ? r->known_ns : SP_NO_TS;
}

static void case_free_runs(struct sp_explain_case *c)
{
	for (int r = 0; r < c->nr_rows; r++)
		free(c->rows[r].runs);
	c->nr_rows = 0;
}

/* The CPU idle longest while the task waited, once the runs of its CPUs are in. */
static int case_idle_row(struct sp_explain *x, struct sp_explain_case *c)
{
	uint64_t best = 0, t0 = c->w.start_ns, t1 = t0 + c->w.dur_ns;
	int cpu = -1, i;

	for (int k = 0; k < x->nr_cpus; k++) {
		uint64_t ns;

		if (!sp_scope_cpu(&x->scope, k))
			continue;
		ns = ring_idle(&x->rings[k], t0, t1);
		if (ns > best) {
			best = ns;
			cpu = k;
		}
	}
	c->idle_cpu = cpu;
	c->idle_cpu_ns = best;
	if (cpu < 0)
		return 0;
	i = sp_explain_row_of(c, cpu);
	if (i >= 0) {
		c->rows[i].roles |= SP_ROLE_IDLE;
		return 0;
	}
	if (c->nr_rows == SP_EXPLAIN_MAX_ROWS)
		return 0;
	i = row_add(c, cpu, SP_ROLE_IDLE);
	return row_fill(x, c, &c->rows[i]);
}

/* Every row has its runs up to the window's end: the case is complete. */
static int cmp_behind(const void *a, const void *b)
{
	const struct sp_explain_behind *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static const struct sp_explain_row *row_cpu(const struct sp_explain_case *c, int cpu)
{
	int i = sp_explain_row_of(c, cpu);

	return i >= 0 ? &c->rows[i] : NULL;
}

/* The name of @pid's first run in @row over [@t0, @t1); false when it has none there. */
static bool first_comm(const struct sp_explain_row *row, int pid, uint64_t t0, uint64_t t1,
		       uint32_t *comm)
{
	const struct sp_explain_run *first = NULL;

	for (size_t i = 0; row && i < row->nr_runs; i++) {
		const struct sp_explain_run *run = &row->runs[i];

		if (run->pid != pid || run->end_ns <= t0 || run->start_ns >= t1)
			continue;
		if (!first || run->start_ns < first->start_ns ||
		    (run->start_ns == first->start_ns && run->end_ns < first->end_ns))
			first = run;
	}
	if (first)
		*comm = first->comm;
	return first;
}

/*
 * Who held the CPUs the task was queued on while it waited: the CPU the
 * wakeup placed it on up to a migration, then the one it ran on; asked of
 * antagonist.c once the case's runs are all told.  Return: 0 or -ENOMEM.
 */
static int case_behind(struct sp_explain *x, struct sp_explain_case *c)
{
	const struct sp_wait *w = &c->w;
	uint64_t wake = w->start_ns, end = wake + w->dur_ns;
	struct { int cpu; uint64_t t0, t1; } seg[2] = { { w->cpu, wake, end }, { -1, 0, 0 } };
	struct sp_explain_behind *all = NULL;
	size_t nr_all = 0, alloc_all = 0;

	if (w->target_cpu >= 0 && w->target_cpu != w->cpu && c->mig_ns != SP_NO_TS) {
		seg[0] = (__typeof__(seg[0])){ w->target_cpu, wake, c->mig_ns };
		seg[1] = (__typeof__(seg[1])){ w->cpu, c->mig_ns, end };
	} else if (w->target_cpu >= 0 && w->target_cpu != w->cpu) {
		seg[0].cpu = w->target_cpu;
	}
	c->nr_behind = 0;
	c->behind_other_ns = 0;
	for (int s = 0; s < 2; s++) {
		struct sp_behind *top;
		size_t nr, n;
		uint64_t total;

		if (seg[s].cpu < 0 || !row_cpu(c, seg[s].cpu))
			continue;
		sp_antagonists_query(x->hist, seg[s].cpu, w->pid, seg[s].t0, seg[s].t1, NULL, 0,
				     &nr, &total);
		if (!nr)
			continue;
		top = sp_alloc_array(nr, sizeof(*top));
		if (!top || sp_grow_array(&all, &alloc_all, nr_all + nr, sizeof(*all))) {
			free(top);
			free(all);
			return -ENOMEM;
		}
		n = sp_antagonists_query(x->hist, seg[s].cpu, w->pid, seg[s].t0, seg[s].t1, top,
					 nr, &nr, &total);
		for (size_t i = 0; i < n; i++) {
			size_t k;

			for (k = 0; k < nr_all && all[k].pid != top[i].pid; k++)
				;
			if (k == nr_all)
				all[nr_all++] = (struct sp_explain_behind){ top[i].pid, 0, 0 };
			all[k].ns += top[i].ns;
		}
		free(top);
	}
	if (x->hist->error) {
		free(all);
		return x->hist->error;
	}
	if (nr_all)
		qsort(all, nr_all, sizeof(*all), cmp_behind);
	for (size_t i = 0; i < nr_all; i++) {
		if (i >= SP_EXPLAIN_MAX_BEHIND) {
			c->behind_other_ns += all[i].ns;
			continue;
		}
		/* named as it ran there first */
		if (!first_comm(row_cpu(c, seg[0].cpu), all[i].pid, seg[0].t0, seg[0].t1,
				&all[i].comm) && seg[1].cpu >= 0)
			first_comm(row_cpu(c, seg[1].cpu), all[i].pid, seg[1].t0, seg[1].t1,
				   &all[i].comm);
		c->behind[c->nr_behind++] = all[i];
	}
	free(all);
	return 0;
}

static void case_check_done(struct sp_explain *x, struct sp_explain_case *c)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (!c->rows[i].done)
			return;
	if (x->what == SP_EXPLAIN_IDLE_WAIT && c->idle_cpu == -2) {
		if (case_idle_row(x, c))
			x->error = -ENOMEM;
		for (int i = 0; i < c->nr_rows; i++)
			if (!c->rows[i].done)
				return;
	}
	if (case_behind(x, c))
		x->error = -ENOMEM;
	c->open = false;
}

static struct sp_explain_case *case_slot(struct sp_explain *x, const struct sp_explain_case *cand)
{
	struct sp_explain_case *worst = NULL;

	if (x->nr_cases < x->top)
		return &x->cases[x->nr_cases++];
	for (size_t i = 0; i < x->nr_cases; i++)
		if (!worst || case_before(worst, &x->cases[i]))
			worst = &x->cases[i];
	if (!case_before(cand, worst))
		return NULL;
	case_free_runs(worst);
	return worst;
}

static uint32_t comm_id(const struct sp_model *m, int pid)
{
	const struct sp_task *t = pid > 0 && m ? sp_model_task(m, pid) : NULL;

	return t ? t->comm : 0;
}

static void on_wait(void *data, const struct sp_wait *w)
{
	struct sp_explain *x = data;
	struct sp_explain_case cand, *c;
	uint64_t end = w->start_ns + w->dur_ns;
	const struct sp_explain_mig *m;

	if (x->error || !sp_scope_wait(&x->scope, w))
		return;
	memset(&cand, 0, sizeof(cand));
	if (!score_of(x, w, &cand.score))
		return;
	x->nr_candidates++;
	cand.w = *w;
	cand.seq = x->seq++;
	c = case_slot(x, &cand);
	if (!c)
		return;
	*c = cand;
	c->open = true;
	c->comm = comm_id(x->model, w->pid);
	c->waker_comm = comm_id(x->model, w->waker);
	c->mig_ns = SP_NO_TS;
	c->mig_from = c->mig_to = -1;
	c->idle_cpu = x->what == SP_EXPLAIN_IDLE_WAIT ? -2 : -1;
	c->iww_ns = idle_while(x, w->start_ns, end);
	m = sp_pidtab_find(&x->migs, w->pid, sizeof(*m));
	if (m && m->ts_ns >= w->start_ns && m->ts_ns <= end) {
		c->mig_ns = m->ts_ns;
		c->mig_from = m->from;
		c->mig_to = m->to;
	}
	row_add(c, w->prev_cpu, SP_ROLE_PREV);
	if (w->wait_class == SP_WAIT_WAKEUP)
		row_add(c, w->waker_cpu, SP_ROLE_WAKER);
	row_add(c, w->target_cpu, SP_ROLE_PLACED);
	row_add(c, w->cpu, SP_ROLE_RAN);
	case_prev_story(x, c);
	case_window(x, c);
	for (int i = 0; i < c->nr_rows; i++)
		if (row_fill(x, c, &c->rows[i]))
			x->error = -ENOMEM;
	case_check_done(x, c);
}

static void on_run_info(void *data, const struct sp_run *r)
{
	struct sp_explain *x = data;
	struct sp_explain_run run;

	if (r->end_ns <= r->start_ns || r->cpu < 0 || r->cpu >= x->nr_cpus)
		return;
	run = (struct sp_explain_run){ r->start_ns, r->end_ns, r->pid, r->start_comm };
	ring_push(&x->rings[r->cpu], &run);
	for (size_t i = 0; i < x->nr_cases; i++) {
		struct sp_explain_case *c = &x->cases[i];
		int k;

		if (!c->open)
			continue;
		k = sp_explain_row_of(c, r->cpu);
		if (k < 0 || c->rows[k].done)
			continue;
		if (r->end_ns > c->t0_ns && r->start_ns < c->t1_ns &&
		    row_append(&c->rows[k], &run))
			x->error = -ENOMEM;
		if (r->end_ns >= c->t1_ns) {
			c->rows[k].done = true;
			case_check_done(x, c);
		}
	}
}

static void on_reset(void *data)
{
	reset(data);
}

void sp_explain_observer(struct sp_explain *x, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(x, .run_info = on_run_info, .wait = on_wait,
				 .migration = on_migration, .steps = on_steps, .reset = on_reset);
}

/* ---- the facts ---- */

static int cmp_run(const void *a, const void *b)
{
	const struct sp_explain_run *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->end_ns < y->end_ns ? -1 : x->end_ns > y->end_ns;
}

static int case_facts(struct sp_explain_case *c)
{
	const struct sp_wait *w = &c->w;
	uint64_t end = w->start_ns + w->dur_ns;
	const struct sp_explain_row *ran = row_cpu(c, w->cpu);

	/* a run a repair ended in the past may have been told after later ones */
	for (int r = 0; r < c->nr_rows; r++)
		if (c->rows[r].nr_runs > 1)
			qsort(c->rows[r].runs, c->rows[r].nr_runs, sizeof(c->rows[r].runs[0]),
			      cmp_run);
	c->next_end_ns = SP_NO_TS;
	for (size_t i = 0; ran && i < ran->nr_runs; i++)
		if (ran->runs[i].pid == w->pid && ran->runs[i].start_ns == end)
			c->next_end_ns = ran->runs[i].end_ns;
	if (c->idle_cpu == -2)
		c->idle_cpu = -1;
	return 0;
}

static int cmp_case(const void *a, const void *b)
{
	const struct sp_explain_case *x = a, *y = b;

	return case_before(x, y) ? -1 : case_before(y, x) ? 1 : 0;
}

int sp_explain_finish(struct sp_explain *x)
{
	for (size_t i = 0; i < x->nr_cases; i++) {
		struct sp_explain_case *c = &x->cases[i];

		if (c->open && x->what == SP_EXPLAIN_IDLE_WAIT && c->idle_cpu == -2 &&
		    case_idle_row(x, c))
			x->error = -ENOMEM;
		if (c->open && case_behind(x, c))
			x->error = -ENOMEM;
		c->open = false;
		if (case_facts(c))
			x->error = -ENOMEM;
	}
	qsort(x->cases, x->nr_cases, sizeof(*x->cases), cmp_case);
	return x->error;
}
