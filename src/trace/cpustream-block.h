/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CPUSTREAM_BLOCK_H
#define SP_CPUSTREAM_BLOCK_H

/*
 * Inside the per-CPU streams: their types, and the reading of one block
 * (cpustream-block.c), which the page walker (cpustream.c) and the
 * read-ahead thread (cpustream-ahead.c) both use.  Private: beside the
 * sources, not under include/.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/datfile.h"

struct sp_block_pool;
struct ZSTD_DCtx_s;

/*
 * What the streams of a file can share: the compressed bytes of a chunk are
 * only needed until it is decompressed, so one buffer (kept warm in the
 * cache) serves every CPU.
 */
struct sp_cpustream_scratch {
	struct sp_block_pool *pool;	/* the streams' blocks (the helper's: NULL) */
	struct ZSTD_DCtx_s *zstd;
	char *zbuf;			/* compressed chunk, then the next chunk's header */
	size_t alloc_zbuf;

	/*
	 * The helper thread: while the caller walks a stream's block, it
	 * reads (and decompresses) the stream's next one, on another CPU.
	 * It has its own decompression state; streams queue for it.
	 */
	struct sp_cpustream_scratch *helper;	/* its scratch, NULL until started */
	enum sp_codec codec;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a block queued, done, or stop */
	struct sp_cpustream *queue, **queue_tail;
	int nr_queued;			/* in the queue; changed under the lock, read without */
	/*
	 * a block is being read with the helper's state (under the lock):
	 * by the thread, or by whoever helps; one at a time, as they share it
	 */
	bool reading;
	bool stop;
	bool no_helper;			/* it could not be started: read in the caller */
	bool has_thread;		/* the helper's thread runs */
	enum sp_read_ahead ahead;	/* set under the lock */
	unsigned int helped_asked;	/* SP_AHEAD_HELPED: asked for, not taken (caller's) */
};

#define SP_CPUSTREAM_SLACK	64	/* zeroed bytes behind every block */

/* Compressed data: chunks decompressed into one block, at most */
#define SP_BLOCK_CHUNKS		32

/* A block of pages in memory: a window of the file or decompressed chunks. */
struct block {
	char *buf;			/* pages, then the slack of zeroes */
	size_t alloc;
	size_t len;			/* bytes of whole pages */
	uint64_t file_off;		/* where it came from (chunk header if compressed) */
	/* compressed: the chunks in it, each one's header offset and end in buf */
	int nr_chunks;
	uint64_t chunk_off[SP_BLOCK_CHUNKS];
	size_t chunk_end[SP_BLOCK_CHUNKS];
};

/* Where a stream goes on in the file. */
struct position {
	uint64_t next_off;		/* next window or chunk header */
	uint64_t left;			/* bytes (uncompressed) or chunks (compressed) to go */
	unsigned char next_hdr[SP_DAT_CHUNK_HDR_SIZE];
	bool have_next_hdr;
};

enum ahead_state {
	AHEAD_NONE,			/* nothing asked */
	AHEAD_QUEUED,			/* asked, the helper has not started */
	AHEAD_RUNNING,			/* the helper is reading it */
	AHEAD_DONE,			/* read: ahead_ret says how it went */
};

struct sp_cpustream {
	struct sp_cpustream_params p;
	struct sp_container_cpu cpu;
	unsigned int hdr_size;		/* page header: timestamp and commit */
	bool swap;			/* file and host byte order differ */
	bool le_host;			/* file and host are little-endian (walk_quick()) */

	struct block cur;		/* the block being walked */
	size_t page_off;		/* next page to walk in it */

	struct sp_cpustream_scratch *scratch;
	bool own_scratch;
	struct sp_cpustream_scratch *fill_sc;	/* decompresses blocks read in place */
	size_t block_size;		/* bytes of pages a block usually holds */

	struct position pos;		/* after the current block */
	/*
	 * A rewind keeps the first block when cur holds it: the span at open
	 * reads it, and decompressing it again for the pass would cost one
	 * chunk per CPU.
	 */
	bool at_start;			/* the next block read is the first */
	bool first_block;		/* cur holds the first block */
	struct position after_first;	/* where the stream goes on from it */

	/*
	 * The block after the current one, read by the helper thread while
	 * this one is walked (see struct sp_cpustream_scratch).  The helper
	 * owns @ahead, @ahead_from, @ahead_ret and @ahead_err while the state
	 * is QUEUED or RUNNING.
	 */
	bool may_ahead;			/* reading from the start: blocks come in order */
	bool ahead_asked;		/* the caller's own view: state is not NONE */
	bool ahead_helped;		/* asked as SP_AHEAD_HELPED: counted in helped_asked */
	enum ahead_state ahead_state;	/* under the scratch's lock */
	struct block ahead;
	struct position ahead_from;	/* where it starts; after it, once DONE */
	int ahead_ret;
	struct sp_error ahead_err;
	struct sp_cpustream *ahead_next;	/* in the helper's queue */

	char *page;			/* the page being walked, NULL between pages */
	unsigned char *data;		/* its records */
	unsigned int commit;		/* bytes of records */
	unsigned int quick_end;		/* @commit for walk_quick(), once the page is
					 * loaded and @le_host; else 0 */
	unsigned int next;		/* offset of the next record header in data */
	uint64_t ts;			/* timestamp so far */
	int page_missed;		/* records lost before the page, for its first record */

	/* what the walk since the rewind saw (sp_cpustream_walked_missed()) */
	bool walk_flagged;		/* a whole page walked had the lost-events flag */
	bool walk_ended;		/* it reached the end of the data */
	bool walk_partial;		/* it did not start at the first block (seek()) */
};

/**
 * sp_cpustream_fill - read the block at @pos into @b, @pos moved past it
 * @s: the stream (only its parameters are read: the helper calls it too)
 * @b: the block to fill
 * @pos: where it starts
 * @sc: decompression state of the calling thread
 * @err: filled in on failure
 *
 * Return: 1, 0 at the end of the CPU's data, or a negative code with @err set.
 */
int sp_cpustream_fill(const struct sp_cpustream *s, struct block *b, struct position *pos,
		      struct sp_cpustream_scratch *sc, struct sp_error *err);

/**
 * sp_cpustream_block_release - give a block's memory back
 * @s: the stream it belongs to
 * @b: the block (emptied)
 */
void sp_cpustream_block_release(const struct sp_cpustream *s, struct block *b);

/**
 * sp_cpustream_round_pages - @n bytes rounded up to whole pages
 * @s: the stream
 * @n: bytes
 *
 * Return: the bytes of the pages that hold @n.
 */
size_t sp_cpustream_round_pages(const struct sp_cpustream *s, size_t n);

/* The stream's words in the host's byte order. */
static inline uint32_t get_u32(const struct sp_cpustream *s, const void *b)
{
	uint32_t v;

	memcpy(&v, b, sizeof(v));
	return s->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t get_u64(const struct sp_cpustream *s, const void *b)
{
	uint64_t v;

	memcpy(&v, b, sizeof(v));
	return s->swap ? __builtin_bswap64(v) : v;
}

static inline uint64_t get_long(const struct sp_cpustream *s, const void *b)
{
	return s->p.long_size == 8 ? get_u64(s, b) : get_u32(s, b);
}

#endif /* SP_CPUSTREAM_BLOCK_H */
