// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer: records -> trace-cmd data file (version 6 or 7).
 *
 * Each CPU fills ring-buffer pages in the kernel's format; ten pages make
 * a chunk, which is compressed (version 7 with zstd) and appended to an
 * unlinked spool file as soon as it is full.  At close every size is
 * known, so the file is laid out in one go and written front to back:
 *
 *   v7: header | headers, ftrace, events, kallsyms, printk, cmdlines sections
 *       | options (metadata offsets, clock, uname, CPU count; DONE -> next)
 *       | buffer section (per-CPU data, page aligned) | options (BUFFER; DONE 0)
 *       | strings section
 *   v6: header | header_page ... cmdlines | CPU count | "options  " options
 *       | "flyrecord" CPU table, clock | per-CPU data, page aligned
 *
 * An event in a page (little endian, as kernel/trace/ring_buffer.c lays it;
 * big-endian files hold type_len in the high bits and time_delta below):
 *
 *   31          5 4     0
 *   +------------+-------+----------------------------+
 *   | time_delta |type_len| [length] | payload, 4-aligned
 *   +------------+-------+----------------------------+
 *   type_len 1..28: payload of type_len * 4 bytes follows the header
 *   type_len 0:     a 4-byte length (payload + 4) follows, then the payload
 *   type_len 30:    time extend: delta = next 4 bytes << 27 | time_delta
 *
 * The first event of a page has delta 0 from the page timestamp; a delta
 * that does not fit 27 bits is carried by a time extend, and the event
 * after it has delta 0.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zstd.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/trace/datfile.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/writer.h"

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

struct format {
	char *system;
	char *text;
	size_t len;
};

struct option {
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
	ZSTD_CCtx *cctx;
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
	struct format *formats;
	size_t nr_formats;
	size_t alloc_formats;
	struct option *options;
	size_t nr_options;
	size_t alloc_options;
	struct buf cmdlines;
	bool sched_formats;
	unsigned char scratch[512];
};

/* ------------------------------------------------------------------ */
/* Byte buffers, numbers in the file's byte order                      */

static void put_num(unsigned char *p, uint64_t v, int n, bool big_endian)
{
	int i;

	for (i = 0; i < n; i++)
		p[big_endian ? n - 1 - i : i] = v >> (8 * i);
}

static unsigned char *buf_room(struct buf *b, size_t n)
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

static void buf_bytes(struct buf *b, const void *data, size_t n)
{
	unsigned char *p = buf_room(b, n);

	if (p && n)
		memcpy(p, data, n);
}

static void buf_num(struct buf *b, uint64_t v, int n)
{
	unsigned char *p = buf_room(b, n);

	if (p)
		put_num(p, v, n, b->big_endian);
}

static void buf_str(struct buf *b, const char *s)
{
	buf_bytes(b, s, strlen(s) + 1);
}

static void buf_release(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* The built-in sched formats                                          */

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define STATE_MASK "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"
#define STATE_PREEMPT "(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"

#define WAKEUP_FORMAT(name, id) \
	"name: " name "\nID: " id "\nformat:\n" COMMON_FIELDS \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

#define STR(x) #x
#define XSTR(x) STR(x)

static const char *const sched_formats[] = {
	"name: sched_switch\nID: " XSTR(316) "\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & " STATE_MASK ") ? __print_flags(REC->prev_state & " STATE_MASK
	", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
	"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & "
	STATE_PREEMPT " ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n",

	WAKEUP_FORMAT("sched_wakeup", XSTR(317)),
	WAKEUP_FORMAT("sched_wakeup_new", XSTR(318)),
	WAKEUP_FORMAT("sched_waking", XSTR(319)),

	"name: sched_migrate_task\nID: " XSTR(320) "\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, "
	"REC->prio, REC->orig_cpu, REC->dest_cpu\n",

	"name: sched_process_fork\nID: " XSTR(321) "\nformat:\n" COMMON_FIELDS
	"\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
	"REC->parent_pid, REC->child_comm, REC->child_pid\n",

	"name: sched_process_exec\nID: " XSTR(322) "\nformat:\n" COMMON_FIELDS
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n",

	"name: sched_process_exit\nID: " XSTR(323) "\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n",
};

_Static_assert(SP_WRITER_ID_SWITCH == 316 && SP_WRITER_ID_EXIT == 323,
	       "the format texts spell out these ids");

static const char default_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* ------------------------------------------------------------------ */
/* Setup                                                               */

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
static int open_spool(struct sp_writer *w, struct sp_error *err)
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

static int valid_page_size(unsigned int n)
{
	return n >= 4096 && n <= (1u << 20) && !(n & (n - 1));
}

struct sp_writer *sp_writer_open(const char *path, const struct sp_writer_options *opts,
				 struct sp_error *err)
{
	struct sp_writer *w;
	struct utsname u;
	char hp[512];

	if (opts->file_version && opts->file_version != 6 && opts->file_version != 7) {
		sp_error_set(err, -EINVAL, -1, "file version %d is not 6 or 7", opts->file_version);
		return NULL;
	}
	if (opts->nr_cpus < 1 || opts->nr_cpus > SP_WRITER_MAX_CPUS) {
		sp_error_set(err, -EINVAL, -1, "CPU count %d is not in 1..%d", opts->nr_cpus,
			     SP_WRITER_MAX_CPUS);
		return NULL;
	}
	if (opts->page_size && !valid_page_size(opts->page_size)) {
		sp_error_set(err, -EINVAL, -1, "page size %u is not a power of two from 4 KiB to 1 MiB",
			     opts->page_size);
		return NULL;
	}
	if (opts->compression && strcmp(opts->compression, "zstd") &&
	    strcmp(opts->compression, "none")) {
		sp_error_set(err, -EINVAL, -1, "unknown compression \"%s\" (zstd or none)",
			     opts->compression);
		return NULL;
	}
	if (opts->file_version == 6 && opts->compression && !strcmp(opts->compression, "zstd")) {
		sp_error_set(err, -EINVAL, -1, "file version 6 cannot be compressed");
		return NULL;
	}

	w = calloc(1, sizeof(*w));
	if (!w) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	w->spool_fd = -1;
	w->version = opts->file_version ? opts->file_version : 7;
	w->compress = w->version == 7 && (!opts->compression || !strcmp(opts->compression, "zstd"));
	w->level = opts->compression_level ? opts->compression_level : 1;
	w->nr_cpus = opts->nr_cpus;
	w->big_endian = opts->big_endian;
	w->page_size = opts->page_size ? opts->page_size : 4096;
	w->trace_id = opts->trace_id;
	w->clock = strdup(opts->clock ? opts->clock : "local");
	if (opts->uname) {
		w->uname = strdup(opts->uname);
	} else if (!uname(&u)) {
		if (asprintf(&w->uname, "%s %s %s %s", u.sysname, u.nodename, u.release,
			     u.machine) < 0)
			w->uname = NULL;
	} else {
		w->uname = strdup("Linux");
	}
	snprintf(hp, sizeof(hp),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:0;\n",
		 w->page_size - PAGE_HDR_SIZE);
	w->header_page = strdup(opts->header_page ? opts->header_page : hp);
	w->header_event = strdup(opts->header_event ? opts->header_event : default_header_event);
	w->cpus = sp_alloc_array(w->nr_cpus, sizeof(*w->cpus));
	if (!w->clock || !w->uname || !w->header_page || !w->header_event || !w->cpus) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	if (w->compress) {
		w->cctx = ZSTD_createCCtx();
		w->zbuf_len = ZSTD_compressBound((size_t)SP_DAT_PAGES_IN_CHUNK * w->page_size);
		w->zbuf = malloc(w->zbuf_len + SP_DAT_CHUNK_HDR_SIZE);
		if (!w->cctx || !w->zbuf) {
			sp_error_set(err, -ENOMEM, -1, "out of memory");
			goto fail;
		}
	}
	if (sp_tempfile_open(&w->out, path, O_WRONLY | SP_TEMPFILE_DEFER, err) ||
	    open_spool(w, err))
		goto fail;
	return w;
fail:
	sp_writer_abort(w);
	return NULL;
}

int sp_writer_add_format(struct sp_writer *w, const char *system, const char *format,
			 size_t len, struct sp_error *err)
{
	struct format *f;

	if (sp_grow_array(&w->formats, &w->alloc_formats, w->nr_formats + 1, sizeof(*f)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	f = &w->formats[w->nr_formats];
	f->system = strdup(system);
	f->text = malloc(len ? len : 1);
	if (!f->system || !f->text) {
		free(f->system);
		free(f->text);
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	memcpy(f->text, format, len);
	f->len = len;
	w->nr_formats++;
	return 0;
}

int sp_writer_add_sched_formats(struct sp_writer *w, struct sp_error *err)
{
	size_t i;
	int ret;

	if (w->sched_formats)
		return 0;
	for (i = 0; i < sizeof(sched_formats) / sizeof(sched_formats[0]); i++) {
		ret = sp_writer_add_format(w, "sched", sched_formats[i], strlen(sched_formats[i]),
					   err);
		if (ret)
			return ret;
	}
	w->sched_formats = true;
	return 0;
}

int sp_writer_add_cmdline(struct sp_writer *w, int pid, const char *comm, struct sp_error *err)
{
	char line[64];
	int n;

	n = snprintf(line, sizeof(line), "%d %.15s\n", pid, comm ? comm : "");
	buf_bytes(&w->cmdlines, line, n);
	return w->cmdlines.failed ? sp_error_set(err, -ENOMEM, -1, "out of memory") : 0;
}

int sp_writer_add_cmdlines_text(struct sp_writer *w, const char *text, size_t len,
				struct sp_error *err)
{
	buf_bytes(&w->cmdlines, text, len);
	if (len && text[len - 1] != '\n')
		buf_bytes(&w->cmdlines, "\n", 1);
	return w->cmdlines.failed ? sp_error_set(err, -ENOMEM, -1, "out of memory") : 0;
}

int sp_writer_add_option(struct sp_writer *w, unsigned int id, const void *data, size_t len,
			 struct sp_error *err)
{
	struct option *o;

	if (id == SP_DAT_ID_DONE || id == SP_DAT_OPT_BUFFER || id == SP_DAT_OPT_TRACECLOCK ||
	    id == SP_DAT_OPT_UNAME || id == SP_DAT_OPT_CPUCOUNT || id == SP_DAT_OPT_TRACEID ||
	    id >= SP_DAT_SEC_STRINGS || len > UINT32_MAX / 2)
		return sp_error_set(err, -EINVAL, -1, "option %u is written by the writer itself",
				    id);
	if (sp_grow_array(&w->options, &w->alloc_options, w->nr_options + 1, sizeof(*o)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	o = &w->options[w->nr_options];
	o->data = malloc(len ? len : 1);
	if (!o->data)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	memcpy(o->data, data, len);
	o->id = id;
	o->len = len;
	w->nr_options++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Pages, chunks and the spool                                         */

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

/* The output is written front to back: a FIFO or a device takes it too. */
static int write_seq(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= n;
	}
	return 0;
}

static int io_error(struct sp_error *err, int ret, const char *what)
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
		return io_error(err, ret, "the temporary trace data");
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

/* ------------------------------------------------------------------ */
/* Sched events                                                        */

static void put_comm(unsigned char *p, const char *comm)
{
	size_t n = comm ? strnlen(comm, COMM_LEN - 1) : 0;

	memset(p, 0, COMM_LEN);
	if (n)
		memcpy(p, comm, n);
}

int sp_writer_write_event(struct sp_writer *w, const struct sp_event *ev, struct sp_error *err)
{
	unsigned char *p = w->scratch;
	size_t len, n;

	if (!w->sched_formats)
		return sp_error_set(err, -EINVAL, -1, "the sched formats were not added");
	memset(p, 0, 64);
	put_num(p + 4, (uint32_t)ev->common_pid, 4, w->big_endian);
	switch (ev->type) {
	case SP_EV_SWITCH:
		put_num(p, SP_WRITER_ID_SWITCH, 2, w->big_endian);
		put_comm(p + 8, ev->comm);
		put_num(p + 24, (uint32_t)ev->pid, 4, w->big_endian);
		put_num(p + 28, 120, 4, w->big_endian);
		put_num(p + 32, ev->prev_runnable ? 0 : 1, 8, w->big_endian);
		put_comm(p + 40, ev->other_comm);
		put_num(p + 56, (uint32_t)ev->other_pid, 4, w->big_endian);
		put_num(p + 60, 120, 4, w->big_endian);
		len = 64;
		break;
	case SP_EV_WAKEUP:
	case SP_EV_WAKEUP_NEW:
	case SP_EV_WAKING:
		put_num(p, ev->type == SP_EV_WAKEUP ? SP_WRITER_ID_WAKEUP :
			  ev->type == SP_EV_WAKEUP_NEW ? SP_WRITER_ID_WAKEUP_NEW :
			  SP_WRITER_ID_WAKING, 2, w->big_endian);
		put_comm(p + 8, ev->comm);
		put_num(p + 24, (uint32_t)ev->pid, 4, w->big_endian);
		put_num(p + 28, 120, 4, w->big_endian);
		put_num(p + 32, (uint32_t)ev->target_cpu, 4, w->big_endian);
		len = 36;
		break;
	case SP_EV_MIGRATE:
		put_num(p, SP_WRITER_ID_MIGRATE, 2, w->big_endian);
		put_comm(p + 8, ev->comm);
		put_num(p + 24, (uint32_t)ev->pid, 4, w->big_endian);
		put_num(p + 28, 120, 4, w->big_endian);
		put_num(p + 32, (uint32_t)ev->orig_cpu, 4, w->big_endian);
		put_num(p + 36, (uint32_t)ev->target_cpu, 4, w->big_endian);
		len = 40;
		break;
	case SP_EV_FORK:
		put_num(p, SP_WRITER_ID_FORK, 2, w->big_endian);
		put_comm(p + 8, ev->comm);
		put_num(p + 24, (uint32_t)ev->pid, 4, w->big_endian);
		put_comm(p + 28, ev->other_comm);
		put_num(p + 44, (uint32_t)ev->other_pid, 4, w->big_endian);
		len = 48;
		break;
	case SP_EV_EXEC:
		put_num(p, SP_WRITER_ID_EXEC, 2, w->big_endian);
		n = ev->comm ? strnlen(ev->comm, 255) : 0;
		/* __data_loc: length << 16 | offset */
		put_num(p + 8, 20 | (uint32_t)(n + 1) << 16, 4, w->big_endian);
		put_num(p + 12, (uint32_t)ev->pid, 4, w->big_endian);
		put_num(p + 16, (uint32_t)ev->pid, 4, w->big_endian);
		if (n)
			memcpy(p + 20, ev->comm, n);
		p[20 + n] = '\0';
		len = 21 + n;
		break;
	case SP_EV_EXIT:
		put_num(p, SP_WRITER_ID_EXIT, 2, w->big_endian);
		put_comm(p + 8, ev->comm);
		put_num(p + 24, (uint32_t)ev->pid, 4, w->big_endian);
		put_num(p + 28, 120, 4, w->big_endian);
		len = 32;
		break;
	default:
		return sp_error_set(err, -EINVAL, -1, "event type %d has no built-in format",
				    ev->type);
	}
	return sp_writer_write_raw(w, ev->cpu, ev->ts_ns, p, len, err);
}

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
	ret = write_seq(o->fd, o->buf, o->n);
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
	option_num(b, SP_DAT_OPT_CPUCOUNT, w->nr_cpus, 4);
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

	for (i = 0; i < w->nr_cpus; i++) {
		struct wcpu *c = &w->cpus[i];

		p = align_up(p, w->page_size);
		offs[i] = p;
		if (c->nr_chunks)
			p += c->file_bytes + (w->compress ? SP_DAT_CHUNK_COUNT_SIZE : 0);
	}
	*end = p;
}

static void write_cpus(struct sp_writer *w, struct out *o, const uint64_t *offs)
{
	size_t k;
	int i;

	for (i = 0; i < w->nr_cpus && !o->ret; i++) {
		struct wcpu *c = &w->cpus[i];

		if (!c->nr_chunks)
			continue;
		out_zero(o, offs[i] - o->off);
		if (w->compress)
			out_num(o, c->nr_chunks, SP_DAT_CHUNK_COUNT_SIZE);
		for (k = 0; k < c->nr_chunks; k++)
			out_spool(o, w->spool_fd, c->chunks[k].spool_off, c->chunks[k].len);
	}
}

static int write_v6(struct sp_writer *w, struct out *o, struct sp_error *err)
{
	struct buf b = { .big_endian = w->big_endian };
	uint64_t *offs, table, data_start, end;
	char clock[128];
	int i, ret = 0;

	offs = sp_alloc_array(w->nr_cpus, sizeof(*offs));
	if (!offs)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	buf_bytes(&b, SP_DAT_MAGIC "6", SP_DAT_MAGIC_LEN + 2);	/* with the NUL */
	buf_num(&b, w->big_endian, 1);		/* byte order */
	buf_num(&b, LONG_SIZE, 1);
	buf_num(&b, w->page_size, 4);
	meta_headers(w, &b);
	meta_ftrace(w, &b);
	meta_events(w, &b);
	meta_empty4(&b);			/* kallsyms */
	meta_empty4(&b);			/* printk */
	meta_cmdlines(w, &b);
	buf_num(&b, w->nr_cpus, 4);
	buf_bytes(&b, SP_DAT_TAG_OPTIONS, SP_DAT_TAG_LEN);
	common_options(w, &b);
	buf_num(&b, 0, 2);
	buf_bytes(&b, SP_DAT_TAG_FLYRECORD, SP_DAT_TAG_LEN);
	table = b.len;
	snprintf(clock, sizeof(clock), "[%s]", w->clock);
	data_start = table + 16ull * w->nr_cpus + 8 + strlen(clock);
	layout_cpus(w, data_start, offs, &end);
	for (i = 0; i < w->nr_cpus; i++) {
		struct wcpu *c = &w->cpus[i];

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
	bool z = w->compress && may_compress;

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
		n = ZSTD_compressCCtx(w->cctx, p + 8, bound, data->p, data->len, 19);
		if (ZSTD_isError(n))
			return -EIO;
		put_num(p, n, 4, w->big_endian);
		put_num(p + 4, data->len, 4, w->big_endian);
		file->len -= bound - n;
		put_num(p - 8, n + 8, 8, w->big_endian);
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
	struct buf b = { .big_endian = w->big_endian }, m = b, opts = b, strs = b;
	uint64_t sec_off[6], opt1, buf_sec, buf_data, end, opt2;
	uint64_t *offs = NULL;
	char zver[32];
	const char *comp = w->compress ? "zstd" : "none";
	int i, nr_with_data = 0, ret = 0;

	offs = sp_alloc_array(w->nr_cpus, sizeof(*offs));
	if (!offs)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	for (i = 0; i < NR_STRINGS; i++) {
		str_id[i] = strs.len;
		buf_str(&strs, strings[i]);
	}
	snprintf(zver, sizeof(zver), "%s", w->compress ? ZSTD_versionString() : "");

	buf_bytes(&b, SP_DAT_MAGIC "7", SP_DAT_MAGIC_LEN + 2);	/* with the NUL */
	buf_num(&b, w->big_endian, 1);
	buf_num(&b, LONG_SIZE, 1);
	buf_num(&b, w->page_size, 4);
	buf_str(&b, comp);
	buf_str(&b, zver);
	buf_num(&b, 0, 8);			/* first options section, set below */
	for (i = 0; i < 6 && !ret; i++) {
		m.len = 0;
		switch (i) {
		case 0: meta_headers(w, &m); break;
		case 1: meta_ftrace(w, &m); break;
		case 2: meta_events(w, &m); break;
		case 3: meta_empty4(&m); break;
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
	buf_num(&b, w->compress ? SP_DAT_SEC_FL_COMPRESS : 0, 2);
	buf_num(&b, str_id[STR_BUFFER], 4);
	buf_num(&b, end - buf_data, 8);
	opt2 = end;
	put_num(b.p + b.len - 16 - 8, opt2, 8, w->big_endian);	/* DONE link of options 1 */
	put_num(b.p + SP_DAT_MAGIC_LEN + 2 + 2 + 4 + strlen(comp) + 1 + strlen(zver) + 1, opt1, 8,
		w->big_endian);
	if (b.failed) {
		ret = -ENOMEM;
		goto fail;
	}
	out_bytes(o, b.p, b.len);
	write_cpus(w, o, offs);
	out_zero(o, end - o->off);

	/* options 2: the BUFFER option; then the strings */
	opts.len = 0;
	for (i = 0; i < w->nr_cpus; i++)
		nr_with_data += w->cpus[i].nr_chunks > 0;
	buf_num(&opts, SP_DAT_OPT_BUFFER, 2);
	buf_num(&opts, 8 + 1 + strlen(w->clock) + 1 + 4 + 4 + 20ull * nr_with_data, 4);
	buf_num(&opts, buf_sec, 8);
	buf_str(&opts, "");
	buf_str(&opts, w->clock);
	buf_num(&opts, w->page_size, 4);
	buf_num(&opts, nr_with_data, 4);
	for (i = 0; i < w->nr_cpus; i++) {
		if (!w->cpus[i].nr_chunks)
			continue;
		buf_num(&opts, i, 4);
		buf_num(&opts, offs[i], 8);
		buf_num(&opts, w->cpus[i].file_bytes, 8);
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

int sp_writer_close(struct sp_writer *w, struct sp_error *err)
{
	struct out *o = NULL;
	int i, ret = 0;

	for (i = 0; i < w->nr_cpus && !ret; i++) {
		struct wcpu *c = &w->cpus[i];

		if (c->chunk) {
			ret = finish_page(w, c, err);
			if (!ret)
				ret = flush_chunk(w, c, err);
		}
	}
	if (ret)
		goto out;
	o = calloc(1, sizeof(*o));
	if (!o) {
		ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto out;
	}
	ret = sp_tempfile_ready(&w->out, err);
	if (ret)
		goto out;
	o->fd = w->out.fd;
	o->big_endian = w->big_endian;
	ret = w->version == 6 ? write_v6(w, o, err) : write_v7(w, o, err);
	if (ret)
		goto out;
	out_flush(o);
	if (o->ret) {
		ret = io_error(err, o->ret, "the trace");
		goto out;
	}
	ret = sp_tempfile_commit(&w->out, err);
out:
	free(o);
	sp_writer_abort(w);
	return ret;
}

void sp_writer_abort(struct sp_writer *w)
{
	size_t i;

	if (!w)
		return;
	sp_tempfile_discard(&w->out);
	if (w->spool_fd >= 0)
		close(w->spool_fd);
	for (i = 0; w->cpus && i < (size_t)w->nr_cpus; i++) {
		free(w->cpus[i].chunk);
		free(w->cpus[i].chunks);
	}
	for (i = 0; i < w->nr_formats; i++) {
		free(w->formats[i].system);
		free(w->formats[i].text);
	}
	for (i = 0; i < w->nr_options; i++)
		free(w->options[i].data);
	buf_release(&w->cmdlines);
	ZSTD_freeCCtx(w->cctx);
	free(w->zbuf);
	free(w->cpus);
	free(w->formats);
	free(w->options);
	free(w->clock);
	free(w->uname);
	free(w->header_page);
	free(w->header_event);
	free(w);
}
