// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode: sched records -> struct sp_event.  The fields' places are
 * resolved once (resolve_fields()); the usual layout (4-byte ids, fixed
 * name arrays, the host's byte order) is then read without a check per
 * field, anything else field by field with bounds checks.  The records
 * that make up most of a trace, switches and wakeups in the usual layout,
 * are read straight from a plan per type with one check of their size
 * (plan_quick(), sp_decoder_decode()); the rest by decode_generic().
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/decode.h"
#include "schedplot/trace/evfilter.h"

#define SP_STATE_CACHE		64

struct sched_fields {
	struct tep_event *event;
	struct sp_field pid;		/* prev_pid, pid, parent_pid */
	struct sp_field other_pid;		/* next_pid, child_pid */
	struct sp_field comm;		/* prev_comm, comm, parent_comm */
	struct sp_field other_comm;	/* next_comm, child_comm */
	struct sp_field prev_state;
	struct sp_field target_cpu;	/* target_cpu, dest_cpu */
	struct sp_field orig_cpu;
	/*
	 * The usual layout: the ids are 4-byte ints, the names fixed arrays,
	 * and the file has the host's byte order.  A record of at least @end
	 * bytes is then read without a check per field.
	 */
	bool fast;
	unsigned int end;
	bool comm16;	/* the names are fixed arrays of 16 bytes or more (read_str()) */
};

/* What prev_state values mean, learned from the event's own print format. */
struct state_cache_entry {
	unsigned long long value;
	bool runnable;
	char name[16];		/* as printed ("S", "R+"), "" when not known */
};

/*
 * How sp_decoder_decode() reads the records of a type whose fields all lie
 * where the type's usual layout has them (plan_quick()): no check per
 * field, one of the record's size.
 */
enum quick_kind {
	QUICK_NO,		/* field by field (decode_generic()) */
	QUICK_NONE,		/* no fields of its own: SP_EV_OTHER and the types skipped */
	QUICK_SWITCH,		/* prev_pid, next_pid, the names and prev_state */
	QUICK_WAKE,		/* pid, target_cpu, comm and common_flags */
};

struct quick {
	uint8_t kind;		/* enum quick_kind */
	bool comm16;		/* sched_fields' */
	bool state_signed;
	uint8_t state_size;	/* 4 or 8 */
	unsigned int end;	/* the record holds every field in this many bytes */
	uint16_t pid, other_pid, target_cpu, flags, prev_state;
	uint16_t comm, other_comm;			/* offsets of the char arrays */
	uint16_t comm_last, other_comm_last;		/* of their last bytes */
} __attribute__((aligned(32)));	/* found by a shift */

/* prev_state values below this are found in the cache by index (state_small) */
#define SP_STATE_SMALL		1024

/* A field of an event asked for by name. */
struct extra_field {
	struct sp_field f;
	enum sp_value_kind kind;
	bool tail;		/* char buf[] of no fixed size: the string runs to the record's end */
	char *buf;		/* a string not terminated inside the record, copied */
	size_t alloc_buf;
	struct sp_addrs addrs;	/* SP_VALUE_ADDRS: the last record's, in @buf */
	int elem_size;		/* SP_VALUE_ADDRS: 4 or 8 */
};

/*
 * An event's fields, looked up once, and the values of them read from its
 * last record: an event asked for by name (sp_decoder_add_extra()) is one.
 */
struct fields_plan {
	struct tep_event *event;
	int nr_fields;
	struct extra_field *fields;
	union sp_value *values;
};

/* An event's records that pass a filter: sp_decoder_add_watch(). */
struct watch {
	struct fields_plan plan;	/* values: the last record's that passed */
	struct sp_evfilter *filter;	/* NULL: every record */
};

struct sp_decoder {
	struct tep_handle *tep;
	bool swap;			/* file and host byte order differ */
	struct sp_field common_type;
	struct sp_field common_pid;
	struct sp_field common_flags;	/* the context bits (enum trace_flag_type) */
	bool common_fast;		/* the usual common fields: u16 type at 0, s32 pid at 4 */
	unsigned int quick_min;		/* common_fast: the bytes a record needs for the quick
					 * path to read its type (8); else UINT_MAX,
					 * longer than any record (a page at most) */
	uint8_t *type_of_id;		/* event id -> enum sp_event_type */
	/*
	 * 1u << type: not decoded by the sched path of sp_decoder_decode():
	 * SP_EV_OTHER, SP_EV_EXTRA (decode_extra()) and the types skipped
	 * (sp_decoder_set_skipped()); one test per record for all three
	 */
	unsigned int undecoded;
	int nr_ids;
	uint16_t *extra_of_id;		/* event id -> index in @extras (SP_EV_EXTRA ids) */
	struct fields_plan *extras;
	size_t nr_extras;
	size_t alloc_extras;
	struct watch watches[SP_EVENT_MAX_WATCHES];
	int nr_watches;
	const union sp_value *watch_values[SP_EVENT_MAX_WATCHES];
	struct sched_fields fields[SP_EV_NR_TYPES];
	struct quick quick[SP_EV_NR_TYPES + 1];	/* by type, SP_EV_EXTRA too */
	struct state_cache_entry state_cache[SP_STATE_CACHE];
	uint8_t state_small[SP_STATE_SMALL];	/* value -> its entry's index + 1, 0: not seen */
	uint8_t ctx_of_flags[256];	/* a 1-byte common_flags -> enum sp_ctx (decode_ctx()) */
	int nr_state_cache;
	struct state_cache_entry state_spare;	/* when the cache is full */
	struct trace_seq seq;
	char comm_buf[SP_COMM_LEN];
	char other_comm_buf[SP_COMM_LEN];
};

void sp_field_find(struct tep_event *event, const char *name, struct sp_field *f)
{
	struct tep_format_field *tf;

	memset(f, 0, sizeof(*f));
	tf = event && name ? tep_find_any_field(event, name) : NULL;
	if (!tf || tf->offset < 0 || tf->size <= 0 || tf->offset > 0xffff || tf->size > 0xffff)
		return;
	f->offset = tf->offset;
	f->size = tf->size;
	f->is_signed = tf->flags & TEP_FIELD_IS_SIGNED;
	f->dynamic = tf->flags & TEP_FIELD_IS_DYNAMIC;
	f->relative = tf->flags & TEP_FIELD_IS_RELATIVE;
}

/* Whether @f fits the fast path of sp_decoder_decode(); how many bytes it then needs. */
static void plan_fast(const struct sp_decoder *d, struct sched_fields *f)
{
	const struct sp_field *ids[] = { &f->pid, &f->other_pid, &f->target_cpu, &f->orig_cpu };
	const struct sp_field *rest[] = { &f->comm, &f->other_comm, &f->prev_state };
	size_t i;

	f->fast = !d->swap;
	f->end = 0;
	/* read_str() then returns the record's array or a copy in a larger buffer */
	f->comm16 = SP_COMM_LEN > 16 &&
		    (!f->comm.size || (!f->comm.dynamic && f->comm.size >= 16)) &&
		    (!f->other_comm.size || (!f->other_comm.dynamic && f->other_comm.size >= 16));
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (!ids[i]->size)
			continue;
		if (ids[i]->size != 4 || ids[i]->dynamic)
			f->fast = false;
		if ((unsigned int)(ids[i]->offset + ids[i]->size) > f->end)
			f->end = ids[i]->offset + ids[i]->size;
	}
	for (i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
		if (rest[i]->dynamic)
			f->fast = false;
		if ((unsigned int)(rest[i]->offset + rest[i]->size) > f->end)
			f->end = rest[i]->offset + rest[i]->size;
	}
}

/* Whether the common fields have the usual places (the fast path of sp_decoder_decode()). */
static void plan_common(struct sp_decoder *d)
{
	d->common_fast = !d->swap && d->common_type.offset == 0 && d->common_type.size == 2 &&
			 !d->common_type.is_signed && !d->common_type.dynamic &&
			 d->common_pid.offset == 4 && d->common_pid.size == 4 &&
			 !d->common_pid.dynamic;
	d->quick_min = d->common_fast ? 8 : UINT_MAX;
}

/* A 4-byte int of the quick path: in the record, in the host's byte order. */
static bool quick_id(const struct sp_field *f, unsigned int *end)
{
	if (f->size != 4 || f->dynamic)
		return false;
	if ((unsigned int)(f->offset + 4) > *end)
		*end = f->offset + 4;
	return true;
}

/* A fixed char array of the quick path, that read_str() reads in place when it ends in NUL. */
static bool quick_name(const struct sp_field *f, unsigned int *end)
{
	if (!f->size || f->dynamic || f->size >= SP_COMM_LEN)
		return false;
	if ((unsigned int)(f->offset + f->size) > *end)
		*end = f->offset + f->size;
	return true;
}

/*
 * How sp_decoder_decode() reads type @t (struct quick): quickly when the
 * file has the host's byte order, the usual common fields and no watches,
 * and the type's fields are the usual ones; otherwise field by field.
 * Again whenever the types skipped or the watches change.
 */
static void plan_quick(struct sp_decoder *d, int t)
{
	const struct sched_fields *f = t < SP_EV_NR_TYPES ? &d->fields[t] : NULL;
	struct quick *q = &d->quick[t];
	unsigned int end = 8;
	bool ok;

	memset(q, 0, sizeof(*q));
	q->end = UINT_MAX;
	if (!d->common_fast || d->nr_watches || t == SP_EV_EXTRA)
		return;
	if (d->undecoded & (1u << t)) {
		q->kind = QUICK_NONE;
		q->end = end;
		return;
	}
	if (t == SP_EV_SWITCH) {
		ok = quick_id(&f->pid, &end) && quick_id(&f->other_pid, &end) &&
		     quick_name(&f->comm, &end) && quick_name(&f->other_comm, &end) &&
		     !f->target_cpu.size && !f->orig_cpu.size && !f->prev_state.dynamic &&
		     (f->prev_state.size == 4 || f->prev_state.size == 8);
		if (!ok)
			return;
		q->kind = QUICK_SWITCH;
		q->other_pid = f->other_pid.offset;
		q->other_comm = f->other_comm.offset;
		q->other_comm_last = f->other_comm.offset + f->other_comm.size - 1;
		q->prev_state = f->prev_state.offset;
		q->state_size = f->prev_state.size;
		q->state_signed = f->prev_state.is_signed;
		if ((unsigned int)(f->prev_state.offset + f->prev_state.size) > end)
			end = f->prev_state.offset + f->prev_state.size;
	} else if (t == SP_EV_WAKEUP || t == SP_EV_WAKEUP_NEW || t == SP_EV_WAKING) {
		ok = quick_id(&f->pid, &end) && quick_id(&f->target_cpu, &end) &&
		     quick_name(&f->comm, &end) && !f->other_pid.size && !f->other_comm.size &&
		     !f->orig_cpu.size && d->common_flags.size == 1 && !d->common_flags.dynamic;
		if (!ok)
			return;
		q->kind = QUICK_WAKE;
		q->target_cpu = f->target_cpu.offset;
		q->flags = d->common_flags.offset;
		if ((unsigned int)d->common_flags.offset + 1 > end)
			end = d->common_flags.offset + 1;
	} else {
		return;
	}
	q->pid = f->pid.offset;
	q->comm = f->comm.offset;
	q->comm_last = f->comm.offset + f->comm.size - 1;
	q->comm16 = f->comm16;
	q->end = end;
}

static void plan_quick_all(struct sp_decoder *d)
{
	for (int t = 0; t <= SP_EV_EXTRA; t++)
		plan_quick(d, t);
}

static int resolve_fields(struct sp_decoder *d)
{
	static const struct {
		enum sp_event_type type;
		const char *name;
		const char *pid, *other_pid, *comm, *other_comm, *target_cpu;
	} table[] = {
		{ SP_EV_SWITCH, "sched_switch", "prev_pid", "next_pid", "prev_comm", "next_comm", NULL },
		{ SP_EV_WAKEUP, "sched_wakeup", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_WAKEUP_NEW, "sched_wakeup_new", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_WAKING, "sched_waking", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_MIGRATE, "sched_migrate_task", "pid", NULL, "comm", NULL, "dest_cpu" },
		{ SP_EV_FORK, "sched_process_fork", "parent_pid", "child_pid", "parent_comm",
		  "child_comm", NULL },
		{ SP_EV_EXEC, "sched_process_exec", "pid", NULL, NULL, NULL, NULL },
		{ SP_EV_EXIT, "sched_process_exit", "pid", NULL, "comm", NULL, NULL },
	};
	struct tep_event *any = NULL;
	size_t i;
	int max_id = -1, t;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct sched_fields *f = &d->fields[table[i].type];
		struct tep_event *ev = tep_find_event_by_name(d->tep, "sched", table[i].name);

		if (!ev)
			continue;
		any = ev;
		sp_field_find(ev, table[i].pid, &f->pid);
		/* an event without the pid the model needs is of no use */
		if (!f->pid.size || f->pid.dynamic)
			continue;
		f->event = ev;
		sp_field_find(ev, table[i].other_pid, &f->other_pid);
		sp_field_find(ev, table[i].comm, &f->comm);
		sp_field_find(ev, table[i].other_comm, &f->other_comm);
		sp_field_find(ev, table[i].target_cpu, &f->target_cpu);
		if (table[i].type == SP_EV_SWITCH) {
			sp_field_find(ev, "prev_state", &f->prev_state);
			if (!f->other_pid.size)
				f->event = NULL;
		}
		if (table[i].type == SP_EV_MIGRATE)
			sp_field_find(ev, "orig_cpu", &f->orig_cpu);
		if (f->event && ev->id > max_id)
			max_id = ev->id;
	}
	if (any) {
		sp_field_find(any, "common_type", &d->common_type);
		sp_field_find(any, "common_pid", &d->common_pid);
		sp_field_find(any, "common_flags", &d->common_flags);
	}
	for (t = 1; t < SP_EV_NR_TYPES; t++)
		plan_fast(d, &d->fields[t]);
	plan_common(d);
	if (max_id > 0xffff)
		return -EINVAL;
	d->nr_ids = max_id + 1;
	d->type_of_id = sp_alloc_array(d->nr_ids, sizeof(*d->type_of_id));
	if (!d->type_of_id)
		return -ENOMEM;
	for (t = 1; t < SP_EV_NR_TYPES; t++)
		if (d->fields[t].event)
			d->type_of_id[d->fields[t].event->id] = t;
	plan_quick_all(d);
	return 0;
}

static inline int32_t read_i32(const struct sp_decoder *d, const struct sp_raw_record *rec,
			const struct sp_field *f, int32_t fallback)
{
	long long val;

	return sp_field_read_int(d->swap, rec, f, &val) ? (int32_t)val : fallback;
}

/* A 4-byte int field in host order, the record known to hold it; -1 when absent. */
static inline int32_t load_i32(const struct sp_raw_record *rec, const struct sp_field *f)
{
	int32_t v;

	if (!f->size)
		return -1;
	memcpy(&v, (const char *)rec->data + f->offset, sizeof(v));
	return v;
}

/*
 * Where a __data_loc / __rel_loc field's data lies in a record: its 4-byte
 * word holds length << 16 | offset, a __rel_loc's offset counted from the
 * field's end.  The caller has checked that the word lies in the record.
 */
static void dynamic_loc(const struct sp_decoder *d, const struct sp_raw_record *rec,
			const struct sp_field *f, uint64_t *off, uint64_t *n)
{
	uint64_t loc = sp_field_number(d->swap, (const char *)rec->data + f->offset, 4);

	*off = loc & 0xffff;
	*n = loc >> 16;
	if (f->relative)
		*off += f->offset + f->size;
}

/*
 * Fixed char[N] or __data_loc / __rel_loc strings, NUL-terminated: in the
 * record itself when the name ends there, else copied into @buf.
 */
static __attribute__((noinline)) const char *
read_str_slow(const struct sp_decoder *d, const struct sp_raw_record *rec,
	      const struct sp_field *f, char *buf, size_t len)
{
	const char *data = rec->data;
	uint64_t off, n, i;

	if (!f->size || (unsigned int)(f->offset + f->size) > rec->size)
		return NULL;
	if (f->dynamic) {
		if (f->size < 4)
			return NULL;
		dynamic_loc(d, rec, f, &off, &n);
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off > rec->size || n > rec->size - off)
		return NULL;
	if (n > len - 1)
		n = len - 1;
	/* terminated inside the record (the usual char[16]): no copy needed */
	if (n && !data[off + n - 1])
		return data + off;
	for (i = 0; i < n; i++)
		if (!data[off + i])
			return data + off;
	memcpy(buf, data + off, n);
	buf[n] = '\0';
	return buf;
}

/* read_str_slow(), with the usual char[16] ending inside the record decided inline */
static inline const char *read_str(const struct sp_decoder *d, const struct sp_raw_record *rec,
				   const struct sp_field *f, char *buf, size_t len)
{
	const char *data = rec->data;

	if (!f->size)
		return NULL;	/* the event has no such name (a wakeup's other_comm) */
	if (!f->dynamic && (size_t)f->size < len &&
	    (unsigned int)(f->offset + f->size) <= rec->size && !data[f->offset + f->size - 1])
		return data + f->offset;
	return read_str_slow(d, rec, f, buf, len);
}

/*
 * What prev_state means: whether it is TASK_RUNNING (with or without the
 * preemption flag), and its name.  The bit layout differs between kernels,
 * so ask the event's own print format: it prints "R" or "R+" for exactly
 * the runnable values.  Few distinct values occur, so each is formatted
 * once and remembered; the entries stay put while the decoder lives, so
 * the names can travel with records decoded in advance.  Past
 * SP_STATE_CACHE values the name is left out ("").
 */
static const struct state_cache_entry *prev_state_lookup(struct sp_decoder *d,
							 const struct sp_raw_record *raw,
							 long long value)
{
	struct state_cache_entry *e = &d->state_spare;
	struct tep_record rec;
	const char *p;
	size_t n;
	int i;

	for (i = 0; i < d->nr_state_cache; i++)
		if (d->state_cache[i].value == (unsigned long long)value)
			return &d->state_cache[i];

	memset(&rec, 0, sizeof(rec));
	rec.ts = raw->ts_ns;
	rec.data = raw->data;
	rec.size = raw->size;
	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	p = d->seq.buffer ? strstr(d->seq.buffer, "prev_state=") : NULL;
	if (d->nr_state_cache < SP_STATE_CACHE) {
		e = &d->state_cache[d->nr_state_cache++];
		if ((unsigned long long)value < SP_STATE_SMALL)
			d->state_small[value] = d->nr_state_cache;
	}
	e->value = value;
	e->name[0] = '\0';
	if (p) {
		p += strlen("prev_state=");
		e->runnable = p[0] == 'R' && (p[1] == ' ' || p[1] == '+' || p[1] == '\0');
		n = strcspn(p, " ");
		if (n < sizeof(e->name) && e != &d->state_spare) {
			memcpy(e->name, p, n);
			e->name[n] = '\0';
		}
	} else {
		/* no print format to ask: TASK_RUNNING is 0 on every kernel */
		e->runnable = (value & 0xff) == 0;
	}
	return e;
}

/*
 * A string field of an event asked for by name, NUL-terminated: in the
 * record when it ends there, else copied into @xf's buffer.  NULL when the
 * record does not hold it (or no memory for the copy).
 */
static const char *read_extra_str(const struct sp_decoder *d, const struct sp_raw_record *rec,
				  struct extra_field *xf)
{
	const char *data = rec->data, *nul;
	const struct sp_field *f = &xf->f;
	uint64_t off, n;

	if (f->dynamic) {
		if ((unsigned int)(f->offset + f->size) > rec->size)
			return NULL;
		dynamic_loc(d, rec, f, &off, &n);
	} else {
		off = f->offset;
		n = xf->tail ? (rec->size > off ? rec->size - off : 0) : (uint64_t)f->size;
	}
	if (off > rec->size || n > rec->size - off)
		return NULL;
	nul = memchr(data + off, '\0', n);
	if (nul)
		return data + off;
	if (n + 1 > xf->alloc_buf) {
		char *buf = realloc(xf->buf, n + 1);

		if (!buf)
			return NULL;
		xf->buf = buf;
		xf->alloc_buf = n + 1;
	}
	memcpy(xf->buf, data + off, n);
	xf->buf[n] = '\0';
	return xf->buf;
}

/*
 * An array of numbers: as many as the record holds from the field's offset
 * on, read into @xf's buffer.  Its declared size is not its length: ftrace
 * declares kernel_stack's caller[8] and records as many as the stack had.
 */
static const struct sp_addrs *read_extra_addrs(const struct sp_decoder *d,
					       const struct sp_raw_record *rec,
					       struct extra_field *xf)
{
	uint64_t off = xf->f.offset, n, i;
	size_t bytes;

	xf->addrs.nr = 0;
	if (off >= rec->size)
		return &xf->addrs;
	n = (rec->size - off) / xf->elem_size;
	bytes = n * sizeof(uint64_t);
	if (bytes > xf->alloc_buf) {
		char *buf = realloc(xf->buf, bytes);

		if (!buf)
			return &xf->addrs;
		xf->buf = buf;
		xf->alloc_buf = bytes;
	}
	for (i = 0; i < n; i++)
		((uint64_t *)xf->buf)[i] = sp_field_number(d->swap, (const char *)rec->data + off +
							   i * xf->elem_size, xf->elem_size);
	xf->addrs.addr = (const uint64_t *)xf->buf;
	xf->addrs.nr = (uint32_t)n;
	return &xf->addrs;
}

/* The values of a plan's fields in a record (0 or NULL where it has none). */
static void read_values(struct sp_decoder *d, const struct sp_raw_record *rec,
			struct fields_plan *p)
{
	union sp_value *values = p->values;
	long long val;
	int i;

	for (i = 0; i < p->nr_fields; i++) {
		struct extra_field *xf = &p->fields[i];

		if (xf->kind == SP_VALUE_STR)
			values[i].str = read_extra_str(d, rec, xf);
		else if (xf->kind == SP_VALUE_ADDRS)
			values[i].addrs = read_extra_addrs(d, rec, xf);
		else if (sp_field_read_int(d->swap, rec, &xf->f, &val))
			values[i].u64 = (uint64_t)val;
		else
			values[i].u64 = 0;
	}
}

/* The watches a record passes, and their values (out of the records' hot path). */
static __attribute__((noinline)) void
decode_watches(struct sp_decoder *d, const struct sp_raw_record *rec, int cpu,
	       struct sp_event *ev)
{
	long long id;
	int i;

	if (!sp_field_read_int(d->swap, rec, &d->common_type, &id))
		return;
	for (i = 0; i < d->nr_watches; i++) {
		struct watch *w = &d->watches[i];

		if (w->plan.event->id != id ||
		    (w->filter && !sp_evfilter_match(w->filter, rec, cpu)))
			continue;
		read_values(d, rec, &w->plan);
		ev->watched |= 1u << i;
	}
}

/* The fields asked for of an SP_EV_EXTRA record (out of the records' hot path). */
static __attribute__((noinline)) void
decode_extra(struct sp_decoder *d, const struct sp_raw_record *rec, struct sp_event *ev)
{
	struct fields_plan *x;
	long long id;

	if (!sp_field_read_int(d->swap, rec, &d->common_type, &id) || id < 0 || id >= d->nr_ids) {
		ev->type = SP_EV_OTHER;
		return;
	}
	x = &d->extras[d->extra_of_id[id]];
	read_values(d, rec, x);
	ev->extra = d->extra_of_id[id];
	ev->values = x->values;
}

/*
 * The context a record fired in, from its common_flags: the bits are the
 * kernel's latency-format flags (libtraceevent's enum trace_flag_type), the
 * 'h' and 's' of trace-cmd report -l.  A hard interrupt that came during a
 * softirq ('H') is the hard interrupt.
 */
static enum sp_ctx decode_ctx(const struct sp_decoder *d, const struct sp_raw_record *rec)
{
	long long flags;

	if (!d->common_flags.size || !sp_field_read_int(d->swap, rec, &d->common_flags, &flags))
		return SP_CTX_TASK;
	if (flags & TRACE_FLAG_HARDIRQ)
		return SP_CTX_IRQ;
	if (flags & TRACE_FLAG_SOFTIRQ)
		return SP_CTX_SOFTIRQ;
	return SP_CTX_TASK;
}

/* sp_decoder_decode() field by field, each checked (out of the records' hot path). */
static __attribute__((noinline)) void
decode_generic(struct sp_decoder *d, const struct sp_raw_record *rec, int cpu,
	       struct sp_event *ev)
{
	const struct sched_fields *f;
	long long id = -1, state;
	int t = SP_EV_OTHER;

	ev->ts_ns = rec->ts_ns;
	ev->cpu = cpu;
	ev->target_cpu = -1;
	ev->orig_cpu = -1;
	if (d->common_fast && rec->size >= 8) {
		uint16_t type;

		memcpy(&type, rec->data, sizeof(type));
		ev->common_pid = load_i32(rec, &d->common_pid);
		if (__builtin_expect(type < d->nr_ids, 1))
			t = d->type_of_id[type];
	} else {
		ev->common_pid = read_i32(d, rec, &d->common_pid, -1);
		if (sp_field_read_int(d->swap, rec, &d->common_type, &id) && id >= 0 && id < d->nr_ids)
			t = d->type_of_id[id];
	}
	ev->type = t;
	ev->ctx = SP_CTX_TASK;
	ev->watched = 0;
	ev->watch_values = d->watch_values;
	if (__builtin_expect(d->nr_watches != 0, 0))
		decode_watches(d, rec, cpu, ev);
	if (d->undecoded & (1u << t)) {
		ev->pid = ev->other_pid = -1;
		ev->prev_runnable = false;
		ev->prev_state = NULL;
		ev->comm = ev->other_comm = NULL;
		ev->comm16 = false;
		if (t == SP_EV_EXTRA)
			decode_extra(d, rec, ev);
		return;
	}
	f = &d->fields[t];
	if (f->fast && rec->size >= f->end) {
		ev->pid = load_i32(rec, &f->pid);
		ev->other_pid = load_i32(rec, &f->other_pid);
		ev->target_cpu = load_i32(rec, &f->target_cpu);
		ev->orig_cpu = load_i32(rec, &f->orig_cpu);
	} else {
		ev->pid = read_i32(d, rec, &f->pid, -1);
		ev->other_pid = read_i32(d, rec, &f->other_pid, -1);
		ev->target_cpu = read_i32(d, rec, &f->target_cpu, -1);
		ev->orig_cpu = read_i32(d, rec, &f->orig_cpu, -1);
	}
	ev->comm16 = f->comm16;
	ev->comm = read_str(d, rec, &f->comm, d->comm_buf, sizeof(d->comm_buf));
	ev->other_comm = read_str(d, rec, &f->other_comm, d->other_comm_buf,
				  sizeof(d->other_comm_buf));
	ev->prev_runnable = false;
	ev->prev_state = NULL;
	if (t == SP_EV_WAKEUP || t == SP_EV_WAKEUP_NEW || t == SP_EV_WAKING)
		ev->ctx = decode_ctx(d, rec);
	if (t == SP_EV_SWITCH && sp_field_read_int(d->swap, rec, &f->prev_state, &state)) {
		const struct state_cache_entry *e = prev_state_lookup(d, rec, state);

		ev->prev_runnable = e->runnable;
		ev->prev_state = e->name[0] ? e->name : NULL;
	}
}

/* A 4-byte int at @off of a record known to hold it, in the host's byte order. */
static inline int32_t quick_i32(const void *data, unsigned int off)
{
	int32_t v;

	memcpy(&v, (const char *)data + off, sizeof(v));
	return v;
}

/*
 * The entry of a switch's prev_state that the quick path read, when
 * prev_state_lookup() has it at a small index; else NULL.
 */
static inline const struct state_cache_entry *quick_state(const struct sp_decoder *d,
							  const char *data, const struct quick *q)
{
	unsigned long long state;
	int64_t v64;
	int32_t v32;
	uint8_t i;

	if (q->state_size == 8) {
		memcpy(&v64, data + q->prev_state, sizeof(v64));
		state = (unsigned long long)v64;
	} else {
		memcpy(&v32, data + q->prev_state, sizeof(v32));
		state = q->state_signed ? (unsigned long long)(long long)v32 : (uint32_t)v32;
	}
	if (state >= SP_STATE_SMALL || !(i = d->state_small[state]))
		return NULL;
	return &d->state_cache[i - 1];
}

/* What every record read by the quick path has in common. */
static inline void quick_common(const struct sp_decoder *d, const struct sp_raw_record *rec,
				int cpu, int t, const struct quick *q, struct sp_event *ev)
{
	ev->ts_ns = rec->ts_ns;
	ev->cpu = cpu;
	ev->common_pid = quick_i32(rec->data, 4);
	ev->target_cpu = -1;
	ev->orig_cpu = -1;
	ev->type = t;
	ev->ctx = SP_CTX_TASK;
	ev->prev_runnable = false;
	ev->comm16 = q->comm16;
	ev->prev_state = NULL;
	ev->watched = 0;
	ev->watch_values = d->watch_values;
}

/*
 * The usual records (struct quick) read with one check of their size; the
 * names must end inside their arrays and prev_state be one seen before.
 * Anything else goes to decode_generic(), which gives the same event for
 * the usual ones too.
 */
void sp_decoder_decode(struct sp_decoder *d, const struct sp_raw_record *rec, int cpu,
		       struct sp_event *ev)
{
	const char *data = rec->data;
	const struct quick *q;
	uint16_t id;
	int t;

	if (__builtin_expect(rec->size < d->quick_min, 0))
		goto generic;
	memcpy(&id, data, sizeof(id));
	t = id < d->nr_ids ? d->type_of_id[id] : SP_EV_OTHER;
	q = &d->quick[t];
	if (__builtin_expect(rec->size < q->end, 0))
		goto generic;
	switch (q->kind) {
	case QUICK_SWITCH: {
		const struct state_cache_entry *e = quick_state(d, data, q);

		if (!e || data[q->comm_last] || data[q->other_comm_last])
			break;
		quick_common(d, rec, cpu, t, q, ev);
		ev->pid = quick_i32(data, q->pid);
		ev->other_pid = quick_i32(data, q->other_pid);
		ev->comm = data + q->comm;
		ev->other_comm = data + q->other_comm;
		ev->prev_runnable = e->runnable;
		ev->prev_state = e->name[0] ? e->name : NULL;
		return;
	}
	case QUICK_WAKE: {
		uint8_t flags = ((const uint8_t *)data)[q->flags];

		if (data[q->comm_last])
			break;
		quick_common(d, rec, cpu, t, q, ev);
		ev->pid = quick_i32(data, q->pid);
		ev->other_pid = -1;
		ev->target_cpu = quick_i32(data, q->target_cpu);
		ev->comm = data + q->comm;
		ev->other_comm = NULL;
		ev->ctx = d->ctx_of_flags[flags];
		return;
	}
	case QUICK_NONE:
		quick_common(d, rec, cpu, t, q, ev);
		ev->pid = ev->other_pid = -1;
		ev->comm = ev->other_comm = NULL;
		return;
	}
generic:
	decode_generic(d, rec, cpu, ev);
}

int sp_decoder_state_index(const struct sp_decoder *d, const char *prev_state)
{
	uintptr_t p = (uintptr_t)prev_state, first = (uintptr_t)d->state_cache[0].name;
	size_t i = (p - first) / sizeof(d->state_cache[0]);

	/* only the table's entries have names (the spare one never does) */
	if (!prev_state || p < first || i >= (size_t)d->nr_state_cache)
		return -1;
	return (int)i;
}

const char *sp_decoder_state_name(const struct sp_decoder *d, int index)
{
	return index >= 0 && index < SP_STATE_CACHE ? d->state_cache[index].name : NULL;
}

struct sp_decoder *sp_decoder_alloc(struct tep_handle *tep, bool swap)
{
	struct sp_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->tep = tep;
	d->swap = swap;
	d->undecoded = 1u << SP_EV_OTHER | 1u << SP_EV_EXTRA;
	d->quick_min = UINT_MAX;
	/* decode_ctx() of a 1-byte common_flags */
	for (int flags = 0; flags < 256; flags++)
		d->ctx_of_flags[flags] = flags & TRACE_FLAG_HARDIRQ ? SP_CTX_IRQ :
					 flags & TRACE_FLAG_SOFTIRQ ? SP_CTX_SOFTIRQ : SP_CTX_TASK;
	trace_seq_init(&d->seq);
	if (resolve_fields(d)) {
		sp_decoder_free(d);
		return NULL;
	}
	return d;
}

static void fields_plan_release(struct fields_plan *p)
{
	for (int i = 0; p->fields && i < p->nr_fields; i++)
		free(p->fields[i].buf);
	free(p->fields);
	free(p->values);
	memset(p, 0, sizeof(*p));
}

void sp_decoder_free(struct sp_decoder *d)
{
	size_t i;
	int k;

	if (!d)
		return;
	trace_seq_destroy(&d->seq);
	free(d->type_of_id);
	free(d->extra_of_id);
	for (i = 0; i < d->nr_extras; i++)
		fields_plan_release(&d->extras[i]);
	free(d->extras);
	for (k = 0; k < d->nr_watches; k++) {
		fields_plan_release(&d->watches[k].plan);
		sp_evfilter_free(d->watches[k].filter);
	}
	free(d);
}

bool sp_decoder_has_event(const struct sp_decoder *d, enum sp_event_type type)
{
	return type > SP_EV_OTHER && type < SP_EV_NR_TYPES && d->fields[type].event;
}

void sp_decoder_set_skipped(struct sp_decoder *d, unsigned int types)
{
	d->undecoded = types | 1u << SP_EV_OTHER | 1u << SP_EV_EXTRA;
	plan_quick_all(d);
}

/* ---- events asked for by name ---- */

/*
 * The place and kind of a field asked for; arrays of unsigned numbers only
 * when @arrays (requests: a watch's values are printed or compared).
 * Return: 0, -ENOENT or -EINVAL (@err set).
 */
static int extra_field_find(struct tep_event *event, const char *name, bool arrays,
			    struct extra_field *xf, struct sp_error *err)
{
	struct tep_format_field *tf = name ? tep_find_any_field(event, name) : NULL;
	bool chars;

	memset(xf, 0, sizeof(*xf));
	if (!tf)
		return sp_error_set(err, -ENOENT, -1, "event %s:%s has no field '%s'",
				    event->system, event->name, name ? name : "(null)");
	if (tf->offset < 0 || tf->size < 0 || tf->offset > 0xffff || tf->size > 0xffff)
		return sp_error_set(err, -EINVAL, -1, "field '%s' of %s:%s lies out of range",
				    name, event->system, event->name);
	xf->f.offset = tf->offset;
	xf->f.size = tf->size;
	xf->f.is_signed = tf->flags & TEP_FIELD_IS_SIGNED;
	xf->f.dynamic = tf->flags & TEP_FIELD_IS_DYNAMIC;
	xf->f.relative = tf->flags & TEP_FIELD_IS_RELATIVE;
	chars = (tf->flags & TEP_FIELD_IS_STRING) || (tf->type && strstr(tf->type, "char"));
	if (arrays && !chars && !xf->f.dynamic && (tf->flags & TEP_FIELD_IS_ARRAY) &&
	    (tf->elementsize == 4 || tf->elementsize == 8) && !xf->f.is_signed) {
		xf->kind = SP_VALUE_ADDRS;
		xf->elem_size = tf->elementsize;
		return 0;
	}
	if (xf->f.dynamic || (tf->flags & TEP_FIELD_IS_ARRAY) || (chars && !tf->size)) {
		if (!chars || (xf->f.dynamic && tf->size < 4))
			return sp_error_set(err, -EINVAL, -1,
					    "field '%s' of %s:%s is an array, neither a number nor a string",
					    name, event->system, event->name);
		xf->kind = SP_VALUE_STR;
		xf->tail = !xf->f.dynamic && !tf->size;
		return 0;
	}
	if (tf->size != 1 && tf->size != 2 && tf->size != 4 && tf->size != 8)
		return sp_error_set(err, -EINVAL, -1, "field '%s' of %s:%s is %d bytes, not a number",
				    name, event->system, event->name, tf->size);
	xf->kind = xf->f.is_signed ? SP_VALUE_S64 : SP_VALUE_U64;
	return 0;
}

/* Room for event ids below @nr in type_of_id and extra_of_id.  Return: 0 or -ENOMEM. */
static int grow_ids(struct sp_decoder *d, int nr)
{
	uint8_t *types;
	uint16_t *extras;

	if (nr < d->nr_ids)
		nr = d->nr_ids;
	if (nr == d->nr_ids && d->extra_of_id)
		return 0;
	types = sp_alloc_array(nr, sizeof(*types));
	extras = sp_alloc_array(nr, sizeof(*extras));
	if (!types || !extras) {
		free(types);
		free(extras);
		return -ENOMEM;
	}
	if (d->nr_ids && d->type_of_id)
		memcpy(types, d->type_of_id, d->nr_ids * sizeof(*types));
	if (d->nr_ids && d->extra_of_id)
		memcpy(extras, d->extra_of_id, d->nr_ids * sizeof(*extras));
	free(d->type_of_id);
	free(d->extra_of_id);
	d->type_of_id = types;
	d->extra_of_id = extras;
	d->nr_ids = nr;
	return 0;
}

static bool same_field(const struct extra_field *a, const struct extra_field *b)
{
	return a->f.offset == b->f.offset && a->f.size == b->f.size && a->kind == b->kind &&
	       a->f.dynamic == b->f.dynamic && a->f.relative == b->f.relative &&
	       a->tail == b->tail;
}

/* Look up @nr_fields fields of @event, see extra_field_find(); on failure @p holds nothing. */
static int fields_plan_init(struct fields_plan *p, struct tep_event *event,
			    const char *const *fields, int nr_fields, bool arrays,
			    struct sp_error *err)
{
	int i, ret = 0;

	p->event = event;
	p->nr_fields = nr_fields;
	p->fields = sp_alloc_array(nr_fields ? nr_fields : 1, sizeof(*p->fields));
	p->values = sp_alloc_array(nr_fields ? nr_fields : 1, sizeof(*p->values));
	if (!p->fields || !p->values)
		ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
	for (i = 0; i < nr_fields && !ret; i++)
		ret = extra_field_find(event, fields[i], arrays, &p->fields[i], err);
	if (ret)
		fields_plan_release(p);
	return ret;
}

static int fields_plan_kind(const struct fields_plan *p, int field)
{
	if (field < 0 || field >= p->nr_fields)
		return -EINVAL;
	return p->fields[field].kind;
}

/* A trace without sched events: the common fields are those of the first event asked for. */
static void adopt_common_fields(struct sp_decoder *d, struct tep_event *event)
{
	if (d->common_type.size)
		return;
	sp_field_find(event, "common_type", &d->common_type);
	sp_field_find(event, "common_pid", &d->common_pid);
	plan_common(d);
	plan_quick_all(d);
}

/*
 * A second request of an event shares the first one's index when one
 * field list begins the other (the power layers and --events may both
 * ask for power:cpu_idle); the longer list is kept.
 */
static int share_extra(struct sp_decoder *d, int idx, const char *const *fields, int nr_fields,
		       struct sp_error *err)
{
	struct fields_plan *x = &d->extras[idx], np;
	int i, ret;

	ret = fields_plan_init(&np, x->event, fields, nr_fields, true, err);
	for (i = 0; i < nr_fields && i < x->nr_fields && !ret; i++)
		if (!same_field(&np.fields[i], &x->fields[i]))
			ret = sp_error_set(err, -EEXIST, -1,
					   "event %s:%s was asked for already with other fields",
					   x->event->system, x->event->name);
	if (ret || nr_fields <= x->nr_fields) {
		fields_plan_release(&np);
		return ret ? ret : idx;
	}
	/* the fields already there keep their copied strings */
	memcpy(np.fields, x->fields, x->nr_fields * sizeof(*np.fields));
	free(x->fields);
	free(x->values);
	*x = np;
	return idx;
}

int sp_decoder_add_extra(struct sp_decoder *d, struct tep_event *event,
			 const char *const *fields, int nr_fields, struct sp_error *err)
{
	struct fields_plan x;
	int ret;

	if (!event || nr_fields < 0 || (nr_fields && !fields))
		return sp_error_set(err, -EINVAL, -1, "no event or fields to decode");
	if (event->id < 0 || event->id > 0xffff)
		return sp_error_set(err, -EINVAL, -1, "event %s:%s has id %d, out of range",
				    event->system, event->name, event->id);
	if (d->nr_extras >= 0xffff)
		return sp_error_set(err, -E2BIG, -1, "too many events asked for");
	if (event->id < d->nr_ids && d->type_of_id[event->id] == SP_EV_EXTRA)
		return share_extra(d, d->extra_of_id[event->id], fields, nr_fields, err);
	if (event->id < d->nr_ids && d->type_of_id[event->id] != SP_EV_OTHER)
		return sp_error_set(err, -EINVAL, -1,
				    "event %s:%s is a sched record, decoded already",
				    event->system, event->name);
	ret = fields_plan_init(&x, event, fields, nr_fields, true, err);
	if (ret)
		return ret;
	if (grow_ids(d, event->id + 1) ||
	    sp_grow_array(&d->extras, &d->alloc_extras, d->nr_extras + 1, sizeof(*d->extras))) {
		fields_plan_release(&x);
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	adopt_common_fields(d, event);
	d->extras[d->nr_extras] = x;
	d->extra_of_id[event->id] = d->nr_extras;
	d->type_of_id[event->id] = SP_EV_EXTRA;
	return d->nr_extras++;
}

int sp_decoder_nr_extras(const struct sp_decoder *d)
{
	return d->nr_extras;
}

int sp_decoder_extra_kind(const struct sp_decoder *d, int extra, int field)
{
	if (extra < 0 || (size_t)extra >= d->nr_extras)
		return -EINVAL;
	return fields_plan_kind(&d->extras[extra], field);
}

int sp_decoder_add_watch(struct sp_decoder *d, struct tep_event *event, const char *filter,
			 const char *const *fields, int nr_fields, struct sp_error *err)
{
	struct watch w = { 0 };
	int ret;

	if (!event || nr_fields < 0 || (nr_fields && !fields))
		return sp_error_set(err, -EINVAL, -1, "no event or fields to decode");
	if (d->nr_watches >= SP_EVENT_MAX_WATCHES)
		return sp_error_set(err, -E2BIG, -1, "more than %d filtered events",
				    SP_EVENT_MAX_WATCHES);
	ret = fields_plan_init(&w.plan, event, fields, nr_fields, false, err);
	if (ret)
		return ret;
	if (filter && *filter) {
		w.filter = sp_evfilter_alloc(d->tep, event, filter, err);
		if (!w.filter) {
			fields_plan_release(&w.plan);
			return err && err->code ? err->code : -EINVAL;
		}
	}
	adopt_common_fields(d, event);
	d->watch_values[d->nr_watches] = w.plan.values;
	d->watches[d->nr_watches++] = w;
	plan_quick_all(d);
	return d->nr_watches - 1;
}

int sp_decoder_nr_watches(const struct sp_decoder *d)
{
	return d->nr_watches;
}

int sp_decoder_watch_kind(const struct sp_decoder *d, int watch, int field)
{
	if (watch < 0 || watch >= d->nr_watches)
		return -EINVAL;
	return fields_plan_kind(&d->watches[watch].plan, field);
}
