// SPDX-License-Identifier: GPL-2.0-only
/*
 * timeline: which task held each pixel of each CPU row, and how much of it
 * was busy.  See include/schedplot/model/timeline.h for the rules.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/muldiv.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"

uint64_t sp_timeline_col_start(const struct sp_timeline *tl, unsigned int col)
{
	/* the smallest t with sp_cols_of(t) >= col */
	return sp_cols_start(&tl->window, col);
}

/* Tie order: tasks (lower pid first), then idle, then no data. */
static bool better(int32_t pid_a, uint64_t ns_a, int32_t pid_b, uint64_t ns_b)
{
	if (ns_a != ns_b)
		return ns_a > ns_b;
	if ((pid_a > 0) != (pid_b > 0))
		return pid_a > 0;
	if (pid_a > 0)
		return pid_a < pid_b;
	return pid_a > pid_b;	/* idle (0) before no data (-1) */
}

/* ---- totals per pid: open addressing, grown at half load ---- */

static size_t hash_pid(int32_t pid, size_t mask)
{
	return ((uint32_t)pid * 2654435761u) & mask;
}

static struct sp_timeline_total *total_slot(struct sp_timeline_total *v, size_t alloc, int32_t pid)
{
	size_t mask = alloc - 1, i = hash_pid(pid, mask);

	while (v[i].pid != SP_TIMELINE_NO_DATA && v[i].pid != pid)
		i = (i + 1) & mask;
	return &v[i];
}

static int totals_grow(struct sp_timeline *tl)
{
	size_t alloc = tl->alloc_totals ? tl->alloc_totals * 2 : 256, i;
	struct sp_timeline_total *v = sp_alloc_array(alloc, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < alloc; i++)
		v[i].pid = SP_TIMELINE_NO_DATA;
	for (i = 0; i < tl->alloc_totals; i++)
		if (tl->totals[i].pid != SP_TIMELINE_NO_DATA)
			*total_slot(v, alloc, tl->totals[i].pid) = tl->totals[i];
	free(tl->totals);
	tl->totals = v;
	tl->alloc_totals = alloc;
	return 0;
}

static void total_add(struct sp_timeline *tl, int32_t pid, uint64_t ns)
{
	struct sp_timeline_total *e;

	if (pid == SP_TIMELINE_NO_DATA) {
		tl->no_data_ns += ns;
		return;
	}
	if ((tl->nr_totals + 1) * 2 > tl->alloc_totals && totals_grow(tl)) {
		tl->error = -ENOMEM;
		return;
	}
	e = total_slot(tl->totals, tl->alloc_totals, pid);
	if (e->pid != pid) {
		e->pid = pid;
		e->ns = 0;
		tl->nr_totals++;
	}
	e->ns += ns;
}

uint64_t sp_timeline_total(const struct sp_timeline *tl, int pid)
{
	const struct sp_timeline_total *e;

	if (pid < 0 || !tl->alloc_totals)
		return 0;
	e = total_slot(tl->totals, tl->alloc_totals, pid);
	return e->pid == pid ? e->ns : 0;
}

void sp_timeline_for_each_total(const struct sp_timeline *tl,
				void (*fn)(void *data, int pid, uint64_t ns), void *data)
{
	for (size_t i = 0; i < tl->alloc_totals; i++)
		if (tl->totals[i].pid != SP_TIMELINE_NO_DATA)
			fn(data, tl->totals[i].pid, tl->totals[i].ns);
}

/* ---- the column in progress ---- */

static void acc_put(struct sp_timeline_acc *a, int32_t pid, uint64_t ns)
{
	unsigned int i, min = 0;

	for (i = 0; i < a->nr_slots; i++) {
		if (a->slots[i].pid == pid) {
			a->slots[i].ns += ns;
			return;
		}
	}
	if (a->nr_slots < SP_TIMELINE_SLOTS) {
		a->slots[a->nr_slots++] = (struct sp_timeline_slot){ pid, ns };
		return;
	}
	/* Space-Saving: the newcomer inherits the smallest count */
	for (i = 1; i < a->nr_slots; i++)
		if (better(a->slots[min].pid, a->slots[min].ns, a->slots[i].pid, a->slots[i].ns))
			min = i;
	a->slots[min].pid = pid;
	a->slots[min].ns += ns;
}

/* @ns of the column in progress to @pid, with the busy and no-data time tallied exactly. */
static void acc_take(struct sp_timeline_acc *a, int32_t pid, uint64_t ns)
{
	acc_put(a, pid, ns);
	if (pid > 0)
		a->busy_ns += ns;
	else if (pid == SP_TIMELINE_NO_DATA)
		a->no_data_ns += ns;
}

/* The slot a cell keeps: under BUSIEST the best task when one ran, else the best of all. */
static unsigned int acc_best(const struct sp_timeline *tl, const struct sp_timeline_acc *a)
{
	unsigned int i, best = UINT_MAX;

	if (tl->rule == SP_TIMELINE_BUSIEST && a->busy_ns) {
		for (i = 0; i < a->nr_slots; i++)
			if (a->slots[i].pid > 0 &&
			    (best == UINT_MAX || better(a->slots[i].pid, a->slots[i].ns,
							a->slots[best].pid, a->slots[best].ns)))
				best = i;
		if (best != UINT_MAX)
			return best;
	}
	for (i = 1, best = 0; i < a->nr_slots; i++)
		if (better(a->slots[i].pid, a->slots[i].ns, a->slots[best].pid, a->slots[best].ns))
			best = i;
	return best;
}

static void acc_flush(struct sp_timeline *tl, unsigned int row, struct sp_timeline_acc *a)
{
	size_t i = (size_t)row * tl->window.nr_cols + (size_t)a->col;
	uint64_t w;

	if (a->col < 0 || !a->nr_slots)
		return;
	w = sp_timeline_col_start(tl, (unsigned int)a->col + 1) -
	    sp_timeline_col_start(tl, (unsigned int)a->col);
	tl->cells[i] = a->slots[acc_best(tl, a)].pid;
	tl->busy[i] = (uint16_t)sp_share(a->busy_ns, w, SP_TIMELINE_SHARE_MAX);
	tl->no_data[i] = (uint16_t)sp_share(a->no_data_ns, w, SP_TIMELINE_SHARE_MAX);
	a->nr_slots = 0;
	a->busy_ns = a->no_data_ns = 0;
	a->col = -1;
}

/* A column held whole by @pid. */
static void cell_whole(struct sp_timeline *tl, size_t i, int32_t pid)
{
	tl->cells[i] = pid;
	tl->busy[i] = pid > 0 ? SP_TIMELINE_SHARE_MAX : 0;
	tl->no_data[i] = pid == SP_TIMELINE_NO_DATA ? SP_TIMELINE_SHARE_MAX : 0;
}

/* The column of @ts; a row's runs mostly start and end in its last column. */
static uint64_t row_col_of(const struct sp_timeline *tl, struct sp_timeline_acc *a, uint64_t ts)
{
	if (ts < a->seen_start || ts >= a->seen_end) {
		a->seen_col = sp_cols_of(&tl->window, ts);
		a->seen_start = sp_timeline_col_start(tl, (unsigned int)a->seen_col);
		a->seen_end = sp_timeline_col_start(tl, (unsigned int)a->seen_col + 1);
	}
	return a->seen_col;
}

/* Account [t0, t1) of a row to @pid; t0 < t1, inside the window, after what came before. */
static void account(struct sp_timeline *tl, unsigned int row, int32_t pid, uint64_t t0,
		    uint64_t t1)
{
	struct sp_timeline_acc *a = &tl->acc[row];
	size_t first = (size_t)row * tl->window.nr_cols;
	uint64_t c0 = row_col_of(tl, a, t0), c1 = row_col_of(tl, a, t1 - 1), c, edge;

	total_add(tl, pid, t1 - t0);
	a->covered_ns = t1;
	if (a->col != (int64_t)c0) {
		acc_flush(tl, row, a);
		a->col = (int64_t)c0;
	}
	if (c0 == c1) {
		acc_take(a, pid, t1 - t0);
		return;
	}
	edge = sp_timeline_col_start(tl, (unsigned int)c0 + 1);
	acc_take(a, pid, edge - t0);
	acc_flush(tl, row, a);
	/* whole columns (and empty ones of a window narrower than its columns) */
	for (c = c0 + 1; c < c1; c++)
		cell_whole(tl, first + c, pid);
	a->col = (int64_t)c1;
	acc_take(a, pid, t1 - sp_timeline_col_start(tl, (unsigned int)c1));
}

void sp_timeline_add(struct sp_timeline *tl, int cpu, int pid, uint64_t t0_ns, uint64_t t1_ns)
{
	struct sp_timeline_acc *a;
	int row;

	if (cpu < 0 || cpu >= tl->nr_cpus || tl->finished)
		return;
	row = tl->row_of_cpu[cpu];
	if (row < 0)
		return;
	a = &tl->acc[row];
	if (!sp_span_clip(&t0_ns, &t1_ns, a->covered_ns, tl->window.t1_ns))
		return;
	if (pid < 0)
		pid = SP_TIMELINE_NO_DATA;
	if (t0_ns > a->covered_ns)
		account(tl, (unsigned int)row, SP_TIMELINE_NO_DATA, a->covered_ns, t0_ns);
	account(tl, (unsigned int)row, pid, t0_ns, t1_ns);
}

int sp_timeline_finish(struct sp_timeline *tl)
{
	unsigned int r;

	if (tl->finished)
		return tl->error;
	for (r = 0; r < tl->nr_rows; r++) {
		struct sp_timeline_acc *a = &tl->acc[r];

		if (a->covered_ns < tl->window.t1_ns)
			account(tl, r, SP_TIMELINE_NO_DATA, a->covered_ns, tl->window.t1_ns);
		acc_flush(tl, r, a);
	}
	tl->finished = true;
	return tl->error;
}

void sp_timeline_reset(struct sp_timeline *tl)
{
	size_t i, n = (size_t)tl->nr_rows * tl->window.nr_cols;

	for (i = 0; i < n; i++)
		cell_whole(tl, i, SP_TIMELINE_NO_DATA);
	for (i = 0; i < tl->nr_rows; i++) {
		tl->acc[i].col = -1;
		tl->acc[i].covered_ns = tl->window.t0_ns;
		tl->acc[i].busy_ns = tl->acc[i].no_data_ns = 0;
		tl->acc[i].nr_slots = 0;
		tl->acc[i].seen_start = tl->acc[i].seen_end = 0;
	}
	for (i = 0; i < tl->alloc_totals; i++)
		tl->totals[i].pid = SP_TIMELINE_NO_DATA;
	tl->nr_totals = 0;
	tl->no_data_ns = 0;
	tl->error = 0;
	tl->finished = false;
}

void sp_timeline_set_rule(struct sp_timeline *tl, enum sp_timeline_rule rule)
{
	tl->rule = rule;
}

void sp_timeline_reset_cb(void *data)
{
	sp_timeline_reset(data);
}

int sp_timeline_init(struct sp_timeline *tl, uint64_t t0_ns, uint64_t t1_ns,
		     unsigned int nr_cols, int nr_cpus, const int *cpu_of_row,
		     unsigned int nr_rows)
{
	unsigned int r;
	int c;

	memset(tl, 0, sizeof(*tl));
	if (t1_ns <= t0_ns || !nr_cols || nr_cpus <= 0 || !nr_rows || nr_rows > (unsigned)nr_cpus)
		return -EINVAL;
	tl->window = (struct sp_cols){ .t0_ns = t0_ns, .t1_ns = t1_ns, .nr_cols = nr_cols };
	tl->nr_rows = nr_rows;
	tl->nr_cpus = nr_cpus;
	tl->row_of_cpu = sp_alloc_array((size_t)nr_cpus, sizeof(*tl->row_of_cpu));
	tl->cpu_of_row = sp_alloc_array(nr_rows, sizeof(*tl->cpu_of_row));
	tl->acc = sp_alloc_array(nr_rows, sizeof(*tl->acc));
	tl->cells = sp_alloc_array((size_t)nr_rows * nr_cols, sizeof(*tl->cells));
	tl->busy = sp_alloc_array((size_t)nr_rows * nr_cols, sizeof(*tl->busy));
	tl->no_data = sp_alloc_array((size_t)nr_rows * nr_cols, sizeof(*tl->no_data));
	if (!tl->row_of_cpu || !tl->cpu_of_row || !tl->acc || !tl->cells || !tl->busy ||
	    !tl->no_data ||
	    (size_t)nr_rows * nr_cols / nr_cols != nr_rows) {
		sp_timeline_release(tl);
		return -ENOMEM;
	}
	for (c = 0; c < nr_cpus; c++)
		tl->row_of_cpu[c] = -1;
	for (r = 0; r < nr_rows; r++) {
		c = cpu_of_row[r];
		if (c < 0 || c >= nr_cpus || tl->row_of_cpu[c] >= 0) {
			sp_timeline_release(tl);
			return -EINVAL;
		}
		tl->row_of_cpu[c] = (int)r;
		tl->cpu_of_row[r] = c;
	}
	if (totals_grow(tl)) {
		sp_timeline_release(tl);
		return -ENOMEM;
	}
	sp_timeline_reset(tl);
	return 0;
}

void sp_timeline_release(struct sp_timeline *tl)
{
	SP_FREE_ALL(tl->row_of_cpu, tl->cpu_of_row, tl->acc, tl->cells, tl->busy, tl->no_data,
		    tl->totals);
	memset(tl, 0, sizeof(*tl));
}

static void observer_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	sp_timeline_add(data, cpu, pid, t0, t1);
}

void sp_timeline_observer(struct sp_timeline *tl, struct sp_model_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	obs->run = observer_run;
	obs->reset = sp_timeline_reset_cb;
	obs->data = tl;
}
