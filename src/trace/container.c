// SPDX-License-Identifier: GPL-2.0-only
/*
 * Validation of the trace-cmd file container (trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5)) before libtracecmd sees the file.
 *
 * Every read goes through ctr_read(), which first checks that the bytes lie
 * below a limit: the end of the file, or the end of the v7 section being
 * parsed.  Counts read from the file are checked against the bytes left
 * before any loop runs on them, every loop advances through the file, and
 * v7 options sections may only link forward, so the walk ends on any input
 * after at most a few reads per structure it finds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustats.h"
#include "schedplot/trace/datfile.h"

#define MAX_NAME	256	/* event system, buffer and clock names */
#define MAX_ITEMS	(1u << 20)	/* sections plus options in one file */

struct ctr {
	int fd;
	uint64_t size;
	bool big_endian;
	struct sp_container_info *info;
	struct sp_error *err;
	void (*visit)(void *data, const char *what, uint64_t offset, uint64_t size);
	void *data;
	unsigned int nr_items;
	bool has_cpucount;
	unsigned int top_cpus;		/* highest CPU id + 1 in the top buffer */
	uint64_t strings_size;		/* v7: bytes of metadata strings */
	long long max_desc;		/* v7: highest section description, -1 if none */
	uint64_t max_desc_off;
	struct sp_container_layout *layout;	/* filled in when not NULL */
	size_t alloc_cpus;
	/*
	 * Small reads come from a window of the file: a compressed trace has
	 * a chunk header every few dozen KiB, thousands of them.
	 */
	unsigned char *cache;		/* CACHE_SIZE bytes, or NULL */
	uint64_t cache_off;
	size_t cache_len;
};

#define CACHE_SIZE	(64u << 10)
#define CACHE_READ	64		/* reads up to this size go through the cache */

struct section {
	uint64_t off;
	uint64_t data;			/* just after the section header */
	uint64_t end;
	unsigned int id;
	unsigned int flags;
	long long desc;			/* description string id, -1 if none */
};

static void ctr_visit(struct ctr *c, const char *what, uint64_t off, uint64_t len)
{
	if (c->visit)
		c->visit(c->data, what, off, len);
}

/* Bytes [off, off + len) must lie below @limit, the file end or a section end. */
static int ctr_span(struct ctr *c, uint64_t off, uint64_t len, uint64_t limit, const char *what)
{
	if (off <= limit && len <= limit - off)
		return 0;
	if (limit >= c->size)
		return sp_error_set(c->err, -EBADMSG, off,
				    "truncated %s (file ends at 0x%llx; was the recording interrupted?)",
				    what, (unsigned long long)c->size);
	return sp_error_set(c->err, -EBADMSG, off,
			    "%s overruns its section (section ends at 0x%llx; the file is damaged)",
			    what, (unsigned long long)limit);
}

static int ctr_read(struct ctr *c, uint64_t off, void *buf, size_t len, uint64_t limit,
		    const char *what)
{
	char *p = buf;
	ssize_t n;
	int ret;

	ret = ctr_span(c, off, len, limit, what);
	if (ret)
		return ret;
	if (c->cache && len <= CACHE_READ) {
		if (off < c->cache_off || off + len > c->cache_off + c->cache_len) {
			n = pread(c->fd, c->cache, CACHE_SIZE, (off_t)off);
			c->cache_off = off;
			c->cache_len = n > 0 ? (size_t)n : 0;
		}
		/* short (the file shrank, or an error): read it plainly below */
		if (off + len <= c->cache_off + c->cache_len) {
			memcpy(buf, c->cache + (off - c->cache_off), len);
			return 0;
		}
	}
	while (len) {
		n = pread(c->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			return sp_error_set(c->err, ret, off, "cannot read %s: %s", what,
					    strerror(-ret));
		}
		if (n == 0)
			return sp_error_set(c->err, -EBADMSG, off,
					    "truncated %s (the file shrank while being read)", what);
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

static uint64_t get_num(const struct ctr *c, const unsigned char *b, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[c->big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

/* An @n-byte number in the file's byte order. */
static int ctr_num(struct ctr *c, uint64_t off, int n, uint64_t limit, const char *what,
		   uint64_t *val)
{
	unsigned char b[8];
	int ret;

	ret = ctr_read(c, off, b, n, limit, what);
	if (ret)
		return ret;
	*val = get_num(c, b, n);
	return 0;
}

/*
 * A NUL-terminated string of at most @max bytes before the NUL (@max is at
 * most MAX_NAME), copied to @buf when it is not NULL; *@next is set to the
 * offset after the NUL.
 */
static int ctr_string(struct ctr *c, uint64_t off, uint64_t limit, size_t max, const char *what,
		      char *buf, uint64_t *next)
{
	char tmp[MAX_NAME + 1];
	size_t want = max + 1;
	char *nul;
	int ret;

	if (off >= limit)
		return ctr_span(c, off, 1, limit, what);
	if (want > limit - off)
		want = limit - off;
	ret = ctr_read(c, off, tmp, want, limit, what);
	if (ret)
		return ret;
	nul = memchr(tmp, '\0', want);
	if (!nul && want <= max)
		return ctr_span(c, off, want + 1, limit, what);
	if (!nul)
		return sp_error_set(c->err, -EBADMSG, off,
				    "%s is longer than %zu bytes (the file is damaged)", what, max);
	if (buf)
		memcpy(buf, tmp, nul - tmp + 1);
	*next = off + (nul - tmp) + 1;
	return 0;
}

static int ctr_count_item(struct ctr *c, uint64_t off)
{
	if (++c->nr_items <= MAX_ITEMS)
		return 0;
	return sp_error_set(c->err, -EBADMSG, off,
			    "more than %u sections and options (the file is damaged)", MAX_ITEMS);
}

/*
 * An option at [@off, @off + @len).  Notes the ones that make libtracecmd
 * change timestamps as it reads them (it reads those files), and checks
 * the one it trusts with its allocations: a time shift option (guest
 * tracing) gives per CPU a number of samples that libtracecmd allocates
 * before reading them, so a damaged count takes gigabytes.
 */
/* A cpustats option's text, appended to the layout's (its size is checked already). */
static int keep_cpustats(struct ctr *c, uint64_t off, uint64_t len)
{
	struct sp_container_layout *l = c->layout;
	char *p;
	int ret;

	if (l->cpustats_too_long || !len)
		return 0;
	if (len > SP_CPUSTATS_MAX_TEXT - l->cpustats_len) {
		free(l->cpustats);
		l->cpustats = NULL;
		l->cpustats_len = 0;
		l->cpustats_too_long = true;
		return 0;
	}
	p = realloc(l->cpustats, l->cpustats_len + len + 1);
	if (!p)
		return sp_error_set(c->err, -ENOMEM, -1, "out of memory");
	l->cpustats = p;
	ret = ctr_read(c, off, p + l->cpustats_len, len, off + len, "cpustats option");
	if (ret)
		return ret;
	l->cpustats_len += len;
	p[l->cpustats_len++] = '\0';
	return 0;
}

static int check_option(struct ctr *c, uint64_t id, uint64_t off, uint64_t len)
{
	uint64_t end = off + len, nr_cpus, count, cpu, p;
	int ret;

	if (c->layout && id == SP_DAT_OPT_CPUSTAT) {
		ret = keep_cpustats(c, off, len);
		if (ret)
			return ret;
	}

	if (c->layout && (id == SP_DAT_OPT_UNAME || id == SP_DAT_OPT_TRACECLOCK)) {
		char *text = id == SP_DAT_OPT_UNAME ? c->layout->uname : c->layout->trace_clock;
		size_t n = len < sizeof(c->layout->uname) - 1 ? len : sizeof(c->layout->uname) - 1;

		ret = ctr_read(c, off, text, n, end, "option");
		if (ret)
			return ret;
		text[n] = '\0';
		text[strcspn(text, "\n")] = '\0';
	}
	if (c->layout && (id == SP_DAT_OPT_DATE || id == SP_DAT_OPT_OFFSET ||
			  id == SP_DAT_OPT_TIME_SHIFT || id == SP_DAT_OPT_TSC2NSEC))
		c->layout->ts_options = true;
	if (id != SP_DAT_OPT_TIME_SHIFT || len < 16)
		return 0;	/* libtracecmd skips a shorter one */
	ret = ctr_num(c, off + 12, 4, end, "time shift option", &nr_cpus);
	if (ret)
		return ret;
	if (nr_cpus > SP_CONTAINER_MAX_CPUS)
		return sp_error_set(c->err, -EBADMSG, off + 12,
				    "time shift option for %llu CPUs (the file is damaged)",
				    (unsigned long long)nr_cpus);
	/* per CPU: a count, then that many times, offsets and scalings */
	for (cpu = 0, p = off + 16; cpu < nr_cpus; cpu++) {
		ret = ctr_num(c, p, 4, end, "time shift option", &count);
		if (ret)
			return ret;
		if (count > (end - p - 4) / 24)
			return sp_error_set(c->err, -EBADMSG, p,
					    "time shift option claims %llu samples for CPU %llu, more than it holds (the file is damaged)",
					    (unsigned long long)count, (unsigned long long)cpu);
		p += 4 + count * 24;
	}
	return 0;
}

/* @e into the layout, when there is one. */
static int layout_add_cpu(struct ctr *c, const struct sp_container_cpu *e)
{
	struct sp_container_layout *l = c->layout;

	if (!l)
		return 0;
	if (sp_grow_array(&l->cpus, &c->alloc_cpus, l->nr_cpus + 1, sizeof(*l->cpus)))
		return sp_error_set(c->err, -ENOMEM, -1, "out of memory");
	l->cpus[l->nr_cpus++] = *e;
	return 0;
}

static void layout_block(struct ctr *c, struct sp_container_block *b, uint64_t off,
			 uint64_t size, bool compressed)
{
	if (!c->layout)
		return;
	b->offset = off;
	b->size = size;
	b->compressed = compressed;
	b->present = true;
}

static int check_cpu_count(struct ctr *c, long long off, uint64_t n)
{
	if (n == 0 || n > SP_CONTAINER_MAX_CPUS)
		return sp_error_set(c->err, -EBADMSG, off,
				    "CPU count %llu is not in 1..%u (the file is damaged)",
				    (unsigned long long)n, SP_CONTAINER_MAX_CPUS);
	c->info->nr_cpus = n;
	return 0;
}

static int check_page_size(struct ctr *c, uint64_t off, uint64_t n)
{
	if (n < SP_CONTAINER_MIN_PAGE_SIZE || n > SP_CONTAINER_MAX_PAGE_SIZE || (n & (n - 1)))
		return sp_error_set(c->err, -EBADMSG, off,
				    "page size %llu is not a power of two from 4 KiB to 1 MiB (the file is damaged)",
				    (unsigned long long)n);
	return 0;
}

/* The header of one compressed block: @rsize bytes packed into @zsize. */
static int check_block(struct ctr *c, uint64_t off, uint64_t zsize, uint64_t rsize,
		       uint64_t max, const char *what)
{
	/* no codec makes an empty block; a file padded with zeros is full of them */
	if (!zsize)
		return sp_error_set(c->err, -EBADMSG, off,
				    "compressed %s is empty (the file is damaged)", what);
	if (rsize > max)
		return sp_error_set(c->err, -EBADMSG, off,
				    "compressed %s claims %llu uncompressed bytes, more than %llu MiB (the file is damaged)",
				    what, (unsigned long long)rsize, (unsigned long long)max >> 20);
	if (rsize > zsize * SP_CONTAINER_MAX_RATIO)
		return sp_error_set(c->err, -EBADMSG, off,
				    "compressed %s claims %llu uncompressed bytes from %llu, a ratio above %u (the file is damaged)",
				    what, (unsigned long long)rsize, (unsigned long long)zsize, SP_CONTAINER_MAX_RATIO);
	return 0;
}

/*
 * Metadata blocks, the same in v6 (limit: file end) and in uncompressed v7
 * sections (limit: section end).  Each advances *@off past what it read.
 */

/* A 4- or 8-byte size and that many bytes. */
static int meta_sized(struct ctr *c, uint64_t *off, uint64_t limit, int nbytes, const char *what)
{
	uint64_t len;
	int ret;

	ret = ctr_num(c, *off, nbytes, limit, what, &len);
	if (!ret)
		ret = ctr_span(c, *off + nbytes, len, limit, what);
	if (ret)
		return ret;
	ctr_visit(c, what, *off, nbytes + len);
	*off += nbytes + len;
	return 0;
}

static int meta_headers(struct ctr *c, uint64_t *off, uint64_t limit)
{
	static const char *const names[] = { "header_page", "header_event" };
	char buf[16];
	size_t i, len;
	int ret;

	for (i = 0; i < 2; i++) {
		len = strlen(names[i]) + 1;
		ret = ctr_read(c, *off, buf, len, limit, names[i]);
		if (ret)
			return ret;
		if (memcmp(buf, names[i], len))
			return sp_error_set(c->err, -EBADMSG, *off,
					    "expected \"%s\" (the file is damaged)", names[i]);
		*off += len;
		ret = meta_sized(c, off, limit, 8, names[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A 4-byte count of items at *@off, then the items, each read past by
 * @item.  Each takes at least @min_size bytes, so a count that cannot
 * fit before @limit is damage.
 */
static int meta_list(struct ctr *c, uint64_t *off, uint64_t limit, unsigned int min_size,
		     const char *what,
		     int (*item)(struct ctr *c, uint64_t *off, uint64_t limit, const char *what))
{
	uint64_t count, i;
	int ret;

	ret = ctr_num(c, *off, 4, limit, what, &count);
	if (ret)
		return ret;
	*off += 4;
	if (count > (limit - *off) / min_size)
		return ctr_span(c, *off, count * min_size, limit, what);
	for (i = 0; i < count; i++) {
		ret = item(c, off, limit, what);
		if (ret)
			return ret;
	}
	return 0;
}

/* A format file: an 8-byte size and that many bytes. */
static int meta_file(struct ctr *c, uint64_t *off, uint64_t limit, const char *what)
{
	return meta_sized(c, off, limit, 8, what);
}

/* A 4-byte count, then that many format files. */
static int meta_files(struct ctr *c, uint64_t *off, uint64_t limit, const char *what)
{
	return meta_list(c, off, limit, 8, what, meta_file);
}

/* An event system: its name, then its format files. */
static int meta_system(struct ctr *c, uint64_t *off, uint64_t limit, const char *what)
{
	int ret;

	ret = ctr_string(c, *off, limit, MAX_NAME, "event system name", NULL, off);
	return ret ? ret : meta_files(c, off, limit, what);
}

static int meta_events(struct ctr *c, uint64_t *off, uint64_t limit)
{
	/* each system has at least a NUL and a 4-byte count */
	return meta_list(c, off, limit, 5, "event formats", meta_system);
}

/* The metadata that v6 files hold in a row, from header_page to cmdlines. */
static int meta_v6(struct ctr *c, uint64_t *off)
{
	uint64_t start = *off;
	int ret;

	ret = meta_headers(c, off, c->size);
	if (ret)
		return ret;
	layout_block(c, c->layout ? &c->layout->header_info : NULL, start, *off - start, false);
	start = *off;
	ret = meta_files(c, off, c->size, "ftrace formats");
	if (ret)
		return ret;
	layout_block(c, c->layout ? &c->layout->ftrace_formats : NULL, start, *off - start,
		     false);
	start = *off;
	ret = meta_events(c, off, c->size);
	if (ret)
		return ret;
	layout_block(c, c->layout ? &c->layout->event_formats : NULL, start, *off - start, false);
	start = *off;
	ret = meta_sized(c, off, c->size, 4, "kallsyms");
	if (!ret)
		layout_block(c, c->layout ? &c->layout->kallsyms : NULL, start, *off - start, false);
	if (!ret)
		ret = meta_sized(c, off, c->size, 4, "printk");
	if (ret)
		return ret;
	start = *off;
	ret = meta_sized(c, off, c->size, 8, "cmdlines");
	if (!ret)
		layout_block(c, c->layout ? &c->layout->cmdlines : NULL, start, *off - start, false);
	return ret;
}

/*
 * A v6 CPU table at @off (after its "flyrecord" tag): @nr_cpus pairs of
 * offset and size.  The data must follow the table and end inside the file.
 */
static int v6_flyrecord(struct ctr *c, uint64_t off, uint64_t nr_cpus, bool top)
{
	uint64_t table_end = off + 16 * nr_cpus;
	uint64_t doff, dsize, i;
	char what[32];
	int ret;

	ret = ctr_span(c, off, 16 * nr_cpus, c->size, "flyrecord CPU table");
	if (ret)
		return ret;
	ctr_visit(c, "flyrecord", off, 16 * nr_cpus);
	for (i = 0; i < nr_cpus; i++) {
		snprintf(what, sizeof(what), "CPU %llu data", (unsigned long long)i);
		ret = ctr_num(c, off + 16 * i, 8, c->size, what, &doff);
		if (!ret)
			ret = ctr_num(c, off + 16 * i + 8, 8, c->size, what, &dsize);
		if (ret)
			return ret;
		if (top) {
			struct sp_container_cpu e = { .cpu = i, .offset = doff, .size = dsize };

			ret = layout_add_cpu(c, &e);
			if (ret)
				return ret;
		}
		if (!dsize)
			continue;
		if (doff < table_end)
			return sp_error_set(c->err, -EBADMSG, off + 16 * i,
					    "%s offset 0x%llx points back into the file header (the file is damaged)",
					    what, (unsigned long long)doff);
		ret = ctr_span(c, doff, dsize, c->size, what);
		if (ret)
			return ret;
		ctr_visit(c, "cpu data", doff, dsize);
	}
	return 0;
}

/*
 * v6 options from @off to the zero option id; *@off ends after it.  The
 * first pass reads the CPU count option (it sets how many CPUs the tables
 * list), the second checks the CPU tables of the other buffer instances.
 */
static int v6_options(struct ctr *c, uint64_t *off, uint64_t *nr_cpus, bool instances)
{
	uint64_t id, len, val, p = *off;
	char tag[SP_DAT_TAG_LEN];
	int ret;

	for (;;) {
		ret = ctr_count_item(c, p);
		if (!ret)
			ret = ctr_num(c, p, 2, c->size, "options", &id);
		if (ret)
			return ret;
		if (!id)
			break;
		ret = ctr_num(c, p + 2, 4, c->size, "options", &len);
		if (!ret)
			ret = ctr_span(c, p + 6, len, c->size, "options");
		if (!ret && !instances)
			ret = check_option(c, id, p + 6, len);
		if (ret)
			return ret;
		if (!instances && id == SP_DAT_OPT_CPUCOUNT && len >= 4) {
			ret = ctr_num(c, p + 6, 4, c->size, "options", &val);
			if (!ret)
				ret = check_cpu_count(c, p + 6, val);
			if (ret)
				return ret;
			ctr_visit(c, "cpu count", p + 6, 4);
			*nr_cpus = val;
		} else if (instances && id == SP_DAT_OPT_BUFFER && len >= 8) {
			ret = ctr_num(c, p + 6, 8, c->size, "options", &val);
			if (!ret)
				ret = ctr_read(c, val, tag, sizeof(tag), c->size, "buffer instance");
			if (ret)
				return ret;
			if (memcmp(tag, SP_DAT_TAG_FLYRECORD, sizeof(tag)))
				return sp_error_set(c->err, -EBADMSG, val,
						    "buffer instance data does not start with \"flyrecord\" (the file is damaged)");
			ret = v6_flyrecord(c, val + sizeof(tag), *nr_cpus, false);
			if (ret)
				return ret;
		}
		if (!instances)
			ctr_visit(c, "option", p, 6 + len);
		p += 6 + len;
	}
	*off = p + 2;
	return 0;
}

static int check_v6(struct ctr *c, uint64_t off)
{
	uint64_t nr_cpus, opts;
	char tag[SP_DAT_TAG_LEN];
	int ret;

	ret = meta_v6(c, &off);
	if (!ret)
		ret = ctr_num(c, off, 4, c->size, "CPU count", &nr_cpus);
	if (!ret)
		ret = check_cpu_count(c, off, nr_cpus);
	if (ret)
		return ret;
	ctr_visit(c, "cpu count", off, 4);
	off += 4;

	ret = ctr_read(c, off, tag, sizeof(tag), c->size, "data type");
	if (ret)
		return ret;
	ctr_visit(c, "data type", off, sizeof(tag));
	off += sizeof(tag);
	opts = off;
	/* the word; the padding after it is not checked */
	if (!memcmp(tag, SP_DAT_TAG_OPTIONS, 7)) {
		ret = v6_options(c, &off, &nr_cpus, false);
		if (!ret)
			ret = ctr_read(c, off, tag, sizeof(tag), c->size, "data type");
		if (ret)
			return ret;
		ctr_visit(c, "data type", off, sizeof(tag));
		off += sizeof(tag);
	}
	if (!memcmp(tag, SP_DAT_TAG_LATENCY, 7))
		return 0;	/* the rest is text */
	if (memcmp(tag, SP_DAT_TAG_FLYRECORD, sizeof(tag)))
		return sp_error_set(c->err, -EBADMSG, off - sizeof(tag),
				    "unknown data type (expected flyrecord or latency; the file is damaged)");
	if (c->layout)
		c->layout->flyrecord = true;
	ret = v6_flyrecord(c, off, nr_cpus, true);
	if (!ret && opts != off)
		ret = v6_options(c, &opts, &nr_cpus, true);
	return ret;
}

static const char *section_name(unsigned int id)
{
	switch (id) {
	case SP_DAT_ID_DONE:			return "options section";
	case SP_DAT_OPT_BUFFER:			return "flyrecord buffer section";
	case SP_DAT_SEC_STRINGS:		return "strings section";
	case SP_DAT_SEC_HEADER_INFO:		return "header info section";
	case SP_DAT_SEC_FTRACE_EVENTS:		return "ftrace formats section";
	case SP_DAT_SEC_EVENT_FORMATS:		return "event formats section";
	case SP_DAT_SEC_KALLSYMS:		return "kallsyms section";
	case SP_DAT_SEC_PRINTK:			return "printk section";
	case SP_DAT_SEC_CMDLINES:		return "cmdlines section";
	case SP_DAT_OPT_BUFFER_TEXT:		return "latency buffer section";
	default:				return "section";
	}
}

/*
 * The v7 section header at @off: when @expect is not negative the section
 * must have that id (@what names the pointer that led here).  The section
 * must end inside the file, and a compressed block must have a sane header.
 */
static int v7_section(struct ctr *c, uint64_t off, int expect, const char *what,
		      struct section *s)
{
	unsigned char h[SP_DAT_SEC_HDR_SIZE];
	uint64_t size, zsize, rsize;
	int ret;

	ret = ctr_read(c, off, h, sizeof(h), c->size, what);
	if (ret)
		return ret;
	s->off = off;
	s->id = get_num(c, h, 2);
	s->flags = get_num(c, h + 2, 2);
	s->desc = (int32_t)get_num(c, h + 4, 4);
	size = get_num(c, h + 8, 8);
	if (expect >= 0 && s->id != (unsigned int)expect)
		return sp_error_set(c->err, -EBADMSG, off,
				    "%s leads to a section of type %u, not %d (the file is damaged)",
				    what, s->id, expect);
	ret = ctr_span(c, off + SP_DAT_SEC_HDR_SIZE, size, c->size, section_name(s->id));
	if (ret)
		return ret;
	s->data = off + SP_DAT_SEC_HDR_SIZE;
	s->end = s->data + size;
	if (!(s->flags & SP_DAT_SEC_FL_COMPRESS) || s->id == SP_DAT_OPT_BUFFER ||
	    s->id == SP_DAT_OPT_BUFFER_TEXT)
		return 0;
	ret = ctr_num(c, s->data, 4, s->end, section_name(s->id), &zsize);
	if (!ret)
		ret = ctr_num(c, s->data + 4, 4, s->end, section_name(s->id), &rsize);
	if (!ret)
		ret = ctr_span(c, s->data + 8, zsize, s->end, section_name(s->id));
	if (!ret)
		ret = check_block(c, s->data, zsize, rsize, SP_CONTAINER_MAX_CHUNK,
				  section_name(s->id));
	return ret;
}

/*
 * Every v7 section, in file order from the end of the header: trace-cmd
 * writes them back to back, and libtracecmd finds the strings sections by
 * this very walk.  Uncompressed metadata sections are checked inside too.
 */
static int v7_sections(struct ctr *c, uint64_t off)
{
	struct section s;
	uint64_t p, rsize;
	int ret;

	while (off < c->size) {
		ret = ctr_count_item(c, off);
		if (!ret)
			ret = v7_section(c, off, -1, "section", &s);
		if (ret)
			return ret;
		if (s.desc > c->max_desc) {
			c->max_desc = s.desc;
			c->max_desc_off = off;
		}
		p = s.data;
		if (s.id == SP_DAT_SEC_STRINGS) {
			rsize = s.end - s.data;
			if ((s.flags & SP_DAT_SEC_FL_COMPRESS) &&
			    (ret = ctr_num(c, s.data + 4, 4, s.end, "strings section", &rsize)))
				return ret;
			c->strings_size += rsize;
		} else if (!(s.flags & SP_DAT_SEC_FL_COMPRESS)) {
			switch (s.id) {
			case SP_DAT_SEC_HEADER_INFO:
				ret = meta_headers(c, &p, s.end);
				break;
			case SP_DAT_SEC_FTRACE_EVENTS:
				ret = meta_files(c, &p, s.end, "ftrace formats");
				break;
			case SP_DAT_SEC_EVENT_FORMATS:
				ret = meta_events(c, &p, s.end);
				break;
			case SP_DAT_SEC_KALLSYMS:
				ret = meta_sized(c, &p, s.end, 4, "kallsyms");
				break;
			case SP_DAT_SEC_PRINTK:
				ret = meta_sized(c, &p, s.end, 4, "printk");
				break;
			case SP_DAT_SEC_CMDLINES:
				ret = meta_sized(c, &p, s.end, 8, "cmdlines");
				break;
			}
			if (ret)
				return ret;
		}
		ctr_visit(c, "section", off, s.end - off);
		off = s.end;
	}
	return 0;
}

/*
 * Compressed trace data at @off: a 4-byte chunk count, then per chunk the
 * compressed and uncompressed sizes and the compressed bytes.  The chunks
 * must end inside @limit and inside the recorded @size (plus the count,
 * which trace-cmd before 3.2 left out of the recorded size).
 */
static int check_chunks(struct ctr *c, uint64_t off, uint64_t size, uint64_t limit,
			const char *what, struct sp_container_cpu *cpu)
{
	uint64_t count, zsize, rsize, i, p = off + SP_DAT_CHUNK_COUNT_SIZE;
	uint64_t max = SP_CONTAINER_MAX_CHUNK;
	int ret;

	ret = ctr_num(c, off, SP_DAT_CHUNK_COUNT_SIZE, limit, what, &count);
	if (ret)
		return ret;
	if (count > (limit - p) / SP_DAT_CHUNK_HDR_SIZE)
		return ctr_span(c, p, count * SP_DAT_CHUNK_HDR_SIZE, limit, what);
	/* CPU data is read a chunk at a time: that chunk is its memory */
	if (cpu)
		max = SP_CONTAINER_MAX_DATA_CHUNK;
	for (i = 0; i < count; i++) {
		ret = ctr_num(c, p, 4, limit, what, &zsize);
		if (!ret)
			ret = ctr_num(c, p + 4, 4, limit, what, &rsize);
		if (!ret)
			ret = check_block(c, p, zsize, rsize, max, what);
		if (!ret)
			ret = ctr_span(c, p + SP_DAT_CHUNK_HDR_SIZE, zsize, limit, what);
		if (ret)
			return ret;
		ctr_visit(c, "chunk", p, SP_DAT_CHUNK_HDR_SIZE + zsize);
		if (cpu) {
			if (rsize > cpu->largest_chunk)
				cpu->largest_chunk = rsize;
			if (i == count / 2)
				cpu->mid_chunk = p;
			cpu->last_chunk = p;
		}
		p += SP_DAT_CHUNK_HDR_SIZE + zsize;
	}
	if (cpu)
		cpu->nr_chunks = count;
	if (p - off > size + SP_DAT_CHUNK_COUNT_SIZE)
		return sp_error_set(c->err, -EBADMSG, off,
				    "compressed %s runs past its recorded size of %llu bytes (the file is damaged)",
				    what, (unsigned long long)size);
	return 0;
}

/* A BUFFER or BUFFER_TEXT option with data in [p, end). */
static int v7_buffer(struct ctr *c, unsigned int id, uint64_t p, uint64_t end)
{
	unsigned char seen[SP_CONTAINER_MAX_CPUS / 8] = { 0 };
	uint64_t sec_off, page_size, nr, cpu, doff, dsize, i, memory = 0;
	char name[MAX_NAME + 1];
	struct section s;
	char what[32];
	int ret;

	ret = ctr_num(c, p, 8, end, "buffer option", &sec_off);
	if (!ret)
		ret = ctr_string(c, p + 8, end, MAX_NAME, "buffer name", name, &p);
	if (!ret)
		ret = ctr_string(c, p, end, MAX_NAME, "buffer clock", NULL, &p);
	if (ret)
		return ret;
	if (sec_off >= c->size)
		return ctr_span(c, sec_off, SP_DAT_SEC_HDR_SIZE, c->size, "buffer section");
	ret = v7_section(c, sec_off, id, "buffer option", &s);
	if (ret)
		return ret;
	if (!name[0] && c->layout) {
		c->layout->flyrecord = id == SP_DAT_OPT_BUFFER;
		c->layout->compressed = id == SP_DAT_OPT_BUFFER && (s.flags & SP_DAT_SEC_FL_COMPRESS);
	}
	if (id == SP_DAT_OPT_BUFFER_TEXT)
		return (s.flags & SP_DAT_SEC_FL_COMPRESS) ?
			check_chunks(c, s.data, s.end - s.data, s.end, "latency data", NULL) : 0;

	ret = ctr_num(c, p, 4, end, "buffer option", &page_size);
	if (!ret)
		ret = check_page_size(c, p, page_size);
	if (!ret)
		ret = ctr_num(c, p + 4, 4, end, "buffer option", &nr);
	if (ret)
		return ret;
	p += 8;
	if (nr > SP_CONTAINER_MAX_CPUS)
		return sp_error_set(c->err, -EBADMSG, p - 4,
				    "buffer lists %llu CPUs, more than %u (the file is damaged)",
				    (unsigned long long)nr, SP_CONTAINER_MAX_CPUS);
	ret = ctr_span(c, p, nr * 20, end, "buffer option");
	if (ret)
		return ret;
	for (i = 0; i < nr; i++, p += 20) {
		struct sp_container_cpu e;

		ret = ctr_num(c, p, 4, end, "buffer option", &cpu);
		if (!ret)
			ret = ctr_num(c, p + 4, 8, end, "buffer option", &doff);
		if (!ret)
			ret = ctr_num(c, p + 12, 8, end, "buffer option", &dsize);
		if (ret)
			return ret;
		if (cpu >= SP_CONTAINER_MAX_CPUS || (seen[cpu / 8] & (1u << (cpu % 8))))
			return sp_error_set(c->err, -EBADMSG, p,
					    "buffer lists CPU %llu %s (the file is damaged)", (unsigned long long)cpu,
					    cpu >= SP_CONTAINER_MAX_CPUS ? "out of range" : "twice");
		seen[cpu / 8] |= 1u << (cpu % 8);
		if (!name[0] && cpu >= c->top_cpus)
			c->top_cpus = cpu + 1;
		e = (struct sp_container_cpu){ .cpu = cpu, .offset = doff, .size = dsize };
		if (!dsize) {
			if (!name[0] && (ret = layout_add_cpu(c, &e)))
				return ret;
			continue;
		}
		snprintf(what, sizeof(what), "CPU %llu data", (unsigned long long)cpu);
		if (doff < s.data)
			return sp_error_set(c->err, -EBADMSG, p + 4,
					    "%s offset 0x%llx points back before its buffer section at 0x%llx (the file is damaged)",
					    what, (unsigned long long)doff, (unsigned long long)s.off);
		if (s.flags & SP_DAT_SEC_FL_COMPRESS) {
			ret = check_chunks(c, doff, dsize, s.end, what, &e);
			/* every CPU holds its current chunk while the CPUs are merged */
			if (!name[0])
				memory += e.largest_chunk;
			if (!ret && memory > SP_CONTAINER_MAX_DATA_MEMORY)
				ret = sp_error_set(c->err, -EBADMSG, doff,
						   "compressed CPU data needs more than %u MiB to read: chunks up to %llu KiB per CPU (the file is damaged)",
						   SP_CONTAINER_MAX_DATA_MEMORY >> 20,
						   (unsigned long long)e.largest_chunk >> 10);
		} else {
			ret = ctr_span(c, doff, dsize, s.end, what);
		}
		if (!ret && !name[0])
			ret = layout_add_cpu(c, &e);
		if (ret)
			return ret;
		ctr_visit(c, "cpu data", doff, dsize);
	}
	return 0;
}

/* The options in section @s; *@next gets the DONE option's link and *@link its offset. */
static int v7_option_list(struct ctr *c, const struct section *s, uint64_t *next, uint64_t *link)
{
	uint64_t id, len, val, p = s->data;
	int ret;

	while (p < s->end) {
		ret = ctr_count_item(c, p);
		if (!ret)
			ret = ctr_num(c, p, 2, s->end, "option", &id);
		if (!ret)
			ret = ctr_num(c, p + 2, 4, s->end, "option", &len);
		if (!ret)
			ret = ctr_span(c, p + 6, len, s->end, "option");
		if (ret)
			return ret;
		ctr_visit(c, "option", p, 6 + len);
		ret = check_option(c, id, p + 6, len);
		if (ret)
			return ret;
		p += 6;
		switch (id) {
		case SP_DAT_ID_DONE:
			ret = ctr_num(c, p, 8, p + len, "DONE option", next);
			if (!ret)
				ctr_visit(c, "next options offset", p, 8);
			*link = p;
			return ret;
		case SP_DAT_OPT_CPUCOUNT:
			ret = ctr_num(c, p, 4, p + len, "CPU count option", &val);
			if (!ret)
				ret = check_cpu_count(c, p, val);
			if (ret)
				return ret;
			ctr_visit(c, "cpu count", p, 4);
			c->has_cpucount = true;
			break;
		case SP_DAT_OPT_BUFFER:
		case SP_DAT_OPT_BUFFER_TEXT:
			ret = v7_buffer(c, id, p, p + len);
			break;
		case SP_DAT_SEC_HEADER_INFO:
		case SP_DAT_SEC_FTRACE_EVENTS:
		case SP_DAT_SEC_EVENT_FORMATS:
		case SP_DAT_SEC_KALLSYMS:
		case SP_DAT_SEC_PRINTK:
		case SP_DAT_SEC_CMDLINES: {
			struct section target;

			ret = ctr_num(c, p, 8, p + len, "section option", &val);
			if (!ret && val >= c->size)
				ret = ctr_span(c, val, SP_DAT_SEC_HDR_SIZE, c->size, section_name(id));
			if (!ret)
				ret = v7_section(c, val, id, "section option", &target);
			if (!ret && c->layout) {
				struct sp_container_block *b =
					id == SP_DAT_SEC_HEADER_INFO ? &c->layout->header_info :
					id == SP_DAT_SEC_FTRACE_EVENTS ? &c->layout->ftrace_formats :
					id == SP_DAT_SEC_EVENT_FORMATS ? &c->layout->event_formats :
					id == SP_DAT_SEC_KALLSYMS ? &c->layout->kallsyms :
					id == SP_DAT_SEC_CMDLINES ? &c->layout->cmdlines : NULL;

				if (b)
					layout_block(c, b, target.data, target.end - target.data,
						     target.flags & SP_DAT_SEC_FL_COMPRESS);
			}
			break;
		}
		}
		if (ret)
			return ret;
		p += len;
	}
	return sp_error_set(c->err, -EBADMSG, s->off,
			    "options section has no DONE option (the file is damaged)");
}

/*
 * The chain of options sections from @off.  Each DONE option links the
 * next section or ends the chain with 0; links must point forward past the
 * section they are in, so the chain cannot loop.
 */
static int v7_options(struct ctr *c, uint64_t off, uint64_t header_end)
{
	uint64_t next = 0, link = 0;
	struct section s;
	int ret;

	if (off < header_end)
		return sp_error_set(c->err, -EBADMSG, header_end - 8,
				    "options offset 0x%llx points into the file header (the file is damaged)",
				    (unsigned long long)off);
	for (;;) {
		if (off >= c->size)
			return sp_error_set(c->err, -EBADMSG, off,
					    "truncated file: the options section is past the end (file ends at 0x%llx; was the recording interrupted?)",
					    (unsigned long long)c->size);
		ret = v7_section(c, off, SP_DAT_ID_DONE, "options link", &s);
		if (ret)
			return ret;
		if (s.flags & SP_DAT_SEC_FL_COMPRESS)
			return sp_error_set(c->err, -ENOTSUP, off,
					    "compressed options sections are not supported (convert the file with trace-cmd convert)");
		ctr_visit(c, "options", off, s.end - off);
		ret = v7_option_list(c, &s, &next, &link);
		if (ret || !next)
			return ret;
		if (next < s.end)
			return sp_error_set(c->err, -EBADMSG, link,
					    "next options section offset 0x%llx points backwards, before the end of this one at 0x%llx (a loop; the file is damaged)",
					    (unsigned long long)next, (unsigned long long)s.end);
		off = next;
	}
}

static int check_v7(struct ctr *c, uint64_t off)
{
	uint64_t options;
	int ret;

	ret = ctr_num(c, off, 8, c->size, "options offset", &options);
	if (ret)
		return ret;
	ctr_visit(c, "options offset", off, 8);
	off += 8;
	ret = v7_sections(c, off);
	if (!ret)
		ret = v7_options(c, options, off);
	if (ret)
		return ret;
	if (c->max_desc >= 0 && (uint64_t)c->max_desc >= c->strings_size)
		return sp_error_set(c->err, -EBADMSG, c->max_desc_off,
				    "truncated strings (a section names string %lld, the file has %llu bytes of strings; was the recording interrupted?)",
				    c->max_desc, (unsigned long long)c->strings_size);
	if (c->has_cpucount)
		return 0;
	if (!c->top_cpus)
		return sp_error_set(c->err, -EBADMSG, -1,
				    "the file has neither a CPU count nor CPU data (the file is damaged)");
	return check_cpu_count(c, -1, c->top_cpus);
}

/* Magic, version, byte order, long size, page size and (v7) compression. */
static int check_header(struct ctr *c, uint64_t *next)
{
	static const char magic[SP_DAT_MAGIC_LEN] = SP_DAT_MAGIC;
	unsigned char buf[SP_DAT_MAGIC_LEN];
	char ver[16], zver[64];
	size_t n = c->size < sizeof(buf) ? c->size : sizeof(buf);
	uint64_t off, p, val = 0;
	size_t i;
	int ret;

	ret = ctr_read(c, 0, buf, n, c->size, "magic");
	if (ret)
		return ret;
	if (memcmp(buf, magic, n))
		return sp_error_set(c->err, -EINVAL, -1,
				    "not a trace-cmd data file (no tracing magic); record one with trace-cmd record or schedplot record");
	ret = ctr_span(c, 0, sizeof(magic), c->size, "file header");
	if (!ret)
		ret = ctr_string(c, SP_DAT_MAGIC_LEN, c->size, sizeof(ver) - 1, "file version", ver,
				 &off);
	if (ret)
		return ret;
	ctr_visit(c, "magic", 0, SP_DAT_MAGIC_LEN);
	for (i = 0; ver[i] >= '0' && ver[i] <= '9' && i < 9; i++)
		val = val * 10 + (ver[i] - '0');
	if (!i || ver[i])
		return sp_error_set(c->err, -EBADMSG, SP_DAT_MAGIC_LEN,
				    "the file version is not a number (the file is damaged)");
	if (val < 6)
		return sp_error_set(c->err, -EPROTONOSUPPORT, SP_DAT_MAGIC_LEN,
				    "file version %llu is older than this schedplot reads (6 and 7); record the trace again with a current trace-cmd",
				    (unsigned long long)val);
	if (val > 7)
		return sp_error_set(c->err, -EPROTONOSUPPORT, SP_DAT_MAGIC_LEN,
				    "file version %llu is newer than this schedplot reads (6 and 7); convert it with trace-cmd convert --file-version 7",
				    (unsigned long long)val);
	c->info->version = val;
	ctr_visit(c, "version", SP_DAT_MAGIC_LEN, off - SP_DAT_MAGIC_LEN);

	ret = ctr_read(c, off, buf, 2, c->size, "file header");
	if (ret)
		return ret;
	if (buf[0] > 1)
		return sp_error_set(c->err, -EBADMSG, off,
				    "byte order flag is %u, not 0 or 1 (the file is damaged)", buf[0]);
	c->big_endian = buf[0];
	c->info->big_endian = buf[0];
	if (buf[1] != 4 && buf[1] != 8)
		return sp_error_set(c->err, -EBADMSG, off + 1,
				    "long size %u is not 4 or 8 (the file is damaged)", buf[1]);
	c->info->long_size = buf[1];
	off += 2;
	ret = ctr_num(c, off, 4, c->size, "page size", &val);
	if (!ret)
		ret = check_page_size(c, off, val);
	if (ret)
		return ret;
	c->info->page_size = val;
	ctr_visit(c, "page size", off, 4);
	off += 4;

	if (c->info->version < 7) {
		strcpy(c->info->compression, "none");
		*next = off;
		return 0;
	}
	ret = ctr_string(c, off, c->size, sizeof(c->info->compression) - 1, "compression name",
			 c->info->compression, &p);
	if (!ret)
		ret = ctr_string(c, p, c->size, sizeof(zver) - 1, "compression version", zver, &p);
	if (ret)
		return ret;
	if (strcmp(c->info->compression, "none") && strcmp(c->info->compression, "zstd") &&
	    strcmp(c->info->compression, "zlib"))
		return sp_error_set(c->err, -ENOTSUP, off,
				    "unknown compression \"%s\" (schedplot reads none, zlib and zstd); convert the file with trace-cmd convert --compression zstd",
				    c->info->compression);
	ctr_visit(c, "compression", off, p - off);
	*next = p;
	return 0;
}

static int check(const char *path, struct sp_container_info *info, struct sp_error *err,
		 void (*visit)(void *data, const char *what, uint64_t offset, uint64_t size),
		 void *data, struct sp_container_layout *layout)
{
	struct sp_container_info local;
	struct ctr c = { .max_desc = -1, .err = err, .visit = visit, .data = data,
			 .layout = layout };
	struct stat st;
	uint64_t off = 0;
	int ret;

	c.info = info ? info : &local;
	memset(c.info, 0, sizeof(*c.info));
	sp_error_clear(err);

	c.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0) {
		ret = -errno;
		return sp_error_set(err, ret, -1, "cannot open: %s", strerror(-ret));
	}
	if (fstat(c.fd, &st)) {
		ret = -errno;
		sp_error_set(err, ret, -1, "cannot read: %s", strerror(-ret));
	} else if (S_ISDIR(st.st_mode)) {
		ret = sp_error_set(err, -EISDIR, -1, "is a directory, not a trace-cmd data file");
	} else if (!S_ISREG(st.st_mode)) {
		ret = sp_error_set(err, -EINVAL, -1,
				   "not a regular file; save the trace to a file first");
	} else if (st.st_size == 0) {
		ret = sp_error_set(err, -ENODATA, -1, "empty file");
	} else {
		c.size = st.st_size;
		c.info->file_size = c.size;
		c.cache = malloc(CACHE_SIZE);	/* without it, every read is a pread */
		ret = check_header(&c, &off);
		if (!ret)
			ret = c.info->version == 6 ? check_v6(&c, off) : check_v7(&c, off);
	}
	free(c.cache);
	close(c.fd);
	return ret;
}

int sp_container_check_visit(const char *path, struct sp_container_info *info,
			     struct sp_error *err,
			     void (*visit)(void *data, const char *what,
					   uint64_t offset, uint64_t size),
			     void *data)
{
	return check(path, info, err, visit, data, NULL);
}

int sp_container_check(const char *path, struct sp_container_info *info, struct sp_error *err)
{
	return check(path, info, err, NULL, NULL, NULL);
}

int sp_container_layout(const char *path, struct sp_container_layout *layout,
			struct sp_error *err)
{
	memset(layout, 0, sizeof(*layout));
	return check(path, &layout->info, err, NULL, NULL, layout);
}

void sp_container_layout_release(struct sp_container_layout *layout)
{
	free(layout->cpus);
	free(layout->cpustats);
	memset(layout, 0, sizeof(*layout));
}
