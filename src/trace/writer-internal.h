/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WRITER_INTERNAL_H
#define SP_WRITER_INTERNAL_H

/*
 * Inside the trace writer; nothing outside src/trace/writer*.c includes
 * this.  The writer's three jobs, one file each:
 *
 *   writer.c         the API: options, formats, cmdlines, sched events,
 *                    close and abort
 *   writer-pages.c   records into ring-buffer pages, pages into chunks
 *                    (compressed for v7), chunks into the spool
 *   writer-layout.c  the file laid out from the metadata and the spool,
 *                    written front to back (to a struct sp_tempfile)
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/tempfile.h"
#include "schedplot/trace/datfile.h"

struct sp_error;
struct ZSTD_CCtx_s;

/* The file has 8-byte longs: a page header is the timestamp and an 8-byte commit. */
#define LONG_SIZE		8
#define PAGE_HDR_SIZE		(SP_DAT_PAGE_TS_SIZE + LONG_SIZE)
#define COMM_LEN		16

struct buf {
	unsigned char *p;
	size_t len;
	size_t alloc;
	bool failed;
	bool big_endian;	/* numbers in the file's byte order */
};

struct chunk_ref {
	uint64_t spool_off;
	uint32_t len;		/* bytes in the spool: zsize+rsize header and data, or raw */
	uint32_t raw;		/* uncompressed bytes (whole pages) */
};

struct wcpu {
	unsigned char *chunk;	/* SP_DAT_PAGES_IN_CHUNK pages, allocated on first use */
	unsigned int nr_pages;	/* finished pages in chunk */
	unsigned int used;	/* data bytes of the current page; 0: none open */
	bool open;		/* a page is being filled */
	uint64_t last_ts;	/* time of the last record of the open page */
	bool have_ts;
	uint64_t prev_ts;	/* last record's time, for the order check */
	bool lost;		/* records were lost before the next record */
	uint64_t lost_count;
	bool page_lost;		/* the open page comes after lost records */
	uint64_t page_lost_count;
	struct chunk_ref *chunks;
	size_t nr_chunks;
	size_t alloc_chunks;
	uint64_t file_bytes;	/* bytes this CPU takes in the file (v7: without the count) */
	uint64_t nr_records;
};

struct wr_format {
	char *system;
	char *text;
	size_t len;
};

struct wr_option {
	unsigned int id;
	unsigned char *data;
	size_t len;
};

struct sp_writer {
	struct sp_tempfile out;	/* the file, or its temporary file beside it */
	int spool_fd;
	uint64_t spool_len;
	int version;
	bool compress;
	int level;
	struct ZSTD_CCtx_s *cctx;
	unsigned char *zbuf;
	size_t zbuf_len;
	int nr_cpus;
	unsigned int page_size;
	bool big_endian;
	char *clock;
	char *uname;
	char *header_page;
	char *header_event;
	uint64_t trace_id;
	struct wcpu *cpus;
	struct wr_format *formats;
	size_t nr_formats;
	size_t alloc_formats;
	struct wr_option *options;
	size_t nr_options;
	size_t alloc_options;
	struct buf cmdlines;
	struct buf kallsyms;		/* /proc/kallsyms' text, or empty */
	bool sched_formats;
	unsigned char scratch[512];
};

/* ------------------------------------------------------------------ */
/* Byte buffers, numbers in the file's byte order                      */

static inline void put_num(unsigned char *p, uint64_t v, int n, bool big_endian)
{
	int i;

	for (i = 0; i < n; i++)
		p[big_endian ? n - 1 - i : i] = v >> (8 * i);
}

static inline unsigned char *buf_room(struct buf *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->alloc) {
		size_t alloc = b->alloc ? b->alloc : 256;
		unsigned char *p;

		while (alloc < b->len + n)
			alloc *= 2;
		p = realloc(b->p, alloc);
		if (!p) {
			b->failed = true;
			return NULL;
		}
		b->p = p;
		b->alloc = alloc;
	}
	b->len += n;
	return b->p + b->len - n;
}

static inline void buf_bytes(struct buf *b, const void *data, size_t n)
{
	unsigned char *p = buf_room(b, n);

	if (p && n)
		memcpy(p, data, n);
}

static inline void buf_num(struct buf *b, uint64_t v, int n)
{
	unsigned char *p = buf_room(b, n);

	if (p)
		put_num(p, v, n, b->big_endian);
}

static inline void buf_str(struct buf *b, const char *s)
{
	buf_bytes(b, s, strlen(s) + 1);
}

static inline void buf_release(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/**
 * sp_writer_spool_open - create the unlinked spool file that chunks go to
 * @w: the writer, its output opened
 * @err: filled in on failure
 *
 * Return: 0, or -ENOMEM or -errno with @err set.
 */
int sp_writer_spool_open(struct sp_writer *w, struct sp_error *err);

/**
 * sp_writer_pages_flush - close every CPU's open page and flush its chunk
 * @w: the writer
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set (compression or spool errors).
 */
int sp_writer_pages_flush(struct sp_writer *w, struct sp_error *err);

/**
 * sp_writer_io_error - report a failed write
 * @err: filled in
 * @ret: the negative errno
 * @what: what was being written ("the trace")
 *
 * Return: @ret.
 */
int sp_writer_io_error(struct sp_error *err, int ret, const char *what);

/**
 * sp_writer_layout_write - write the whole file front to back
 * @w: the writer, all its pages flushed to the spool
 * @fd: where to (written sequentially: a FIFO or device is fine)
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_writer_layout_write(struct sp_writer *w, int fd, struct sp_error *err);

#endif /* SP_WRITER_INTERNAL_H */
