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
#include "schedplot/trace/datfile.h"
#include "writer-io.h"
#include "writer-pages.h"

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
static int spool_open(struct sp_pages *pg, const char *near, struct sp_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir, *name;
	int ret;

	if (!near)
		ret = asprintf(&dir, "%s/", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0 ? -1 : 0;
	else
		ret = (dir = dir_of(near)) ? 0 : -1;
	if (ret)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = asprintf(&name, "%s.schedplot-spool.XXXXXX", dir);
	free(dir);
	if (ret < 0)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	pg->spool_fd = mkstemp(name);
	if (pg->spool_fd < 0) {
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

int sp_pages_open(struct sp_pages *pg, const char *near, struct sp_error *err)
{
	pg->spool_fd = -1;
	pg->cpus = sp_alloc_array(pg->nr_cpus, sizeof(*pg->cpus));
	if (!pg->cpus)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	if (pg->compress) {
		pg->cctx = ZSTD_createCCtx();
		pg->zbuf_len = ZSTD_compressBound((size_t)SP_DAT_PAGES_IN_CHUNK * pg->page_size);
		pg->zbuf = malloc(pg->zbuf_len + SP_DAT_CHUNK_HDR_SIZE);
		if (!pg->cctx || !pg->zbuf)
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	return spool_open(pg, near, err);
}

void sp_pages_release(struct sp_pages *pg)
{
	if (pg->spool_fd >= 0)
		close(pg->spool_fd);
	for (int i = 0; pg->cpus && i < pg->nr_cpus; i++) {
		free(pg->cpus[i].chunk);
		free(pg->cpus[i].chunks);
	}
	free(pg->cpus);
	ZSTD_freeCCtx(pg->cctx);
	free(pg->zbuf);
	memset(pg, 0, sizeof(*pg));
	pg->spool_fd = -1;
}

/* Compress (or not) the CPU's finished pages and append them to the spool. */
static int flush_chunk(struct sp_pages *pg, struct wcpu *c, struct sp_error *err)
{
	size_t raw = (size_t)c->nr_pages * pg->page_size;
	const unsigned char *data = c->chunk;
	struct chunk_ref *ref;
	size_t len = raw;
	int ret;

	if (!c->nr_pages)
		return 0;
	if (pg->compress) {
		size_t z = ZSTD_compressCCtx(pg->cctx, pg->zbuf + SP_DAT_CHUNK_HDR_SIZE, pg->zbuf_len,
					     c->chunk, raw, pg->level);

		if (ZSTD_isError(z))
			return sp_error_set(err, -EIO, -1, "zstd compression failed: %s",
					    ZSTD_getErrorName(z));
		put_num(pg->zbuf, z, 4, pg->big_endian);
		put_num(pg->zbuf + 4, raw, 4, pg->big_endian);
		data = pg->zbuf;
		len = z + SP_DAT_CHUNK_HDR_SIZE;
	}
	if (sp_grow_array(&c->chunks, &c->alloc_chunks, c->nr_chunks + 1, sizeof(*ref)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = sp_wio_write(pg->spool_fd, data, len, pg->spool_len);
	if (ret)
		return sp_wio_error(err, ret, "the temporary trace data");
	ref = &c->chunks[c->nr_chunks++];
	ref->spool_off = pg->spool_len;
	ref->len = len;
	ref->raw = raw;
	pg->spool_len += len;
	c->file_bytes += len;
	c->nr_pages = 0;
	return 0;
}

static unsigned char *cur_page(struct sp_pages *pg, struct wcpu *c)
{
	return c->chunk + (size_t)c->nr_pages * pg->page_size;
}

/* Close the open page: set its commit, zero its tail; flush a full chunk. */
static int finish_page(struct sp_pages *pg, struct wcpu *c, struct sp_error *err)
{
	unsigned char *page;
	uint64_t commit;

	if (!c->open)
		return 0;
	page = cur_page(pg, c);
	commit = c->used;
	if (c->page_lost) {
		commit |= SP_DAT_MISSED_EVENTS;
		if (c->page_lost_count) {
			commit |= SP_DAT_MISSED_STORED;
			put_num(page + PAGE_HDR_SIZE + c->used, c->page_lost_count, 8, pg->big_endian);
			c->used += 8;
		}
		c->page_lost = false;
		c->page_lost_count = 0;
	}
	put_num(page + 8, commit, 8, pg->big_endian);
	memset(page + PAGE_HDR_SIZE + c->used, 0, pg->page_size - PAGE_HDR_SIZE - c->used);
	c->open = false;
	c->used = 0;
	c->nr_pages++;
	if (c->nr_pages == SP_DAT_PAGES_IN_CHUNK)
		return flush_chunk(pg, c, err);
	return 0;
}

static int check_cpu(struct sp_pages *pg, int cpu, struct sp_error *err)
{
	struct wcpu *c;

	if (cpu < 0 || cpu >= pg->nr_cpus)
		return sp_error_set(err, -EINVAL, -1, "CPU %d is not in 0..%d", cpu,
				    pg->nr_cpus - 1);
	c = &pg->cpus[cpu];
	if (!c->chunk) {
		c->chunk = malloc((size_t)SP_DAT_PAGES_IN_CHUNK * pg->page_size);
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
static uint32_t event_word(const struct sp_pages *pg, uint32_t type_len, uint64_t delta)
{
	return pg->big_endian ? type_len << SP_DAT_TS_SHIFT | (uint32_t)delta :
			       type_len | (uint32_t)delta << 5;
}

int sp_pages_record(struct sp_pages *pg, int cpu, uint64_t ts_ns, const void *payload,
			size_t len, struct sp_error *err)
{
	size_t cap = pg->page_size - PAGE_HDR_SIZE - 8;	/* room for a stored lost count */
	size_t alen = (len + 3) & ~(size_t)3;
	size_t need, extend = 0;
	uint64_t delta = 0;
	unsigned char *p;
	struct wcpu *c;
	int ret;

	ret = check_cpu(pg, cpu, err);
	if (ret)
		return ret;
	c = &pg->cpus[cpu];
	if (!len || len > pg->page_size - 32)
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
		ret = finish_page(pg, c, err);
		if (ret)
			return ret;
	}
	if (!c->open) {
		p = cur_page(pg, c);
		put_num(p, ts_ns, 8, pg->big_endian);
		c->open = true;
		c->used = 0;
		c->page_lost = c->lost;
		c->page_lost_count = c->lost_count;
		c->lost = false;
		c->lost_count = 0;
		delta = 0;
		extend = 0;
	}
	p = cur_page(pg, c) + PAGE_HDR_SIZE + c->used;
	if (extend) {
		put_num(p, event_word(pg, SP_DAT_TYPE_TIME_EXTEND, delta & SP_DAT_TS_DELTA_MAX), 4,
			pg->big_endian);
		put_num(p + 4, delta >> SP_DAT_TS_SHIFT, 4, pg->big_endian);
		p += 8;
		delta = 0;
	}
	if (alen <= SP_DAT_TYPE_MAX_DATA * 4) {
		put_num(p, event_word(pg, alen / 4, delta), 4, pg->big_endian);
		p += 4;
	} else {
		put_num(p, event_word(pg, 0, delta), 4, pg->big_endian);
		put_num(p + 4, alen + 4, 4, pg->big_endian);
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

int sp_pages_page(struct sp_pages *pg, int cpu, const void *page, size_t len,
			 struct sp_error *err)
{
	struct wcpu *c;
	unsigned char *p;
	int ret;

	ret = check_cpu(pg, cpu, err);
	if (ret)
		return ret;
	if (len < PAGE_HDR_SIZE || len > pg->page_size)
		return sp_error_set(err, -EINVAL, -1, "page of %zu bytes, expected at most %u", len,
				    pg->page_size);
	c = &pg->cpus[cpu];
	ret = finish_page(pg, c, err);
	if (ret)
		return ret;
	p = cur_page(pg, c);
	memcpy(p, page, len);
	memset(p + len, 0, pg->page_size - len);
	c->nr_pages++;
	if (c->nr_pages == SP_DAT_PAGES_IN_CHUNK)
		return flush_chunk(pg, c, err);
	return 0;
}

int sp_pages_lost(struct sp_pages *pg, int cpu, uint64_t count)
{
	if (cpu < 0 || cpu >= pg->nr_cpus)
		return -EINVAL;
	pg->cpus[cpu].lost = true;
	pg->cpus[cpu].lost_count += count;
	return 0;
}

uint64_t sp_pages_nr_records(const struct sp_pages *pg, int cpu)
{
	uint64_t n = 0;
	int i;

	if (cpu >= 0)
		return cpu < pg->nr_cpus ? pg->cpus[cpu].nr_records : 0;
	for (i = 0; i < pg->nr_cpus; i++)
		n += pg->cpus[i].nr_records;
	return n;
}

int sp_pages_flush(struct sp_pages *pg, struct sp_error *err)
{
	int i, ret = 0;

	for (i = 0; i < pg->nr_cpus && !ret; i++) {
		struct wcpu *c = &pg->cpus[i];

		if (c->chunk) {
			ret = finish_page(pg, c, err);
			if (!ret)
				ret = flush_chunk(pg, c, err);
		}
	}
	return ret;
}
