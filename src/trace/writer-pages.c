// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer-pages: each CPU's records packed into ring-buffer pages in the
 * kernel's format (the event header is drawn in writer.c's opening
 * comment), ten pages to a chunk, each chunk compressed (v7 with zstd) and
 * appended to an unlinked spool file as soon as it is full.  Memory stays
 * one chunk buffer per CPU whatever the length of the trace.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/trace/datfile.h"
#include "schedplot/trace/writer.h"
#include "writer-internal.h"

/* ------------------------------------------------------------------ */
/* Pages, chunks and the spool                                         */

/* "dir/" of @path, or "" for a bare name; NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, path, n);
		d[n] = '\0';
	}
	return d;
}

/*
 * The spool: beside the file that will hold the trace (the same file system
 * as the output, where the room for it is), or in $TMPDIR when the output
 * is a device or FIFO.  Unlinked at once: nothing to clean up.
 */
int sp_writer_spool_open(struct sp_writer *w, struct sp_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir, *name;
	int ret;

	if (w->out.direct)
		ret = asprintf(&dir, "%s/", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0 ? -1 : 0;
	else
		ret = (dir = dir_of(sp_tempfile_path(&w->out))) ? 0 : -1;
	if (ret)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = asprintf(&name, "%s.schedplot-spool.XXXXXX", dir);
	free(dir);
	if (ret < 0)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	w->spool_fd = mkstemp(name);
	if (w->spool_fd < 0) {
		ret = -errno;
		sp_error_set(err, ret, -1, "cannot create a temporary file beside the output: %s",
			     strerror(-ret));
		free(name);
		return ret;
	}
	unlink(name);
	free(name);
	return 0;
}

static int write_all(int fd, const void *data, size_t len, uint64_t off)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

int sp_writer_io_error(struct sp_error *err, int ret, const char *what)
{
	if (ret == -ENOSPC)
		return sp_error_set(err, ret, -1, "cannot write %s: no space left on the device", what);
	return sp_error_set(err, ret, -1, "cannot write %s: %s", what, strerror(-ret));
}

/* Compress (or not) the CPU's finished pages and append them to the spool. */
static int flush_chunk(struct sp_writer *w, struct wcpu *c, struct sp_error *err)
{
	size_t raw = (size_t)c->nr_pages * w->page_size;
	const unsigned char *data = c->chunk;
	struct chunk_ref *ref;
	size_t len = raw;
	int ret;

	if (!c->nr_pages)
		return 0;
	if (w->compress) {
		size_t z = ZSTD_compressCCtx(w->cctx, w->zbuf + SP_DAT_CHUNK_HDR_SIZE, w->zbuf_len,
					     c->chunk, raw, w->level);

		if (ZSTD_isError(z))
			return sp_error_set(err, -EIO, -1, "zstd compression failed: %s",
					    ZSTD_getErrorName(z));
		put_num(w->zbuf, z, 4, w->big_endian);
		put_num(w->zbuf + 4, raw, 4, w->big_endian);
		data = w->zbuf;
		len = z + SP_DAT_CHUNK_HDR_SIZE;
	}
	if (sp_grow_array(&c->chunks, &c->alloc_chunks, c->nr_chunks + 1, sizeof(*ref)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = write_all(w->spool_fd, data, len, w->spool_len);
	if (ret)
		return sp_writer_io_error(err, ret, "the temporary trace data");
	ref = &c->chunks[c->nr_chunks++];
	ref->spool_off = w->spool_len;
	ref->len = len;
	ref->raw = raw;
	w->spool_len += len;
	c->file_bytes += len;
	c->nr_pages = 0;
	return 0;
}

static unsigned char *cur_page(struct sp_writer *w, struct wcpu *c)
{
	return c->chunk + (size_t)c->nr_pages * w->page_size;
}

/* Close the open page: set its commit, zero its tail; flush a full chunk. */
static int finish_page(struct sp_writer *w, struct wcpu *c, struct sp_error *err)
{
	unsigned char *page;
	uint64_t commit;

	if (!c->open)
		return 0;
	page = cur_page(w, c);
	commit = c->used;
	if (c->page_lost) {
		commit |= SP_DAT_MISSED_EVENTS;
		if (c->page_lost_count) {
			commit |= SP_DAT_MISSED_STORED;
			put_num(page + PAGE_HDR_SIZE + c->used, c->page_lost_count, 8, w->big_endian);
			c->used += 8;
		}
		c->page_lost = false;
		c->page_lost_count = 0;
	}
	put_num(page + 8, commit, 8, w->big_endian);
	memset(page + PAGE_HDR_SIZE + c->used, 0, w->page_size - PAGE_HDR_SIZE - c->used);
	c->open = false;
	c->used = 0;
	c->nr_pages++;
	if (c->nr_pages == SP_DAT_PAGES_IN_CHUNK)
		return flush_chunk(w, c, err);
	return 0;
}

static int check_cpu(struct sp_writer *w, int cpu, struct sp_error *err)
{
	struct wcpu *c;

	if (cpu < 0 || cpu >= w->nr_cpus)
		return sp_error_set(err, -EINVAL, -1, "CPU %d is not in 0..%d", cpu,
				    w->nr_cpus - 1);
	c = &w->cpus[cpu];
	if (!c->chunk) {
		c->chunk = malloc((size_t)SP_DAT_PAGES_IN_CHUNK * w->page_size);
		if (!c->chunk)
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	return 0;
}

/*
 * An event header: type_len and time_delta share a 32-bit word, type_len in
 * its low bits on little-endian machines and in its high bits on big-endian
 * ones (the bitfield order of struct ring_buffer_event).
 */
static uint32_t event_word(const struct sp_writer *w, uint32_t type_len, uint64_t delta)
{
	return w->big_endian ? type_len << SP_DAT_TS_SHIFT | (uint32_t)delta :
			       type_len | (uint32_t)delta << 5;
}

int sp_writer_write_raw(struct sp_writer *w, int cpu, uint64_t ts_ns, const void *payload,
			size_t len, struct sp_error *err)
{
	size_t cap = w->page_size - PAGE_HDR_SIZE - 8;	/* room for a stored lost count */
	size_t alen = (len + 3) & ~(size_t)3;
	size_t need, extend = 0;
	uint64_t delta = 0;
	unsigned char *p;
	struct wcpu *c;
	int ret;

	ret = check_cpu(w, cpu, err);
	if (ret)
		return ret;
	c = &w->cpus[cpu];
	if (!len || len > w->page_size - 32)
		return sp_error_set(err, -EINVAL, -1, "record of %zu bytes does not fit a page", len);
	if (c->have_ts && ts_ns < c->prev_ts)
		return sp_error_set(err, -EINVAL, -1,
				    "CPU %d: record at %llu ns comes after one at %llu ns", cpu,
				    (unsigned long long)ts_ns, (unsigned long long)c->prev_ts);
	need = 4 + alen + (alen > SP_DAT_TYPE_MAX_DATA * 4 ? 4 : 0);
	if (c->open) {
		delta = ts_ns - c->last_ts;
		/* deltas beyond 59 bits cannot be extended: start a page */
		if (delta >> (SP_DAT_TS_SHIFT + 32))
			extend = SIZE_MAX / 2;
		else if (delta > SP_DAT_TS_DELTA_MAX)
			extend = 8;
	}
	/* records lost before this one: it starts a page flagged with them */
	if (c->open && (c->lost || c->used + extend + need > cap)) {
		ret = finish_page(w, c, err);
		if (ret)
			return ret;
	}
	if (!c->open) {
		p = cur_page(w, c);
		put_num(p, ts_ns, 8, w->big_endian);
		c->open = true;
		c->used = 0;
		c->page_lost = c->lost;
		c->page_lost_count = c->lost_count;
		c->lost = false;
		c->lost_count = 0;
		delta = 0;
		extend = 0;
	}
	p = cur_page(w, c) + PAGE_HDR_SIZE + c->used;
	if (extend) {
		put_num(p, event_word(w, SP_DAT_TYPE_TIME_EXTEND, delta & SP_DAT_TS_DELTA_MAX), 4,
			w->big_endian);
		put_num(p + 4, delta >> SP_DAT_TS_SHIFT, 4, w->big_endian);
		p += 8;
		delta = 0;
	}
	if (alen <= SP_DAT_TYPE_MAX_DATA * 4) {
		put_num(p, event_word(w, alen / 4, delta), 4, w->big_endian);
		p += 4;
	} else {
		put_num(p, event_word(w, 0, delta), 4, w->big_endian);
		put_num(p + 4, alen + 4, 4, w->big_endian);
		p += 8;
	}
	memcpy(p, payload, len);
	memset(p + len, 0, alen - len);
	c->used += extend + need;
	c->last_ts = ts_ns;
	c->prev_ts = ts_ns;
	c->have_ts = true;
	c->nr_records++;
	return 0;
}

int sp_writer_write_page(struct sp_writer *w, int cpu, const void *page, size_t len,
			 struct sp_error *err)
{
	struct wcpu *c;
	unsigned char *p;
	int ret;

	ret = check_cpu(w, cpu, err);
	if (ret)
		return ret;
	if (len < PAGE_HDR_SIZE || len > w->page_size)
		return sp_error_set(err, -EINVAL, -1, "page of %zu bytes, expected at most %u", len,
				    w->page_size);
	c = &w->cpus[cpu];
	ret = finish_page(w, c, err);
	if (ret)
		return ret;
	p = cur_page(w, c);
	memcpy(p, page, len);
	memset(p + len, 0, w->page_size - len);
	c->nr_pages++;
	if (c->nr_pages == SP_DAT_PAGES_IN_CHUNK)
		return flush_chunk(w, c, err);
	return 0;
}

int sp_writer_lost(struct sp_writer *w, int cpu, uint64_t count)
{
	if (cpu < 0 || cpu >= w->nr_cpus)
		return -EINVAL;
	w->cpus[cpu].lost = true;
	w->cpus[cpu].lost_count += count;
	return 0;
}

uint64_t sp_writer_nr_records(const struct sp_writer *w, int cpu)
{
	uint64_t n = 0;
	int i;

	if (cpu >= 0)
		return cpu < w->nr_cpus ? w->cpus[cpu].nr_records : 0;
	for (i = 0; i < w->nr_cpus; i++)
		n += w->cpus[i].nr_records;
	return n;
}

int sp_writer_pages_flush(struct sp_writer *w, struct sp_error *err)
{
	int i, ret = 0;

	for (i = 0; i < w->nr_cpus && !ret; i++) {
		struct wcpu *c = &w->cpus[i];

		if (c->chunk) {
			ret = finish_page(w, c, err);
			if (!ret)
				ret = flush_chunk(w, c, err);
		}
	}
	return ret;
}
