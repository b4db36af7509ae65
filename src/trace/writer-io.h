/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WRITER_IO_H
#define SP_WRITER_IO_H

/*
 * The bottom of the trace writer: bytes in the file's byte order, buffers
 * that grow, and writes that finish.  It knows nothing of pages, sections
 * or the writer; writer-pages.c, writer-layout.c and writer.c stand on it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/trace/datfile.h"

struct sp_error;

/* The file has 8-byte longs: a page header is the timestamp and an 8-byte commit. */
#define LONG_SIZE		8
#define PAGE_HDR_SIZE		(SP_DAT_PAGE_TS_SIZE + LONG_SIZE)

/* An offset for sp_wio_write() that means "where the file is": a FIFO or device takes it too. */
#define SP_WIO_SEQUENTIAL	((uint64_t)-1)

struct buf {
	unsigned char *p;
	size_t len;
	size_t alloc;
	bool failed;
	bool big_endian;	/* numbers in the file's byte order */
};

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
 * sp_wio_write - write all of @len bytes, retrying short writes and EINTR
 * @fd: the file
 * @data: the bytes
 * @len: how many
 * @off: the file offset to write at, or SP_WIO_SEQUENTIAL to write where the file is
 *
 * Return: 0, -ENOSPC when the device takes no more, or -errno.
 */
int sp_wio_write(int fd, const void *data, size_t len, uint64_t off);

/**
 * sp_wio_error - report a failed write
 * @err: filled in
 * @ret: the negative errno
 * @what: what was being written ("the trace")
 *
 * Return: @ret.
 */
int sp_wio_error(struct sp_error *err, int ret, const char *what);

#endif /* SP_WRITER_IO_H */
