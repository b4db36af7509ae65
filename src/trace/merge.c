// SPDX-License-Identifier: GPL-2.0-only
/*
 * merge: the per-CPU streams into one pass in trace order.  The streams
 * are merged with a tournament tree, one comparison per level, log2(CPUs)
 * each time the earliest stream changes, and one per record while it does
 * not (merge_tree()); from SP_BATCH_MIN_LEAVES CPUs on, in batches sorted by
 * radix, in a second thread (merge_batches()); for fewer CPUs of
 * uncompressed data the tree runs in a second thread (merge-pipe.c,
 * pipe_wanted()).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/losertree.h"
#include "schedplot/base/thread.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/decode.h"
#include "schedplot/trace/merge.h"
#include "schedplot/trace/merge-pipe.h"
#include "schedplot/trace/radix.h"
#include "reader-internal.h"

/* The merge in batches (merge_batches()): how many records a round holds */
#define SP_BATCH_RECORDS	8192
#define SP_ROUNDS		4	/* rounds in flight between the two threads */
#define SP_NAME_INLINE		16	/* longer command names are kept aside */

/* ---- per-CPU sources ---- */

/* The next record of @cpu into its stream's cur.  Return: 1, 0 at the end, or an error. */
static int stream_next(struct sp_reader *r, int cpu, struct sp_error *err)
{
	struct sp_reader_stream *s = &r->streams[cpu];
	struct tep_record *rec;

	if (!r->use_libtracecmd)
		return s->cs ? sp_cpustream_next(s->cs, &s->cur, err) : 0;
	tracecmd_free_record(s->held);
	s->held = NULL;
	rec = tracecmd_read_data(r->handle, cpu);
	if (!rec)
		return 0;
	s->held = rec;
	s->cur.ts_ns = rec->ts;
	s->cur.data = rec->data;
	s->cur.size = rec->size > 0 ? rec->size : 0;
	s->cur.missed = rec->missed_events > 0 ? (int)rec->missed_events :
			rec->missed_events < 0 ? -1 : 0;
	return 1;
}

/* Position @cpu before its first record. */
static void stream_rewind(struct sp_reader *r, int cpu)
{
	struct sp_reader_stream *s = &r->streams[cpu];

	if (!r->use_libtracecmd) {
		if (s->cs)
			sp_cpustream_rewind(s->cs);
		return;
	}
	tracecmd_free_record(s->held);
	s->held = NULL;
	/* tracecmd_read_cpu_first() positions the CPU and returns its first record */
	s->held = tracecmd_read_cpu_first(r->handle, cpu);
}

/* ---- the merge with the tree ---- */

static inline bool key_before(const struct sp_merge_key *a, const struct sp_merge_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->rank < b->rank);
}

static bool leaf_before(const void *data, int a, int b)
{
	const struct sp_reader *r = data;

	return key_before(&r->key[a], &r->key[b]);
}

/* Play every match; return the winner, storing the losers. */
static int tree_build(struct sp_reader *r)
{
	return sp_losertree_build(r->node, r->nr_leaves, leaf_before, r);
}

/* Leaf @w's key changed: replay its matches up to the root. */
static void tree_replay(struct sp_reader *r, int w)
{
	int p, t;

	for (p = (w + r->nr_leaves) / 2; p > 0; p /= 2) {
		if (key_before(&r->key[r->node[p]], &r->key[w])) {
			t = r->node[p];
			r->node[p] = w;
			w = t;
		}
	}
	r->node[0] = w;
}

/* Leaf @leaf's stream has no more records: it loses every match from now on. */
static void key_end(struct sp_reader *r, int leaf)
{
	r->key[leaf].ts = UINT64_MAX;
	r->key[leaf].rank = UINT32_MAX / 2 + leaf;
}

/*
 * Records lost before a CPU's record at @ts_ns: @missed as in struct
 * sp_raw_record.  The first gaps are kept for -v; a note that cannot be
 * kept for want of memory is only counted.
 */
static void note_lost(struct sp_reader *r, int cpu, int missed, uint64_t ts_ns)
{
	if (!missed)
		return;
	if (missed > 0)
		r->lost[cpu] += missed;
	else
		r->lost[cpu]++, r->lost_unknown[cpu]++;
	if (r->nr_lost_notes < r->keep_lost_notes &&
	    sp_grow_array(&r->lost_notes, &r->alloc_lost_notes, r->nr_lost_notes + 1,
			  sizeof(*r->lost_notes)) == 0)
		r->lost_notes[r->nr_lost_notes++] =
			(struct sp_lost_note){ .cpu = cpu, .ts_ns = ts_ns, .count = missed };
	r->nr_gaps++;
}

/* Every 65536 records, tell the caller how far the pass is. */
static inline void progress(struct sp_reader *r, uint64_t *nr, uint64_t ts)
{
	if (r->progress && !(++*nr & 0xffff) && r->last_ns > r->first_ns)
		r->progress((double)(ts - r->first_ns) / (r->last_ns - r->first_ns), *nr,
			    r->progress_data);
}

/*
 * The stream read straight, without stream_next()'s test of the library
 * on each record: NULL when it is read through libtracecmd or has no data.
 */
static inline struct sp_cpustream *stream_direct(const struct sp_reader *r,
						 const struct sp_reader_stream *s)
{
	return r->use_libtracecmd ? NULL : s->cs;
}

/*
 * Hand the record @cpu's stream @s holds to @fn, then read the stream's
 * next, from @cs when not NULL (stream_direct()).  Inline in the loops that
 * deliver record after record, so that @s and @cs are looked up once for
 * a run, not again after each call of @fn.
 * Return: 0 (*@more: whether there was a next), what @fn returned, or an
 * error (@err).
 */
static inline __attribute__((always_inline)) int
deliver_from_stream(struct sp_reader *r, int cpu, struct sp_reader_stream *s,
		    struct sp_cpustream *cs, sp_event_fn fn, void *data, uint64_t *nr,
		    struct sp_error *err, bool *more)
{
	struct sp_event ev;
	int ret;

	if (s->cur.missed && !r->lost_noted_later)
		note_lost(r, cpu, s->cur.missed, s->cur.ts_ns);
	sp_decoder_decode(r->dec, &s->cur, cpu, &ev);
	ret = fn(&ev, data);
	if (ret)
		return ret;
	ret = cs ? sp_cpustream_next(cs, &s->cur, err) : stream_next(r, cpu, err);
	if (ret < 0)
		return ret;
	*more = ret;
	progress(r, nr, ev.ts_ns);
	return 0;
}

/*
 * The leaf whose key comes first after @w's (the runner-up): @w won every
 * match on its way up, so it is the first of the losers kept there.
 */
static int tree_runner_up(const struct sp_reader *r, int w)
{
	int p = (w + r->nr_leaves) / 2, best;

	best = r->node[p];
	for (p /= 2; p > 0; p /= 2)
		if (key_before(&r->key[r->node[p]], &r->key[best]))
			best = r->node[p];
	return best;
}

/*
 * Deliver @leaf's records while each comes before the runner-up's key
 * (@up_ts, @up_rank), and read its next; its key is then the next record's.
 * Return: 0, what @fn returned, or an error (@err).
 */
static inline int deliver_run(struct sp_reader *r, int leaf, uint64_t up_ts, uint32_t up_rank,
			      sp_event_fn fn, void *data, uint64_t *nr, struct sp_error *err)
{
	int cpu = r->leaf_cpu[leaf];
	struct sp_reader_stream *s = &r->streams[cpu];
	struct sp_cpustream *cs = stream_direct(r, s);
	bool more;
	int ret;

	for (;;) {
		ret = deliver_from_stream(r, cpu, s, cs, fn, data, nr, err, &more);
		if (ret)
			return ret;
		if (!more) {
			key_end(r, leaf);
			return 0;
		}
		if (s->cur.ts_ns > up_ts || (s->cur.ts_ns == up_ts && (uint32_t)leaf >= up_rank)) {
			r->key[leaf].ts = s->cur.ts_ns;
			return 0;
		}
	}
}

/*
 * The merge with the tree: the leaves' streams hold their next record.
 * The winner's stream goes on delivering while its next record still
 * comes before the runner-up's, which does not change meanwhile; the
 * tree is replayed once, when it stops.
 */
static int merge_tree(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	uint64_t nr = 0;
	int ret, leaf;

	r->node[0] = tree_build(r);
	/* the common 2-CPU trace: one match, the runner-up the other leaf */
	leaf = r->nr_leaves == 2 ? key_before(&r->key[1], &r->key[0]) : r->node[0];
	for (;;) {
		uint64_t up_ts = UINT64_MAX;	/* a single stream goes to its end */
		uint32_t up_rank = UINT32_MAX;

		if (r->key[leaf].rank >= (uint32_t)r->nr_leaves)
			break;		/* the winner has ended: all have */
		if (r->nr_leaves > 1) {
			const struct sp_merge_key *up =
				&r->key[r->nr_leaves == 2 ? !leaf : tree_runner_up(r, leaf)];

			up_ts = up->ts;
			up_rank = up->rank;
		}
		ret = deliver_run(r, leaf, up_ts, up_rank, fn, data, &nr, err);
		if (ret)
			return ret;
		if (r->nr_leaves == 2) {
			leaf = !leaf;
		} else {
			tree_replay(r, leaf);
			leaf = r->node[0];
		}
	}
	return 0;
}

/* ---- the merge in batches ---- */

/*
 * With many CPUs the tree costs log2(CPUs) hard-to-predict comparisons per
 * record, and each record is the first touch in a long while of its page,
 * its stream and its stream's state.  From SP_BATCH_MIN_LEAVES streams on,
 * the merge goes in rounds over windows of time instead: each stream in
 * turn decodes its records up to the window's end into the round's buffer
 * (a page read straight through), and the buffer, sorted by timestamp, is
 * delivered (copied in that order, for the other thread to read straight
 * through).  Every stream's next record is then later than the window,
 * so the tree would deliver those records first, and the sort is stable
 * over a buffer read stream after stream, so equal timestamps keep the
 * tree's order (lower CPU first, then the CPU's own order).  A second
 * thread does the rounds while the caller's thread delivers the previous
 * ones and, when it has none, decompresses the blocks the streams will
 * need next.  The window follows the records' density, so that a round
 * fills about half the buffer, whether one CPU is busy or hundreds.
 *
 * Three things stop a round early: the buffer fills up, a stream goes back
 * in time, or a stream fails.  The records read so far are then delivered
 * by the tree (batch_tree()), each stream's from the buffer first, then
 * from the stream itself, until the buffer is empty; the next round
 * starts from there.
 */

/* A record decoded in advance; its names are copied (its block may be reused). */
struct queued {
	struct sp_event ev;	/* comm, other_comm: pointed at the copies when delivered */
	int missed;
	uint8_t names;		/* NAME_* */
	char name[2][SP_NAME_INLINE];
};

#define NAME_HAS(i)	(1u << (2 * (i)))
#define NAME_LONG(i)	(2u << (2 * (i)))

typedef char long_names[2][SP_COMM_LEN];

/* Records decoded in advance, and their longer names. */
struct records {
	struct queued *q;
	long_names *long_name;	/* by index, allocated when first needed */
	size_t n;
};

enum leaf_state { LEAF_READING, LEAF_ENDED, LEAF_FAILED };

struct leaf {
	enum leaf_state state;
	int fail;		/* LEAF_FAILED: what reading the next record returned */
	size_t start, end;	/* its records in the buffer read */
};

/* A round's records, sorted; or, stopped early, in the buffer read. */
struct round {
	struct records out;
	int fail;		/* -ENOMEM: the round could not be read */
	bool by_tree;		/* stopped early: delivered by batch_tree() */
	bool last;		/* every stream has ended after it */
	bool ready;		/* handed to the delivering thread (atomic) */
};

struct sp_reader_batch {
	struct sp_reader *r;
	int nr_leaves;
	size_t cap;			/* records a round holds */
	struct records in;		/* read in a round, not sorted */
	struct leaf *leaf;
	struct sp_radix_key *keys, *tmp;
	struct sp_error *fail;		/* by leaf, allocated when first needed */
	struct round round[SP_ROUNDS];
	uint64_t from, window;		/* the next round reads [from, from + window) */

	struct sp_handoff handoff;	/* rounds to the thread that does them and back */
};

#define WINDOW_FIRST	1000000ull	/* 1 ms */
#define WINDOW_MAX	(1ull << 40)

static void records_free(struct records *rs)
{
	free(rs->q);
	free(rs->long_name);
}

void sp_merge_batch_free(struct sp_reader_batch *b)
{
	int k;

	if (!b)
		return;
	records_free(&b->in);
	for (k = 0; k < SP_ROUNDS; k++)
		records_free(&b->round[k].out);
	free(b->leaf);
	free(b->keys);
	free(b->tmp);
	free(b->fail);
	sp_handoff_destroy(&b->handoff);
	free(b);
}

static struct sp_reader_batch *batch_alloc(struct sp_reader *r, int nr_leaves)
{
	struct sp_reader_batch *b = calloc(1, sizeof(*b));
	int k;

	if (!b)
		return NULL;
	sp_handoff_init(&b->handoff);
	b->r = r;
	b->nr_leaves = nr_leaves;
	b->cap = SP_BATCH_RECORDS;
	b->leaf = sp_alloc_array(nr_leaves, sizeof(*b->leaf));
	b->keys = sp_alloc_array(b->cap, sizeof(*b->keys));
	b->tmp = sp_alloc_array(b->cap, sizeof(*b->tmp));
	b->in.q = sp_alloc_array(b->cap, sizeof(*b->in.q));
	if (!b->leaf || !b->keys || !b->tmp || !b->in.q)
		goto fail;
	for (k = 0; k < SP_ROUNDS; k++) {
		b->round[k].out.q = sp_alloc_array(b->cap, sizeof(*b->round[k].out.q));
		if (!b->round[k].out.q)
			goto fail;
	}
	return b;
fail:
	sp_merge_batch_free(b);
	return NULL;
}

/*
 * Copy name @i of record @idx of @rs, longer ones aside (@nr of them,
 * allocated when first needed).  Return: 0 or -ENOMEM.
 */
static int put_name(struct records *rs, size_t nr, size_t idx, int i, const char *name)
{
	struct queued *e = &rs->q[idx];
	size_t n;

	if (!name)
		return 0;
	n = strnlen(name, SP_COMM_LEN - 1);
	e->names |= NAME_HAS(i);
	if (n < SP_NAME_INLINE) {
		memcpy(e->name[i], name, n);
		e->name[i][n] = '\0';
		return 0;
	}
	if (!rs->long_name) {
		rs->long_name = sp_alloc_array(nr, sizeof(*rs->long_name));
		if (!rs->long_name)
			return -ENOMEM;
	}
	memcpy(rs->long_name[idx][i], name, n);
	rs->long_name[idx][i][n] = '\0';
	e->names |= NAME_LONG(i);
	return 0;
}

/* Point record @idx of @rs's names at their copies. */
static inline void names_back(struct records *rs, size_t idx)
{
	struct queued *e = &rs->q[idx];
	int i;

	for (i = 0; i < 2; i++) {
		const char *name = !(e->names & NAME_HAS(i)) ? NULL :
				   e->names & NAME_LONG(i) ? rs->long_name[idx][i] : e->name[i];

		if (i)
			e->ev.other_comm = name;
		else
			e->ev.comm = name;
	}
}

/*
 * Read the records of @leaf up to @cut, after the others.
 * Return: 0, 1 when the round must stop here (see above), or -ENOMEM.
 */
static int read_leaf(struct sp_reader *r, struct sp_reader_batch *b, int leaf, uint64_t cut)
{
	struct records *in = &b->in;
	struct leaf *lf = &b->leaf[leaf];
	int cpu = r->leaf_cpu[leaf];
	struct sp_reader_stream *s = &r->streams[cpu];
	struct sp_error next_err;
	uint64_t last_ts = 0;
	int ret;

	lf->start = lf->end = in->n;
	while (lf->state == LEAF_READING && s->cur.ts_ns <= cut) {
		struct queued *e = &in->q[in->n];

		if (in->n == b->cap || (lf->end > lf->start && s->cur.ts_ns < last_ts))
			return 1;	/* full, or back in time */
		sp_decoder_decode(r->dec, &s->cur, cpu, &e->ev);
		e->missed = s->cur.missed;
		e->names = 0;
		if (put_name(in, b->cap, in->n, 0, e->ev.comm) ||
		    put_name(in, b->cap, in->n, 1, e->ev.other_comm))
			return -ENOMEM;
		last_ts = s->cur.ts_ns;
		b->keys[in->n].ts = last_ts;
		b->keys[in->n].item = in->n;
		lf->end = ++in->n;
		next_err.code = 0;
		ret = stream_next(r, cpu, &next_err);
		if (ret < 0) {
			/* kept until the records before it are delivered */
			if (!b->fail)
				b->fail = sp_alloc_array(b->nr_leaves, sizeof(*b->fail));
			if (!b->fail)
				return -ENOMEM;
			b->fail[leaf] = next_err;	/* a bare code: sp_reader_read() words it */
			lf->fail = ret;
			lf->state = LEAF_FAILED;
			return 1;
		}
		if (!ret)
			lf->state = LEAF_ENDED;
	}
	return 0;
}

/*
 * The records @leaf reads next were decompressed long ago (with hundreds
 * of CPUs, megabytes ago): ask for as many as it read last round while the
 * leaf before it is read.
 */
static void prefetch_leaf(const struct sp_reader *r, const struct sp_reader_batch *b, int leaf)
{
	const struct sp_reader_stream *s = &r->streams[r->leaf_cpu[leaf]];
	const struct leaf *lf = &b->leaf[leaf];
	size_t k, lines = lf->end - lf->start + 1;
	const char *p = (const char *)s->cur.data;

	sp_cpustream_prefetch(s->cs);
	if (lf->state != LEAF_READING || !p)
		return;
	for (k = 0; k < lines && k < 16; k++, p += 64)
		__builtin_prefetch(p);
}

/* The next window: half a buffer of records at the density just seen. */
static void next_window(struct sp_reader_batch *b, size_t n, bool full)
{
	size_t target = b->cap / 2;
	uint64_t w = b->window;

	if (full)
		w /= 4;
	else if (n < target / 2)
		w = w < WINDOW_MAX / 2 ? w * 2 : WINDOW_MAX;
	else
		w = w * target / n;
	b->window = w ? w : 1;
}

/* The earliest next record of the streams still reading (UINT64_MAX: none). */
static uint64_t streams_from(const struct sp_reader *r, const struct sp_reader_batch *b)
{
	uint64_t from = UINT64_MAX;
	int leaf;

	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		uint64_t ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;

		if (b->leaf[leaf].state == LEAF_READING && ts < from)
			from = ts;
	}
	return from;
}

/*
 * Copy the records read, in the order of @sorted, to @o.
 * Return: 0 or -ENOMEM.
 */
static int put_sorted(struct sp_reader_batch *b, const struct sp_radix_key *sorted,
		      struct round *o)
{
	struct records *in = &b->in, *out = &o->out;
	size_t i;
	int k;

	for (i = 0; i < in->n; i++) {
		size_t from = sorted[i].item;
		struct queued *e = &out->q[i];

		if (i + 4 < in->n)
			__builtin_prefetch(&in->q[sorted[i + 4].item]);
		*e = in->q[from];
		for (k = 0; k < 2; k++)
			if ((e->names & NAME_LONG(k)) &&
			    put_name(out, b->cap, i, k, in->long_name[from][k]))
				return -ENOMEM;
	}
	out->n = in->n;
	return 0;
}

/*
 * One round into @o: records up to the window's end from every stream,
 * sorted; or, stopped early, the records read so far, left in b->in for
 * batch_tree() (o->by_tree).  Return: 0 or -ENOMEM.
 */
static int batch_round(struct sp_reader *r, struct sp_reader_batch *b, struct round *o)
{
	struct records *in = &b->in;
	uint64_t cut, from = UINT64_MAX;
	int leaf, ret;

	in->n = o->out.n = 0;
	o->by_tree = o->last = false;
	for (;;) {
		cut = b->from + b->window - 1 < b->from ? UINT64_MAX : b->from + b->window - 1;
		for (leaf = 0; leaf < b->nr_leaves; leaf++) {
			uint64_t ts;

			if (leaf + 1 < b->nr_leaves)
				prefetch_leaf(r, b, leaf + 1);
			ret = read_leaf(r, b, leaf, cut);
			if (ret < 0)
				return ret;
			if (ret) {
				/* the leaves not read have no records here */
				for (leaf++; leaf < b->nr_leaves; leaf++)
					b->leaf[leaf].start = b->leaf[leaf].end = in->n;
				next_window(b, in->n, in->n == b->cap);
				o->by_tree = true;
				return 0;
			}
			ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;
			if (b->leaf[leaf].state == LEAF_READING && ts < from)
				from = ts;
		}
		next_window(b, in->n, false);
		b->from = from;
		if (from == UINT64_MAX)
			o->last = true;
		if (in->n || o->last)
			break;
		/* a gap in the trace: the window starts again at the next record */
	}
	return put_sorted(b, sp_radix_sort(b->keys, b->tmp, in->n), o);
}

/* The key of @leaf in the tree of batch_tree(): its next record read, else its stream's. */
static void tree_key(struct sp_reader *r, const struct sp_reader_batch *b, int leaf)
{
	const struct leaf *lf = &b->leaf[leaf];

	if (lf->start < lf->end)
		r->key[leaf].ts = b->in.q[lf->start].ev.ts_ns;
	else if (lf->state == LEAF_READING)
		r->key[leaf].ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;
	else
		key_end(r, leaf);
}

/*
 * Deliver a round stopped early with the tree, until every record read
 * has gone: each stream's from b->in first, then from the stream itself.
 * Return: 0 (o->last when every stream has ended), an error (@err), or
 * what @fn returned.
 */
static int batch_tree(struct sp_reader *r, struct sp_reader_batch *b, struct round *o,
		      sp_event_fn fn, void *data, uint64_t *nr, struct sp_error *err)
{
	size_t left = b->in.n;
	int leaf, ret;

	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		r->key[leaf].rank = leaf;
		tree_key(r, b, leaf);
	}
	r->node[0] = tree_build(r);
	while (left) {
		struct leaf *lf;
		bool more;
		int cpu;

		leaf = r->node[0];
		lf = &b->leaf[leaf];
		cpu = r->leaf_cpu[leaf];
		if (lf->start < lf->end) {
			struct queued *e = &b->in.q[lf->start];

			names_back(&b->in, lf->start++);
			note_lost(r, cpu, e->missed, e->ev.ts_ns);
			left--;
			ret = fn(&e->ev, data);
			if (ret)
				return ret;
			if (lf->start == lf->end && lf->state == LEAF_FAILED) {
				/* the error comes right after the stream's last record */
				if (err)
					*err = b->fail[leaf];
				return lf->fail;
			}
			progress(r, nr, e->ev.ts_ns);
		} else {
			struct sp_reader_stream *s = &r->streams[cpu];

			ret = deliver_from_stream(r, cpu, s, stream_direct(r, s), fn, data, nr,
						  err, &more);
			if (ret)
				return ret;
			if (!more)
				lf->state = LEAF_ENDED;
		}
		tree_key(r, b, leaf);
		tree_replay(r, leaf);
	}
	b->from = streams_from(r, b);
	o->last = b->from == UINT64_MAX;
	return 0;
}

/* Hand the records of a whole round to @fn.  Return: 0 or what @fn returned. */
static int deliver(struct sp_reader *r, struct round *o, sp_event_fn fn, void *data,
		   uint64_t *nr)
{
	size_t i;
	int ret;

	for (i = 0; i < o->out.n; i++) {
		struct queued *e = &o->out.q[i];

		names_back(&o->out, i);
		note_lost(r, e->ev.cpu, e->missed, e->ev.ts_ns);
		ret = fn(&e->ev, data);
		if (ret)
			return ret;
		progress(r, nr, e->ev.ts_ns);
	}
	return 0;
}

/* For a wait for a round: read a block the rounds' thread asked for. */
static bool help_read(void *scratch)
{
	return sp_cpustream_scratch_help(scratch);
}

/*
 * Wait until @o is @ready, or the pass stops; meanwhile, with @help, read
 * blocks the rounds' thread asked for.  Return: false when it stops.
 */
static bool round_wait(struct sp_reader_batch *b, struct round *o, bool ready, bool help)
{
	return sp_handoff_wait(&b->handoff, &o->ready, ready, help ? help_read : NULL,
			       b->r->scratch);
}

/* The thread that does the rounds, into the rounds' buffers in turn. */
static void *rounds_main(void *data)
{
	struct sp_reader_batch *b = data;
	int k = 0;

	for (;; k = (k + 1) % SP_ROUNDS) {
		struct round *o = &b->round[k];
		bool end, by_tree;

		if (!round_wait(b, o, false, false))
			break;
		o->fail = batch_round(b->r, b, o);
		/* the other thread owns @o once handed over */
		end = o->fail || o->last;
		by_tree = o->by_tree;
		sp_handoff_set(&b->handoff, &o->ready, true);
		if (end)
			break;
		/* the tree reads the streams in the other thread: wait for it */
		if (by_tree && !round_wait(b, o, false, false))
			break;
	}
	return NULL;
}

static int merge_batches(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	struct sp_reader_batch *b = r->batch;
	pthread_t thread;
	bool threaded;
	uint64_t nr = 0;
	int k, ret;

	if (b && b->nr_leaves != r->nr_leaves) {
		sp_merge_batch_free(b);
		b = r->batch = NULL;
	}
	if (!b) {
		b = r->batch = batch_alloc(r, r->nr_leaves);
		if (!b)
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	memset(b->leaf, 0, b->nr_leaves * sizeof(*b->leaf));
	for (k = 0; k < SP_ROUNDS; k++)
		b->round[k].ready = false;
	b->handoff.stop = false;	/* from an earlier pass; no thread runs now */
	b->window = WINDOW_FIRST;
	b->from = streams_from(r, b);
	/*
	 * Blocks are read ahead a bounded number at a time: a round goes
	 * through all the streams at once, so blocks read ahead for every
	 * stream would wait, megabytes of them.  This thread reads them while
	 * it waits for a round (round_wait()); a stream that reaches its
	 * block's end first reads the next one itself.  Without the rounds'
	 * thread the rounds are done here, in turn with delivering.
	 */
	if (r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_HELPED);
	/* on one CPU the two threads would only take turns */
	threaded = sp_cpus_usable() >= 2 && !sp_thread_start(&thread, rounds_main, b);
	if (!threaded && r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_WHOLE);

	for (k = 0;; k = (k + 1) % SP_ROUNDS) {
		struct round *o = &b->round[k];

		if (threaded)
			round_wait(b, o, true, r->scratch != NULL);
		else
			o->fail = batch_round(r, b, o);
		if (o->fail) {
			ret = sp_error_set(err, o->fail, -1, "out of memory");
			break;
		}
		ret = o->by_tree ? batch_tree(r, b, o, fn, data, &nr, err) :
				   deliver(r, o, fn, data, &nr);
		if (ret || o->last)
			break;
		if (threaded)
			sp_handoff_set(&b->handoff, &o->ready, false);
	}
	if (threaded) {
		sp_handoff_stop(&b->handoff);
		pthread_join(thread, NULL);
	}
	return ret;
}

/*
 * Whether the tree's merge goes in a second thread (merge-pipe.c): it pays
 * where the caller's thread would read and decode alone, and only with a
 * CPU to spare.  libtracecmd's records live only until the CPU's next one
 * is read.
 */
static bool pipe_wanted(const struct sp_reader *r)
{
	/* a watch's values and the lost counts are read during the callback */
	if (r->use_libtracecmd || r->no_read_ahead || r->pipe == SP_PIPE_NEVER ||
	    sp_decoder_nr_watches(r->dec) || !sp_merge_pipe_fits(r))
		return false;
	return r->pipe == SP_PIPE_ALWAYS ||
	       (!r->layout.compressed && sp_cpus_usable() >= 2);
}

int sp_merge_pass(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	int cpu, ret = 0;

	r->nr_leaves = 0;
	memset(r->lost, 0, r->nr_cpus * sizeof(*r->lost));
	memset(r->lost_unknown, 0, r->nr_cpus * sizeof(*r->lost_unknown));
	r->nr_lost_notes = 0;
	r->nr_gaps = 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		stream_rewind(r, cpu);
		if (r->use_libtracecmd) {
			/* the rewind read the first record: hand it to stream_next's slot */
			struct tep_record *first = r->streams[cpu].held;

			if (!first)
				continue;
			r->streams[cpu].cur.ts_ns = first->ts;
			r->streams[cpu].cur.data = first->data;
			r->streams[cpu].cur.size = first->size > 0 ? first->size : 0;
			r->streams[cpu].cur.missed = first->missed_events > 0 ?
				(int)first->missed_events : first->missed_events < 0 ? -1 : 0;
		} else {
			ret = stream_next(r, cpu, err);
			if (ret < 0)
				goto out;
			if (!ret)
				continue;
		}
		r->key[r->nr_leaves].ts = r->streams[cpu].cur.ts_ns;
		r->key[r->nr_leaves].rank = r->nr_leaves;
		r->leaf_cpu[r->nr_leaves] = cpu;
		r->nr_leaves++;
	}
	ret = 0;
	if (!r->nr_leaves)
		goto out;
	/*
	 * libtracecmd's records live only until the CPU's next one is read;
	 * the values of events asked for by name (strings into the record)
	 * are not copied into batches
	 */
	if (!r->use_libtracecmd && r->batch_min_leaves && r->nr_leaves >= r->batch_min_leaves &&
	    !sp_decoder_nr_extras(r->dec) && !sp_decoder_nr_watches(r->dec))
		ret = merge_batches(r, fn, data, err);
	else if (pipe_wanted(r)) {
		/* uncompressed, the merging thread reads its blocks as it goes */
		if (r->scratch)
			sp_cpustream_scratch_read_ahead(r->scratch, r->layout.compressed ?
							SP_AHEAD_WHOLE : SP_AHEAD_NONE);
		ret = sp_merge_pipe(r, merge_tree, note_lost, fn, data, err);
	} else {
		if (r->scratch && !r->no_read_ahead)
			sp_cpustream_scratch_read_ahead(r->scratch, sp_cpus_usable() >= 2 ?
							SP_AHEAD_WHOLE : SP_AHEAD_NONE);
		ret = merge_tree(r, fn, data, err);
	}
out:
	if (r->use_libtracecmd) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			tracecmd_free_record(r->streams[cpu].held);
			r->streams[cpu].held = NULL;
		}
	}
	if (ret < 0 && err && !err->code)
		sp_error_set(err, ret, -1, "%s", strerror(-ret));
	return ret;
}
