// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer-layout: the file, laid out at close when every size is known and
 * written front to back (the layouts of both versions are drawn in
 * writer.c's opening comment): metadata built in memory, CPU data copied
 * from the spool, page aligned.  Writes are sequential, so the output may
 * be a temporary file, a device or a FIFO.
 */
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
#include "schedplot/trace/writer.h"
#include "writer-internal.h"

/* ------------------------------------------------------------------ */
/* The file                                                            */

struct out {
	int fd;
	uint64_t off;		/* file offset of the next byte */
	unsigned char buf[1 << 16];
	size_t n;
	int ret;
	bool big_endian;
};

static void out_flush(struct out *o)
{
	int ret;

	if (o->ret || !o->n)
		return;
	ret = sp_wio_write(o->fd, o->buf, o->n, SP_WIO_SEQUENTIAL);
	if (ret)
		o->ret = ret;
	o->n = 0;
}

static void out_bytes(struct out *o, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len && !o->ret) {
		size_t k = sizeof(o->buf) - o->n;

		if (k > len)
			k = len;
		memcpy(o->buf + o->n, p, k);
		o->n += k;
		o->off += k;
		p += k;
		len -= k;
		if (o->n == sizeof(o->buf))
			out_flush(o);
	}
}

static void out_num(struct out *o, uint64_t v, int n)
{
	unsigned char b[8];

	put_num(b, v, n, o->big_endian);
	out_bytes(o, b, n);
}

static void out_zero(struct out *o, uint64_t len)
{
	static const unsigned char zero[4096];

	while (len && !o->ret) {
		size_t k = len < sizeof(zero) ? len : sizeof(zero);

		out_bytes(o, zero, k);
		len -= k;
	}
}

/* Copy [off, off + len) of the spool into the output. */
static void out_spool(struct out *o, int spool_fd, uint64_t off, uint64_t len)
{
	ssize_t n;

	out_flush(o);
	while (len && !o->ret) {
		size_t k = len < sizeof(o->buf) ? len : sizeof(o->buf);

		n = pread(spool_fd, o->buf, k, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->ret = n < 0 ? -errno : -EIO;
			return;
		}
		o->n = n;
		o->off += n;
		out_flush(o);
		off += n;
		len -= n;
	}
}

/* Metadata blocks, in the same byte layout in v6 and in v7 sections. */
static void meta_headers(struct sp_writer *w, struct buf *b)
{
	buf_str(b, "header_page");
	buf_num(b, strlen(w->header_page), 8);
	buf_bytes(b, w->header_page, strlen(w->header_page));
	buf_str(b, "header_event");
	buf_num(b, strlen(w->header_event), 8);
	buf_bytes(b, w->header_event, strlen(w->header_event));
}

static void meta_ftrace(struct sp_writer *w, struct buf *b)
{
	size_t i, n = 0;

	for (i = 0; i < w->nr_formats; i++)
		n += !strcmp(w->formats[i].system, "ftrace");
	buf_num(b, n, 4);
	for (i = 0; i < w->nr_formats; i++) {
		if (strcmp(w->formats[i].system, "ftrace"))
			continue;
		buf_num(b, w->formats[i].len, 8);
		buf_bytes(b, w->formats[i].text, w->formats[i].len);
	}
}

/* Systems in order of their first format; the formats of each together. */
static void meta_events(struct sp_writer *w, struct buf *b)
{
	size_t i, j, k, nr_systems = 0, n;

	for (i = 0; i < w->nr_formats; i++) {
		if (!strcmp(w->formats[i].system, "ftrace"))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(w->formats[j].system, w->formats[i].system))
				break;
		nr_systems += j == i;
	}
	buf_num(b, nr_systems, 4);
	for (i = 0; i < w->nr_formats; i++) {
		const char *sys = w->formats[i].system;

		if (!strcmp(sys, "ftrace"))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(w->formats[j].system, sys))
				break;
		if (j < i)
			continue;
		for (k = i, n = 0; k < w->nr_formats; k++)
			n += !strcmp(w->formats[k].system, sys);
		buf_str(b, sys);
		buf_num(b, n, 4);
		for (k = i; k < w->nr_formats; k++) {
			if (strcmp(w->formats[k].system, sys))
				continue;
			buf_num(b, w->formats[k].len, 8);
			buf_bytes(b, w->formats[k].text, w->formats[k].len);
		}
	}
}

static void meta_empty4(struct buf *b)
{
	buf_num(b, 0, 4);
}

static void meta_kallsyms(struct sp_writer *w, struct buf *b)
{
	buf_num(b, w->kallsyms.len, 4);
	buf_bytes(b, w->kallsyms.p, w->kallsyms.len);
}

static void meta_cmdlines(struct sp_writer *w, struct buf *b)
{
	buf_num(b, w->cmdlines.len, 8);
	buf_bytes(b, w->cmdlines.p, w->cmdlines.len);
}

static void option_str(struct buf *b, unsigned int id, const char *s)
{
	buf_num(b, id, 2);
	buf_num(b, strlen(s) + 1, 4);
	buf_str(b, s);
}

static void option_num(struct buf *b, unsigned int id, uint64_t v, int n)
{
	buf_num(b, id, 2);
	buf_num(b, n, 4);
	buf_num(b, v, n);
}

/* The options both versions carry: clock, uname, trace id, callers', CPU count. */
static void common_options(struct sp_writer *w, struct buf *b)
{
	char clock[128];
	size_t i;

	snprintf(clock, sizeof(clock), "[%s]\n", w->clock);
	option_str(b, SP_DAT_OPT_TRACECLOCK, clock);
	option_str(b, SP_DAT_OPT_UNAME, w->uname);
	if (w->trace_id)
		option_num(b, SP_DAT_OPT_TRACEID, w->trace_id, 8);
	for (i = 0; i < w->nr_options; i++) {
		buf_num(b, w->options[i].id, 2);
		buf_num(b, w->options[i].len, 4);
		buf_bytes(b, w->options[i].data, w->options[i].len);
	}
	option_num(b, SP_DAT_OPT_CPUCOUNT, w->pages.nr_cpus, 4);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Per-CPU data offsets from @start (page aligned, as trace-cmd places them). */
static void layout_cpus(struct sp_writer *w, uint64_t start, uint64_t *offs, uint64_t *end)
{
	uint64_t p = start;
	int i;

	for (i = 0; i < w->pages.nr_cpus; i++) {
		struct wcpu *c = &w->pages.cpus[i];

		p = align_up(p, w->pages.page_size);
		offs[i] = p;
		if (c->nr_chunks)
			p += c->file_bytes + (w->pages.compress ? SP_DAT_CHUNK_COUNT_SIZE : 0);
	}
	*end = p;
}

static void write_cpus(struct sp_writer *w, struct out *o, const uint64_t *offs)
{
	size_t k;
	int i;

	for (i = 0; i < w->pages.nr_cpus && !o->ret; i++) {
		struct wcpu *c = &w->pages.cpus[i];

		if (!c->nr_chunks)
			continue;
		out_zero(o, offs[i] - o->off);
		if (w->pages.compress)
			out_num(o, c->nr_chunks, SP_DAT_CHUNK_COUNT_SIZE);
		for (k = 0; k < c->nr_chunks; k++)
			out_spool(o, w->pages.spool_fd, c->chunks[k].spool_off, c->chunks[k].len);
	}
}

static int write_v6(struct sp_writer *w, struct out *o, struct sp_error *err)
{
	struct buf b = { .big_endian = w->pages.big_endian };
	uint64_t *offs, table, data_start, end;
	char clock[128];
	int i, ret = 0;

	offs = sp_alloc_array(w->pages.nr_cpus, sizeof(*offs));
	if (!offs)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	buf_bytes(&b, SP_DAT_MAGIC "6", SP_DAT_MAGIC_LEN + 2);	/* with the NUL */
	buf_num(&b, w->pages.big_endian, 1);		/* byte order */
	buf_num(&b, LONG_SIZE, 1);
	buf_num(&b, w->pages.page_size, 4);
	meta_headers(w, &b);
	meta_ftrace(w, &b);
	meta_events(w, &b);
	meta_kallsyms(w, &b);
	meta_empty4(&b);			/* printk */
	meta_cmdlines(w, &b);
	buf_num(&b, w->pages.nr_cpus, 4);
	buf_bytes(&b, SP_DAT_TAG_OPTIONS, SP_DAT_TAG_LEN);
	common_options(w, &b);
	buf_num(&b, 0, 2);
	buf_bytes(&b, SP_DAT_TAG_FLYRECORD, SP_DAT_TAG_LEN);
	table = b.len;
	snprintf(clock, sizeof(clock), "[%s]", w->clock);
	data_start = table + 16ull * w->pages.nr_cpus + 8 + strlen(clock);
	layout_cpus(w, data_start, offs, &end);
	for (i = 0; i < w->pages.nr_cpus; i++) {
		struct wcpu *c = &w->pages.cpus[i];

		buf_num(&b, c->nr_chunks ? offs[i] : 0, 8);
		buf_num(&b, c->file_bytes, 8);
	}
	buf_num(&b, strlen(clock), 8);
	buf_bytes(&b, clock, strlen(clock));
	if (b.failed) {
		ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto out;
	}
	out_bytes(o, b.p, b.len);
	write_cpus(w, o, offs);
out:
	buf_release(&b);
	free(offs);
	return ret;
}

/* A v7 section: header, then @data (zstd-compressed when the file is). */
static int section(struct sp_writer *w, struct buf *file, unsigned int id, uint32_t desc,
		   const struct buf *data, bool may_compress)
{
	bool z = w->pages.compress && may_compress;

	buf_num(file, id, 2);
	buf_num(file, z ? SP_DAT_SEC_FL_COMPRESS : 0, 2);
	buf_num(file, desc, 4);
	if (!z) {
		buf_num(file, data->len, 8);
		buf_bytes(file, data->p, data->len);
	} else {
		size_t bound = ZSTD_compressBound(data->len);
		unsigned char *p;
		size_t n;

		buf_num(file, 0, 8);
		p = buf_room(file, 8 + bound);
		if (!p)
			return -ENOMEM;
		n = ZSTD_compressCCtx(w->pages.cctx, p + 8, bound, data->p, data->len, 19);
		if (ZSTD_isError(n))
			return -EIO;
		put_num(p, n, 4, w->pages.big_endian);
		put_num(p + 4, data->len, 4, w->pages.big_endian);
		file->len -= bound - n;
		put_num(p - 8, n + 8, 8, w->pages.big_endian);
	}
	return file->failed ? -ENOMEM : 0;
}

/* Strings of the section descriptions and their ids (offsets in the strings section). */
static const char *const strings[] = {
	"headers", "ftrace events", "events format", "kallsyms", "printk", "command lines",
	"options", "buffer flyrecord ", "strings",
};

enum { STR_HEADERS, STR_FTRACE, STR_EVENTS, STR_KALLSYMS, STR_PRINTK, STR_CMDLINES,
	STR_OPTIONS, STR_BUFFER, STR_STRINGS, NR_STRINGS };

static int write_v7(struct sp_writer *w, struct out *o, struct sp_error *err)
{
	uint32_t str_id[NR_STRINGS];
	struct buf b = { .big_endian = w->pages.big_endian }, m = b, opts = b, strs = b;
	uint64_t sec_off[6], opt1, buf_sec, buf_data, end, opt2;
	uint64_t *offs = NULL;
	char zver[32];
	const char *comp = w->pages.compress ? "zstd" : "none";
	int i, nr_with_data = 0, ret = 0;

	offs = sp_alloc_array(w->pages.nr_cpus, sizeof(*offs));
	if (!offs)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	for (i = 0; i < NR_STRINGS; i++) {
		str_id[i] = strs.len;
		buf_str(&strs, strings[i]);
	}
	snprintf(zver, sizeof(zver), "%s", w->pages.compress ? ZSTD_versionString() : "");

	buf_bytes(&b, SP_DAT_MAGIC "7", SP_DAT_MAGIC_LEN + 2);	/* with the NUL */
	buf_num(&b, w->pages.big_endian, 1);
	buf_num(&b, LONG_SIZE, 1);
	buf_num(&b, w->pages.page_size, 4);
	buf_str(&b, comp);
	buf_str(&b, zver);
	buf_num(&b, 0, 8);			/* first options section, set below */
	for (i = 0; i < 6 && !ret; i++) {
		m.len = 0;
		switch (i) {
		case 0: meta_headers(w, &m); break;
		case 1: meta_ftrace(w, &m); break;
		case 2: meta_events(w, &m); break;
		case 3: meta_kallsyms(w, &m); break;
		case 4: meta_empty4(&m); break;
		case 5: meta_cmdlines(w, &m); break;
		}
		sec_off[i] = b.len;
		ret = m.failed ? -ENOMEM :
		      section(w, &b, SP_DAT_SEC_HEADER_INFO + i, str_id[STR_HEADERS + i], &m, true);
	}
	if (ret)
		goto fail;

	/* options 1: where the metadata is, clock, uname, CPU count; DONE -> options 2 */
	opt1 = b.len;
	for (i = 0; i < 6; i++)
		option_num(&opts, SP_DAT_SEC_HEADER_INFO + i, sec_off[i], 8);
	common_options(w, &opts);
	buf_num(&opts, SP_DAT_ID_DONE, 2);
	buf_num(&opts, 8, 4);
	buf_num(&opts, 0, 8);			/* next options section, set below */
	buf_num(&b, SP_DAT_ID_DONE, 2);
	buf_num(&b, 0, 2);
	buf_num(&b, str_id[STR_OPTIONS], 4);
	buf_num(&b, opts.len, 8);
	buf_bytes(&b, opts.p, opts.len);

	/* the buffer section: header, padding, per-CPU data */
	buf_sec = b.len;
	buf_data = buf_sec + 16;
	layout_cpus(w, buf_data, offs, &end);
	buf_num(&b, SP_DAT_OPT_BUFFER, 2);
	buf_num(&b, w->pages.compress ? SP_DAT_SEC_FL_COMPRESS : 0, 2);
	buf_num(&b, str_id[STR_BUFFER], 4);
	buf_num(&b, end - buf_data, 8);
	opt2 = end;
	put_num(b.p + b.len - 16 - 8, opt2, 8, w->pages.big_endian);	/* DONE link of options 1 */
	put_num(b.p + SP_DAT_MAGIC_LEN + 2 + 2 + 4 + strlen(comp) + 1 + strlen(zver) + 1, opt1, 8,
		w->pages.big_endian);
	if (b.failed) {
		ret = -ENOMEM;
		goto fail;
	}
	out_bytes(o, b.p, b.len);
	write_cpus(w, o, offs);
	out_zero(o, end - o->off);

	/* options 2: the BUFFER option; then the strings */
	opts.len = 0;
	for (i = 0; i < w->pages.nr_cpus; i++)
		nr_with_data += w->pages.cpus[i].nr_chunks > 0;
	buf_num(&opts, SP_DAT_OPT_BUFFER, 2);
	buf_num(&opts, 8 + 1 + strlen(w->clock) + 1 + 4 + 4 + 20ull * nr_with_data, 4);
	buf_num(&opts, buf_sec, 8);
	buf_str(&opts, "");
	buf_str(&opts, w->clock);
	buf_num(&opts, w->pages.page_size, 4);
	buf_num(&opts, nr_with_data, 4);
	for (i = 0; i < w->pages.nr_cpus; i++) {
		if (!w->pages.cpus[i].nr_chunks)
			continue;
		buf_num(&opts, i, 4);
		buf_num(&opts, offs[i], 8);
		buf_num(&opts, w->pages.cpus[i].file_bytes, 8);
	}
	buf_num(&opts, SP_DAT_ID_DONE, 2);
	buf_num(&opts, 8, 4);
	buf_num(&opts, 0, 8);
	b.len = 0;
	buf_num(&b, SP_DAT_ID_DONE, 2);
	buf_num(&b, 0, 2);
	buf_num(&b, str_id[STR_OPTIONS], 4);
	buf_num(&b, opts.len, 8);
	buf_bytes(&b, opts.p, opts.len);
	ret = b.failed || opts.failed ? -ENOMEM :
	      section(w, &b, SP_DAT_SEC_STRINGS, str_id[STR_STRINGS], &strs, true);
	if (ret)
		goto fail;
	out_bytes(o, b.p, b.len);
	goto out;
fail:
	sp_error_set(err, ret, -1, ret == -ENOMEM ? "out of memory" : "zstd compression failed");
out:
	buf_release(&b);
	buf_release(&m);
	buf_release(&opts);
	buf_release(&strs);
	free(offs);
	return ret;
}

int sp_writer_layout_write(struct sp_writer *w, int fd, struct sp_error *err)
{
	struct out *o;
	int ret;

	o = calloc(1, sizeof(*o));
	if (!o)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	o->fd = fd;
	o->big_endian = w->pages.big_endian;
	ret = w->version == 6 ? write_v6(w, o, err) : write_v7(w, o, err);
	if (!ret) {
		out_flush(o);
		if (o->ret)
			ret = sp_wio_error(err, o->ret, "the trace");
	}
	free(o);
	return ret;
}
