// SPDX-License-Identifier: GPL-2.0-only
/*
 * reader: trace-cmd .dat file -> struct sp_event, in trace order.
 *
 * The metadata the reader needs (header page, sched event formats, saved
 * cmdlines) is loaded here and parsed with libtraceevent (load_metadata());
 * event ids and field offsets are looked up once per file.  The
 * ring-buffer data is read by cpustream, one stream per CPU, straight from
 * the file (libtracecmd's compressed-data path is several times slower than
 * the data and allocates a record per event).  The streams are merged here
 * with a tournament tree, one comparison per level, log2(CPUs) per record;
 * from 16 CPUs on, in batches sorted by radix, in a second thread
 * (merge_batches()).
 *
 * libtracecmd opens and reads the file itself (tracecmd_open() and
 * tracecmd_read_data() per CPU) only for files cpustream does not handle:
 * options that shift or scale timestamps (trace-cmd record --date,
 * --ts-offset, --tsc2nsec, guest time sync), ring-buffer pages of kernels
 * before 2.6.31 and unusual layouts; and only after a child process came
 * through reading them (libtracecmd_trial()).
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <zlib.h>
#include <zstd.h>

#include "schedplot/container.h"
#include "schedplot/cpustream.h"
#include "schedplot/error.h"
#include "schedplot/evformat.h"
#include "schedplot/radix.h"
#include "schedplot/reader.h"
#include "schedplot/sanitizer.h"

/*
 * Not in libtracecmd's public header, but exported by it (1.3): the CPU
 * count of the file and the hook to add a compression codec.  Debian's
 * libtracecmd is built without zlib, so it cannot read the zlib-compressed
 * files trace-cmd builds with zlib write; registering our own zlib codec
 * through this hook lets it read them.  The struct mirrors libtracecmd 1.3.
 */
int tracecmd_cpus(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

struct tracecmd_compression_proto {
	int weight;
	const char *name;
	const char *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

int tracecmd_compress_proto_register(struct tracecmd_compression_proto *proto);
bool tracecmd_compress_is_supported(const char *name, const char *version);

#define SP_COMM_LEN		64
#define SP_STATE_CACHE		64
/* The merge in batches (merge_batches()): from how many CPUs, how many records queued */
#define SP_BATCH_MIN_LEAVES	16
#define SP_BATCH_RECORDS	8192
#define SP_BATCH_OUT		4	/* a handover holds up to this many queues' worth */
#define SP_NAME_INLINE		16	/* longer command names are kept aside */
/* Bytes of uncompressed data all streams of a file read at a time, together. */
#define SP_WINDOW_TOTAL		(32u << 20)
#define SP_WINDOW_MAX		(1u << 20)

/* A field's place in the record, resolved once. */
struct field {
	int offset;
	int size;		/* 0: the event has no such field */
	bool is_signed;
	bool dynamic;		/* __data_loc / __rel_loc string */
	bool relative;		/* __rel_loc */
};

struct sched_fields {
	struct tep_event *event;
	struct field pid;		/* prev_pid, pid, parent_pid */
	struct field other_pid;		/* next_pid, child_pid */
	struct field comm;		/* prev_comm, comm, parent_comm */
	struct field other_comm;	/* next_comm, child_comm */
	struct field prev_state;
	struct field target_cpu;	/* target_cpu, dest_cpu */
	struct field orig_cpu;
	/*
	 * The usual layout: the ids are 4-byte ints, the names fixed arrays,
	 * and the file has the host's byte order.  A record of at least @end
	 * bytes is then read without a check per field.
	 */
	bool fast;
	unsigned int end;
};

/* What prev_state values mean, learned from the event's own print format. */
struct state_cache_entry {
	unsigned long long value;
	bool runnable;
};

/* One CPU's next record. */
struct cpu_stream {
	struct sp_cpustream *cs;	/* cpustream mode */
	struct tep_record *held;	/* libtracecmd mode: the record in @cur */
	struct sp_raw_record cur;
	uint64_t first_ns;		/* span: UINT64_MAX when the CPU has no records */
	uint64_t last_ns;
};

/* A merge key: the next record's timestamp, then the CPU's rank (ties: lower CPU). */
struct merge_key {
	uint64_t ts;
	uint32_t rank;		/* the leaf; ended streams rank after every other */
};

struct sp_reader_batch;
static void batch_free(struct sp_reader_batch *b);

struct sp_reader {
	struct tracecmd_input *handle;	/* libtracecmd mode only */
	struct tep_handle *tep;
	bool own_tep;			/* loaded here, not by libtracecmd */
	bool use_libtracecmd;		/* the data is read by libtracecmd */
	int trial_fd;			/* this process only tries the file (libtracecmd_trial()):
					 * where its error goes; else -1 */
	unsigned int page_size;
	int kbuf_long_size;		/* the ring-buffer page header's commit field */
	int fd;
	struct sp_container_layout layout;
	struct sp_cpustream_scratch *scratch;	/* shared by the CPUs' streams */
	int nr_cpus;
	bool swap;			/* file and host byte order differ */
	struct field common_type;
	struct field common_pid;
	bool common_fast;		/* the usual common fields: u16 type at 0, s32 pid at 4 */
	uint8_t *type_of_id;		/* event id -> enum sp_event_type */
	int nr_ids;
	struct sched_fields fields[SP_EV_NR_TYPES];
	struct state_cache_entry state_cache[SP_STATE_CACHE];
	int nr_state_cache;
	struct trace_seq seq;
	uint64_t *lost;			/* per CPU */
	struct cpu_stream *streams;
	/*
	 * The merge: a loser tree over the CPUs that have records.  Leaf i is
	 * CPU leaf_cpu[i] with key[i]; node[0] is the winner (the earliest
	 * next record), node[1..nr_leaves) the loser of the match played there.
	 */
	struct merge_key *key;
	int *node;
	int *leaf_cpu;
	int nr_leaves;
	int batch_min_leaves;		/* merge in batches from this many leaves; 0: never */
	struct sp_reader_batch *batch;
	sp_progress_fn progress;
	void *progress_data;
	uint64_t first_ns;
	uint64_t last_ns;
	char comm_buf[SP_COMM_LEN];
	char other_comm_buf[SP_COMM_LEN];
};

static int zlib_uncompress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf out_len = out_bytes;

	if (in_bytes < 0 || out_bytes < 0)
		return -1;
	if (uncompress(out, &out_len, in, in_bytes) != Z_OK)
		return -1;
	return (int)out_len;
}

static int zlib_compress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf out_len = out_bytes;

	if (compress2(out, &out_len, in, in_bytes, Z_BEST_COMPRESSION) != Z_OK)
		return -1;
	return (int)out_len;
}

static unsigned int zlib_bound(void *ctx, unsigned int bytes)
{
	return compressBound(bytes);
}

static bool zlib_supported(const char *name, const char *version)
{
	return name && !strcmp(name, "zlib");
}

/* Once per process: teach libtracecmd zlib unless it knows it already. */
static void register_zlib(void)
{
	static bool done;
	struct tracecmd_compression_proto proto = {
		.weight = 10,
		.name = "zlib",
		.version = zlibVersion(),
		.compress = zlib_compress,
		.uncompress = zlib_uncompress,
		.compress_size = zlib_bound,
		.is_supported = zlib_supported,
	};

	if (done)
		return;
	done = true;
	if (!tracecmd_compress_is_supported("zlib", NULL))
		tracecmd_compress_proto_register(&proto);
}

static void find_field(struct tep_event *event, const char *name, struct field *f)
{
	struct tep_format_field *tf;

	memset(f, 0, sizeof(*f));
	tf = event && name ? tep_find_any_field(event, name) : NULL;
	if (!tf || tf->offset < 0 || tf->size <= 0 || tf->offset > 0xffff || tf->size > 0xffff)
		return;
	f->offset = tf->offset;
	f->size = tf->size;
	f->is_signed = tf->flags & TEP_FIELD_IS_SIGNED;
	f->dynamic = tf->flags & TEP_FIELD_IS_DYNAMIC;
	f->relative = tf->flags & TEP_FIELD_IS_RELATIVE;
}

/* Whether @f fits the fast path of decode(); how many bytes it then needs. */
static void plan_fast(const struct sp_reader *r, struct sched_fields *f)
{
	const struct field *ids[] = { &f->pid, &f->other_pid, &f->target_cpu, &f->orig_cpu };
	const struct field *rest[] = { &f->comm, &f->other_comm, &f->prev_state };
	size_t i;

	f->fast = !r->swap;
	f->end = 0;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (!ids[i]->size)
			continue;
		if (ids[i]->size != 4 || ids[i]->dynamic)
			f->fast = false;
		if ((unsigned int)(ids[i]->offset + ids[i]->size) > f->end)
			f->end = ids[i]->offset + ids[i]->size;
	}
	for (i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
		if (rest[i]->dynamic)
			f->fast = false;
		if ((unsigned int)(rest[i]->offset + rest[i]->size) > f->end)
			f->end = rest[i]->offset + rest[i]->size;
	}
}

static int resolve_fields(struct sp_reader *r)
{
	static const struct {
		enum sp_event_type type;
		const char *name;
		const char *pid, *other_pid, *comm, *other_comm, *target_cpu;
	} table[] = {
		{ SP_EV_SWITCH, "sched_switch", "prev_pid", "next_pid", "prev_comm", "next_comm", NULL },
		{ SP_EV_WAKEUP, "sched_wakeup", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_WAKEUP_NEW, "sched_wakeup_new", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_WAKING, "sched_waking", "pid", NULL, "comm", NULL, "target_cpu" },
		{ SP_EV_MIGRATE, "sched_migrate_task", "pid", NULL, "comm", NULL, "dest_cpu" },
		{ SP_EV_FORK, "sched_process_fork", "parent_pid", "child_pid", "parent_comm",
		  "child_comm", NULL },
		{ SP_EV_EXEC, "sched_process_exec", "pid", NULL, NULL, NULL, NULL },
		{ SP_EV_EXIT, "sched_process_exit", "pid", NULL, "comm", NULL, NULL },
	};
	struct tep_event *any = NULL;
	size_t i;
	int max_id = -1, t;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct sched_fields *f = &r->fields[table[i].type];
		struct tep_event *ev = tep_find_event_by_name(r->tep, "sched", table[i].name);

		if (!ev)
			continue;
		any = ev;
		find_field(ev, table[i].pid, &f->pid);
		/* an event without the pid the model needs is of no use */
		if (!f->pid.size || f->pid.dynamic)
			continue;
		f->event = ev;
		find_field(ev, table[i].other_pid, &f->other_pid);
		find_field(ev, table[i].comm, &f->comm);
		find_field(ev, table[i].other_comm, &f->other_comm);
		find_field(ev, table[i].target_cpu, &f->target_cpu);
		if (table[i].type == SP_EV_SWITCH) {
			find_field(ev, "prev_state", &f->prev_state);
			if (!f->other_pid.size)
				f->event = NULL;
		}
		if (table[i].type == SP_EV_MIGRATE)
			find_field(ev, "orig_cpu", &f->orig_cpu);
		if (f->event && ev->id > max_id)
			max_id = ev->id;
	}
	if (any) {
		find_field(any, "common_type", &r->common_type);
		find_field(any, "common_pid", &r->common_pid);
	}
	for (t = 1; t < SP_EV_NR_TYPES; t++)
		plan_fast(r, &r->fields[t]);
	r->common_fast = !r->swap && r->common_type.offset == 0 && r->common_type.size == 2 &&
			 !r->common_type.is_signed && !r->common_type.dynamic &&
			 r->common_pid.offset == 4 && r->common_pid.size == 4 &&
			 !r->common_pid.dynamic;
	if (max_id > 0xffff)
		return -EINVAL;
	r->nr_ids = max_id + 1;
	r->type_of_id = sp_alloc_array(r->nr_ids, sizeof(*r->type_of_id));
	if (!r->type_of_id)
		return -ENOMEM;
	for (t = 1; t < SP_EV_NR_TYPES; t++)
		if (r->fields[t].event)
			r->type_of_id[r->fields[t].event->id] = t;
	return 0;
}

/* An unsigned number of 1, 2, 4 or 8 bytes in the file's byte order. */
static inline uint64_t get_number(const struct sp_reader *r, const char *p, int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return r->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return r->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return r->swap ? __builtin_bswap64(v64) : v64;
	}
	return 0;
}

static inline bool read_int(const struct sp_reader *r, const struct sp_raw_record *rec,
		     const struct field *f, long long *val)
{
	uint64_t v;

	if (!f->size || f->size > 8 || (unsigned int)(f->offset + f->size) > rec->size)
		return false;
	v = get_number(r, (const char *)rec->data + f->offset, f->size);
	/* sign-extend narrow signed fields (pids and CPUs are int) */
	if (f->size < 8 && f->is_signed) {
		int shift = 64 - 8 * f->size;

		v = (uint64_t)((int64_t)(v << shift) >> shift);
	}
	*val = (long long)v;
	return true;
}

static inline int32_t read_i32(const struct sp_reader *r, const struct sp_raw_record *rec,
			const struct field *f, int32_t fallback)
{
	long long val;

	return read_int(r, rec, f, &val) ? (int32_t)val : fallback;
}

/* A 4-byte int field in host order, the record known to hold it; -1 when absent. */
static inline int32_t load_i32(const struct sp_raw_record *rec, const struct field *f)
{
	int32_t v;

	if (!f->size)
		return -1;
	memcpy(&v, (const char *)rec->data + f->offset, sizeof(v));
	return v;
}

/*
 * Fixed char[N] or __data_loc / __rel_loc strings, NUL-terminated: in the
 * record itself when the name ends there, else copied into @buf.
 */
static const char *read_str(const struct sp_reader *r, const struct sp_raw_record *rec,
			    const struct field *f, char *buf, size_t len)
{
	const char *data = rec->data;
	long long off, n, i;

	if (!f->size || (unsigned int)(f->offset + f->size) > rec->size)
		return NULL;
	if (f->dynamic) {
		uint64_t loc;

		if (f->size < 4)
			return NULL;
		loc = get_number(r, data + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->relative)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off < 0 || n < 0 || off + n > rec->size)
		return NULL;
	if (n > (long long)len - 1)
		n = len - 1;
	/* terminated inside the record (the usual char[16]): no copy needed */
	if (n && !data[off + n - 1])
		return data + off;
	for (i = 0; i < n; i++)
		if (!data[off + i])
			return data + off;
	memcpy(buf, data + off, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Whether prev_state means TASK_RUNNING (with or without the preemption
 * flag).  The bit layout differs between kernels, so ask the event's own
 * print format: it prints "R" or "R+" for exactly those values.  Few
 * distinct values occur, so each is formatted once and remembered.
 */
static bool prev_state_runnable(struct sp_reader *r, const struct sp_raw_record *raw,
				long long value)
{
	struct tep_record rec;
	const char *p;
	bool runnable;
	int i;

	for (i = 0; i < r->nr_state_cache; i++)
		if (r->state_cache[i].value == (unsigned long long)value)
			return r->state_cache[i].runnable;

	memset(&rec, 0, sizeof(rec));
	rec.ts = raw->ts_ns;
	rec.data = raw->data;
	rec.size = raw->size;
	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	p = r->seq.buffer ? strstr(r->seq.buffer, "prev_state=") : NULL;
	if (p) {
		p += strlen("prev_state=");
		runnable = p[0] == 'R' && (p[1] == ' ' || p[1] == '+' || p[1] == '\0');
	} else {
		/* no print format to ask: TASK_RUNNING is 0 on every kernel */
		runnable = (value & 0xff) == 0;
	}
	if (r->nr_state_cache < SP_STATE_CACHE) {
		r->state_cache[r->nr_state_cache].value = value;
		r->state_cache[r->nr_state_cache].runnable = runnable;
		r->nr_state_cache++;
	}
	return runnable;
}

static void decode(struct sp_reader *r, const struct sp_raw_record *rec, int cpu,
		   struct sp_event *ev)
{
	const struct sched_fields *f;
	long long id = -1, state;
	int t = SP_EV_OTHER;

	ev->ts_ns = rec->ts_ns;
	ev->cpu = cpu;
	ev->type = SP_EV_OTHER;
	ev->target_cpu = -1;
	ev->orig_cpu = -1;
	if (r->common_fast && rec->size >= 8) {
		uint16_t type;

		memcpy(&type, rec->data, sizeof(type));
		ev->common_pid = load_i32(rec, &r->common_pid);
		if (type < r->nr_ids)
			t = r->type_of_id[type];
	} else {
		ev->common_pid = read_i32(r, rec, &r->common_pid, -1);
		if (read_int(r, rec, &r->common_type, &id) && id >= 0 && id < r->nr_ids)
			t = r->type_of_id[id];
	}
	if (t == SP_EV_OTHER) {
		ev->pid = ev->other_pid = -1;
		ev->prev_runnable = false;
		ev->comm = ev->other_comm = NULL;
		return;
	}
	f = &r->fields[t];
	ev->type = t;
	if (f->fast && rec->size >= f->end) {
		ev->pid = load_i32(rec, &f->pid);
		ev->other_pid = load_i32(rec, &f->other_pid);
		ev->target_cpu = load_i32(rec, &f->target_cpu);
		ev->orig_cpu = load_i32(rec, &f->orig_cpu);
	} else {
		ev->pid = read_i32(r, rec, &f->pid, -1);
		ev->other_pid = read_i32(r, rec, &f->other_pid, -1);
		ev->target_cpu = read_i32(r, rec, &f->target_cpu, -1);
		ev->orig_cpu = read_i32(r, rec, &f->orig_cpu, -1);
	}
	ev->comm = read_str(r, rec, &f->comm, r->comm_buf, sizeof(r->comm_buf));
	ev->other_comm = read_str(r, rec, &f->other_comm, r->other_comm_buf,
				  sizeof(r->other_comm_buf));
	ev->prev_runnable = t == SP_EV_SWITCH && read_int(r, rec, &f->prev_state, &state) &&
			    prev_state_runnable(r, rec, state);
}

/* ---- metadata ---- */

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

/* A metadata block that cannot be read as the format says.  Return: -EBADMSG. */
static int meta_damaged(struct sp_error *err, const char *what)
{
	return sp_error_set(err, -EBADMSG, -1, "damaged %s (the file is damaged)", what);
}

/*
 * A block's bytes, decompressed when its v7 section is (@what names it).
 * Return: 0 or -errno; -EBADMSG with @err set when the block is damaged.
 */
static int meta_load(struct sp_reader *r, int fd, const struct sp_container_block *b,
		     const char *what, struct meta *m, struct sp_error *err)
{
	unsigned char hdr[8];
	size_t zsize, rsize;
	char *z = NULL;
	bool ok = false;
	int ret;

	memset(m, 0, sizeof(*m));
	m->big_endian = r->layout.info.big_endian;
	if (!b->present || b->size > SP_CONTAINER_MAX_CHUNK)
		return meta_damaged(err, what);
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
		return meta_damaged(err, what);
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
	if (!strcmp(r->layout.info.compression, "zstd")) {
		size_t n = ZSTD_decompress(m->buf, rsize, z, zsize);

		ok = !ZSTD_isError(n) && n == rsize;
	} else if (!strcmp(r->layout.info.compression, "zlib")) {
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

static int load_header_info(struct sp_reader *r, struct meta *m)
{
	const char *tag;
	uint64_t len;
	char *p;

	tag = meta_str(m);
	if (!tag || strcmp(tag, "header_page") || !meta_sized(m, &p, &len))
		return -EBADMSG;
	if (tep_parse_header_page(r->tep, p, len, r->layout.info.long_size))
		return -EBADMSG;
	return 0;
}

static int load_sched_formats(struct sp_reader *r, struct meta *m)
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
				tep_parse_event(r->tep, p, len, sys);
		}
	}
	return 0;
}

/*
 * Of the ftrace formats, only ftrace:print: the records schedplot record
 * writes to trace_marker (sp_reader_scan_markers()).  Best effort: a trace
 * without it is read as before.
 */
static void load_print_format(struct sp_reader *r, struct meta *m)
{
	static const char name[] = "name: print\n";
	uint64_t nr, len, i;
	char *p;

	if (!meta_num(m, 4, &nr))
		return;
	for (i = 0; i < nr && meta_sized(m, &p, &len); i++) {
		if (len > sizeof(name) - 1 && !memcmp(p, name, sizeof(name) - 1) &&
		    !sp_evformat_check(p, len)) {
			tep_parse_event(r->tep, p, len, "ftrace");
			return;
		}
	}
}

static int load_cmdlines(struct sp_reader *r, struct meta *m)
{
	uint64_t len;
	char *p;

	if (!meta_sized(m, &p, &len))
		return -EBADMSG;
	p[len] = '\0';	/* the byte after it is the next size or the NUL meta_load added */
	tep_parse_saved_cmdlines(r->tep, p);
	return 0;
}

/*
 * Build the tep from the file's metadata.  Return: 0, -EBADMSG with @err
 * set (a damaged file), or another -errno (use libtracecmd).
 */
static int load_metadata(struct sp_reader *r, const char *path, struct sp_error *err)
{
	const struct sp_container_info *info = &r->layout.info;
	struct meta m = { 0 };
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r->tep = tep_alloc();
	if (!r->tep) {
		ret = -ENOMEM;
		goto out;
	}
	r->own_tep = true;
	tep_set_file_bigendian(r->tep, info->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
					TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, info->long_size);
	tep_set_page_size(r->tep, info->page_size);
	ret = meta_load(r, fd, &r->layout.header_info, "header info", &m, err);
	if (!ret && load_header_info(r, &m))
		ret = meta_damaged(err, "page header");
	free(m.buf);
	if (ret)
		goto out;
	ret = meta_load(r, fd, &r->layout.event_formats, "event formats", &m, err);
	if (!ret && load_sched_formats(r, &m))
		ret = meta_damaged(err, "event formats");
	free(m.buf);
	if (ret)
		goto out;
	if (r->layout.ftrace_formats.present) {
		if (!meta_load(r, fd, &r->layout.ftrace_formats, "ftrace formats", &m, NULL))
			load_print_format(r, &m);
		free(m.buf);
	}
	if (r->layout.cmdlines.present) {
		ret = meta_load(r, fd, &r->layout.cmdlines, "cmdlines", &m, err);
		if (!ret && load_cmdlines(r, &m))
			ret = meta_damaged(err, "cmdlines");
		free(m.buf);
	}
out:
	close(fd);
	return ret;
}

/* ---- per-CPU sources ---- */

/* The next record of @cpu into its stream's cur.  Return: 1, 0 at the end, or an error. */
static int stream_next(struct sp_reader *r, int cpu, struct sp_error *err)
{
	struct cpu_stream *s = &r->streams[cpu];
	struct tep_record *rec;

	if (!r->use_libtracecmd)
		return s->cs ? sp_cpustream_next(s->cs, &s->cur, err) : 0;
	tracecmd_free_record(s->held);
	s->held = NULL;
	rec = tracecmd_read_data(r->handle, cpu);
	if (!rec)
		return 0;
	s->held = rec;
	s->cur.ts_ns = rec->ts;
	s->cur.data = rec->data;
	s->cur.size = rec->size > 0 ? rec->size : 0;
	s->cur.missed = rec->missed_events > 0 ? (int)rec->missed_events :
			rec->missed_events < 0 ? -1 : 0;
	return 1;
}

/* Position @cpu before its first record. */
static void stream_rewind(struct sp_reader *r, int cpu)
{
	struct cpu_stream *s = &r->streams[cpu];

	if (!r->use_libtracecmd) {
		if (s->cs)
			sp_cpustream_rewind(s->cs);
		return;
	}
	tracecmd_free_record(s->held);
	s->held = NULL;
	/* tracecmd_read_cpu_first() positions the CPU and returns its first record */
	s->held = tracecmd_read_cpu_first(r->handle, cpu);
}

static int span_libtracecmd(struct sp_reader *r, int cpu)
{
	struct cpu_stream *s = &r->streams[cpu];
	struct tep_record *rec;

	rec = tracecmd_read_cpu_first(r->handle, cpu);
	if (!rec)
		return 0;
	s->first_ns = rec->ts;
	tracecmd_free_record(rec);
	rec = tracecmd_read_cpu_last(r->handle, cpu);
	s->last_ns = rec ? rec->ts : s->first_ns;
	tracecmd_free_record(rec);
	return 0;
}

/* Whether cpustream can read the data the way libtracecmd would. */
static bool cpustream_can_read(const struct sp_container_layout *l)
{
	unsigned int ps = l->info.page_size, i;

	if (!l->flyrecord || l->ts_options)
		return false;
	if (l->compressed && strcmp(l->info.compression, "zstd") &&
	    strcmp(l->info.compression, "zlib"))
		return false;
	for (i = 0; i < l->nr_cpus; i++)
		if (!l->compressed && l->cpus[i].size && (l->cpus[i].offset & (ps - 1)))
			return false;
	return true;
}

/* Each stream's first and last timestamp; the first error in CPU order. */
static int stream_spans(struct sp_reader *r, struct sp_error *err)
{
	int n = r->nr_cpus, cpu, ret = 0;
	struct sp_cpustream **cs = calloc(n, sizeof(*cs));
	uint64_t *first = calloc(n, sizeof(*first)), *last = calloc(n, sizeof(*last));
	int *rets = calloc(n, sizeof(*rets));
	struct sp_error *errs = calloc(n, sizeof(*errs));

	if (!cs || !first || !last || !rets || !errs) {
		ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto out;
	}
	for (cpu = 0; cpu < n; cpu++)
		cs[cpu] = r->streams[cpu].cs;
	sp_cpustream_spans(cs, n, first, last, rets, errs);
	for (cpu = 0; cpu < n; cpu++) {
		if (!cs[cpu])
			continue;
		r->streams[cpu].first_ns = first[cpu];
		r->streams[cpu].last_ns = last[cpu];
		if (rets[cpu] && rets[cpu] != -ENODATA) {
			ret = rets[cpu];
			if (err)
				*err = errs[cpu];
			break;
		}
	}
out:
	free(cs);
	free(first);
	free(last);
	free(rets);
	free(errs);
	return ret;
}

static int open_cpustreams(struct sp_reader *r, const char *path, struct sp_error *err)
{
	const struct sp_container_layout *l = &r->layout;
	struct sp_cpustream_params p = {
		.codec = SP_CODEC_NONE,
		.page_size = r->page_size,
		.long_size = r->kbuf_long_size,
		.big_endian = l->info.big_endian,
	};
	unsigned int i, nr_data = 0;
	int ret;

	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		return sp_error_set(err, ret, -1, "cannot open: %s", strerror(-ret));
	}
	p.fd = r->fd;
	if (l->compressed)
		p.codec = strcmp(l->info.compression, "zstd") ? SP_CODEC_ZLIB : SP_CODEC_ZSTD;
	else
		posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* one helper thread and one block pool for all CPUs */
	r->scratch = sp_cpustream_scratch_alloc(p.codec);
	if (!r->scratch)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	p.scratch = r->scratch;
	for (i = 0; i < l->nr_cpus; i++)
		nr_data += l->cpus[i].size != 0;
	/* what the merge in batches does from the start (merge_batches()) */
	if (nr_data >= SP_BATCH_MIN_LEAVES)
		sp_cpustream_scratch_read_ahead(r->scratch, false);
	/*
	 * bounded memory: the windows of all CPUs together stay below
	 * SP_WINDOW_TOTAL (two per CPU: the one walked, the one read ahead)
	 */
	p.window_bytes = nr_data ? SP_WINDOW_TOTAL / (2 * nr_data) : SP_WINDOW_MAX;
	if (p.window_bytes > SP_WINDOW_MAX)
		p.window_bytes = SP_WINDOW_MAX;
	for (i = 0; i < l->nr_cpus; i++) {
		const struct sp_container_cpu *c = &l->cpus[i];
		struct cpu_stream *s;

		if (!c->size || c->cpu >= (unsigned int)r->nr_cpus)
			continue;
		s = &r->streams[c->cpu];
		if (s->cs)
			continue;	/* listed twice: the check refuses that */
		s->cs = sp_cpustream_alloc(&p, c, err);
		if (!s->cs)
			return err && err->code ? err->code : -ENOMEM;
	}
	return stream_spans(r, err);
}

/* Address space of the child that tries libtracecmd on a file. */
#define SP_LIBTRACECMD_MEMORY	(2ul << 30)

/* The metadata and the data through libtracecmd. */
/*
 * libtracecmd 1.3 crashes on some damaged files that our own checks let
 * through (in tracecmd_open_fd(), its cleanup, or kbuffer as it reads
 * pages), and a damaged size can make it allocate gigabytes.  Before this
 * process reads a file with it, a child process opens and reads the whole
 * file the same way (the rest of sp_reader_open() and a pass of
 * sp_reader_read(), so the same calls in the same order), within a time
 * and memory budget.  Only if the child comes through does this process go
 * on.  The fallback is rare (timestamp options, odd layouts), so reading
 * twice is affordable.
 */
enum trial {
	TRIAL_CHILD = -1,		/* in the child: go on opening, then read */
	TRIAL_READS = 0,		/* the child read it all (or none could be made) */
	TRIAL_ERROR = 3,		/* the child met an ordinary error: it says which */
	TRIAL_FAILS,			/* it crashed, or ran out of time or memory */
};

/*
 * Try the file in a child; in the child, *@child_fd is where its error is
 * to be written (trial_end()).  An ordinary error comes back in @err, so
 * that this process does not meet it again without the child's limits.
 */
static enum trial libtracecmd_trial(int *child_fd, struct sp_error *err)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sp_error child_err;
	int status, null_fd, fds[2];
	ssize_t n;
	pid_t pid;
	size_t i;

	if (pipe2(fds, O_CLOEXEC))
		return TRIAL_READS;	/* cannot isolate it: try it in this process */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return TRIAL_READS;
	}
	if (pid == 0) {
		close(fds[0]);
		*child_fd = fds[1];
		/* die quietly: no sanitizer or fuzzer report for the library's crash */
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0)
			dup2(null_fd, STDERR_FILENO);
		alarm(60);
#ifndef SP_UNDER_SANITIZER
		setrlimit(RLIMIT_AS, &(struct rlimit){ SP_LIBTRACECMD_MEMORY, SP_LIBTRACECMD_MEMORY });
#endif
		return TRIAL_CHILD;
	}
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			close(fds[0]);
			return TRIAL_READS;
		}
	}
	do
		n = read(fds[0], &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == TRIAL_READS)
		return TRIAL_READS;
	if (WIFEXITED(status) && WEXITSTATUS(status) == TRIAL_ERROR &&
	    n == (ssize_t)sizeof(child_err) && child_err.code < 0) {
		child_err.msg[sizeof(child_err.msg) - 1] = '\0';
		if (err)
			*err = child_err;
		return TRIAL_ERROR;
	}
	return TRIAL_FAILS;
}

/* End the trial child: its error, if any, to the parent. */
static void trial_end(struct sp_reader *r, int ret, const struct sp_error *err)
{
	struct sp_error e = { .code = ret < 0 ? ret : -EIO, .offset = -1 };

	if (ret && err && err->code)
		e = *err;
	if (ret && write(r->trial_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(TRIAL_FAILS);
	_exit(ret ? TRIAL_ERROR : TRIAL_READS);
}

static int no_op(const struct sp_event *ev, void *data)
{
	return 0;
}

/* In the trial child, the reader is open: read it all, then end the child. */
static void trial_finish(struct sp_reader *r)
{
	struct sp_error err = { 0 };

	trial_end(r, sp_reader_read(r, no_op, NULL, &err), &err);
}

static int open_libtracecmd(struct sp_reader *r, const char *path, struct sp_error *err)
{
	enum trial t = libtracecmd_trial(&r->trial_fd, err);

	if (t == TRIAL_FAILS)
		return sp_error_set(err, -EBADMSG, -1,
				    "damaged trace: libtracecmd, which reads this kind of file, "
				    "fails on it");
	if (t == TRIAL_ERROR)
		return err && err->code ? err->code : -EBADMSG;
	r->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
					TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!r->handle && !strcmp(r->layout.info.compression, "none"))
		return sp_error_set(err, -EBADMSG, -1, "cannot read the trace (the file is damaged)");
	if (!r->handle)
		return sp_error_set(err, -EBADMSG, -1,
				    "cannot read the trace (damaged file or a %s-compressed file "
				    "libtracecmd does not support)", r->layout.info.compression);
	r->use_libtracecmd = true;
	r->tep = tracecmd_get_tep(r->handle);
	r->nr_cpus = tracecmd_cpus(r->handle);
	return 0;
}

struct sp_reader *sp_reader_open(const char *path, struct sp_error *err)
{
	struct sp_reader *r;
	unsigned int i;
	int cpu, ret;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	register_zlib();

	r = calloc(1, sizeof(*r));
	if (!r) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	r->fd = -1;
	r->trial_fd = -1;
	r->batch_min_leaves = SP_BATCH_MIN_LEAVES;
	trace_seq_init(&r->seq);
	if (sp_container_layout(path, &r->layout, err) < 0)
		goto fail;
	/* latency-tracer text: libtracecmd would read a size from it and crash */
	if (!r->layout.flyrecord) {
		sp_error_set(err, -EBADMSG, -1, "no per-CPU record data (latency tracer output?); "
			     "record with trace-cmd record -e sched");
		goto fail;
	}
	r->page_size = r->layout.info.page_size;
	ret = cpustream_can_read(&r->layout) ? load_metadata(r, path, err) : -ENOTSUP;
	/* libtracecmd 1.3 crashes cleaning up after a header page it cannot parse */
	if (ret == -EBADMSG)
		goto fail;
	if (!ret && tep_get_header_timestamp_size(r->tep) != 8) {
		meta_damaged(err, "page header");
		goto fail;
	}
	/* pages of kernels before 2.6.31: libtracecmd walks those */
	if (!ret && tep_is_old_format(r->tep))
		ret = -ENOTSUP;
	if (!ret) {
		/* as libtracecmd: the commit field's size, which is the kernel's long */
		r->kbuf_long_size = tep_get_header_page_size(r->tep) == 8 ? 8 : 4;
		r->nr_cpus = r->layout.info.nr_cpus;
		for (i = 0; i < r->layout.nr_cpus; i++)
			if ((int)r->layout.cpus[i].cpu >= r->nr_cpus)
				r->nr_cpus = r->layout.cpus[i].cpu + 1;
	} else {
		if (r->own_tep)
			tep_free(r->tep);
		r->tep = NULL;
		r->own_tep = false;
		if (open_libtracecmd(r, path, err))
			goto fail;
	}
	if (!r->tep || r->nr_cpus <= 0 || r->nr_cpus > 65536) {
		sp_error_set(err, -EBADMSG, -1, "the trace header gives %d CPUs", r->nr_cpus);
		goto fail;
	}
	tep_set_cpus(r->tep, r->nr_cpus);
	r->swap = tep_is_file_bigendian(r->tep) != tep_is_local_bigendian(r->tep);
	if (resolve_fields(r)) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	r->lost = sp_alloc_array(r->nr_cpus, sizeof(*r->lost));
	r->streams = sp_alloc_array(r->nr_cpus, sizeof(*r->streams));
	r->key = sp_alloc_array(r->nr_cpus, sizeof(*r->key));
	r->node = sp_alloc_array(r->nr_cpus, sizeof(*r->node));
	r->leaf_cpu = sp_alloc_array(r->nr_cpus, sizeof(*r->leaf_cpu));
	if (!r->lost || !r->streams || !r->key || !r->node || !r->leaf_cpu) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		r->streams[cpu].first_ns = r->streams[cpu].last_ns = UINT64_MAX;
	if (r->use_libtracecmd) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			span_libtracecmd(r, cpu);
	} else {
		ret = open_cpustreams(r, path, err);
		if (ret)
			goto fail;
	}
	r->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct cpu_stream *s = &r->streams[cpu];

		if (s->first_ns == UINT64_MAX)
			continue;
		if (s->first_ns < r->first_ns)
			r->first_ns = s->first_ns;
		if (s->last_ns > r->last_ns)
			r->last_ns = s->last_ns;
	}
	if (r->trial_fd >= 0)
		trial_finish(r);
	return r;
fail:
	if (r->trial_fd >= 0)
		trial_end(r, -EBADMSG, err);
	sp_reader_close(r);
	return NULL;
}

void sp_reader_close(struct sp_reader *r)
{
	int cpu;

	if (!r)
		return;
	if (r->streams) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			tracecmd_free_record(r->streams[cpu].held);
			sp_cpustream_free(r->streams[cpu].cs);
		}
	}
	if (r->handle)
		tracecmd_close(r->handle);
	if (r->own_tep)
		tep_free(r->tep);
	sp_cpustream_scratch_free(r->scratch);
	if (r->fd >= 0)
		close(r->fd);
	sp_container_layout_release(&r->layout);
	trace_seq_destroy(&r->seq);
	free(r->type_of_id);
	free(r->lost);
	free(r->streams);
	free(r->key);
	free(r->node);
	free(r->leaf_cpu);
	batch_free(r->batch);
	free(r);
}

int sp_reader_nr_cpus(const struct sp_reader *r)
{
	return r->nr_cpus;
}

bool sp_reader_has_event(const struct sp_reader *r, enum sp_event_type type)
{
	return type > SP_EV_OTHER && type < SP_EV_NR_TYPES && r->fields[type].event;
}

const char *sp_reader_comm(const struct sp_reader *r, int pid)
{
	const char *comm;

	if (!tep_is_pid_registered(r->tep, pid))
		return NULL;
	comm = tep_data_comm_from_pid(r->tep, pid);
	return comm && strcmp(comm, "<...>") ? comm : NULL;
}

uint64_t sp_reader_lost_events(const struct sp_reader *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? r->lost[cpu] : 0;
}

void sp_reader_set_progress(struct sp_reader *r, sp_progress_fn fn, void *data)
{
	r->progress = fn;
	r->progress_data = data;
}

int sp_reader_cpu_span(struct sp_reader *r, int cpu, uint64_t *first_ns, uint64_t *last_ns)
{
	*first_ns = *last_ns = UINT64_MAX;
	if (cpu < 0 || cpu >= r->nr_cpus || r->streams[cpu].first_ns == UINT64_MAX)
		return -ENODATA;
	*first_ns = r->streams[cpu].first_ns;
	*last_ns = r->streams[cpu].last_ns;
	return 0;
}

static inline bool key_before(const struct merge_key *a, const struct merge_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->rank < b->rank);
}

/* Play the matches below node @p; return the winner, storing the losers. */
static int tree_build(struct sp_reader *r, int p)
{
	int a, b;

	if (p >= r->nr_leaves)
		return p - r->nr_leaves;
	a = tree_build(r, 2 * p);
	b = tree_build(r, 2 * p + 1);
	if (key_before(&r->key[b], &r->key[a])) {
		r->node[p] = a;
		return b;
	}
	r->node[p] = b;
	return a;
}

/* Leaf @w's key changed: replay its matches up to the root. */
static void tree_replay(struct sp_reader *r, int w)
{
	int p, t;

	for (p = (w + r->nr_leaves) / 2; p > 0; p /= 2) {
		if (key_before(&r->key[r->node[p]], &r->key[w])) {
			t = r->node[p];
			r->node[p] = w;
			w = t;
		}
	}
	r->node[0] = w;
}

/* Leaf @leaf's stream has no more records: it loses every match from now on. */
static void key_end(struct sp_reader *r, int leaf)
{
	r->key[leaf].ts = UINT64_MAX;
	r->key[leaf].rank = UINT32_MAX / 2 + leaf;
}

/* Records lost before a CPU's record: @missed as in struct sp_raw_record. */
static void note_lost(struct sp_reader *r, int cpu, int missed)
{
	if (missed > 0)
		r->lost[cpu] += missed;
	else if (missed < 0)
		r->lost[cpu]++;
}

/* Every 65536 records, tell the caller how far the pass is. */
static inline void progress(struct sp_reader *r, uint64_t *nr, uint64_t ts)
{
	if (r->progress && !(++*nr & 0xffff) && r->last_ns > r->first_ns)
		r->progress((double)(ts - r->first_ns) / (r->last_ns - r->first_ns), *nr,
			    r->progress_data);
}

/* The merge with the tree: the leaves' streams hold their next record. */
static int merge_tree(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	uint64_t nr = 0;
	struct sp_event ev;
	int ret = 0;

	r->node[0] = tree_build(r, 1);
	for (;;) {
		int leaf = r->node[0], cpu;
		struct cpu_stream *s;

		if (r->key[leaf].rank >= (uint32_t)r->nr_leaves)
			break;		/* the winner has ended: all have */
		cpu = r->leaf_cpu[leaf];
		s = &r->streams[cpu];
		note_lost(r, cpu, s->cur.missed);
		decode(r, &s->cur, cpu, &ev);
		ret = fn(&ev, data);
		if (ret)
			break;
		ret = stream_next(r, cpu, err);
		if (ret < 0)
			break;
		if (ret)
			r->key[leaf].ts = s->cur.ts_ns;
		else
			key_end(r, leaf);
		ret = 0;
		tree_replay(r, leaf);
		progress(r, &nr, ev.ts_ns);
	}
	return ret;
}

/* ---- the merge in batches ---- */

/*
 * With many CPUs the tree costs log2(CPUs) hard-to-predict comparisons per
 * record, and each record is the first touch in a long while of its page,
 * its stream and its stream's state.  From SP_BATCH_MIN_LEAVES streams on,
 * the merge goes in rounds instead: each stream decodes its next records
 * into its queue, one stream after the other (a page read straight
 * through); then the queued records that may go are sorted by timestamp
 * and delivered.  A second thread does the rounds while the caller's
 * thread delivers the previous round (struct batch_out).
 *
 * Which records may go: each stream bounds the others by its first record
 * not queued yet (its key is its timestamp, then its rank).  A queued
 * record goes when its key is below every other stream's bound; the tree
 * would deliver all those before any record not queued, and the sort is
 * stable over the queues taken in CPU order, so equal timestamps keep the
 * tree's order (lower CPU first, then the CPU's own order).  A queue holds
 * records in timestamp order only: a record earlier than the one queued
 * before it stays unqueued until the queue is empty, as it waits behind it
 * in the tree; until then the queue's last record is the stream's bound,
 * as it is for a stream that failed (its error comes right after it).
 * When such a last record is all that is left below the bounds, it goes
 * alone.
 */

/* A record decoded in advance; its names are copied (its block may be reused). */
struct queued {
	struct sp_event ev;	/* comm, other_comm: pointed at the copies when delivered */
	int missed;
	uint8_t names;		/* NAME_* */
	char name[2][SP_NAME_INLINE];
};

#define NAME_HAS(i)	(1u << (2 * (i)))
#define NAME_LONG(i)	(2u << (2 * (i)))

typedef char long_names[2][SP_COMM_LEN];

enum leaf_state { LEAF_READING, LEAF_ENDED, LEAF_FAILED };

struct leaf_queue {
	unsigned int head, count;
	enum leaf_state state;
	int fail;		/* LEAF_FAILED: what reading the next record returned */
	uint64_t last_ts;	/* of the record queued last */
};

/* A round's records, sorted, and how the pass goes on after them. */
struct batch_out {
	struct queued *q;
	long_names *long_name;	/* by index, allocated when first needed */
	size_t n;
	int end;		/* 0: more follow; 1: the pass ends; < 0: this error */
	struct sp_error err;
	bool ready;		/* handed to the delivering thread (under the lock) */
};

struct sp_reader_batch {
	struct sp_reader *r;
	int nr_leaves;
	unsigned int cap;		/* per queue, a power of two */
	size_t slots;			/* cap * nr_leaves */
	struct queued *q;		/* leaf l: q[l * cap ...], a ring */
	uint64_t *ts;			/* by slot, the record's timestamp (compact, to scan) */
	long_names *long_name;		/* by slot, allocated when first needed */
	struct leaf_queue *leaf;
	struct sp_radix_key *keys, *tmp;
	struct sp_error *fail;		/* by leaf, allocated when first needed */
	struct batch_out out[2];

	/* the thread that does the rounds */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a round ready, delivered, or stop */
	bool stop;
};

static void batch_free(struct sp_reader_batch *b)
{
	int k;

	if (!b)
		return;
	for (k = 0; k < 2; k++) {
		free(b->out[k].q);
		free(b->out[k].long_name);
	}
	free(b->q);
	free(b->ts);
	free(b->long_name);
	free(b->leaf);
	free(b->keys);
	free(b->tmp);
	free(b->fail);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->cond);
	free(b);
}

static struct sp_reader_batch *batch_alloc(struct sp_reader *r, int nr_leaves)
{
	struct sp_reader_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	b->r = r;
	b->nr_leaves = nr_leaves;
	b->cap = 8;
	while (b->cap < 256 && b->cap * (size_t)nr_leaves < SP_BATCH_RECORDS)
		b->cap *= 2;
	b->slots = b->cap * (size_t)nr_leaves;
	b->q = sp_alloc_array(b->slots, sizeof(*b->q));
	b->ts = sp_alloc_array(b->slots, sizeof(*b->ts));
	b->leaf = sp_alloc_array(nr_leaves, sizeof(*b->leaf));
	b->keys = sp_alloc_array(b->slots, sizeof(*b->keys));
	b->tmp = sp_alloc_array(b->slots, sizeof(*b->tmp));
	b->out[0].q = sp_alloc_array(SP_BATCH_OUT * b->slots, sizeof(*b->out[0].q));
	b->out[1].q = sp_alloc_array(SP_BATCH_OUT * b->slots, sizeof(*b->out[1].q));
	if (!b->q || !b->ts || !b->leaf || !b->keys || !b->tmp || !b->out[0].q || !b->out[1].q) {
		batch_free(b);
		return NULL;
	}
	return b;
}

static inline unsigned int slot_of(const struct sp_reader_batch *b, int leaf, unsigned int k)
{
	return leaf * b->cap + ((b->leaf[leaf].head + k) & (b->cap - 1));
}

/*
 * Copy name @i of the record in e = q[idx], longer ones into (*aside)[idx]
 * (@nr entries, allocated when first needed).  Return: 0 or -ENOMEM.
 */
static int put_name(struct queued *e, long_names **aside, size_t nr, size_t idx, int i,
		    const char *name)
{
	size_t n;

	if (!name)
		return 0;
	n = strnlen(name, SP_COMM_LEN - 1);
	e->names |= NAME_HAS(i);
	if (n < SP_NAME_INLINE) {
		memcpy(e->name[i], name, n);
		e->name[i][n] = '\0';
		return 0;
	}
	if (!*aside) {
		*aside = sp_alloc_array(nr, sizeof(**aside));
		if (!*aside)
			return -ENOMEM;
	}
	memcpy((*aside)[idx][i], name, n);
	(*aside)[idx][i][n] = '\0';
	e->names |= NAME_LONG(i);
	return 0;
}

static inline const char *name_of(const struct queued *e, const long_names *aside, size_t idx,
				  int i)
{
	return !(e->names & NAME_HAS(i)) ? NULL :
	       e->names & NAME_LONG(i) ? aside[idx][i] : e->name[i];
}

/* Decode records of @leaf into its queue while there is room.  Return: 0 or -ENOMEM. */
static int fill_queue(struct sp_reader *r, struct sp_reader_batch *b, int leaf)
{
	struct leaf_queue *lq = &b->leaf[leaf];
	int cpu = r->leaf_cpu[leaf];
	struct cpu_stream *s = &r->streams[cpu];
	struct sp_error next_err;

	while (lq->state == LEAF_READING && lq->count < b->cap) {
		unsigned int slot = slot_of(b, leaf, lq->count);
		struct queued *e = &b->q[slot];
		int ret;

		if (lq->count && s->cur.ts_ns < lq->last_ts)
			break;		/* back in time: after the queue is empty */
		decode(r, &s->cur, cpu, &e->ev);
		e->missed = s->cur.missed;
		e->names = 0;
		if (put_name(e, &b->long_name, b->slots, slot, 0, e->ev.comm) ||
		    put_name(e, &b->long_name, b->slots, slot, 1, e->ev.other_comm))
			return -ENOMEM;
		b->ts[slot] = lq->last_ts = s->cur.ts_ns;
		lq->count++;
		next_err.code = 0;
		ret = stream_next(r, cpu, &next_err);
		if (ret < 0) {
			/* kept until the records before it are delivered */
			if (!b->fail)
				b->fail = sp_alloc_array(b->nr_leaves, sizeof(*b->fail));
			if (!b->fail)
				return -ENOMEM;
			b->fail[leaf] = next_err;	/* a bare code: sp_reader_read() words it */
			lq->fail = ret;
		}
		if (ret <= 0)
			lq->state = ret ? LEAF_FAILED : LEAF_ENDED;
	}
	return 0;
}

/*
 * The records @leaf queues next were decompressed long ago (with hundreds
 * of CPUs, megabytes ago): ask for them while the leaf before is filled.
 */
static void prefetch_leaf(const struct sp_reader *r, const struct sp_reader_batch *b, int leaf)
{
	const struct cpu_stream *s;
	const char *p;
	unsigned int k;

	if (leaf >= b->nr_leaves || b->leaf[leaf].state != LEAF_READING)
		return;
	s = &r->streams[r->leaf_cpu[leaf]];
	sp_cpustream_prefetch(s->cs);
	p = s->cur.data;
	for (k = b->leaf[leaf].count; k < b->cap; k++, p += 64)
		__builtin_prefetch(p);
}

/* Move the record in @slot to the end of @o.  Return: 0 or -ENOMEM. */
static int take(struct sp_reader_batch *b, unsigned int slot, struct batch_out *o)
{
	struct queued *e = &o->q[o->n];
	int i;

	*e = b->q[slot];
	for (i = 0; i < 2; i++)
		if ((e->names & NAME_LONG(i)) &&
		    put_name(e, &o->long_name, SP_BATCH_OUT * b->slots, o->n, i,
			     b->long_name[slot][i]))
			return -ENOMEM;
	o->n++;
	return 0;
}

static int out_of_memory(struct batch_out *o)
{
	return sp_error_set(&o->err, -ENOMEM, -1, "out of memory");
}

/* One round into @o.  Return: 0, 1 when every record has been taken, or an error (o->err). */
static int batch_round(struct sp_reader *r, struct sp_reader_batch *b, struct batch_out *o)
{
	uint64_t bound_ts = UINT64_MAX;
	int leaf, bound_leaf = INT_MAX;
	unsigned int own = 0, slot;
	struct sp_radix_key *sorted;
	struct leaf_queue *lq;
	bool any = false;
	size_t n = 0, i;

	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		uint64_t ts;
		bool cur_bounds;

		prefetch_leaf(r, b, leaf + 1);
		if (fill_queue(r, b, leaf))
			return out_of_memory(o);
		lq = &b->leaf[leaf];
		if (!lq->count)
			continue;
		any = true;
		if (lq->state == LEAF_ENDED)
			continue;
		ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;
		cur_bounds = lq->state == LEAF_READING && ts >= lq->last_ts;
		if (!cur_bounds)
			ts = lq->last_ts;
		if (ts < bound_ts) {
			bound_ts = ts;
			bound_leaf = leaf;
			own = cur_bounds ? lq->count : lq->count - 1;
		}
	}
	if (!any)
		return 1;
	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		unsigned int k, limit;

		lq = &b->leaf[leaf];
		limit = leaf == bound_leaf ? own : lq->count;
		for (k = 0; k < limit; k++) {
			slot = slot_of(b, leaf, k);
			if (b->ts[slot] > bound_ts || (b->ts[slot] == bound_ts && leaf > bound_leaf))
				break;
			b->keys[n].ts = b->ts[slot];
			b->keys[n].item = slot;
			n++;
		}
		lq->head = (lq->head + k) & (b->cap - 1);
		lq->count -= k;
	}
	if (!n) {
		/* the bounding queue's last record is the earliest of all */
		lq = &b->leaf[bound_leaf];
		slot = slot_of(b, bound_leaf, 0);
		lq->head = (lq->head + 1) & (b->cap - 1);
		lq->count--;
		if (take(b, slot, o))
			return out_of_memory(o);
		if (!lq->count && lq->state == LEAF_FAILED) {
			o->err = b->fail[bound_leaf];
			return lq->fail;
		}
		return 0;
	}
	sorted = sp_radix_sort(b->keys, b->tmp, n);
	for (i = 0; i < n; i++) {
		if (i + 4 < n)
			__builtin_prefetch(&b->q[sorted[i + 4].item]);
		if (take(b, sorted[i].item, o))
			return out_of_memory(o);
	}
	return 0;
}

static void produce(struct sp_reader_batch *b, struct batch_out *o)
{
	o->n = 0;
	do
		o->end = batch_round(b->r, b, o);
	while (!o->end && o->n + b->slots <= SP_BATCH_OUT * b->slots);
}

/* The thread that does the rounds, into the two outs in turn. */
static void *rounds_main(void *data)
{
	struct sp_reader_batch *b = data;
	int k = 0;

	for (;;) {
		struct batch_out *o = &b->out[k];
		bool stop;

		pthread_mutex_lock(&b->lock);
		while (o->ready && !b->stop)
			pthread_cond_wait(&b->cond, &b->lock);
		stop = b->stop;
		pthread_mutex_unlock(&b->lock);
		if (stop)
			break;
		produce(b, o);
		pthread_mutex_lock(&b->lock);
		o->ready = true;
		pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
		if (o->end)
			break;
		k ^= 1;
	}
	return NULL;
}

/* Hand the records of @o to @fn.  Return: 0 or what @fn returned. */
static int deliver(struct sp_reader *r, struct batch_out *o, sp_event_fn fn, void *data,
		   uint64_t *nr)
{
	size_t i;
	int ret;

	for (i = 0; i < o->n; i++) {
		struct queued *e = &o->q[i];

		e->ev.comm = name_of(e, o->long_name, i, 0);
		e->ev.other_comm = name_of(e, o->long_name, i, 1);
		note_lost(r, e->ev.cpu, e->missed);
		ret = fn(&e->ev, data);
		if (ret)
			return ret;
		progress(r, nr, e->ev.ts_ns);
	}
	return 0;
}

static int merge_batches(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	struct sp_reader_batch *b = r->batch;
	pthread_t thread;
	bool threaded;
	uint64_t nr = 0;
	int k, ret;

	if (b && b->nr_leaves != r->nr_leaves) {
		batch_free(b);
		b = r->batch = NULL;
	}
	if (!b) {
		b = r->batch = batch_alloc(r, r->nr_leaves);
		if (!b)
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	memset(b->leaf, 0, b->nr_leaves * sizeof(*b->leaf));
	if (b->fail)
		memset(b->fail, 0, b->nr_leaves * sizeof(*b->fail));
	b->out[0].ready = b->out[1].ready = false;
	b->stop = false;
	/*
	 * The rounds' thread reads the blocks itself, when it reaches them:
	 * the queues keep it near all the streams' ends at once, so blocks
	 * read ahead would only wait, megabytes of them.  Without that thread
	 * the rounds are done here, in turn with delivering.
	 */
	if (r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, false);
	threaded = !sp_thread_start(&thread, rounds_main, b);
	if (!threaded && r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, true);

	for (k = 0;; k ^= 1) {
		struct batch_out *o = &b->out[k];

		if (threaded) {
			pthread_mutex_lock(&b->lock);
			while (!o->ready)
				pthread_cond_wait(&b->cond, &b->lock);
			pthread_mutex_unlock(&b->lock);
		} else {
			produce(b, o);
		}
		ret = deliver(r, o, fn, data, &nr);
		if (ret)
			break;
		if (o->end) {
			ret = o->end < 0 ? o->end : 0;
			if (ret && err)
				*err = o->err;
			break;
		}
		if (threaded) {
			pthread_mutex_lock(&b->lock);
			o->ready = false;
			pthread_cond_broadcast(&b->cond);
			pthread_mutex_unlock(&b->lock);
		}
	}
	if (threaded) {
		pthread_mutex_lock(&b->lock);
		b->stop = true;
		pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
		pthread_join(thread, NULL);
	}
	return ret;
}

int sp_reader_read(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	int cpu, ret = 0;

	r->nr_leaves = 0;
	memset(r->lost, 0, r->nr_cpus * sizeof(*r->lost));
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		stream_rewind(r, cpu);
		if (r->use_libtracecmd) {
			/* the rewind read the first record: hand it to stream_next's slot */
			struct tep_record *first = r->streams[cpu].held;

			if (!first)
				continue;
			r->streams[cpu].cur.ts_ns = first->ts;
			r->streams[cpu].cur.data = first->data;
			r->streams[cpu].cur.size = first->size > 0 ? first->size : 0;
			r->streams[cpu].cur.missed = first->missed_events > 0 ?
				(int)first->missed_events : first->missed_events < 0 ? -1 : 0;
		} else {
			ret = stream_next(r, cpu, err);
			if (ret < 0)
				goto out;
			if (!ret)
				continue;
		}
		r->key[r->nr_leaves].ts = r->streams[cpu].cur.ts_ns;
		r->key[r->nr_leaves].rank = r->nr_leaves;
		r->leaf_cpu[r->nr_leaves] = cpu;
		r->nr_leaves++;
	}
	ret = 0;
	if (!r->nr_leaves)
		goto out;
	/* libtracecmd's records live only until the CPU's next one is read */
	if (!r->use_libtracecmd && r->batch_min_leaves && r->nr_leaves >= r->batch_min_leaves)
		ret = merge_batches(r, fn, data, err);
	else {
		if (r->scratch)
			sp_cpustream_scratch_read_ahead(r->scratch, true);
		ret = merge_tree(r, fn, data, err);
	}
out:
	if (r->use_libtracecmd) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			tracecmd_free_record(r->streams[cpu].held);
			r->streams[cpu].held = NULL;
		}
	}
	if (ret < 0 && err && !err->code)
		sp_error_set(err, ret, -1, "%s", strerror(-ret));
	return ret;
}

void sp_reader_set_batch_min(struct sp_reader *r, int nr_cpus)
{
	r->batch_min_leaves = nr_cpus;
}

/* Records looked at per CPU for markers: they are written when tracing starts. */
#define SP_MARKER_SCAN_RECORDS	512

/* Whether @rec is a print record starting with @prefix; its text into a new string. */
static char *marker_text(const struct sp_reader *r, const struct sp_raw_record *rec, int id,
			 const struct field *type, int buf_offset, const char *prefix)
{
	size_t plen = strlen(prefix), n;
	const char *text;
	long long val;
	char *copy;

	if (!read_int(r, rec, type, &val) || val != id || buf_offset < 0 ||
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
	struct field type;
	struct sp_error err;
	int cpu, i, found = 0;
	char *text;

	if (!buf)
		return 0;
	find_field(ev, "common_type", &type);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct cpu_stream *s = &r->streams[cpu];
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
