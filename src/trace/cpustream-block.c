// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpustream-block: reading one block of a stream, a window of the file's
 * pages or compressed chunks decompressed, into memory with zeroed slack
 * behind it.  Only the stream's parameters are read: the read-ahead's
 * helper thread (cpustream-ahead.c) reads blocks too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/blockpool.h"
#include "schedplot/trace/datfile.h"
#include "cpustream-block.h"

static int read_at(const struct sp_cpustream *s, void *buf, size_t len, uint64_t off, size_t *got,
		   struct sp_error *err)
{
	char *p = buf;
	ssize_t n;

	*got = 0;
	while (len) {
		n = pread(s->p.fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			return sp_error_set(err, ret, off, "cannot read CPU %u data: %s", s->cpu.cpu,
					    strerror(-ret));
		}
		if (n == 0)
			break;
		p += n;
		off += n;
		len -= n;
		*got += n;
	}
	return 0;
}

static int truncated(const struct sp_cpustream *s, uint64_t off, struct sp_error *err)
{
	return sp_error_set(err, -EBADMSG, off,
			    "truncated CPU %u data (the file shrank while being read)", s->cpu.cpu);
}

/* Room for @len bytes plus the slack in @buf, from malloc(). */
static int reserve(char **buf, size_t *alloc, size_t len)
{
	if (len + SP_CPUSTREAM_SLACK > *alloc) {
		char *p = malloc(len + SP_CPUSTREAM_SLACK);

		if (!p)
			return -ENOMEM;
		free(*buf);
		*buf = p;
		*alloc = len + SP_CPUSTREAM_SLACK;
	}
	return 0;
}

/* Room for @len bytes of pages plus the slack in block @b. */
static int block_reserve(const struct sp_cpustream *s, struct block *b, size_t len)
{
	struct sp_block_pool *bp = s->scratch->pool;
	size_t want, got;
	void *p;

	if (!bp)
		return reserve(&b->buf, &b->alloc, len > s->block_size ? len : s->block_size);
	if (len + SP_CPUSTREAM_SLACK <= b->alloc)
		return 0;
	/* blocks of one size, so that any block given back fits the next */
	if (len < s->block_size)
		len = s->block_size;
	want = (len + SP_CPUSTREAM_SLACK + 63) / 64 * 64;
	/* grow by half at least: a stream's chunks may come in rising sizes */
	if (want < b->alloc + b->alloc / 2)
		want = (b->alloc + b->alloc / 2 + 63) / 64 * 64;
	p = sp_block_pool_get(bp, want, &got);
	if (!p)
		return -ENOMEM;
	sp_block_pool_put(bp, b->buf, b->alloc);
	b->buf = p;
	b->alloc = got;
	return 0;
}

void sp_cpustream_block_release(const struct sp_cpustream *s, struct block *b)
{
	if (s->scratch->pool)
		sp_block_pool_put(s->scratch->pool, b->buf, b->alloc);
	else
		free(b->buf);
	b->buf = NULL;
	b->alloc = 0;
}

size_t sp_cpustream_round_pages(const struct sp_cpustream *s, size_t n)
{
	size_t ps = s->p.page_size;

	return (n + ps - 1) / ps * ps;
}

/*
 * The window of uncompressed pages at @pos into @b, @pos moved past it.
 * Reads only the stream's parameters: the helper thread calls it too.
 * Return: 1, 0 at the end, or an error.
 */
static int fill_plain(const struct sp_cpustream *s, struct block *b, struct position *pos,
		      struct sp_error *err)
{
	size_t want, got, len;
	int ret;

	if (!pos->left)
		return 0;
	want = s->p.window_bytes < pos->left ? s->p.window_bytes : pos->left;
	len = sp_cpustream_round_pages(s, want);
	if (block_reserve(s, b, len))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = read_at(s, b->buf, want, pos->next_off, &got, err);
	if (ret)
		return ret;
	if (got < want)
		return truncated(s, pos->next_off + got, err);
	memset(b->buf + want, 0, len - want + SP_CPUSTREAM_SLACK);
	b->file_off = pos->next_off;
	b->len = len;
	pos->next_off += want;
	pos->left -= want;
	return 1;
}

static int decompress(const struct sp_cpustream *s, struct sp_cpustream_scratch *sc,
		      char *to, size_t zsize, size_t rsize)
{
	if (s->p.codec == SP_CODEC_ZSTD) {
		size_t n = ZSTD_decompressDCtx(sc->zstd, to, rsize, sc->zbuf, zsize);

		return !ZSTD_isError(n) && n == rsize ? 0 : -1;
	} else {
		uLongf n = rsize;

		return uncompress((Bytef *)to, &n, (const Bytef *)sc->zbuf, zsize) == Z_OK &&
		       n == rsize ? 0 : -1;
	}
}

/*
 * The compressed chunk at @pos into @b at @at, decompressed with @sc, @pos
 * moved past it.  A chunk after the first (@at > 0) that does not fit the
 * block is left for the next one: return 0.  Return: 1, or an error.
 */
static int fill_one_chunk(const struct sp_cpustream *s, struct block *b, size_t at,
			  struct position *pos, struct sp_cpustream_scratch *sc,
			  struct sp_error *err)
{
	uint64_t hdr_off = pos->next_off;
	size_t zsize, rsize, want, got;
	int ret;

	if (!pos->have_next_hdr) {
		ret = read_at(s, pos->next_hdr, SP_DAT_CHUNK_HDR_SIZE, hdr_off, &got, err);
		if (ret)
			return ret;
		if (got < SP_DAT_CHUNK_HDR_SIZE)
			return truncated(s, hdr_off + got, err);
	}
	zsize = get_u32(s, pos->next_hdr);
	rsize = get_u32(s, pos->next_hdr + 4);
	if (rsize > SP_CONTAINER_MAX_DATA_CHUNK || rsize > (uint64_t)zsize * SP_CONTAINER_MAX_RATIO)
		return sp_error_set(err, -EBADMSG, hdr_off,
				    "compressed CPU %u data claims %zu uncompressed bytes from %zu (the file is damaged)",
				    s->cpu.cpu, rsize, zsize);
	if (at && at + sp_cpustream_round_pages(s, rsize) + SP_CPUSTREAM_SLACK > b->alloc) {
		pos->have_next_hdr = true;
		return 0;
	}
	pos->have_next_hdr = false;
	/* read the next chunk's header along with this chunk */
	want = zsize + (pos->left > 1 ? SP_DAT_CHUNK_HDR_SIZE : 0);
	if (reserve(&sc->zbuf, &sc->alloc_zbuf, want) ||
	    (!at && block_reserve(s, b, sp_cpustream_round_pages(s, rsize))))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	ret = read_at(s, sc->zbuf, want, hdr_off + SP_DAT_CHUNK_HDR_SIZE, &got, err);
	if (ret)
		return ret;
	if (got < want)
		return truncated(s, hdr_off + SP_DAT_CHUNK_HDR_SIZE + got, err);
	if (pos->left > 1) {
		memcpy(pos->next_hdr, sc->zbuf + zsize, SP_DAT_CHUNK_HDR_SIZE);
		pos->have_next_hdr = true;
	}
	if (decompress(s, sc, b->buf + at, zsize, rsize))
		return sp_error_set(err, -EBADMSG, hdr_off,
				    "compressed CPU %u data does not decompress to the %zu bytes it claims (the file is damaged)",
				    s->cpu.cpu, rsize);
	b->len = at + sp_cpustream_round_pages(s, rsize);
	memset(b->buf + at + rsize, 0, b->len - at - rsize + SP_CPUSTREAM_SLACK);
	b->chunk_off[b->nr_chunks] = hdr_off;
	b->chunk_end[b->nr_chunks++] = b->len;
	pos->next_off = hdr_off + SP_DAT_CHUNK_HDR_SIZE + zsize;
	pos->left--;
	return 1;
}

/*
 * Compressed chunks from @pos into @b, as many as fit a window (chunks are
 * small: one at a time, the helper thread was handed a block every few
 * dozen microseconds, and waking it cost as much).  A chunk after the
 * first that fails is left for the next block, so that its error comes
 * after the records before it.  As fill_plain().
 */
static int fill_chunks(const struct sp_cpustream *s, struct block *b, struct position *pos,
		       struct sp_cpustream_scratch *sc, struct sp_error *err)
{
	struct position before;
	int ret;

	if (!pos->left)
		return 0;
	b->nr_chunks = 0;
	ret = fill_one_chunk(s, b, 0, pos, sc, err);
	if (ret <= 0)
		return ret < 0 ? ret : -EBADMSG;
	b->file_off = b->chunk_off[0];
	while (pos->left && b->nr_chunks < SP_BLOCK_CHUNKS && b->len < s->p.window_bytes) {
		struct sp_error later = { 0 };

		before = *pos;
		ret = fill_one_chunk(s, b, b->len, pos, sc, &later);
		if (ret <= 0) {
			*pos = before;
			break;
		}
	}
	return 1;
}

int sp_cpustream_fill(const struct sp_cpustream *s, struct block *b, struct position *pos,
		      struct sp_cpustream_scratch *sc, struct sp_error *err)
{
	return s->p.codec == SP_CODEC_NONE ? fill_plain(s, b, pos, err) :
					     fill_chunks(s, b, pos, sc, err);
}

/*
 * The next block into cur: the helper's when it was asked for (waiting
 * for it if need be), else read here.  Return: 1, 0 at the end, or an error.
 */
