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

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/sanitizer.h"
#include "schedplot/base/thread.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/evformat.h"
#include "schedplot/trace/radix.h"
#include "schedplot/trace/reader.h"

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
/* The merge in batches (merge_batches()): from how many CPUs, how many records a round holds */
#define SP_BATCH_MIN_LEAVES	16
#define SP_BATCH_RECORDS	8192
#define SP_ROUNDS		4	/* rounds in flight between the two threads */
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
	unsigned int skipped;		/* 1u << type: fields not decoded */
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
	ev->type = t;
	if (t == SP_EV_OTHER || (r->skipped & (1u << t))) {
		ev->pid = ev->other_pid = -1;
		ev->prev_runnable = false;
		ev->comm = ev->other_comm = NULL;
		return;
	}
	f = &r->fields[t];
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
	/* nothing read ahead at opening for the merge in batches (merge_batches()) */
	if (nr_data >= SP_BATCH_MIN_LEAVES)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_NONE);
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

void sp_reader_set_skipped(struct sp_reader *r, unsigned int types)
{
	r->skipped = types;
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

/*
 * Hand the record @cpu's stream holds to @fn, then read the stream's next.
 * Return: 0 (*@more: whether there was a next), what @fn returned, or an
 * error (@err).
 */
static inline int deliver_from_stream(struct sp_reader *r, int cpu, sp_event_fn fn, void *data,
				      uint64_t *nr, struct sp_error *err, bool *more)
{
	struct cpu_stream *s = &r->streams[cpu];
	struct sp_event ev;
	int ret;

	note_lost(r, cpu, s->cur.missed);
	decode(r, &s->cur, cpu, &ev);
	ret = fn(&ev, data);
	if (ret)
		return ret;
	ret = stream_next(r, cpu, err);
	if (ret < 0)
		return ret;
	*more = ret;
	progress(r, nr, ev.ts_ns);
	return 0;
}

/* The merge with the tree: the leaves' streams hold their next record. */
static int merge_tree(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	uint64_t nr = 0;
	int ret = 0;

	r->node[0] = tree_build(r, 1);
	for (;;) {
		int leaf = r->node[0], cpu;
		bool more;

		if (r->key[leaf].rank >= (uint32_t)r->nr_leaves)
			break;		/* the winner has ended: all have */
		cpu = r->leaf_cpu[leaf];
		ret = deliver_from_stream(r, cpu, fn, data, &nr, err, &more);
		if (ret)
			break;
		if (more)
			r->key[leaf].ts = r->streams[cpu].cur.ts_ns;
		else
			key_end(r, leaf);
		tree_replay(r, leaf);
	}
	return ret;
}

/* ---- the merge in batches ---- */

/*
 * With many CPUs the tree costs log2(CPUs) hard-to-predict comparisons per
 * record, and each record is the first touch in a long while of its page,
 * its stream and its stream's state.  From SP_BATCH_MIN_LEAVES streams on,
 * the merge goes in rounds over windows of time instead: each stream in
 * turn decodes its records up to the window's end into the round's buffer
 * (a page read straight through), and the buffer, sorted by timestamp, is
 * delivered (copied in that order, for the other thread to read straight
 * through).  Every stream's next record is then later than the window,
 * so the tree would deliver those records first, and the sort is stable
 * over a buffer read stream after stream, so equal timestamps keep the
 * tree's order (lower CPU first, then the CPU's own order).  A second
 * thread does the rounds while the caller's thread delivers the previous
 * ones and, when it has none, decompresses the blocks the streams will
 * need next.  The window follows the records' density, so that a round
 * fills about half the buffer, whether one CPU is busy or hundreds.
 *
 * Three things stop a round early: the buffer fills up, a stream goes back
 * in time, or a stream fails.  The records read so far are then delivered
 * by the tree (batch_tree()), each stream's from the buffer first, then
 * from the stream itself, until the buffer is empty; the next round
 * starts from there.
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

/* Records decoded in advance, and their longer names. */
struct records {
	struct queued *q;
	long_names *long_name;	/* by index, allocated when first needed */
	size_t n;
};

enum leaf_state { LEAF_READING, LEAF_ENDED, LEAF_FAILED };

struct leaf {
	enum leaf_state state;
	int fail;		/* LEAF_FAILED: what reading the next record returned */
	size_t start, end;	/* its records in the buffer read */
};

/* A round's records, sorted; or, stopped early, in the buffer read. */
struct round {
	struct records out;
	int fail;		/* -ENOMEM: the round could not be read */
	bool by_tree;		/* stopped early: delivered by batch_tree() */
	bool last;		/* every stream has ended after it */
	bool ready;		/* handed to the delivering thread (atomic) */
};

struct sp_reader_batch {
	struct sp_reader *r;
	int nr_leaves;
	size_t cap;			/* records a round holds */
	struct records in;		/* read in a round, not sorted */
	struct leaf *leaf;
	struct sp_radix_key *keys, *tmp;
	struct sp_error *fail;		/* by leaf, allocated when first needed */
	struct round round[SP_ROUNDS];
	uint64_t from, window;		/* the next round reads [from, from + window) */

	/* the thread that does the rounds */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a round ready, delivered, or stop */
	int sleeping;			/* threads waiting on cond */
	bool stop;
};

#define WINDOW_FIRST	1000000ull	/* 1 ms */
#define WINDOW_MAX	(1ull << 40)

static void records_free(struct records *rs)
{
	free(rs->q);
	free(rs->long_name);
}

static void batch_free(struct sp_reader_batch *b)
{
	int k;

	if (!b)
		return;
	records_free(&b->in);
	for (k = 0; k < SP_ROUNDS; k++)
		records_free(&b->round[k].out);
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
	int k;

	if (!b)
		return NULL;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	b->r = r;
	b->nr_leaves = nr_leaves;
	b->cap = SP_BATCH_RECORDS;
	b->leaf = sp_alloc_array(nr_leaves, sizeof(*b->leaf));
	b->keys = sp_alloc_array(b->cap, sizeof(*b->keys));
	b->tmp = sp_alloc_array(b->cap, sizeof(*b->tmp));
	b->in.q = sp_alloc_array(b->cap, sizeof(*b->in.q));
	if (!b->leaf || !b->keys || !b->tmp || !b->in.q)
		goto fail;
	for (k = 0; k < SP_ROUNDS; k++) {
		b->round[k].out.q = sp_alloc_array(b->cap, sizeof(*b->round[k].out.q));
		if (!b->round[k].out.q)
			goto fail;
	}
	return b;
fail:
	batch_free(b);
	return NULL;
}

/*
 * Copy name @i of record @idx of @rs, longer ones aside (@nr of them,
 * allocated when first needed).  Return: 0 or -ENOMEM.
 */
static int put_name(struct records *rs, size_t nr, size_t idx, int i, const char *name)
{
	struct queued *e = &rs->q[idx];
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
	if (!rs->long_name) {
		rs->long_name = sp_alloc_array(nr, sizeof(*rs->long_name));
		if (!rs->long_name)
			return -ENOMEM;
	}
	memcpy(rs->long_name[idx][i], name, n);
	rs->long_name[idx][i][n] = '\0';
	e->names |= NAME_LONG(i);
	return 0;
}

/* Point record @idx of @rs's names at their copies. */
static inline void names_back(struct records *rs, size_t idx)
{
	struct queued *e = &rs->q[idx];
	int i;

	for (i = 0; i < 2; i++) {
		const char *name = !(e->names & NAME_HAS(i)) ? NULL :
				   e->names & NAME_LONG(i) ? rs->long_name[idx][i] : e->name[i];

		if (i)
			e->ev.other_comm = name;
		else
			e->ev.comm = name;
	}
}

/*
 * Read the records of @leaf up to @cut, after the others.
 * Return: 0, 1 when the round must stop here (see above), or -ENOMEM.
 */
static int read_leaf(struct sp_reader *r, struct sp_reader_batch *b, int leaf, uint64_t cut)
{
	struct records *in = &b->in;
	struct leaf *lf = &b->leaf[leaf];
	int cpu = r->leaf_cpu[leaf];
	struct cpu_stream *s = &r->streams[cpu];
	struct sp_error next_err;
	uint64_t last_ts = 0;
	int ret;

	lf->start = lf->end = in->n;
	while (lf->state == LEAF_READING && s->cur.ts_ns <= cut) {
		struct queued *e = &in->q[in->n];

		if (in->n == b->cap || (lf->end > lf->start && s->cur.ts_ns < last_ts))
			return 1;	/* full, or back in time */
		decode(r, &s->cur, cpu, &e->ev);
		e->missed = s->cur.missed;
		e->names = 0;
		if (put_name(in, b->cap, in->n, 0, e->ev.comm) ||
		    put_name(in, b->cap, in->n, 1, e->ev.other_comm))
			return -ENOMEM;
		last_ts = s->cur.ts_ns;
		b->keys[in->n].ts = last_ts;
		b->keys[in->n].item = in->n;
		lf->end = ++in->n;
		next_err.code = 0;
		ret = stream_next(r, cpu, &next_err);
		if (ret < 0) {
			/* kept until the records before it are delivered */
			if (!b->fail)
				b->fail = sp_alloc_array(b->nr_leaves, sizeof(*b->fail));
			if (!b->fail)
				return -ENOMEM;
			b->fail[leaf] = next_err;	/* a bare code: sp_reader_read() words it */
			lf->fail = ret;
			lf->state = LEAF_FAILED;
			return 1;
		}
		if (!ret)
			lf->state = LEAF_ENDED;
	}
	return 0;
}

/*
 * The records @leaf reads next were decompressed long ago (with hundreds
 * of CPUs, megabytes ago): ask for as many as it read last round while the
 * leaf before it is read.
 */
static void prefetch_leaf(const struct sp_reader *r, const struct sp_reader_batch *b, int leaf)
{
	const struct cpu_stream *s = &r->streams[r->leaf_cpu[leaf]];
	const struct leaf *lf = &b->leaf[leaf];
	size_t k, lines = lf->end - lf->start + 1;
	const char *p = (const char *)s->cur.data;

	sp_cpustream_prefetch(s->cs);
	if (lf->state != LEAF_READING || !p)
		return;
	for (k = 0; k < lines && k < 16; k++, p += 64)
		__builtin_prefetch(p);
}

/* The next window: half a buffer of records at the density just seen. */
static void next_window(struct sp_reader_batch *b, size_t n, bool full)
{
	size_t target = b->cap / 2;
	uint64_t w = b->window;

	if (full)
		w /= 4;
	else if (n < target / 2)
		w = w < WINDOW_MAX / 2 ? w * 2 : WINDOW_MAX;
	else
		w = w * target / n;
	b->window = w ? w : 1;
}

/* The earliest next record of the streams still reading (UINT64_MAX: none). */
static uint64_t streams_from(const struct sp_reader *r, const struct sp_reader_batch *b)
{
	uint64_t from = UINT64_MAX;
	int leaf;

	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		uint64_t ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;

		if (b->leaf[leaf].state == LEAF_READING && ts < from)
			from = ts;
	}
	return from;
}

/*
 * Copy the records read, in the order of @sorted, to @o.
 * Return: 0 or -ENOMEM.
 */
static int put_sorted(struct sp_reader_batch *b, const struct sp_radix_key *sorted,
		      struct round *o)
{
	struct records *in = &b->in, *out = &o->out;
	size_t i;
	int k;

	for (i = 0; i < in->n; i++) {
		size_t from = sorted[i].item;
		struct queued *e = &out->q[i];

		if (i + 4 < in->n)
			__builtin_prefetch(&in->q[sorted[i + 4].item]);
		*e = in->q[from];
		for (k = 0; k < 2; k++)
			if ((e->names & NAME_LONG(k)) &&
			    put_name(out, b->cap, i, k, in->long_name[from][k]))
				return -ENOMEM;
	}
	out->n = in->n;
	return 0;
}

/*
 * One round into @o: records up to the window's end from every stream,
 * sorted; or, stopped early, the records read so far, left in b->in for
 * batch_tree() (o->by_tree).  Return: 0 or -ENOMEM.
 */
static int batch_round(struct sp_reader *r, struct sp_reader_batch *b, struct round *o)
{
	struct records *in = &b->in;
	uint64_t cut, from = UINT64_MAX;
	int leaf, ret;

	in->n = o->out.n = 0;
	o->by_tree = o->last = false;
	for (;;) {
		cut = b->from + b->window - 1 < b->from ? UINT64_MAX : b->from + b->window - 1;
		for (leaf = 0; leaf < b->nr_leaves; leaf++) {
			uint64_t ts;

			if (leaf + 1 < b->nr_leaves)
				prefetch_leaf(r, b, leaf + 1);
			ret = read_leaf(r, b, leaf, cut);
			if (ret < 0)
				return ret;
			if (ret) {
				/* the leaves not read have no records here */
				for (leaf++; leaf < b->nr_leaves; leaf++)
					b->leaf[leaf].start = b->leaf[leaf].end = in->n;
				next_window(b, in->n, in->n == b->cap);
				o->by_tree = true;
				return 0;
			}
			ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;
			if (b->leaf[leaf].state == LEAF_READING && ts < from)
				from = ts;
		}
		next_window(b, in->n, false);
		b->from = from;
		if (from == UINT64_MAX)
			o->last = true;
		if (in->n || o->last)
			break;
		/* a gap in the trace: the window starts again at the next record */
	}
	return put_sorted(b, sp_radix_sort(b->keys, b->tmp, in->n), o);
}

/* The key of @leaf in the tree of batch_tree(): its next record read, else its stream's. */
static void tree_key(struct sp_reader *r, const struct sp_reader_batch *b, int leaf)
{
	const struct leaf *lf = &b->leaf[leaf];

	if (lf->start < lf->end)
		r->key[leaf].ts = b->in.q[lf->start].ev.ts_ns;
	else if (lf->state == LEAF_READING)
		r->key[leaf].ts = r->streams[r->leaf_cpu[leaf]].cur.ts_ns;
	else
		key_end(r, leaf);
}

/*
 * Deliver a round stopped early with the tree, until every record read
 * has gone: each stream's from b->in first, then from the stream itself.
 * Return: 0 (o->last when every stream has ended), an error (@err), or
 * what @fn returned.
 */
static int batch_tree(struct sp_reader *r, struct sp_reader_batch *b, struct round *o,
		      sp_event_fn fn, void *data, uint64_t *nr, struct sp_error *err)
{
	size_t left = b->in.n;
	int leaf, ret;

	for (leaf = 0; leaf < b->nr_leaves; leaf++) {
		r->key[leaf].rank = leaf;
		tree_key(r, b, leaf);
	}
	r->node[0] = tree_build(r, 1);
	while (left) {
		struct leaf *lf;
		bool more;
		int cpu;

		leaf = r->node[0];
		lf = &b->leaf[leaf];
		cpu = r->leaf_cpu[leaf];
		if (lf->start < lf->end) {
			struct queued *e = &b->in.q[lf->start];

			names_back(&b->in, lf->start++);
			note_lost(r, cpu, e->missed);
			left--;
			ret = fn(&e->ev, data);
			if (ret)
				return ret;
			if (lf->start == lf->end && lf->state == LEAF_FAILED) {
				/* the error comes right after the stream's last record */
				if (err)
					*err = b->fail[leaf];
				return lf->fail;
			}
			progress(r, nr, e->ev.ts_ns);
		} else {
			ret = deliver_from_stream(r, cpu, fn, data, nr, err, &more);
			if (ret)
				return ret;
			if (!more)
				lf->state = LEAF_ENDED;
		}
		tree_key(r, b, leaf);
		tree_replay(r, leaf);
	}
	b->from = streams_from(r, b);
	o->last = b->from == UINT64_MAX;
	return 0;
}

/* Hand the records of a whole round to @fn.  Return: 0 or what @fn returned. */
static int deliver(struct sp_reader *r, struct round *o, sp_event_fn fn, void *data,
		   uint64_t *nr)
{
	size_t i;
	int ret;

	for (i = 0; i < o->out.n; i++) {
		struct queued *e = &o->out.q[i];

		names_back(&o->out, i);
		note_lost(r, e->ev.cpu, e->missed);
		ret = fn(&e->ev, data);
		if (ret)
			return ret;
		progress(r, nr, e->ev.ts_ns);
	}
	return 0;
}

/*
 * Handing rounds over: each thread waits for the other hundreds of times
 * a second, for a few microseconds at a time, and sleeping on a futex and
 * waking the other cost more than that on a virtual machine.  So a thread
 * spins a while first, and the other takes the lock and wakes it only when
 * it went to sleep (both sides' flag, then the other's, in one order).
 */
#define SP_SPIN_ROUNDS	4000

/* A hint to the CPU that this thread spins. */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Mark @o ready for the delivering thread, or given back by it. */
static void round_hand(struct sp_reader_batch *b, struct round *o, bool ready)
{
	__atomic_store_n(&o->ready, ready, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&b->sleeping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&b->lock);
		pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
	}
}

static inline bool round_is(const struct round *o, bool ready)
{
	return __atomic_load_n(&o->ready, __ATOMIC_ACQUIRE) == ready;
}

/*
 * Wait until @o is @ready, or the pass stops; meanwhile, with @help, read
 * blocks the rounds' thread asked for.  Return: false when it stops.
 */
static bool round_wait(struct sp_reader_batch *b, const struct round *o, bool ready, bool help)
{
	bool go;
	int i;

	for (i = 0; i < SP_SPIN_ROUNDS && !round_is(o, ready); i++) {
		if (help && sp_cpustream_scratch_help(b->r->scratch))
			i = 0;
		else
			spin_pause();
	}
	if (round_is(o, ready))
		return !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE);
	pthread_mutex_lock(&b->lock);
	__atomic_add_fetch(&b->sleeping, 1, __ATOMIC_SEQ_CST);
	while (!round_is(o, ready) && !b->stop)
		pthread_cond_wait(&b->cond, &b->lock);
	__atomic_sub_fetch(&b->sleeping, 1, __ATOMIC_SEQ_CST);
	go = !b->stop;
	pthread_mutex_unlock(&b->lock);
	return go;
}

/* The thread that does the rounds, into the rounds' buffers in turn. */
static void *rounds_main(void *data)
{
	struct sp_reader_batch *b = data;
	int k = 0;

	for (;; k = (k + 1) % SP_ROUNDS) {
		struct round *o = &b->round[k];
		bool end, by_tree;

		if (!round_wait(b, o, false, false))
			break;
		o->fail = batch_round(b->r, b, o);
		/* the other thread owns @o once handed over */
		end = o->fail || o->last;
		by_tree = o->by_tree;
		round_hand(b, o, true);
		if (end)
			break;
		/* the tree reads the streams in the other thread: wait for it */
		if (by_tree && !round_wait(b, o, false, false))
			break;
	}
	return NULL;
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
	for (k = 0; k < SP_ROUNDS; k++)
		b->round[k].ready = false;
	b->stop = false;
	b->window = WINDOW_FIRST;
	b->from = streams_from(r, b);
	/*
	 * Blocks are read ahead a bounded number at a time: a round goes
	 * through all the streams at once, so blocks read ahead for every
	 * stream would wait, megabytes of them.  This thread reads them while
	 * it waits for a round (round_wait()); a stream that reaches its
	 * block's end first reads the next one itself.  Without the rounds'
	 * thread the rounds are done here, in turn with delivering.
	 */
	if (r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_HELPED);
	threaded = !sp_thread_start(&thread, rounds_main, b);
	if (!threaded && r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_WHOLE);

	for (k = 0;; k = (k + 1) % SP_ROUNDS) {
		struct round *o = &b->round[k];

		if (threaded)
			round_wait(b, o, true, r->scratch != NULL);
		else
			o->fail = batch_round(r, b, o);
		if (o->fail) {
			ret = sp_error_set(err, o->fail, -1, "out of memory");
			break;
		}
		ret = o->by_tree ? batch_tree(r, b, o, fn, data, &nr, err) :
				   deliver(r, o, fn, data, &nr);
		if (ret || o->last)
			break;
		if (threaded)
			round_hand(b, o, false);
	}
	if (threaded) {
		pthread_mutex_lock(&b->lock);
		__atomic_store_n(&b->stop, true, __ATOMIC_SEQ_CST);
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
			sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_WHOLE);
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
