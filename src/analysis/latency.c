// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency: waits for a CPU, grouped by what explains them, with exact
 * quantiles per group and per class (wakeup, preemption).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/hashindex.h"

static const char *const placement_names[SP_PLACE_NR] = {
	[SP_PLACE_STAYED] = "stayed",
	[SP_PLACE_MOVED_PREV_IDLE] = "moved_prev_idle",
	[SP_PLACE_MOVED_PREV_BUSY] = "moved_prev_busy",
	[SP_PLACE_FIRST_RUN] = "first_run",
	[SP_PLACE_PREEMPTED] = "preempted",
};

static const char *const class_names[2] = {
	[SP_WAIT_WAKEUP] = "wakeup",
	[SP_WAIT_PREEMPT] = "preempt",
};

const char *sp_placement_name(enum sp_placement p)
{
	return p < SP_PLACE_NR ? placement_names[p] : "unknown";
}

static void csv_header(struct sp_latency *l)
{
	if (!l->csv)
		return;
	fprintf(l->csv, "# waits for a CPU; start_s counts from %" PRIu64 ".%09" PRIu64
		" s, the trace's own time\n", l->csv_origin_ns / 1000000000,
		l->csv_origin_ns % 1000000000);
	fputs("start_s,latency_ns,pid,comm,class,cpu,prev_cpu,waker,target_cpu,prev_idle,"
	      "placement,waker_cpu,contradicted\n", l->csv);
}

int sp_latency_init(struct sp_latency *l)
{
	l->groups = NULL;
	l->nr_groups = l->alloc_groups = 0;
	l->last_group = 0;
	l->index = NULL;
	l->alloc_index = 0;
	l->slowest = NULL;
	l->nr_slowest_kept = 0;
	l->time_hist = NULL;
	l->error = 0;
	memset(l->classes, 0, sizeof(l->classes));
	memset(l->nr_contradicted, 0, sizeof(l->nr_contradicted));
	if (l->nr_slowest) {
		l->slowest = sp_alloc_array(l->nr_slowest, sizeof(*l->slowest));
		if (!l->slowest)
			return -ENOMEM;
	}
	if (l->nr_time_cols) {
		l->time_hist = sp_alloc_array(l->nr_time_cols * SP_LAT_NR_LOG2,
					      sizeof(*l->time_hist));
		if (!l->time_hist)
			return -ENOMEM;
	}
	csv_header(l);
	return 0;
}

static uint32_t hash_key(int64_t key)
{
	uint64_t x = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(x >> 32);
}

/* the hash of the key of the group an index slot holds (groups[] + 1) */
static uint32_t group_slot_hash(const void *data, uint32_t slot)
{
	const struct sp_latency *l = data;

	return hash_key(l->groups[slot - 1].key);
}

/* The group of @key, made on first sight.  Return: NULL when out of memory. */
static struct sp_latency_group *group_get(struct sp_latency *l, int64_t key)
{
	struct sp_latency_group *g;
	size_t h;

	/* one group, or few: most waits fall in the one before */
	if (l->nr_groups && l->groups[l->last_group].key == key)
		return &l->groups[l->last_group];

	if ((l->nr_groups + 1) * 2 > l->alloc_index &&
	    sp_hashindex_rebuild(&l->index, &l->alloc_index,
				 l->alloc_index ? l->alloc_index * 2 : 64, group_slot_hash, l))
		return NULL;
	h = hash_key(key) & (l->alloc_index - 1);
	while (l->index[h]) {
		g = &l->groups[l->index[h] - 1];
		if (g->key == key) {
			l->last_group = (size_t)(l->index[h] - 1);
			return g;
		}
		h = (h + 1) & (l->alloc_index - 1);
	}
	if (sp_grow_array(&l->groups, &l->alloc_groups, l->nr_groups + 1, sizeof(*l->groups)))
		return NULL;
	g = &l->groups[l->nr_groups];
	memset(g, 0, sizeof(*g));
	g->key = key;
	l->index[h] = (uint32_t)++l->nr_groups;
	l->last_group = l->nr_groups - 1;
	return g;
}

static const char *comm_of(const struct sp_latency *l, int pid)
{
	const struct sp_task *t = l->model ? sp_model_task(l->model, pid) : NULL;
	const char *s = t && t->comm ? sp_model_str(l->model, t->comm) : NULL;

	return s ? s : "";
}

static int socket_of(const struct sp_latency *l, int cpu)
{
	return l->socket && cpu >= 0 && cpu < l->nr_cpus ? l->socket[cpu] : -1;
}

static int64_t key_of(const struct sp_latency *l, const struct sp_wait *w)
{
	const struct sp_task *t;

	switch (l->by) {
	case SP_LAT_BY_CLASS:
		return w->wait_class;
	case SP_LAT_BY_COMMAND:
		t = l->model ? sp_model_task(l->model, w->pid) : NULL;
		return t ? (int64_t)t->comm : 0;
	case SP_LAT_BY_PID:
		return w->pid;
	case SP_LAT_BY_CPU:
		return w->cpu;
	case SP_LAT_BY_PLACEMENT:
		return sp_placement_of(w);
	case SP_LAT_BY_SOCKET:
		return socket_of(l, w->cpu);
	case SP_LAT_BY_WAKER:
		return w->waker;
	case SP_LAT_BY_ANTAGONIST: {
		struct sp_behind top = { -1, 0 };
		uint64_t total;
		size_t nr;

		if (l->antagonists)
			sp_antagonists_of_wait(l->antagonists, w, &top, 1, &nr, &total);
		return top.pid;
	}
	default:
		return 0;
	}
}

static unsigned int log2_bucket(uint64_t v)
{
	unsigned int b = v ? 63 - (unsigned int)__builtin_clzll(v) : 0;

	return b < SP_LAT_NR_LOG2 ? b : SP_LAT_NR_LOG2 - 1;
}

/* Keep @w among the nr_slowest longest: a min-heap on the length. */
static void slowest_keep(struct sp_latency *l, const struct sp_wait *w)
{
	struct sp_wait *h = l->slowest;
	size_t i, n = l->nr_slowest_kept;

	if (n < l->nr_slowest) {
		for (i = n++; i && h[(i - 1) / 2].dur_ns > w->dur_ns; i = (i - 1) / 2)
			h[i] = h[(i - 1) / 2];
		h[i] = *w;
		l->nr_slowest_kept = n;
		return;
	}
	if (!n || w->dur_ns <= h[0].dur_ns)
		return;
	for (i = 0;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].dur_ns < h[c].dur_ns)
			c++;
		if (h[c].dur_ns >= w->dur_ns)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = *w;
}

static void csv_row(struct sp_latency *l, const struct sp_wait *w)
{
	uint64_t rel = w->start_ns > l->csv_origin_ns ? w->start_ns - l->csv_origin_ns : 0;
	char comm[80], waker[16];
	size_t i, j = 0;

	/* a comm is the kernel's: 15 bytes, but may hold a comma or a quote */
	for (i = 0; comm_of(l, w->pid)[i] && j + 2 < sizeof(comm); i++) {
		char ch = comm_of(l, w->pid)[i];

		comm[j++] = ch == ',' || ch == '"' || ch == '\n' ? '_' : ch;
	}
	comm[j] = '\0';
	if (fprintf(l->csv, "%" PRIu64 ".%09" PRIu64 ",%" PRIu64 ",%d,%s,%s,%d,%d,%s,%d,%d,%s,%d,%d\n",
		    rel / 1000000000, rel % 1000000000, w->dur_ns, w->pid, comm,
		    class_names[w->wait_class & 1], w->cpu, w->prev_cpu,
		    sp_waker_format(waker, sizeof(waker), w->waker), w->target_cpu,
		    w->prev_idle, sp_placement_name(sp_placement_of(w)), w->waker_cpu,
		    w->contradicted) < 0 &&
	    !l->error)
		l->error = -(errno ? errno : EIO);
}

void sp_latency_add(struct sp_latency *l, const struct sp_wait *w)
{
	struct sp_latency_group *g;

	if (w->wait_class > SP_WAIT_PREEMPT || !(l->class_mask & (1u << w->wait_class)))
		return;
	if (!sp_scope_wait(&l->scope, w))
		return;
	g = group_get(l, key_of(l, w));
	if (!g || sp_samples_add(&g->samples[w->wait_class], w->dur_ns)) {
		l->error = -ENOMEM;
		return;
	}
	if (w->dur_ns > g->max.dur_ns || g->samples[0].nr + g->samples[1].nr == 1)
		g->max = *w;
	if (w->contradicted) {
		g->nr_contradicted++;
		l->nr_contradicted[w->wait_class]++;
	}
	if (l->slowest)
		slowest_keep(l, w);
	if (l->time_hist && l->scope.t1_ns > l->scope.t0_ns) {
		size_t col = (size_t)((double)(w->start_ns - l->scope.t0_ns) /
				      (double)(l->scope.t1_ns - l->scope.t0_ns) *
				      (double)l->nr_time_cols);

		if (col >= l->nr_time_cols)
			col = l->nr_time_cols - 1;
		l->time_hist[col * SP_LAT_NR_LOG2 + log2_bucket(w->dur_ns)]++;
	}
	if (l->csv)
		csv_row(l, w);
}

/* The groups' samples freed; the groups themselves are kept for reuse. */
static void groups_clear(struct sp_latency *l)
{
	for (size_t i = 0; i < l->nr_groups; i++) {
		sp_samples_release(&l->groups[i].samples[0]);
		sp_samples_release(&l->groups[i].samples[1]);
		sp_samples_release(&l->groups[i].all);
	}
	l->nr_groups = 0;
}

void sp_latency_reset(struct sp_latency *l)
{
	groups_clear(l);
	l->last_group = 0;
	memset(l->nr_contradicted, 0, sizeof(l->nr_contradicted));
	if (l->index)
		memset(l->index, 0, l->alloc_index * sizeof(*l->index));
	l->nr_slowest_kept = 0;
	if (l->time_hist)
		memset(l->time_hist, 0, l->nr_time_cols * SP_LAT_NR_LOG2 * sizeof(*l->time_hist));
	if (l->csv && fflush(l->csv) == 0 && fseek(l->csv, 0, SEEK_SET) == 0)
		csv_header(l);
	l->error = 0;
}

static int cmp_groups(const void *pa, const void *pb)
{
	const struct sp_latency_group *a = pa, *b = pb;

	if (a->sum.n != b->sum.n)
		return a->sum.n > b->sum.n ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

static int cmp_slowest(const void *pa, const void *pb)
{
	const struct sp_wait *a = pa, *b = pb;

	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

int sp_latency_finish(struct sp_latency *l)
{
	const struct sp_samples **sets;
	size_t i, k;

	/* sorted in place; classes are summarised over the groups, not joined */
	for (i = 0; i < l->nr_groups; i++) {
		sp_samples_sort(&l->groups[i].samples[0]);
		sp_samples_sort(&l->groups[i].samples[1]);
	}
	sets = sp_alloc_array(l->nr_groups, sizeof(*sets));
	if (!sets)
		l->error = -ENOMEM;
	for (k = 0; k < 2 && !l->error; k++) {
		for (i = 0; i < l->nr_groups; i++)
			sets[i] = &l->groups[i].samples[k];
		sp_samples_summarize_sets(sets, l->nr_groups, &l->classes[k]);
	}
	free(sets);
	/* each group's classes merged: what its line and quantiles are drawn from */
	for (i = 0; i < l->nr_groups && !l->error; i++) {
		struct sp_latency_group *g = &l->groups[i];

		if (sp_samples_merge(&g->samples[0], &g->samples[1])) {
			l->error = -ENOMEM;
			break;
		}
		g->all = g->samples[0];
		memset(&g->samples[0], 0, sizeof(g->samples[0]));
		sp_samples_summarize(&g->all, &g->sum);
	}
	if (l->nr_groups)	/* no groups: no array to sort */
		qsort(l->groups, l->nr_groups, sizeof(*l->groups), cmp_groups);
	sp_hashindex_rebuild(&l->index, &l->alloc_index, l->alloc_index ? l->alloc_index : 64,
			     group_slot_hash, l);
	if (l->nr_slowest_kept)
		qsort(l->slowest, l->nr_slowest_kept, sizeof(*l->slowest), cmp_slowest);
	if (l->csv && fflush(l->csv) && !l->error)
		l->error = -(errno ? errno : EIO);
	return l->error;
}

const char *sp_latency_group_name(const struct sp_latency *l, const struct sp_latency_group *g,
				  char *buf, size_t len)
{
	const char *s;

	switch (l->by) {
	case SP_LAT_BY_CLASS:
		snprintf(buf, len, "%s", class_names[g->key & 1]);
		break;
	case SP_LAT_BY_COMMAND:
		s = l->model && g->key ? sp_model_str(l->model, (uint32_t)g->key) : NULL;
		snprintf(buf, len, "%s", s && *s ? s : "(unnamed)");
		break;
	case SP_LAT_BY_PID:
		snprintf(buf, len, "%s-%lld", comm_of(l, (int)g->key), (long long)g->key);
		break;
	case SP_LAT_BY_CPU:
		snprintf(buf, len, "CPU %lld", (long long)g->key);
		break;
	case SP_LAT_BY_PLACEMENT:
		snprintf(buf, len, "%s", sp_placement_name((enum sp_placement)g->key));
		break;
	case SP_LAT_BY_SOCKET:
		if (g->key < 0)
			snprintf(buf, len, "socket unknown");
		else
			snprintf(buf, len, "socket %lld", (long long)g->key);
		break;
	case SP_LAT_BY_WAKER:
		if (g->key == SP_WAKER_NONE)
			snprintf(buf, len, "preempted");
		else if (g->key < 0)
			snprintf(buf, len, "%s", g->key == SP_WAKER_IRQ ? "irq" : "softirq");
		else
			snprintf(buf, len, "%s-%lld", comm_of(l, (int)g->key), (long long)g->key);
		break;
	case SP_LAT_BY_ANTAGONIST:
		if (g->key < 0)
			snprintf(buf, len, "none (CPU idle)");
		else
			snprintf(buf, len, "%s-%lld", comm_of(l, (int)g->key), (long long)g->key);
		break;
	default:
		snprintf(buf, len, "all");
		break;
	}
	return buf;
}

void sp_latency_release(struct sp_latency *l)
{
	groups_clear(l);
	SP_FREE_AND_NULL(l->groups);
	SP_FREE_AND_NULL(l->index);
	SP_FREE_AND_NULL(l->slowest);
	SP_FREE_AND_NULL(l->time_hist);
	l->alloc_groups = l->alloc_index = 0;
	l->nr_slowest_kept = 0;
}
