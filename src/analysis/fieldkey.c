// SPDX-License-Identifier: GPL-2.0-only
/*
 * fieldkey: runs keyed by a field of their switch-in record.  See
 * include/schedplot/analysis/fieldkey.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/fieldkey.h"
#include "schedplot/base/alloc.h"

int sp_fieldkey_init(struct sp_fieldkey *fk, const struct sp_model_observer *next, int nr_cpus)
{
	fk->next = *next;
	fk->nr_cpus = nr_cpus;
	fk->cpu = sp_alloc_array((size_t)nr_cpus, sizeof(*fk->cpu));
	fk->alloc_slot = 256;
	fk->slot = sp_alloc_array(fk->alloc_slot, sizeof(*fk->slot));
	return fk->cpu && fk->slot ? 0 : -ENOMEM;
}

static size_t value_hash(int64_t v, size_t mask)
{
	uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ h >> 29) & mask;
}

/* The key of @v (2, 3, ... in the order first seen), added when new; 0 for want of memory. */
static int32_t key_of(struct sp_fieldkey *fk, int64_t v)
{
	size_t mask = fk->alloc_slot - 1, i = value_hash(v, mask), k;

	while (fk->slot[i] && fk->values[fk->slot[i] - 2] != v)
		i = (i + 1) & mask;
	if (fk->slot[i])
		return fk->slot[i];
	if (fk->nr_values + 1 > fk->alloc_slot / 2) {
		int32_t *old = fk->slot;
		size_t n = fk->alloc_slot * 2;

		fk->slot = sp_alloc_array(n, sizeof(*fk->slot));
		if (!fk->slot) {
			fk->slot = old;
			return 0;
		}
		fk->alloc_slot = n;
		for (k = 0; k < fk->nr_values; k++) {
			size_t j = value_hash(fk->values[k], n - 1);

			while (fk->slot[j])
				j = (j + 1) & (n - 1);
			fk->slot[j] = (int32_t)k + 2;
		}
		free(old);
		return key_of(fk, v);
	}
	if (fk->nr_values >= INT32_MAX - 2 ||
	    sp_grow_array(&fk->values, &fk->alloc_values, fk->nr_values + 1, sizeof(*fk->values)))
		return 0;
	fk->values[fk->nr_values++] = v;
	return fk->slot[i] = (int32_t)fk->nr_values + 1;
}

static void fieldkey_watch(void *data, const struct sp_event *ev)
{
	struct sp_fieldkey *fk = data;
	const union sp_value *v;
	struct sp_fieldkey_rec *r;
	int c = ev->cpu;

	if (ev->type != SP_EV_SWITCH || !(ev->watched >> fk->watch & 1) || c < 0 ||
	    c >= fk->nr_cpus)
		return;
	v = &ev->watch_values[fk->watch][0];
	/* the queue is used from its head: reuse its room once it is empty */
	if (fk->cpu[c].head == fk->cpu[c].nr)
		fk->cpu[c].head = fk->cpu[c].nr = 0;
	if (sp_grow_array(&fk->cpu[c].q, &fk->cpu[c].alloc, fk->cpu[c].nr + 1,
			  sizeof(*fk->cpu[c].q))) {
		fk->error = -ENOMEM;
		return;
	}
	r = &fk->cpu[c].q[fk->cpu[c].nr++];
	r->ts_ns = ev->ts_ns;
	r->value = fk->is_signed ? v->s64 : (int64_t)v->u64;
	r->pid = (int32_t)v[1].s64;
}

static void fieldkey_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_fieldkey *fk = data;
	int32_t key = SP_FIELDKEY_UNKNOWN;

	if (cpu >= 0 && cpu < fk->nr_cpus) {
		__typeof__(fk->cpu[0]) *q = &fk->cpu[cpu];

		/* runs come in time order per CPU: the switches before this one are done with */
		while (q->head < q->nr && q->q[q->head].ts_ns < t0)
			q->head++;
		/* a repair may begin a run at a switch that made another task current */
		if (q->head < q->nr && q->q[q->head].ts_ns == t0 && q->q[q->head].pid == pid) {
			key = key_of(fk, q->q[q->head].value);
			if (!key) {
				fk->error = -ENOMEM;
				key = SP_FIELDKEY_UNKNOWN;
			}
		}
	}
	if (fk->next.run)
		fk->next.run(fk->next.data, cpu, pid ? key : 0, t0, t1);
}

static void fieldkey_reset(void *data)
{
	struct sp_fieldkey *fk = data;
	int c;

	for (c = 0; c < fk->nr_cpus; c++)
		fk->cpu[c].head = fk->cpu[c].nr = 0;
	if (fk->next.reset)
		fk->next.reset(fk->next.data);
}

void sp_fieldkey_observer(struct sp_fieldkey *fk, struct sp_model_observer *obs)
{
	memset(obs, 0, sizeof(*obs));
	obs->watch = fieldkey_watch;
	obs->run = fieldkey_run;
	obs->reset = fieldkey_reset;
	obs->data = fk;
}

int64_t sp_fieldkey_value(const struct sp_fieldkey *fk, int key)
{
	return key >= 2 && (size_t)(key - 2) < fk->nr_values ? fk->values[key - 2] : 0;
}

void sp_fieldkey_release(struct sp_fieldkey *fk)
{
	int c;

	for (c = 0; fk->cpu && c < fk->nr_cpus; c++)
		free(fk->cpu[c].q);
	free(fk->cpu);
	free(fk->values);
	free(fk->slot);
	fk->cpu = NULL;
	fk->values = NULL;
	fk->slot = NULL;
}
