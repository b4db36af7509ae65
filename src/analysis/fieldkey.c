// SPDX-License-Identifier: GPL-2.0-only
/*
 * fieldkey: runs keyed by the value of a field, of their switch-in record
 * or of the latest record of an event.  See
 * include/schedplot/analysis/fieldkey.h.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "schedplot/analysis/fieldkey.h"
#include "schedplot/base/alloc.h"

int sp_fieldkey_init(struct sp_fieldkey *fk, const struct sp_model_observer *next, int nr_cpus)
{
	size_t nr_queues = fk->per == SP_FIELDKEY_PER_TRACE ? 1 :
			   fk->per == SP_FIELDKEY_PER_TASK ? 0 : (size_t)nr_cpus;

	fk->next = *next;
	fk->nr_cpus = nr_cpus;
	fk->value_map.alloc_slot = 256;
	fk->value_map.slot = sp_alloc_array(fk->value_map.alloc_slot, sizeof(int32_t));
	if (!fk->value_map.slot || sp_grow_array(&fk->queue, &fk->alloc_queues, nr_queues + 1,
						 sizeof(*fk->queue)))
		return -ENOMEM;
	fk->nr_queues = nr_queues;
	if (fk->per == SP_FIELDKEY_PER_TASK) {
		fk->task_map.alloc_slot = 256;
		fk->task_map.slot = sp_alloc_array(fk->task_map.alloc_slot, sizeof(int32_t));
		if (!fk->task_map.slot)
			return -ENOMEM;
	}
	return 0;
}

static size_t hash_u64(uint64_t v)
{
	uint64_t h = v * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ h >> 29);
}

static size_t hash_str(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return hash_u64(h);
}

/* What a map holds: a value's key (index into values/strings), or a task's queue. */
struct id {
	bool task;
	int64_t num;		/* a number value, or a task's pid */
	const char *str;	/* a string value, of @len bytes (not terminated) */
	size_t len;
};

static size_t id_hash(const struct id *id)
{
	return id->str ? hash_str(id->str, id->len) : hash_u64((uint64_t)id->num);
}

static bool id_is(const struct sp_fieldkey *fk, const struct id *id, size_t i)
{
	if (id->task)
		return fk->queue_pid[i] == id->num;
	if (id->str)
		return !strncmp(fk->strings[i], id->str, id->len) && !fk->strings[i][id->len];
	return fk->values[i] == id->num;
}

static struct id id_at(const struct sp_fieldkey *fk, bool task, size_t i)
{
	if (task)
		return (struct id){ .task = true, .num = fk->queue_pid[i] };
	if (fk->is_string)
		return (struct id){ .str = fk->strings[i], .len = strlen(fk->strings[i]) };
	return (struct id){ .num = fk->values[i] };
}

/*
 * The index @id has in @m, or -1 with *@pos the empty slot it would take.
 * @nr: the ids the map holds.
 */
static ssize_t map_find(const struct sp_fieldkey *fk, const struct sp_fieldkey_map *m,
			const struct id *id, size_t *pos)
{
	size_t mask = m->alloc_slot - 1, i = id_hash(id) & mask;

	while (m->slot[i] && !id_is(fk, id, (size_t)m->slot[i] - 1))
		i = (i + 1) & mask;
	*pos = i;
	return m->slot[i] ? m->slot[i] - 1 : -1;
}

/* Room for one more of @nr ids at a load of at most a half; 0 or -ENOMEM. */
static int map_room(struct sp_fieldkey *fk, struct sp_fieldkey_map *m, bool task, size_t nr)
{
	size_t n = m->alloc_slot * 2, i, j;
	int32_t *slot;

	if (nr + 1 <= m->alloc_slot / 2)
		return 0;
	if (nr >= INT32_MAX - 2)
		return -ENOMEM;
	slot = sp_alloc_array(n, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct id id = id_at(fk, task, i);

		for (j = id_hash(&id) & (n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = (int32_t)i + 1;
	}
	free(m->slot);
	m->slot = slot;
	m->alloc_slot = n;
	return 0;
}

/* The key of a value (2, 3, ... in the order first seen), added when new; 0 for want of memory. */
static int32_t key_of(struct sp_fieldkey *fk, const union sp_value *v)
{
	struct id id = { 0 };
	char *str = NULL;
	size_t pos;
	ssize_t i;

	if (fk->is_string) {
		id.str = v->str ? v->str : "";
		id.len = strlen(id.str);
		/* a trace_marker text ends with its newline */
		while (id.len && isspace((unsigned char)id.str[id.len - 1]))
			id.len--;
	} else {
		id.num = fk->is_signed ? v->s64 : (int64_t)v->u64;
	}
	i = map_find(fk, &fk->value_map, &id, &pos);
	if (i >= 0)
		return (int32_t)i + 2;
	if (map_room(fk, &fk->value_map, false, fk->nr_values))
		return 0;
	if (fk->is_string) {
		str = strndup(id.str, id.len);
		if (!str || sp_grow_array(&fk->strings, &fk->alloc_strings, fk->nr_values + 1,
					  sizeof(*fk->strings))) {
			free(str);
			return 0;
		}
		fk->strings[fk->nr_values] = str;
	} else {
		if (sp_grow_array(&fk->values, &fk->alloc_values, fk->nr_values + 1,
				  sizeof(*fk->values)))
			return 0;
		fk->values[fk->nr_values] = id.num;
	}
	map_find(fk, &fk->value_map, &id, &pos);	/* the slots may have moved */
	fk->value_map.slot[pos] = (int32_t)++fk->nr_values;
	return (int32_t)fk->nr_values + 1;
}

/* The queue of task @pid; @add: made when it has none.  NULL: none (or no memory). */
static struct sp_fieldkey_queue *task_queue(struct sp_fieldkey *fk, int32_t pid, bool add)
{
	struct id id = { .task = true, .num = pid };
	size_t pos;
	ssize_t i = map_find(fk, &fk->task_map, &id, &pos);

	if (i >= 0)
		return &fk->queue[i];
	if (!add)
		return NULL;
	if (map_room(fk, &fk->task_map, true, fk->nr_queues) ||
	    sp_grow_array(&fk->queue, &fk->alloc_queues, fk->nr_queues + 1, sizeof(*fk->queue)) ||
	    sp_grow_array(&fk->queue_pid, &fk->alloc_queue_pid, fk->nr_queues + 1,
			  sizeof(*fk->queue_pid))) {
		fk->error = -ENOMEM;
		return NULL;
	}
	map_find(fk, &fk->task_map, &id, &pos);
	fk->queue_pid[fk->nr_queues] = pid;
	fk->task_map.slot[pos] = (int32_t)++fk->nr_queues;
	return &fk->queue[fk->nr_queues - 1];
}

static void queue_add(struct sp_fieldkey *fk, struct sp_fieldkey_queue *q, uint64_t ts,
		      int32_t key, int32_t pid)
{
	/* the records before the one in effect are done with: use their room */
	if (q->head && q->head * 2 >= q->nr) {
		memmove(q->q, q->q + q->head, (q->nr - q->head) * sizeof(*q->q));
		q->nr -= q->head;
		q->head = 0;
	}
	if (sp_grow_array(&q->q, &q->alloc, q->nr + 1, sizeof(*q->q))) {
		fk->error = -ENOMEM;
		return;
	}
	q->q[q->nr++] = (struct sp_fieldkey_rec){ .ts_ns = ts, .key = key, .pid = pid };
}

static void fieldkey_watch(void *data, const struct sp_event *ev)
{
	struct sp_fieldkey *fk = data;
	const union sp_value *v;
	struct sp_fieldkey_queue *q;
	int32_t key, pid = 0;
	int c = ev->cpu;

	if (!(ev->watched >> fk->watch & 1) || c < 0 || c >= fk->nr_cpus)
		return;
	if (fk->per == SP_FIELDKEY_SWITCH_IN && ev->type != SP_EV_SWITCH)
		return;
	v = ev->watch_values[fk->watch];
	switch (fk->per) {
	case SP_FIELDKEY_SWITCH_IN:
		pid = (int32_t)v[1].s64;
		/* fall through */
	case SP_FIELDKEY_PER_CPU:
		q = &fk->queue[c];
		break;
	case SP_FIELDKEY_PER_TASK:
		q = task_queue(fk, fk->task_field ? (int32_t)v[1].s64 : ev->common_pid, true);
		if (!q)
			return;
		break;
	default:
		q = &fk->queue[0];
		break;
	}
	key = key_of(fk, v);
	if (!key) {
		fk->error = -ENOMEM;
		return;
	}
	/* a record that repeats its holder's value changes nothing */
	if (fk->per != SP_FIELDKEY_SWITCH_IN && q->nr > q->head && q->q[q->nr - 1].key == key)
		return;
	queue_add(fk, q, ev->ts_ns, key, pid);
}

static void tell(struct sp_fieldkey *fk, int cpu, int32_t key, uint64_t t0, uint64_t t1)
{
	if (t0 < t1 && fk->next.run)
		fk->next.run(fk->next.data, cpu, key, t0, t1);
}

/* The run [t0, t1) of a task on @cpu, told in pieces from the record in effect at @i on. */
static void tell_pieces(struct sp_fieldkey *fk, const struct sp_fieldkey_queue *q, size_t i,
			int cpu, uint64_t t0, uint64_t t1)
{
	int32_t key = SP_FIELDKEY_UNKNOWN;
	uint64_t from = t0;

	/* q->q[i] is the first record after t0, or the one in effect at t0 */
	if (i < q->nr && q->q[i].ts_ns <= t0)
		key = q->q[i++].key;
	for (; i < q->nr && q->q[i].ts_ns < t1; i++) {
		tell(fk, cpu, key, from, q->q[i].ts_ns);
		from = q->q[i].ts_ns;
		key = q->q[i].key;
	}
	tell(fk, cpu, key, from, t1);
}

/* The latest record at or before @t in @q (from its head), or the head when all are after. */
static size_t in_effect(const struct sp_fieldkey_queue *q, uint64_t t)
{
	size_t lo = q->head, hi = q->nr;

	/* the last record with ts_ns <= t is lo - 1 when the loop ends */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->q[mid].ts_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > q->head ? lo - 1 : q->head;
}

static void switch_in_run(struct sp_fieldkey *fk, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_fieldkey_queue *q = &fk->queue[cpu];
	int32_t key = SP_FIELDKEY_UNKNOWN;

	/* runs come in time order per CPU: the switches before this one are done with */
	while (q->head < q->nr && q->q[q->head].ts_ns < t0)
		q->head++;
	/* a repair may begin a run at a switch that made another task current */
	if (q->head < q->nr && q->q[q->head].ts_ns == t0 && q->q[q->head].pid == pid)
		key = q->q[q->head].key;
	tell(fk, cpu, key, t0, t1);
}

static void fieldkey_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct sp_fieldkey *fk = data;
	struct sp_fieldkey_queue *q;

	if (!pid || cpu < 0 || cpu >= fk->nr_cpus) {
		if (fk->next.run)
			fk->next.run(fk->next.data, cpu, pid ? SP_FIELDKEY_UNKNOWN : 0, t0, t1);
		return;
	}
	switch (fk->per) {
	case SP_FIELDKEY_SWITCH_IN:
		switch_in_run(fk, cpu, pid, t0, t1);
		return;
	case SP_FIELDKEY_PER_CPU:
		/* runs come in time order per CPU: what was in effect before is done with */
		q = &fk->queue[cpu];
		q->head = in_effect(q, t0);
		break;
	case SP_FIELDKEY_PER_TASK:
		q = task_queue(fk, pid, false);
		if (!q) {
			tell(fk, cpu, SP_FIELDKEY_UNKNOWN, t0, t1);
			return;
		}
		break;
	default:
		q = &fk->queue[0];
		break;
	}
	/* a task's runs, and the runs of different CPUs, come in no common order */
	tell_pieces(fk, q, in_effect(q, t0), cpu, t0, t1);
}

static void fieldkey_reset(void *data)
{
	struct sp_fieldkey *fk = data;

	for (size_t i = 0; i < fk->nr_queues; i++)
		fk->queue[i].head = fk->queue[i].nr = 0;
	if (fk->next.reset)
		fk->next.reset(fk->next.data);
}

void sp_fieldkey_observer(struct sp_fieldkey *fk, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(fk, .watch = fieldkey_watch, .run = fieldkey_run,
				 .reset = fieldkey_reset);
}

int64_t sp_fieldkey_value(const struct sp_fieldkey *fk, int key)
{
	return !fk->is_string && key >= 2 && (size_t)(key - 2) < fk->nr_values ?
	       fk->values[key - 2] : 0;
}

void sp_fieldkey_label(const struct sp_fieldkey *fk, int key, char *buf, size_t size)
{
	if (key < 2 || (size_t)(key - 2) >= fk->nr_values)
		snprintf(buf, size, "?");
	else if (fk->is_string)
		snprintf(buf, size, "%s", fk->strings[key - 2]);
	else if (fk->is_signed)
		snprintf(buf, size, "%" PRId64, fk->values[key - 2]);
	else
		snprintf(buf, size, "%" PRIu64, (uint64_t)fk->values[key - 2]);
}

void sp_fieldkey_release(struct sp_fieldkey *fk)
{
	size_t i;

	for (i = 0; fk->queue && i < fk->nr_queues; i++)
		free(fk->queue[i].q);
	for (i = 0; fk->strings && i < fk->nr_values; i++)
		free(fk->strings[i]);
	free(fk->queue);
	free(fk->queue_pid);
	free(fk->values);
	free(fk->strings);
	free(fk->value_map.slot);
	free(fk->task_map.slot);
	fk->queue = NULL;
	fk->queue_pid = NULL;
	fk->values = NULL;
	fk->strings = NULL;
	fk->value_map.slot = fk->task_map.slot = NULL;
	fk->nr_queues = fk->nr_values = 0;
}
