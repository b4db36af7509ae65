// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpustream: one CPU's records, straight from the file.
 *
 * A CPU's data is a run of ring-buffer pages (trace-cmd.dat.v6(5), "CPU
 * DATA"); version 7 files may store it as compressed chunks, each holding
 * whole pages (trace-cmd.dat.v7(5), "COMPRESSION FORMAT OF THE TRACE
 * DATA").  A stream holds a block in memory, a window of pages read with
 * pread() or one decompressed chunk, and while it is walked a helper thread
 * reads the next one (cpustream-ahead.c).
 *
 * Pages are walked here rather than with libtraceevent's kbuffer, which
 * costs a function call and a byte-order callback per word and trusts the
 * page.  The walk gives the same records, timestamps and lost counts as
 * kbuffer (tests/unit/test-reader.c compares them with libtracecmd record
 * by record), but checks every length against the page's committed bytes
 * and ends a page that would make it go backwards.  Blocks have zeroed
 * slack behind them because the lost-event count sits just past the commit.
 *
 * With many CPUs the merge visits a stream only every few hundred records,
 * long after its next record left the cache; each stream prefetches the
 * record after the one it returns, so that wait overlaps other work.  Its
 * blocks come from huge pages (blockpool.c), and opening reads the first
 * and last chunk of every CPU in two threads (sp_cpustream_spans()).
 *
 * This file: walking the pages, seeking, the spans at open.  Reading a
 * block is cpustream-block.c's, reading the next one ahead
 * cpustream-ahead.c's; the types they share, with who owns which field
 * under which lock, are in cpustream-block.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "schedplot/base/error.h"
#include "schedplot/base/thread.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/datfile.h"
#include "cpustream-ahead.h"
#include "cpustream-block.h"

/* A block was read into cur: remember whether it is the first. */
static void loaded(struct sp_cpustream *s)
{
	s->first_block = s->at_start;
	s->at_start = false;
	if (s->first_block)
		s->after_first = s->pos;
}

static int next_block(struct sp_cpustream *s, struct sp_error *err)
{
	struct block b;
	bool helped;
	int ret;

	if (s->ahead_asked && s->ahead_helped)
		sp_cpustream_ahead_reclaim(s);
	if (!s->ahead_asked) {
		ret = sp_cpustream_fill(s, &s->cur, &s->pos, s->fill_sc, err);
		if (ret <= 0)
			return ret;
		loaded(s);
	} else {
		ret = sp_cpustream_ahead_take(s, &helped, err);
		if (ret <= 0)
			return ret;
		b = s->cur;
		s->cur = s->ahead;
		s->ahead = b;
		s->pos = s->ahead_from;
		s->first_block = s->at_start = false;
		/* the block walked goes back to the pool: streams hold one block each */
		if (helped)
			sp_cpustream_block_release(s, &s->ahead);
	}
	s->page_off = 0;
	sp_cpustream_ahead_ask(s);
	return 1;
}

/* Where @page came from: its offset, or its chunk's header if compressed. */
static uint64_t page_file_off(const struct sp_cpustream *s, const char *page)
{
	size_t at = page - s->cur.buf;
	int i;

	if (s->p.codec == SP_CODEC_NONE)
		return s->cur.file_off + at;
	for (i = 0; i + 1 < s->cur.nr_chunks && at >= s->cur.chunk_end[i]; i++)
		;
	return s->cur.nr_chunks ? s->cur.chunk_off[i] : s->cur.file_off;
}

static int damaged(struct sp_cpustream *s, const char *what, struct sp_error *err)
{
	return sp_error_set(err, -EBADMSG, page_file_off(s, s->page),
			    "damaged ring-buffer page of CPU %u (%s; the file is damaged)",
			    s->cpu.cpu, what);
}

/*
 * Start walking the next page of the block.  The lost-event count goes to
 * the page's first record, and (as with kbuffer) only when no time stamp
 * or padding comes before it.
 */
static int load_page(struct sp_cpustream *s, struct sp_error *err)
{
	uint64_t flags;

	s->page = s->cur.buf + s->page_off;
	s->quick_end = 0;
	s->page_off += s->p.page_size;
	/* asked for when there was room for it */
	if (s->scratch->ahead == SP_AHEAD_HELPED && !s->ahead_asked)
		sp_cpustream_ahead_ask(s);
	s->data = (unsigned char *)s->page + s->hdr_size;
	s->ts = get_u64(s, s->page);
	flags = get_long(s, s->page + 8);
	/* the kernel never writes one; a file padded with zeros is full of them */
	if (!s->ts && !flags)
		return damaged(s, "it is all zeros, as in a file cut short or padded", err);
	s->commit = flags & SP_DAT_PAGE_COMMIT_MASK;
	if (s->commit > s->p.page_size - s->hdr_size)
		return damaged(s, "its data is larger than the page", err);
	s->next = 0;
	s->page_missed = 0;
	if (flags & SP_DAT_MISSED_EVENTS) {
		s->page_missed = flags & SP_DAT_MISSED_STORED ? (int)get_long(s, s->data + s->commit) : -1;
		/* the pages block_missed() looks at: whole ones */
		if (s->page_off <= s->cur.len)
			s->walk_flagged = true;
	}
	s->quick_end = s->le_host ? s->commit : 0;
	return 0;
}

/*
 * The data record of @len bytes at @at, its time already added to s->ts,
 * into @rec; the page's lost-events count goes with its first record.
 */
static inline void deliver(struct sp_cpustream *s, struct sp_raw_record *rec, unsigned int at,
			   unsigned int len)
{
	s->next = at + len;
	rec->ts_ns = s->ts;
	rec->data = s->data + at;
	rec->size = len;
	rec->missed = s->page_missed;
	s->page_missed = 0;
	/* the merge comes back to this stream later: have its next record ready */
	__builtin_prefetch(s->data + s->next);
	__builtin_prefetch(s->data + s->next + 64);
}

/*
 * The page's next record into @rec.  Return: 1, 0 at the end of the page,
 * or an error for a length that runs past the committed data.
 */
static int walk_page(struct sp_cpustream *s, struct sp_raw_record *rec, struct sp_error *err)
{
	uint32_t hdr, type, delta, word;
	unsigned int at, len;

	while (s->next < s->commit) {
		at = s->next;
		hdr = get_u32(s, s->data + at);
		if (s->swap ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) {
			type = hdr >> SP_DAT_TS_SHIFT;
			delta = hdr & SP_DAT_TS_DELTA_MAX;
		} else {
			type = hdr & ((1u << SP_DAT_TYPE_LEN_BITS) - 1);
			delta = hdr >> SP_DAT_TYPE_LEN_BITS;
		}
		/* the word after the header; the slack makes it readable at the end */
		word = get_u32(s, s->data + at + 4);
		switch (type) {
		case SP_DAT_TYPE_PADDING:
			s->ts += delta;
			/* as kbuffer: a length that leads past the data ends the page */
			s->next = at + 4 + (word < s->commit ? word : s->commit);
			s->page_missed = 0;
			continue;
		case SP_DAT_TYPE_TIME_STAMP:
			s->ts = (((uint64_t)word << SP_DAT_TS_SHIFT) + delta) | (s->ts & SP_DAT_TS_MSB);
			s->next = at + 8;
			s->page_missed = 0;
			continue;
		case SP_DAT_TYPE_TIME_EXTEND:
			s->ts += ((uint64_t)word << SP_DAT_TS_SHIFT) + delta;
			s->next = at + 8;
			s->page_missed = 0;
			continue;
		case 0:
			if (word < 4)
				return damaged(s, "a record shorter than its header", err);
			at += 8;
			len = ((word - 4) + 3) & ~3u;
			break;
		default:
			at += 4;
			len = type * 4;
			break;
		}
		if (at > s->commit || len > s->commit - at)
			return damaged(s, "a record runs past the page's data", err);
		s->ts += delta;
		deliver(s, rec, at, len);
		return 1;
	}
	return 0;
}

void sp_cpustream_prefetch(const struct sp_cpustream *s)
{
	__builtin_prefetch(&s->page);
}

/*
 * walk_page() of the usual record, a little-endian file on a little-endian
 * host: a data record whose length is in its header, inside the page's
 * data.  Return: 1, or 0 for anything else (walk_page() then reads it).
 */
static inline int walk_quick(struct sp_cpustream *s, struct sp_raw_record *rec)
{
	unsigned int at = s->next, len;
	uint32_t hdr, type;

	if (at >= s->quick_end)
		return 0;
	memcpy(&hdr, s->data + at, sizeof(hdr));
	type = hdr & ((1u << SP_DAT_TYPE_LEN_BITS) - 1);
	len = type * 4;
	if (type - 1 >= SP_DAT_TYPE_MAX_DATA || len + 4 > s->quick_end - at)
		return 0;
	s->ts += hdr >> SP_DAT_TYPE_LEN_BITS;
	deliver(s, rec, at + 4, len);
	return 1;
}

/* sp_cpustream_next() past walk_quick(): other records, the next page or block. */
static __attribute__((noinline)) int next_slow(struct sp_cpustream *s, struct sp_raw_record *rec,
					       struct sp_error *err)
{
	int ret;

	for (;;) {
		if (s->page) {
			ret = walk_page(s, rec, err);
			if (ret)
				return ret;
			s->page = NULL;
			s->quick_end = 0;
		}
		if (s->page_off < s->cur.len) {
			ret = load_page(s, err);
		} else {
			ret = next_block(s, err);
			if (ret <= 0) {
				s->walk_ended = !ret;
				return ret;
			}
			ret = 0;
		}
		if (ret)
			return ret;
	}
}

int sp_cpustream_next(struct sp_cpustream *s, struct sp_raw_record *rec, struct sp_error *err)
{
	if (walk_quick(s, rec))
		return 1;
	return next_slow(s, rec, err);
}

/* Before the first record; the helper is not asked for the next block yet. */
static void rewind_quietly(struct sp_cpustream *s)
{
	s->walk_flagged = s->walk_ended = s->walk_partial = false;
	/* already there: keep the block read ahead */
	if (s->first_block && !s->page && !s->page_off)
		return;
	sp_cpustream_ahead_cancel(s);
	s->may_ahead = true;
	s->page = NULL;
	s->quick_end = 0;
	s->page_off = 0;
	if (s->first_block) {
		s->pos = s->after_first;
		return;
	}
	s->cur.len = 0;
	s->at_start = true;
	s->pos.have_next_hdr = false;
	if (s->p.codec == SP_CODEC_NONE) {
		s->pos.next_off = s->cpu.offset;
		s->pos.left = s->cpu.size;
	} else {
		s->pos.next_off = s->cpu.offset + SP_DAT_CHUNK_COUNT_SIZE;
		s->pos.left = s->cpu.size ? s->cpu.nr_chunks : 0;
	}
}

void sp_cpustream_rewind(struct sp_cpustream *s)
{
	rewind_quietly(s);
	sp_cpustream_ahead_ask(s);
}

/* Whether a page of the block in cur carries the missed-events flag. */
static bool block_missed(const struct sp_cpustream *s)
{
	size_t off;

	for (off = 0; off + s->p.page_size <= s->cur.len; off += s->p.page_size)
		if (get_long(s, s->cur.buf + off + SP_DAT_PAGE_TS_SIZE) & SP_DAT_MISSED_EVENTS)
			return true;
	return false;
}

/* The lost-events scan maps this much of the file at a time (sp_cpustream_scan_missed()) */
#define SP_SCAN_MAP_BYTES	(8u << 20)

/*
 * Uncompressed data: the pages' flags read through a mapping of the file,
 * as copying every page in only to look at one word of each cost a tenth
 * of a pass.  A window at a time, so that the pages mapped do not all
 * count in the peak RSS.  Return: 1, 0, or -1 when it cannot be mapped
 * (then read).
 */
static int scan_missed_mapped(const struct sp_cpustream *s)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	uint64_t ps = s->p.page_size, per_map, first, start, skip, end, len, off;
	unsigned int flags_at = SP_DAT_PAGE_TS_SIZE + s->p.long_size;
	const char *map;
	struct stat st;
	int found = 0;

	if (sys_page <= 0 || fstat(s->p.fd, &st) || !s->cpu.size ||
	    s->cpu.offset + s->cpu.size > (uint64_t)st.st_size)
		return -1;
	per_map = SP_SCAN_MAP_BYTES / ps ? SP_SCAN_MAP_BYTES / ps * ps : ps;
	/* a last page cut short reads as zeros in a block: no flag there either */
	for (first = 0; first + flags_at <= s->cpu.size && !found; first += per_map) {
		end = first + per_map < s->cpu.size ? first + per_map : s->cpu.size;
		start = (s->cpu.offset + first) / sys_page * sys_page;
		skip = s->cpu.offset + first - start;
		len = skip + (end - first);
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, s->p.fd, (off_t)start);
		if (map == MAP_FAILED)
			return -1;
		for (off = 0; first + off + flags_at <= end && !found; off += ps)
			found = !!(get_long(s, map + skip + off + SP_DAT_PAGE_TS_SIZE) &
				   SP_DAT_MISSED_EVENTS);
		munmap((void *)map, len);
	}
	return found;
}

/* Read from @off on, at most @left bytes or chunks, not from the start. */
static void seek(struct sp_cpustream *s, uint64_t off, uint64_t left)
{
	sp_cpustream_ahead_cancel(s);
	s->may_ahead = false;
	s->page = NULL;
	s->quick_end = 0;
	s->cur.len = s->page_off = 0;
	s->first_block = s->at_start = false;
	s->walk_partial = true;
	s->pos.have_next_hdr = false;
	s->pos.next_off = off;
	s->pos.left = left;
}

/* The blocks of @s from where it is, until one has the flag.  Return: 1, 0, or an error. */
static int scan_blocks(struct sp_cpustream *s, struct sp_error *err)
{
	int ret;

	s->may_ahead = false;	/* blocks are read here, one after the other */
	if (s->cur.len && block_missed(s))
		return 1;
	while ((ret = next_block(s, err)) > 0 && !block_missed(s))
		;
	return ret;
}

/* Compressed streams of at least twice this many chunks are scanned in two halves at once */
#define SP_SCAN_SPLIT_CHUNKS	16

/* The second half of a compressed stream, scanned in another thread. */
struct scan_half {
	struct sp_cpustream *s;
	struct sp_cpustream_scratch *sc;	/* its own decompression state */
	struct sp_error err;
	int ret;
};

static void *scan_half_main(void *data)
{
	struct scan_half *h = data;

	h->ret = scan_blocks(h->s, &h->err);
	return NULL;
}

/*
 * @h's stream over the second half of @s's chunks (from the layout's
 * middle chunk), with a decompression state of its own.  Return: 0 or -1.
 */
static int second_half(const struct sp_cpustream *s, struct scan_half *h)
{
	struct sp_cpustream_params p = s->p;
	struct sp_error ignored;

	h->sc = sp_cpustream_scratch_new(p.codec, false);
	if (!h->sc)
		return -1;
	/* nothing read ahead: the stream starts where it is put */
	sp_cpustream_scratch_read_ahead(h->sc, SP_AHEAD_NONE);
	p.scratch = h->sc;
	h->s = sp_cpustream_alloc(&p, &s->cpu, &ignored);
	if (!h->s)
		return -1;
	seek(h->s, s->cpu.mid_chunk, s->cpu.nr_chunks - s->cpu.nr_chunks / 2);
	return 0;
}

int sp_cpustream_walked_missed(const struct sp_cpustream *s)
{
	if (s->walk_flagged)
		return 1;
	return s->walk_ended && !s->walk_partial ? 0 : -1;
}

int sp_cpustream_scan_missed(struct sp_cpustream *s, struct sp_error *err)
{
	struct scan_half h = { 0 };
	uint64_t nr_first = s->cpu.nr_chunks / 2;
	pthread_t thread;
	bool threaded = false;
	int ret;

	if (s->p.codec == SP_CODEC_NONE) {
		ret = scan_missed_mapped(s);
		if (ret >= 0)
			return ret;
	}
	/* rewinding may keep the first block in cur */
	rewind_quietly(s);
	/*
	 * Compressed: the second half decompressed in another thread at the
	 * same time, where there is a CPU for it; the answer is as if read in
	 * order (the first half's flag, else its error, else the second
	 * half's answer).
	 */
	if (s->p.codec != SP_CODEC_NONE && nr_first >= SP_SCAN_SPLIT_CHUNKS &&
	    sp_cpus_usable() >= 2 &&
	    s->pos.left > s->cpu.nr_chunks - nr_first && !second_half(s, &h)) {
		threaded = !sp_thread_start(&thread, scan_half_main, &h);
		if (threaded) {
			/* a block asked for ahead would carry on past the first half */
			sp_cpustream_ahead_cancel(s);
			s->pos.left -= s->cpu.nr_chunks - nr_first;
		}
	}
	ret = scan_blocks(s, err);
	if (threaded) {
		pthread_join(thread, NULL);
		if (!ret) {
			ret = h.ret;
			if (ret < 0 && err)
				*err = h.err;
		}
	}
	sp_cpustream_free(h.s);
	sp_cpustream_scratch_free(h.sc);
	rewind_quietly(s);
	sp_cpustream_ahead_ask(s);
	return ret;
}


/* The last record's timestamp in what is left of the stream. */
static int last_ts(struct sp_cpustream *s, uint64_t *last_ns, struct sp_error *err)
{
	struct sp_raw_record rec;
	int ret, found = 0;

	while ((ret = sp_cpustream_next(s, &rec, err)) > 0) {
		*last_ns = rec.ts_ns;
		found = 1;
	}
	return ret < 0 ? ret : found;
}

/* sp_cpustream_span() without asking the helper: it may run in another thread. */
static int span(struct sp_cpustream *s, uint64_t *first_ns, uint64_t *last_ns,
		struct sp_error *err)
{
	struct sp_raw_record rec;
	uint64_t ps = s->p.page_size, page;
	size_t window = s->p.window_bytes;
	int ret;

	*first_ns = *last_ns = UINT64_MAX;
	/* the end first, so that the first block is the one left in memory */
	if (s->p.codec == SP_CODEC_NONE) {
		/* pages from the last one back, until one holds a record */
		page = s->cpu.size ? (s->cpu.size - 1) / ps * ps : 0;
		for (;;) {
			seek(s, s->cpu.offset + page,
			     s->cpu.size - page < ps ? s->cpu.size - page : ps);
			ret = last_ts(s, last_ns, err);
			if (ret || !page)
				break;
			page -= ps;
		}
	} else {
		/* the last chunk; when it holds no record, the whole stream */
		seek(s, s->cpu.last_chunk, 1);
		ret = last_ts(s, last_ns, err);
		if (!ret) {
			rewind_quietly(s);
			s->may_ahead = false;	/* nothing ahead: not from this thread */
			ret = last_ts(s, last_ns, err);
		}
	}
	if (ret <= 0) {
		*last_ns = UINT64_MAX;
		seek(s, 0, 0);
		rewind_quietly(s);
		return ret ? ret : -ENODATA;
	}

	/* only read as far as the first record (and nothing ahead) */
	rewind_quietly(s);
	s->may_ahead = false;
	s->p.window_bytes = s->p.page_size;
	ret = sp_cpustream_next(s, &rec, err);
	s->p.window_bytes = window;
	if (ret > 0)
		*first_ns = rec.ts_ns;
	rewind_quietly(s);
	return ret < 0 ? ret : ret ? 0 : -ENODATA;
}

int sp_cpustream_span(struct sp_cpustream *s, uint64_t *first_ns, uint64_t *last_ns,
		      struct sp_error *err)
{
	int ret = span(s, first_ns, last_ns, err);

	sp_cpustream_ahead_ask(s);
	return ret;
}

/*
 * The spans of many streams, in two threads: with hundreds of CPUs,
 * decompressing each one's first and last chunk is most of the time spent
 * opening a file.  A stream is done by one thread, decompressing with that
 * thread's own state; the blocks come from the streams' pool.
 */
struct span_job {
	struct sp_cpustream *const *streams;
	int nr;
	int next;			/* the next stream to take, atomic */
	uint64_t *first_ns, *last_ns;
	int *ret;
	struct sp_error *err;
	enum sp_codec codec;
};

static void span_work(struct span_job *j, struct sp_cpustream_scratch *sc)
{
	int i;

	while ((i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->nr) {
		struct sp_cpustream *s = j->streams[i];

		if (!s) {
			j->ret[i] = -ENODATA;
			continue;
		}
		s->fill_sc = sc ? sc : s->scratch;
		j->ret[i] = span(s, &j->first_ns[i], &j->last_ns[i], &j->err[i]);
		s->fill_sc = s->scratch;
	}
}

static void *span_thread(void *data)
{
	struct span_job *j = data;
	struct sp_cpustream_scratch *sc = sp_cpustream_scratch_new(j->codec, false);

	if (sc)		/* else the caller does them all */
		span_work(j, sc);
	sp_cpustream_scratch_free(sc);
	return NULL;
}

void sp_cpustream_spans(struct sp_cpustream *const *streams, int nr, uint64_t *first_ns,
			uint64_t *last_ns, int *ret, struct sp_error *err)
{
	struct span_job j = {
		.streams = streams, .nr = nr, .first_ns = first_ns, .last_ns = last_ns,
		.ret = ret, .err = err, .codec = SP_CODEC_NONE,
	};
	bool two = false;
	pthread_t thread;
	int i;

	for (i = 0; i < nr; i++) {
		if (streams[i])
			j.codec = streams[i]->p.codec;
	}
	/* a second thread pays off only for many compressed streams */
	if (nr >= 8 && j.codec != SP_CODEC_NONE)
		two = !sp_thread_start(&thread, span_thread, &j);
	span_work(&j, NULL);
	if (two)
		pthread_join(thread, NULL);
	for (i = 0; i < nr; i++) {
		if (streams[i])
			sp_cpustream_ahead_ask(streams[i]);
	}
}

struct sp_cpustream *sp_cpustream_alloc(const struct sp_cpustream_params *p,
					const struct sp_container_cpu *cpu,
					struct sp_error *err)
{
	struct sp_cpustream *s;

	if (p->page_size < 64 || (p->page_size & (p->page_size - 1)) ||
	    (p->long_size != 4 && p->long_size != 8)) {
		sp_error_set(err, -EINVAL, -1, "unsupported page size %u or long size %d",
			     p->page_size, p->long_size);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->p = *p;
	s->cpu = *cpu;
	s->hdr_size = SP_DAT_PAGE_TS_SIZE + p->long_size;
	/* whole pages per window, at least one */
	s->p.window_bytes = s->p.window_bytes / p->page_size * p->page_size;
	if (!s->p.window_bytes)
		s->p.window_bytes = p->page_size;
	s->swap = p->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	s->le_host = !p->big_endian && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	s->scratch = p->scratch;
	if (!s->scratch) {
		s->scratch = sp_cpustream_scratch_alloc(p->codec);
		if (!s->scratch)
			goto nomem;
		s->own_scratch = true;
	}
	s->fill_sc = s->scratch;
	s->block_size = p->codec == SP_CODEC_NONE ? s->p.window_bytes :
			cpu->largest_chunk <= SP_CONTAINER_MAX_DATA_CHUNK ?
			sp_cpustream_round_pages(s, cpu->largest_chunk) : 0;
	/* compressed: as many chunks as fit a window (fill_chunks()) */
	if (p->codec != SP_CODEC_NONE && s->block_size && s->block_size < s->p.window_bytes) {
		size_t k = s->p.window_bytes / s->block_size;

		s->block_size *= k < SP_BLOCK_CHUNKS ? k : SP_BLOCK_CHUNKS;
	}
	sp_cpustream_rewind(s);
	return s;
nomem:
	sp_cpustream_free(s);
	sp_error_set(err, -ENOMEM, -1, "out of memory");
	return NULL;
}

void sp_cpustream_free(struct sp_cpustream *s)
{
	if (!s)
		return;
	if (s->scratch) {
		sp_cpustream_ahead_cancel(s);
		sp_cpustream_block_release(s, &s->cur);
		sp_cpustream_block_release(s, &s->ahead);
	}
	if (s->own_scratch)
		sp_cpustream_scratch_free(s->scratch);
	free(s);
}
