// SPDX-License-Identifier: GPL-2.0-only
/*
 * metadata: the file's metadata blocks into a tep, and the trace_marker
 * texts schedplot record writes when tracing starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/decode.h"
#include "schedplot/trace/evformat.h"
#include "schedplot/trace/metadata.h"
#include "reader-internal.h"

/*
 * Only what the reader uses is loaded: the ring-buffer header formats, the
 * formats of the sched events and the saved cmdlines.  libtracecmd's
 * tracecmd_open_head() would also parse every other event format, the
 * ftrace formats, the printk formats and the saved kallsyms (megabytes of
 * text parsed with sscanf), which costs more than reading millions of
 * records.  The same libtraceevent parsers are used, so the formats are
 * the same.
 */
struct meta {
	char *buf;
	size_t size;
	size_t pos;
	bool big_endian;
};

int sp_metadata_damaged(struct sp_error *err, const char *what)
{
	return sp_error_set(err, -EBADMSG, -1, "damaged %s (the file is damaged)", what);
}

/*
 * A block's bytes, decompressed when its v7 section is (@what names it).
 * Return: 0 or -errno; -EBADMSG with @err set when the block is damaged.
 */
static int meta_load(const struct sp_container_layout *l, int fd,
		     const struct sp_container_block *b, const char *what, struct meta *m, struct sp_error *err)
{
	unsigned char hdr[8];
	size_t zsize, rsize;
	char *z = NULL;
	bool ok = false;
	int ret;

	memset(m, 0, sizeof(*m));
	m->big_endian = l->info.big_endian;
	if (!b->present || b->size > SP_CONTAINER_MAX_CHUNK)
		return sp_metadata_damaged(err, what);
	if (!b->compressed) {
		m->buf = malloc(b->size + 1);
		if (!m->buf)
			return -ENOMEM;
		if (pread(fd, m->buf, b->size, b->offset) != (ssize_t)b->size)
			return -EIO;
		m->size = b->size;
		m->buf[m->size] = '\0';
		return 0;
	}
	if (b->size < 8 || pread(fd, hdr, 8, b->offset) != 8)
		return -EIO;
	zsize = m->big_endian ? (size_t)hdr[0] << 24 | hdr[1] << 16 | hdr[2] << 8 | hdr[3] :
				(size_t)hdr[3] << 24 | hdr[2] << 16 | hdr[1] << 8 | hdr[0];
	rsize = m->big_endian ? (size_t)hdr[4] << 24 | hdr[5] << 16 | hdr[6] << 8 | hdr[7] :
				(size_t)hdr[7] << 24 | hdr[6] << 16 | hdr[5] << 8 | hdr[4];
	/* the container check made sure of the sizes and ratio */
	if (zsize > b->size - 8 || rsize > SP_CONTAINER_MAX_CHUNK)
		return sp_metadata_damaged(err, what);
	z = malloc(zsize ? zsize : 1);
	m->buf = malloc(rsize + 1);
	if (!z || !m->buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (pread(fd, z, zsize, b->offset + 8) != (ssize_t)zsize) {
		ret = -EIO;
		goto out;
	}
	if (!strcmp(l->info.compression, "zstd")) {
		size_t n = ZSTD_decompress(m->buf, rsize, z, zsize);

		ok = !ZSTD_isError(n) && n == rsize;
	} else if (!strcmp(l->info.compression, "zlib")) {
		uLongf n = rsize;

		ok = uncompress((Bytef *)m->buf, &n, (Bytef *)z, zsize) == Z_OK && n == rsize;
	}
	/* both stop at @rsize: a block that expands to more (a bomb) fails here */
	if (!ok) {
		ret = sp_error_set(err, -EBADMSG, b->offset,
				   "compressed %s section does not decompress to the %zu bytes it claims (the file is damaged)",
				   what, rsize);
		goto out;
	}
	m->size = rsize;
	m->buf[m->size] = '\0';
	ret = 0;
out:
	free(z);
	return ret;
}

static bool meta_num(struct meta *m, int n, uint64_t *val)
{
	const unsigned char *b = (const unsigned char *)m->buf + m->pos;
	int i;

	if (m->size - m->pos < (size_t)n)
		return false;
	*val = 0;
	for (i = 0; i < n; i++)
		*val |= (uint64_t)b[m->big_endian ? n - 1 - i : i] << (8 * i);
	m->pos += n;
	return true;
}

/* A NUL-terminated string; NULL when there is none. */
static const char *meta_str(struct meta *m)
{
	const char *s = m->buf + m->pos;
	const char *nul = memchr(s, '\0', m->size - m->pos);

	if (!nul)
		return NULL;
	m->pos += nul - s + 1;
	return s;
}

/* An 8-byte size and that many bytes: *@p points at them. */
static bool meta_sized(struct meta *m, char **p, uint64_t *len)
{
	if (!meta_num(m, 8, len) || *len > m->size - m->pos)
		return false;
	*p = m->buf + m->pos;
	m->pos += *len;
	return true;
}

static int load_header_info(struct tep_handle *tep, const struct sp_container_layout *l,
			    struct meta *m)
{
	const char *tag;
	uint64_t len;
	char *p;

	tag = meta_str(m);
	if (!tag || strcmp(tag, "header_page") || !meta_sized(m, &p, &len))
		return -EBADMSG;
	if (tep_parse_header_page(tep, p, len, l->info.long_size))
		return -EBADMSG;
	return 0;
}

static int load_sched_formats(struct tep_handle *tep, struct meta *m)
{
	uint64_t nr_systems, nr, len, i, j;
	const char *sys;
	char *p;

	if (!meta_num(m, 4, &nr_systems))
		return -EBADMSG;
	for (i = 0; i < nr_systems; i++) {
		sys = meta_str(m);
		if (!sys || !meta_num(m, 4, &nr))
			return -EBADMSG;
		for (j = 0; j < nr; j++) {
			if (!meta_sized(m, &p, &len))
				return -EBADMSG;
			/* a format that does not parse is left out, as libtracecmd does */
			if (!strcmp(sys, "sched") && !sp_evformat_check(p, len))
				tep_parse_event(tep, p, len, sys);
		}
	}
	return 0;
}

/*
 * Of the ftrace formats, only ftrace:print: the records schedplot record
 * writes to trace_marker (sp_reader_scan_markers()).  Best effort: a trace
 * without it is read as before.
 */
static void load_print_format(struct tep_handle *tep, struct meta *m)
{
	static const char name[] = "name: print\n";
	uint64_t nr, len, i;
	char *p;

	if (!meta_num(m, 4, &nr))
		return;
	for (i = 0; i < nr && meta_sized(m, &p, &len); i++) {
		if (len > sizeof(name) - 1 && !memcmp(p, name, sizeof(name) - 1) &&
		    !sp_evformat_check(p, len)) {
			tep_parse_event(tep, p, len, "ftrace");
			return;
		}
	}
}

static int load_cmdlines(struct tep_handle *tep, struct meta *m)
{
	uint64_t len;
	char *p;

	if (!meta_sized(m, &p, &len))
		return -EBADMSG;
	p[len] = '\0';	/* the byte after it is the next size or the NUL meta_load added */
	tep_parse_saved_cmdlines(tep, p);
	return 0;
}

int sp_metadata_load(const struct sp_container_layout *l, const char *path,
		     struct tep_handle **tep, struct sp_error *err)
{
	const struct sp_container_info *info = &l->info;
	struct meta m = { 0 };
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*tep = tep_alloc();
	if (!*tep) {
		ret = -ENOMEM;
		goto out;
	}
	tep_set_file_bigendian(*tep, info->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(*tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
					TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(*tep, info->long_size);
	tep_set_page_size(*tep, info->page_size);
	ret = meta_load(l, fd, &l->header_info, "header info", &m, err);
	if (!ret && load_header_info(*tep, l, &m))
		ret = sp_metadata_damaged(err, "page header");
	free(m.buf);
	if (ret)
		goto out;
	ret = meta_load(l, fd, &l->event_formats, "event formats", &m, err);
	if (!ret && load_sched_formats(*tep, &m))
		ret = sp_metadata_damaged(err, "event formats");
	free(m.buf);
	if (ret)
		goto out;
	if (l->ftrace_formats.present) {
		if (!meta_load(l, fd, &l->ftrace_formats, "ftrace formats", &m, NULL))
			load_print_format(*tep, &m);
		free(m.buf);
	}
	if (l->cmdlines.present) {
		ret = meta_load(l, fd, &l->cmdlines, "cmdlines", &m, err);
		if (!ret && load_cmdlines(*tep, &m))
			ret = sp_metadata_damaged(err, "cmdlines");
		free(m.buf);
	}
out:
	close(fd);
	return ret;
}

/* ---- events asked for by name ---- */

/* Whether the format text @p (@len bytes) is the one of event @name. */
static bool format_named(const char *p, uint64_t len, const char *name)
{
	size_t n = strlen(name);

	return len > 7 + n && !memcmp(p, "name: ", 6) && !memcmp(p + 6, name, n) &&
	       p[6 + n] == '\n';
}

/* Parse the format of @name into @tep.  Return: 0, or -EINVAL with @err set. */
static int parse_format(struct tep_handle *tep, const char *p, uint64_t len, const char *system,
			const char *name, struct sp_error *err)
{
	if (sp_evformat_check(p, len) || tep_parse_event(tep, p, len, system))
		return sp_error_set(err, -EINVAL, -1,
				    "the trace's format of %s:%s cannot be read", system, name);
	return 0;
}

int sp_metadata_load_event(const struct sp_container_layout *l, int fd, struct tep_handle *tep,
			   const char *system, const char *name, struct sp_error *err)
{
	bool ftrace = !strcmp(system, "ftrace");
	const struct sp_container_block *b = ftrace ? &l->ftrace_formats : &l->event_formats;
	uint64_t nr_systems = 1, nr, len, i, j;
	struct meta m = { 0 };
	const char *sys = system;
	char *p;
	int ret;

	if (!b->present)
		return -ENOENT;
	ret = meta_load(l, fd, b, ftrace ? "ftrace formats" : "event formats", &m, err);
	if (ret)
		goto out;
	ret = -ENOENT;
	if (!ftrace && !meta_num(&m, 4, &nr_systems))
		goto out;
	for (i = 0; i < nr_systems; i++) {
		if (!ftrace)
			sys = meta_str(&m);
		if (!sys || !meta_num(&m, 4, &nr))
			goto out;
		for (j = 0; j < nr; j++) {
			if (!meta_sized(&m, &p, &len))
				goto out;
			if (!strcmp(sys, system) && format_named(p, len, name)) {
				ret = parse_format(tep, p, len, system, name, err);
				goto out;
			}
		}
	}
out:
	free(m.buf);
	return ret;
}

/* ---- markers ---- */

/* Records looked at per CPU for markers: they are written when tracing starts. */
#define SP_MARKER_SCAN_RECORDS	512

/* Whether @rec is a print record starting with @prefix; its text into a new string. */
static char *marker_text(const struct sp_reader *r, const struct sp_raw_record *rec, int id,
			 const struct sp_field *type, int buf_offset, const char *prefix)
{
	size_t plen = strlen(prefix), n;
	const char *text;
	long long val;
	char *copy;

	if (!sp_field_read_int(r->swap, rec, type, &val) || val != id || buf_offset < 0 ||
	    (unsigned int)buf_offset >= rec->size)
		return NULL;
	text = (const char *)rec->data + buf_offset;
	n = strnlen(text, rec->size - buf_offset);
	if (n < plen || memcmp(text, prefix, plen))
		return NULL;
	copy = malloc(n + 1);
	if (copy) {
		memcpy(copy, text, n);
		copy[n] = '\0';
	}
	return copy;
}

int sp_reader_scan_markers(struct sp_reader *r, const char *prefix,
			   void (*fn)(void *data, const char *text), void *data)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, "ftrace", "print");
	struct tep_format_field *buf = ev ? tep_find_field(ev, "buf") : NULL;
	struct sp_raw_record rec;
	struct sp_field type;
	struct sp_error err;
	int cpu, i, found = 0;
	char *text;

	if (!buf)
		return 0;
	sp_field_find(ev, "common_type", &type);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct sp_reader_stream *s = &r->streams[cpu];
		struct tep_record *tr = NULL;

		if (!r->use_libtracecmd && !s->cs)
			continue;
		if (!r->use_libtracecmd)
			sp_cpustream_rewind(s->cs);
		/* read errors end the look at this CPU: the pass reports them */
		for (i = 0; i < SP_MARKER_SCAN_RECORDS; i++) {
			if (r->use_libtracecmd) {
				tracecmd_free_record(tr);
				tr = i ? tracecmd_read_data(r->handle, cpu) :
					 tracecmd_read_cpu_first(r->handle, cpu);
				if (!tr)
					break;
				rec.data = tr->data;
				rec.size = tr->size > 0 ? tr->size : 0;
			} else if (sp_cpustream_next(s->cs, &rec, &err) <= 0) {
				break;
			}
			text = marker_text(r, &rec, ev->id, &type, buf->offset, prefix);
			if (text) {
				fn(data, text);
				free(text);
				found++;
			}
		}
		tracecmd_free_record(tr);
		if (!r->use_libtracecmd)
			sp_cpustream_rewind(s->cs);
	}
	return found;
}

int sp_metadata_load_functions(const struct sp_container_layout *l, int fd, struct tep_handle *tep,
			       struct sp_error *err)
{
	struct meta m = { 0 };
	uint64_t len;
	int ret;

	if (!l->kallsyms.present)
		return -ENOENT;
	ret = meta_load(l, fd, &l->kallsyms, "kallsyms", &m, err);
	if (ret)
		goto out;
	ret = -ENOENT;
	if (!meta_num(&m, 4, &len) || len > m.size - m.pos || !len)
		goto out;
	/* the byte after the text is the NUL meta_load added, or the next block's */
	m.buf[m.pos + len] = '\0';
	ret = tep_parse_kallsyms(tep, m.buf + m.pos) ? sp_metadata_damaged(err, "kallsyms") : 0;
out:
	free(m.buf);
	return ret;
}
