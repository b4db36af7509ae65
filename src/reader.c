// SPDX-License-Identifier: GPL-2.0-only
/*
 * reader: trace-cmd .dat file -> struct sp_event, in trace order.
 *
 * libtracecmd does the container and the ring-buffer pages; libtraceevent
 * the event formats.  Event ids and field offsets are looked up once per
 * file.  Each CPU's stream is read on its own (tracecmd_read_data()) and
 * the streams are merged here with a heap, O(log CPUs) per record, instead
 * of tracecmd_iterate_events(), which scans every CPU for every record.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <zlib.h>

#include "schedplot/container.h"
#include "schedplot/error.h"
#include "schedplot/reader.h"

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

struct sched_fields {
	struct tep_event *event;
	struct tep_format_field *pid;		/* prev_pid, pid, parent_pid */
	struct tep_format_field *other_pid;	/* next_pid, child_pid */
	struct tep_format_field *comm;		/* prev_comm, comm, parent_comm */
	struct tep_format_field *other_comm;	/* next_comm, child_comm */
	struct tep_format_field *prev_state;
	struct tep_format_field *target_cpu;	/* target_cpu, dest_cpu */
	struct tep_format_field *orig_cpu;
};

/* What prev_state values mean, learned from the event's own print format. */
struct state_cache_entry {
	unsigned long long value;
	bool runnable;
};

struct cpu_stream {
	struct tep_record *rec;		/* next record of this CPU, NULL at its end */
};

struct sp_reader {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	int nr_cpus;
	struct sched_fields fields[SP_EV_NR_TYPES];
	struct state_cache_entry state_cache[SP_STATE_CACHE];
	int nr_state_cache;
	struct trace_seq seq;
	uint64_t *lost;			/* per CPU */
	struct cpu_stream *streams;
	int *heap;			/* CPUs ordered by their next record */
	int nr_heap;
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

static struct tep_format_field *find_field(struct tep_event *event, const char *name)
{
	return event ? tep_find_field(event, name) : NULL;
}

static void resolve_fields(struct sp_reader *r)
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
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct sched_fields *f = &r->fields[table[i].type];
		struct tep_event *ev = tep_find_event_by_name(r->tep, "sched", table[i].name);

		if (!ev)
			continue;
		f->pid = find_field(ev, table[i].pid);
		/* an event without the pid the model needs is of no use */
		if (!f->pid)
			continue;
		f->event = ev;
		if (table[i].other_pid)
			f->other_pid = find_field(ev, table[i].other_pid);
		if (table[i].comm)
			f->comm = find_field(ev, table[i].comm);
		if (table[i].other_comm)
			f->other_comm = find_field(ev, table[i].other_comm);
		if (table[i].target_cpu)
			f->target_cpu = find_field(ev, table[i].target_cpu);
		if (table[i].type == SP_EV_SWITCH) {
			f->prev_state = find_field(ev, "prev_state");
			if (!f->other_pid)
				f->event = NULL;
		}
		if (table[i].type == SP_EV_MIGRATE)
			f->orig_cpu = find_field(ev, "orig_cpu");
	}
}

static bool read_int(struct sp_reader *r, struct tep_record *rec, struct tep_format_field *f,
		     long long *val)
{
	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 || f->offset + f->size > rec->size)
		return false;
	*val = (long long)tep_read_number(r->tep, (char *)rec->data + f->offset, f->size);
	/* sign-extend narrow signed fields (pids and CPUs are int) */
	if (f->size < 8 && (f->flags & TEP_FIELD_IS_SIGNED)) {
		int shift = 64 - 8 * f->size;

		*val = (long long)((unsigned long long)*val << shift) >> shift;
	}
	return true;
}

static int32_t read_i32(struct sp_reader *r, struct tep_record *rec, struct tep_format_field *f,
			int32_t fallback)
{
	long long val;

	return read_int(r, rec, f, &val) ? (int32_t)val : fallback;
}

/* Fixed char[N] or __data_loc / __rel_loc strings, copied NUL-terminated. */
static const char *read_str(struct sp_reader *r, struct tep_record *rec,
			    struct tep_format_field *f, char *buf, size_t len)
{
	const char *data = rec->data;
	long long off, n;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return NULL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc = tep_read_number(r->tep, data + f->offset, 4);

		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off < 0 || n < 0 || off + n > rec->size)
		return NULL;
	if (n > (long long)len - 1)
		n = len - 1;
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
static bool prev_state_runnable(struct sp_reader *r, struct tep_record *rec, long long value)
{
	const char *p;
	bool runnable;
	int i;

	for (i = 0; i < r->nr_state_cache; i++)
		if (r->state_cache[i].value == (unsigned long long)value)
			return r->state_cache[i].runnable;

	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, rec, "%s", TEP_PRINT_INFO);
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

static void decode(struct sp_reader *r, struct tep_record *rec, struct sp_event *ev)
{
	struct sched_fields *f = NULL;
	int id = tep_data_type(r->tep, rec);
	long long state;
	int t;

	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	ev->common_pid = tep_data_pid(r->tep, rec);
	ev->target_cpu = -1;
	ev->orig_cpu = -1;
	for (t = 1; t < SP_EV_NR_TYPES; t++) {
		if (r->fields[t].event && r->fields[t].event->id == id) {
			f = &r->fields[t];
			break;
		}
	}
	if (!f)
		return;
	ev->type = t;
	ev->pid = read_i32(r, rec, f->pid, -1);
	ev->other_pid = read_i32(r, rec, f->other_pid, -1);
	ev->target_cpu = read_i32(r, rec, f->target_cpu, -1);
	ev->orig_cpu = read_i32(r, rec, f->orig_cpu, -1);
	ev->comm = read_str(r, rec, f->comm, r->comm_buf, sizeof(r->comm_buf));
	ev->other_comm = read_str(r, rec, f->other_comm, r->other_comm_buf,
				  sizeof(r->other_comm_buf));
	if (t == SP_EV_SWITCH)
		ev->prev_runnable = read_int(r, rec, f->prev_state, &state) &&
				    prev_state_runnable(r, rec, state);
}

struct sp_reader *sp_reader_open(const char *path, struct sp_error *err)
{
	struct sp_container_info info;
	struct sp_reader *r;
	int cpu;

	if (sp_container_check(path, &info, err) < 0)
		return NULL;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	register_zlib();

	r = calloc(1, sizeof(*r));
	if (!r) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	trace_seq_init(&r->seq);
	r->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
					 TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!r->handle) {
		sp_error_set(err, -EBADMSG, -1,
			     "cannot read the trace (damaged file or a %s-compressed file "
			     "libtracecmd does not support)", info.compression);
		goto fail;
	}
	r->tep = tracecmd_get_tep(r->handle);
	r->nr_cpus = tracecmd_cpus(r->handle);
	if (!r->tep || r->nr_cpus <= 0 || r->nr_cpus > 65536) {
		sp_error_set(err, -EBADMSG, -1, "the trace header gives %d CPUs", r->nr_cpus);
		goto fail;
	}
	resolve_fields(r);
	r->lost = sp_alloc_array(r->nr_cpus, sizeof(*r->lost));
	r->streams = sp_alloc_array(r->nr_cpus, sizeof(*r->streams));
	r->heap = sp_alloc_array(r->nr_cpus, sizeof(*r->heap));
	if (!r->lost || !r->streams || !r->heap) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	r->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct tep_record *rec = tracecmd_read_cpu_last(r->handle, cpu);

		if (!rec)
			continue;
		if (rec->ts > r->last_ns)
			r->last_ns = rec->ts;
		tracecmd_free_record(rec);
	}
	return r;
fail:
	sp_reader_close(r);
	return NULL;
}

void sp_reader_close(struct sp_reader *r)
{
	int cpu;

	if (!r)
		return;
	if (r->streams)
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			tracecmd_free_record(r->streams[cpu].rec);
	if (r->handle)
		tracecmd_close(r->handle);
	trace_seq_destroy(&r->seq);
	free(r->lost);
	free(r->streams);
	free(r->heap);
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
	struct tep_record *rec;

	*first_ns = *last_ns = UINT64_MAX;
	rec = tracecmd_read_cpu_first(r->handle, cpu);
	if (!rec)
		return -ENODATA;
	*first_ns = rec->ts;
	tracecmd_free_record(rec);
	rec = tracecmd_read_cpu_last(r->handle, cpu);
	if (rec) {
		*last_ns = rec->ts;
		tracecmd_free_record(rec);
	}
	return 0;
}

/* Heap order: earlier timestamp first, then lower CPU. */
static bool stream_before(const struct sp_reader *r, int a, int b)
{
	const struct tep_record *ra = r->streams[a].rec, *rb = r->streams[b].rec;

	if (ra->ts != rb->ts)
		return ra->ts < rb->ts;
	return a < b;
}

static void heap_sift_down(struct sp_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, rgt = l + 1, min = i, tmp;

		if (l < r->nr_heap && stream_before(r, r->heap[l], r->heap[min]))
			min = l;
		if (rgt < r->nr_heap && stream_before(r, r->heap[rgt], r->heap[min]))
			min = rgt;
		if (min == i)
			return;
		tmp = r->heap[i];
		r->heap[i] = r->heap[min];
		r->heap[min] = tmp;
		i = min;
	}
}

static void note_lost(struct sp_reader *r, struct tep_record *rec)
{
	if (rec->missed_events > 0)
		r->lost[rec->cpu] += rec->missed_events;
	else if (rec->missed_events < 0)
		r->lost[rec->cpu]++;
}

int sp_reader_read(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	uint64_t nr = 0;
	struct sp_event ev;
	int cpu, i, ret = 0;

	r->nr_heap = 0;
	memset(r->lost, 0, r->nr_cpus * sizeof(*r->lost));
	r->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		tracecmd_free_record(r->streams[cpu].rec);
		r->streams[cpu].rec = tracecmd_read_cpu_first(r->handle, cpu);
		if (!r->streams[cpu].rec)
			continue;
		/* libtracecmd reports a bogus CPU for damaged pages */
		r->streams[cpu].rec->cpu = cpu;
		if (r->streams[cpu].rec->ts < r->first_ns)
			r->first_ns = r->streams[cpu].rec->ts;
		r->heap[r->nr_heap++] = cpu;
	}
	for (i = r->nr_heap / 2 - 1; i >= 0; i--)
		heap_sift_down(r, i);

	while (r->nr_heap) {
		struct cpu_stream *s;

		cpu = r->heap[0];
		s = &r->streams[cpu];
		note_lost(r, s->rec);
		decode(r, s->rec, &ev);
		tracecmd_free_record(s->rec);
		s->rec = NULL;
		ret = fn(&ev, data);
		if (ret)
			break;
		s->rec = tracecmd_read_data(r->handle, cpu);
		if (s->rec) {
			s->rec->cpu = cpu;
		} else {
			r->heap[0] = r->heap[--r->nr_heap];
		}
		heap_sift_down(r, 0);
		if (r->progress && !(++nr & 0xffff) && r->last_ns > r->first_ns)
			r->progress((double)(ev.ts_ns - r->first_ns) / (r->last_ns - r->first_ns),
				    nr, r->progress_data);
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		tracecmd_free_record(r->streams[cpu].rec);
		r->streams[cpu].rec = NULL;
	}
	if (ret < 0 && err && !err->code)
		sp_error_set(err, ret, -1, "%s", strerror(-ret));
	return ret;
}
