// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge-pipe: the merge of few CPUs in a second thread.  That thread
 * walks the pages, decodes the records and merges them; the caller's
 * thread hands them to the pass's callback (the model and its observers),
 * so a pass runs on two CPUs.
 *
 * Records cross between the CPUs slowly on a virtual machine, so they
 * cross slim: 32 bytes each, gathered in the sending thread's own chunk
 * and copied into the ring a chunk at a time.  A record's names, which
 * seldom change for a task, are sent when they differ from the last ones
 * sent for that pid; both threads keep a table of them, changed in the
 * same order, and the receiving thread points the event at its copy.  A
 * switch's prev_state goes as its place in the decoder's table of states,
 * which never moves.  What a record carries beyond its slot (the count of
 * records lost before it, the values of an event asked for by name, the
 * names sent) follows it, its "tail"; a tail longer than a chunk goes on
 * the heap.  Lost counts and progress are told in the caller's thread, in
 * order, so that a pass stopped early counts what it handed over.  The
 * usual record, with no tail, is put and taken by a short way of its own
 * (put_event(), take_slot()); every record's slot is written and read by
 * the same two functions (slot_put(), slot_take()), its numbers copied
 * where the event has them.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/base/thread.h"
#include "schedplot/trace/decode.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/merge-pipe.h"
#include "reader-internal.h"

#define PIPE_SLOTS	512	/* a chunk: 16 KiB */
#define PIPE_CHUNKS	64	/* 1 MiB: the merging thread stalls now and then on a block */
#define HALF_CHUNKS	(PIPE_CHUNKS / 2)
#define NAME_ENTRIES	1024	/* the tables of names sent: a power of two */
#define PREFETCH_SLOTS	16	/* the receiver asks for lines this far ahead */

/*
 * A record on its way: struct sp_event without its pointers, its numbers
 * where the event has them, so that they are copied in one go.
 */
struct slot {
	uint64_t ts_ns;
	uint16_t cpu;
	uint8_t type;		/* ev->type, and ev->ctx shifted by TYPE_BITS */
	uint8_t flags;		/* F_* */
	int32_t common_pid;
	int32_t pid;		/* EXTRA (which has none): the request */
	int32_t other_pid;
	int32_t target_cpu;	/* SWITCH (which has none): the place of prev_state */
	int32_t orig_cpu;
};

_Static_assert(sizeof(struct slot) == 32, "a record's slot is half a cache line");
#define SAME_PLACE(f)	(offsetof(struct slot, f) == offsetof(struct sp_event, f))
_Static_assert(SAME_PLACE(ts_ns) && offsetof(struct sp_event, cpu) == 8 && SAME_PLACE(common_pid) &&
	       SAME_PLACE(pid) && SAME_PLACE(other_pid) && SAME_PLACE(target_cpu) &&
	       SAME_PLACE(orig_cpu) && sizeof(struct sp_event) >= sizeof(struct slot),
	       "a slot's numbers lie where the event's do");

/* The bits of slot.type that hold ev->type; ev->ctx above them */
#define TYPE_BITS	4
_Static_assert(SP_EV_EXTRA < 1 << TYPE_BITS && SP_CTX_IRQ < 1 << (8 - TYPE_BITS),
	       "a record's type and context share a byte");

enum {
	F_RUNNABLE = 1 << 0,	/* ev->prev_runnable */
	F_COMM16 = 1 << 1,	/* ev->comm16 */
	F_COMM = 1 << 2,	/* ev->comm is set ... */
	F_COMM_SENT = 1 << 3,	/* ... and its text is in the tail */
	F_OTHER = 1 << 4,	/* the same for ev->other_comm, after comm's text */
	F_OTHER_SENT = 1 << 5,
	F_TAIL_APART = 1 << 6,	/* the next slot points to the tail, on the heap */
	F_MISSED = 1 << 7,	/* records lost before it: their count leads the tail */
};

/* The flags of a slot that has a tail */
#define F_TAIL		(F_COMM_SENT | F_OTHER_SENT | F_TAIL_APART | F_MISSED)

/* Name @i's flags (0: comm, 1: other_comm) */
#define F_NAME(i)	(F_COMM << 2 * (i))
#define F_NAME_SENT(i)	(F_COMM_SENT << 2 * (i))

struct chunk {
	struct slot slot[PIPE_SLOTS];
	size_t n;		/* slots filled */
	bool last;		/* the merge ended after it: with ret, err */
	bool full __attribute__((aligned(64)));	/* the receiving thread's (atomic) */
};

/* The last name sent for a pid (for pid 0, whose name differs by CPU, a pid and CPU). */
struct name {
	int32_t pid;		/* INT32_MIN: none */
	int32_t cpu;
	bool ends16;		/* its NUL is in its first 16 bytes */
	char text[SP_COMM_LEN];
};

/* What the values of an event asked for by name are (the decoder's requests). */
struct request {
	int nr_fields;
	enum sp_value_kind *kind;
	union sp_value *values;	/* the receiving thread's */
	struct sp_addrs *addrs;	/* the receiving thread's, by field (SP_VALUE_ADDRS) */
};

/*
 * Each thread's own fields on their own cache lines: a line written by one
 * thread and read by the other for every record costs more than the pipe
 * saves (it once shared a line with the receiver's count of records).
 */
struct pipe {
	/* set before the thread starts, then only read */
	struct sp_reader *r;
	const struct sp_reader_stream *streams;	/* r's */
	const struct sp_decoder *dec;		/* r's */
	sp_merge_fn merge;
	sp_lost_fn note_lost;
	struct chunk *chunk;
	struct request *req;
	int nr_req;
	struct name *sent;	/* the sending thread's table */
	struct name *got;	/* the receiving thread's */

	/* the sending thread's */
	struct chunk *fill __attribute__((aligned(64)));	/* the records being put */
	int put;		/* the ring's chunk they go to */
	int ret;		/* what the merge returned */
	struct sp_error err;

	/* both threads': chunks filled and emptied, or the receiving thread stopped */
	struct sp_handoff handoff __attribute__((aligned(64)));
};

/* ---- handing chunks over ---- */

/* Wait until @c is @full; false when the receiving thread stopped first. */
static bool chunk_wait(struct pipe *p, struct chunk *c, bool full)
{
	return sp_handoff_wait(&p->handoff, &c->full, full, NULL, NULL);
}

/*
 * Wait until chunk @put, the next to fill, is empty.  When it is not, the
 * ring is full, the receiving thread being the slower: rather than spin
 * for each chunk it empties, the sending thread sleeps until it emptied
 * the rest of @put's half of the ring.  Return: false when the receiving
 * thread stopped first.
 */
static bool room_wait(struct pipe *p, int put)
{
	int last = put - put % HALF_CHUNKS + HALF_CHUNKS - 1;

	if (__atomic_load_n(&p->chunk[put].full, __ATOMIC_ACQUIRE))
		put = last;
	return sp_handoff_sleep(&p->handoff, &p->chunk[put].full, false);
}

/* The receiving thread emptied chunk @k: it wakes the sending thread only at a half's end. */
static void chunk_emptied(struct pipe *p, int k)
{
	if (k % HALF_CHUNKS == HALF_CHUNKS - 1)
		sp_handoff_set(&p->handoff, &p->chunk[k].full, false);
	else
		__atomic_store_n(&p->chunk[k].full, false, __ATOMIC_RELEASE);
}

/* ---- a record's tail: the values asked for, the names sent ---- */

/* Bytes a string of @n bytes takes in a tail: its NUL, to a multiple of 8. */
static inline size_t text_bytes(size_t n)
{
	return (n + 1 + 7) & ~(size_t)7;
}

static inline size_t slots_of(size_t bytes)
{
	return (bytes + sizeof(struct slot) - 1) / sizeof(struct slot);
}

/* Put @n bytes of @text and its NUL at @out.  Return: past them. */
static char *text_put(char *out, const char *text, size_t n)
{
	memset(out + n, 0, text_bytes(n) - n);
	memcpy(out, text, n);
	return out + text_bytes(n);
}

/*
 * The bytes of values @v in a tail: a number 8, a string 8 for its length
 * and its text, an array 8 for its count and 8 a number.
 */
static size_t values_bytes(const struct request *q, const union sp_value *v)
{
	size_t bytes = 0;
	int i;

	for (i = 0; i < q->nr_fields; i++) {
		bytes += 8;
		if (q->kind[i] == SP_VALUE_STR && v[i].str)
			bytes += text_bytes(strlen(v[i].str));
		else if (q->kind[i] == SP_VALUE_ADDRS)
			bytes += (size_t)v[i].addrs->nr * 8;
	}
	return bytes;
}

static char *values_put(const struct request *q, const union sp_value *v, char *out)
{
	int i;

	for (i = 0; i < q->nr_fields; i++) {
		uint64_t n;

		if (q->kind[i] == SP_VALUE_ADDRS) {
			n = v[i].addrs->nr;
			memcpy(out, &n, 8);
			if (n)
				memcpy(out + 8, v[i].addrs->addr, n * 8);
			out += 8 + n * 8;
			continue;
		}
		if (q->kind[i] != SP_VALUE_STR) {
			memcpy(out, &v[i].u64, 8);
			out += 8;
			continue;
		}
		n = v[i].str ? strlen(v[i].str) : UINT64_MAX;
		memcpy(out, &n, 8);
		out += 8;
		if (v[i].str)
			out = text_put(out, v[i].str, n);
	}
	return out;
}

static const char *values_get(struct request *q, const char *in)
{
	int i;

	for (i = 0; i < q->nr_fields; i++) {
		uint64_t n;

		if (q->kind[i] == SP_VALUE_ADDRS) {
			memcpy(&n, in, 8);
			q->addrs[i].nr = (uint32_t)n;
			q->addrs[i].addr = (const uint64_t *)(in + 8);
			q->values[i].addrs = &q->addrs[i];
			in += 8 + n * 8;
			continue;
		}
		if (q->kind[i] != SP_VALUE_STR) {
			memcpy(&q->values[i].u64, in, 8);
			in += 8;
			continue;
		}
		memcpy(&n, in, 8);
		in += 8;
		q->values[i].str = n == UINT64_MAX ? NULL : in;
		if (n != UINT64_MAX)
			in += text_bytes(n);
	}
	return in;
}

/* ---- names ---- */

static struct name *name_entry(struct name *table, int32_t pid, int cpu)
{
	uint32_t key = (uint32_t)pid * 0x9e3779b1u;

	if (pid <= 0)
		key ^= (uint32_t)(cpu + 1) * 0x85ebca6bu;
	return &table[key >> 22 & (NAME_ENTRIES - 1)];
}

/*
 * Whether @name reads as @e's text to the model: with @block its first 16
 * bytes as they are (the model compares them at once), then to the NUL.
 */
static inline bool name_same(const struct name *e, int32_t pid, int cpu, const char *name,
			     bool block)
{
	if (e->pid != pid || (pid <= 0 && e->cpu != cpu))
		return false;
	if (block) {
		if (memcmp(e->text, name, 16))
			return false;
		return e->ends16 || strcmp(e->text + 16, name + 16) == 0;
	}
	return strcmp(e->text, name) == 0;
}

/*
 * name_same() for the usual name, which ends in its first 16 bytes, read
 * with @block: false for any other, which put_record() compares.
 */
static inline bool name_same16(const struct name *e, int32_t pid, int cpu, const char *name,
			       bool block)
{
	return e->pid == pid && (pid > 0 || e->cpu == cpu) && block && e->ends16 &&
	       !memcmp(e->text, name, 16);
}

/* The bytes of @name to send: with @block at least its first 16, as they are. */
static inline size_t name_bytes(const char *name, bool block)
{
	size_t n = strlen(name);

	return block && n < 16 ? 16 : n;
}

/* Remember @text (@n bytes) as @pid's; a name too long for the table is forgotten. */
static void name_keep(struct name *e, int32_t pid, int cpu, const char *text, size_t n)
{
	if (n >= SP_COMM_LEN) {
		e->pid = INT32_MIN;
		return;
	}
	e->pid = pid;
	e->cpu = cpu;
	memcpy(e->text, text, n);
	memset(e->text + n, 0, SP_COMM_LEN - n);
	e->ends16 = memchr(e->text, '\0', 16) != NULL;
}

/* ---- the sending thread ---- */

/*
 * A record's slot, but for a tail: its numbers copied where the event has
 * them, its type, context and @flags, a switch's prev_state as its place.
 */
static inline void slot_put(const struct pipe *p, struct slot *s, const struct sp_event *ev,
			    uint8_t flags)
{
	memcpy(s, ev, sizeof(*s));
	s->cpu = (uint16_t)ev->cpu;
	s->type = (uint8_t)(ev->type | ev->ctx << TYPE_BITS);
	s->flags = flags;
	if (ev->type == SP_EV_SWITCH)
		s->target_cpu = sp_decoder_state_index(p->dec, ev->prev_state);
}

/*
 * Copy the records put so far into the ring's next chunk, in one go: a
 * record written there in place cost 12 ns, the line first taken back from
 * the other CPU.  Return: false when the receiving thread stopped.
 */
static bool put_chunk(struct pipe *p, bool last)
{
	struct chunk *c = &p->chunk[p->put];

	if (!room_wait(p, p->put))
		return false;
	memcpy(c->slot, p->fill->slot, p->fill->n * sizeof(struct slot));
	c->n = p->fill->n;
	c->last = last;
	sp_handoff_set(&p->handoff, &c->full, true);
	p->put = (p->put + 1) % PIPE_CHUNKS;
	p->fill->n = 0;
	return true;
}

/*
 * One record into the chunk, whatever it carries: put_event()'s way for
 * the records with a tail, or the chunk full.  Return: as put_event().
 */
static __attribute__((noinline)) int put_record(struct pipe *p, const struct sp_event *ev)
{
	struct chunk *c = p->fill;
	const struct request *q = ev->type == SP_EV_EXTRA ? &p->req[ev->extra] : NULL;
	struct name *e[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, tail = 0, need;
	char *out, *text[2] = { NULL, NULL }, *apart = NULL;
	uint8_t flags = (ev->prev_runnable ? F_RUNNABLE : 0) | (ev->comm16 ? F_COMM16 : 0);
	int64_t missed = p->streams[ev->cpu].cur.missed;	/* the record's, still */
	const char *name[2] = { ev->comm, ev->other_comm };
	int32_t pid[2] = { ev->pid, ev->other_pid };
	struct slot *s;
	int i;

	/* both names are looked up before either is kept, as the receiver does */
	for (i = 0; i < 2; i++) {
		if (!name[i])
			continue;
		flags |= F_NAME(i);
		e[i] = name_entry(p->sent, pid[i], ev->cpu);
		if (!name_same(e[i], pid[i], ev->cpu, name[i], ev->comm16)) {
			flags |= F_NAME_SENT(i);
			n[i] = name_bytes(name[i], ev->comm16);
			tail += text_bytes(n[i]);
		}
	}
	if (q)
		tail += values_bytes(q, ev->values);
	if (missed) {
		flags |= F_MISSED;
		tail += sizeof(missed);
	}
	need = 1 + slots_of(tail);
	if (need > PIPE_SLOTS) {
		apart = malloc(tail);
		if (!apart)
			return -ENOMEM;
		flags |= F_TAIL_APART;
		need = 2;
	}
	if (c->n + need > PIPE_SLOTS && !put_chunk(p, false)) {
		free(apart);
		return 1;	/* the receiving thread's return counts */
	}
	s = &c->slot[c->n];
	slot_put(p, s, ev, flags);
	if (q)
		s->pid = ev->extra;
	if (apart)
		memcpy(&c->slot[c->n + 1], &apart, sizeof(apart));
	out = apart ? apart : (char *)&c->slot[c->n + 1];
	c->n += need;
	if (missed) {
		memcpy(out, &missed, sizeof(missed));
		out += sizeof(missed);
	}
	if (q)
		out = values_put(q, ev->values, out);
	for (i = 0; i < 2; i++)
		if (flags & F_NAME_SENT(i)) {
			text[i] = out;
			out = text_put(out, name[i], n[i]);
		}
	for (i = 0; i < 2; i++)
		if (text[i])
			name_keep(e[i], pid[i], ev->cpu, text[i], n[i]);
	return 0;
}

/*
 * The merge's callback in the sending thread: one record into the chunk.
 * The usual record, its names the last ones sent, nothing lost before it,
 * takes a slot and nothing else.  Return: 0, -ENOMEM, or 1 when the
 * receiving thread stopped.
 */
static int put_event(const struct sp_event *ev, void *data)
{
	struct pipe *p = data;
	struct chunk *c = p->fill;
	bool same = true;

	if (ev->comm)
		same = name_same16(name_entry(p->sent, ev->pid, ev->cpu), ev->pid, ev->cpu,
				   ev->comm, ev->comm16);
	if (ev->other_comm)
		same &= name_same16(name_entry(p->sent, ev->other_pid, ev->cpu), ev->other_pid,
				    ev->cpu, ev->other_comm, ev->comm16);
	if (__builtin_expect(!same || p->streams[ev->cpu].cur.missed || ev->type == SP_EV_EXTRA ||
			     c->n == PIPE_SLOTS, 0))
		return put_record(p, ev);
	slot_put(p, &c->slot[c->n++], ev,
		 (ev->prev_runnable ? F_RUNNABLE : 0) | (ev->comm16 ? F_COMM16 : 0) |
		 (ev->comm ? F_COMM : 0) | (ev->other_comm ? F_OTHER : 0));
	return 0;
}

static void *send_main(void *data)
{
	struct pipe *p = data;

	p->ret = p->merge(p->r, put_event, p, &p->err);
	put_chunk(p, true);
	return NULL;
}

/* ---- the receiving thread ---- */

/* The text of a name in a tail at *@in (moved past it); *@n: its bytes sent. */
static const char *name_get(const char **in, bool block, size_t *n)
{
	const char *text = *in;

	*n = name_bytes(text, block);
	*in += text_bytes(*n);
	return text;
}

/*
 * A record's numbers from its slot into @ev, where the event has them, and
 * what its type and flags say: all of @ev but its names and what only
 * EXTRA records set.  The slot is read before @ev is written, which may
 * alias it as far as the compiler knows.  Return: the slot's flags.
 */
static inline uint8_t slot_take(const struct pipe *p, const struct slot *s, struct sp_event *ev)
{
	uint8_t flags = s->flags, type = s->type & ((1u << TYPE_BITS) - 1), ctx = s->type >> TYPE_BITS;
	uint16_t cpu = s->cpu;
	int32_t state = s->target_cpu;

	memcpy(ev, s, sizeof(*s));
	ev->cpu = cpu;
	ev->type = type;
	ev->ctx = ctx;
	ev->prev_runnable = flags & F_RUNNABLE;
	ev->comm16 = flags & F_COMM16;
	ev->prev_state = NULL;
	if (type == SP_EV_SWITCH) {
		ev->prev_state = sp_decoder_state_name(p->dec, state);
		ev->target_cpu = -1;
	}
	return flags;
}

/* What is left to do for a record once its callback returned. */
struct taken {
	struct name *keep[2];	/* the entries of names sent, kept after the callback: */
	const char *sent[2];	/* a name sent may replace the other's */
	size_t n[2];
	char *apart;		/* its tail on the heap, the sender's, freed then */
};

/*
 * Unpack the record of @c at slot *@k into @ev (*@k moved past it), its
 * lost records noted with @note.
 */
static void take(struct pipe *p, const struct chunk *c, size_t *k, struct sp_event *ev,
		 struct taken *t, bool note)
{
	const struct slot *s = &c->slot[*k];
	const char *in, *names[2] = { NULL, NULL };
	int i;

	memset(t, 0, sizeof(*t));
	__builtin_prefetch(s + PREFETCH_SLOTS);
	slot_take(p, s, ev);
	ev->extra = 0;
	ev->values = NULL;
	ev->watched = 0;	/* a pass with watches is never piped */
	ev->watch_values = NULL;
	if (s->flags & F_TAIL_APART) {
		memcpy(&t->apart, &c->slot[*k + 1], sizeof(t->apart));
		in = t->apart;
		*k += 2;
	} else {
		in = (const char *)&c->slot[++*k];
	}
	if (s->flags & F_MISSED) {
		int64_t missed;

		memcpy(&missed, in, sizeof(missed));
		in += sizeof(missed);
		if (note)
			p->note_lost(p->r, ev->cpu, (int)missed, ev->ts_ns);
	}
	if (ev->type == SP_EV_EXTRA) {
		struct request *q = &p->req[s->pid];

		in = values_get(q, in);
		ev->extra = (uint16_t)s->pid;
		ev->values = q->values;
		ev->pid = -1;
	}
	for (i = 0; i < 2; i++) {
		if (!(s->flags & F_NAME(i)))
			continue;
		t->keep[i] = name_entry(p->got, i ? ev->other_pid : ev->pid, ev->cpu);
		names[i] = s->flags & F_NAME_SENT(i) ? (t->sent[i] = name_get(&in, ev->comm16, &t->n[i])) :
						       t->keep[i]->text;
	}
	ev->comm = names[0];
	ev->other_comm = names[1];
	if (!t->apart)
		*k += slots_of(in - (const char *)&c->slot[*k]);
}

/*
 * Unpack the usual record, a slot without a tail and not EXTRA, into @ev,
 * whose fields that only EXTRA sets are already unset.
 */
static inline void take_slot(const struct pipe *p, const struct slot *s, struct sp_event *ev)
{
	uint8_t flags = slot_take(p, s, ev);

	ev->comm = flags & F_COMM ? name_entry(p->got, ev->pid, ev->cpu)->text : NULL;
	ev->other_comm = flags & F_OTHER ? name_entry(p->got, ev->other_pid, ev->cpu)->text : NULL;
}

/*
 * Hand the records of @c from slot *@k on to @fn (*@k: past the last one
 * handed).  Return: 0 or what @fn returned.
 */
static int get_chunk(struct pipe *p, const struct chunk *c, size_t *k, sp_event_fn fn, void *data,
		     uint64_t *nr, sp_progress_fn progress, void *progress_data)
{
	const struct sp_reader *r = p->r;
	struct sp_event ev = { .extra = 0, .values = NULL, .watched = 0, .watch_values = NULL };
	struct taken t;
	int i, ret;

	/* a pass with watches is never piped */
	while (*k < c->n) {
		const struct slot *s = &c->slot[*k];

		__builtin_prefetch(s + PREFETCH_SLOTS);
		if (__builtin_expect(!(s->flags & F_TAIL) &&
				     (s->type & ((1u << TYPE_BITS) - 1)) != SP_EV_EXTRA, 1)) {
			take_slot(p, s, &ev);
			++*k;
			ret = fn(&ev, data);
		} else {
			take(p, c, k, &ev, &t, true);
			ret = fn(&ev, data);
			for (i = 0; i < 2; i++)
				if (t.sent[i])
					name_keep(t.keep[i], i ? ev.other_pid : ev.pid, ev.cpu,
						  t.sent[i], t.n[i]);
			free(t.apart);
			ev.extra = 0;
			ev.values = NULL;
		}
		if (ret)
			return ret;
		if (progress && !(++*nr & 0xffff) && r->last_ns > r->first_ns)
			progress((double)(ev.ts_ns - r->first_ns) / (r->last_ns - r->first_ns), *nr,
				 progress_data);
	}
	return 0;
}

/* Free the tails on the heap of the records of @c from slot @k on, never handed over. */
static void drop_chunk(struct pipe *p, const struct chunk *c, size_t k)
{
	struct sp_event ev;
	struct taken t;

	while (k < c->n) {
		take(p, c, &k, &ev, &t, false);
		free(t.apart);
	}
}

/*
 * After the receiving thread stopped early in chunk @k at slot @at, and
 * the sending thread ended: drop the records put and not handed over.
 */
static void drop_rest(struct pipe *p, int k, size_t at)
{
	int j;

	drop_chunk(p, &p->chunk[k], at);
	for (j = (k + 1) % PIPE_CHUNKS; j != k && p->chunk[j].full; j = (j + 1) % PIPE_CHUNKS)
		drop_chunk(p, &p->chunk[j], 0);
	drop_chunk(p, p->fill, 0);
}

bool sp_merge_pipe_fits(const struct sp_reader *r)
{
	return r->nr_cpus <= UINT16_MAX;
}

static void requests_free(struct pipe *p)
{
	int k;

	for (k = 0; k < p->nr_req; k++) {
		free(p->req[k].kind);
		free(p->req[k].values);
		free(p->req[k].addrs);
	}
	free(p->req);
}

/* The kinds of the values of the decoder's requests.  Return: 0 or -ENOMEM. */
static int requests_alloc(struct pipe *p, const struct sp_decoder *d)
{
	int k, i;

	p->nr_req = sp_decoder_nr_extras(d);
	p->req = calloc(p->nr_req ? p->nr_req : 1, sizeof(*p->req));
	if (!p->req)
		return -ENOMEM;
	for (k = 0; k < p->nr_req; k++) {
		struct request *q = &p->req[k];

		while (sp_decoder_extra_kind(d, k, q->nr_fields) >= 0)
			q->nr_fields++;
		q->kind = calloc(q->nr_fields + 1, sizeof(*q->kind));
		q->values = aligned_alloc(64, (q->nr_fields + 8) / 8 * 64);
		q->addrs = calloc(q->nr_fields + 1, sizeof(*q->addrs));
		if (!q->kind || !q->values || !q->addrs)
			return -ENOMEM;
		for (i = 0; i < q->nr_fields; i++)
			q->kind[i] = sp_decoder_extra_kind(d, k, i);
	}
	return 0;
}

static void pipe_free(struct pipe *p)
{
	if (!p)
		return;
	requests_free(p);
	free(p->chunk);
	free(p->fill);
	free(p->sent);
	free(p);
}

static struct pipe *pipe_alloc(struct sp_reader *r, sp_merge_fn merge, sp_lost_fn note_lost)
{
	struct pipe *p = aligned_alloc(64, sizeof(*p));
	int k;

	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->r = r;
	p->streams = r->streams;
	p->dec = r->dec;
	p->merge = merge;
	p->note_lost = note_lost;
	p->chunk = aligned_alloc(64, PIPE_CHUNKS * sizeof(*p->chunk));
	p->fill = aligned_alloc(64, sizeof(*p->fill));
	p->sent = calloc(2 * NAME_ENTRIES, sizeof(*p->sent));
	if (!p->chunk || !p->fill || !p->sent || requests_alloc(p, r->dec)) {
		pipe_free(p);
		return NULL;
	}
	p->got = p->sent + NAME_ENTRIES;
	p->fill->n = 0;
	for (k = 0; k < 2 * NAME_ENTRIES; k++)
		p->sent[k].pid = INT32_MIN;
	for (k = 0; k < PIPE_CHUNKS; k++) {
		p->chunk[k].n = 0;
		p->chunk[k].last = false;
		p->chunk[k].full = false;
	}
	return p;
}

int sp_merge_pipe(struct sp_reader *r, sp_merge_fn merge, sp_lost_fn note_lost, sp_event_fn fn,
		  void *data, struct sp_error *err)
{
	sp_progress_fn progress = r->progress;
	struct pipe *p = pipe_alloc(r, merge, note_lost);
	pthread_t thread;
	uint64_t nr = 0;
	size_t at;
	int k, ret;

	if (!p)
		return merge(r, fn, data, err);
	sp_handoff_init(&p->handoff);
	/* progress and lost records are told here, in the caller's thread, as records arrive */
	r->progress = NULL;
	r->lost_noted_later = true;
	if (sp_thread_start(&thread, send_main, p)) {
		r->progress = progress;
		r->lost_noted_later = false;
		ret = merge(r, fn, data, err);
		goto out;
	}
	for (k = 0;; k = (k + 1) % PIPE_CHUNKS) {
		struct chunk *c = &p->chunk[k];

		at = 0;
		chunk_wait(p, c, true);
		ret = get_chunk(p, c, &at, fn, data, &nr, progress, r->progress_data);
		if (ret)
			break;
		if (c->last) {
			ret = p->ret;
			if (ret && err)
				*err = p->err;
			break;
		}
		chunk_emptied(p, k);
	}
	sp_handoff_stop(&p->handoff);
	pthread_join(thread, NULL);
	if (ret)
		drop_rest(p, k, at);
	r->progress = progress;
	r->lost_noted_later = false;
out:
	sp_handoff_destroy(&p->handoff);
	pipe_free(p);
	return ret;
}
