// SPDX-License-Identifier: GPL-2.0-only
/*
 * reader: trace-cmd .dat file -> struct sp_event, in trace order.
 *
 * This file opens and closes; the work is done by the reader's modules:
 *   metadata.c  the metadata the reader needs (header page, sched event
 *               formats, saved cmdlines), parsed with libtraceevent, and
 *               the trace_marker texts;
 *   decode.c    event ids and field offsets looked up once per file, then
 *               records into struct sp_event;
 *   merge.c     the per-CPU streams merged in trace order (a tree, or
 *               batches in a second thread with many CPUs);
 *   trial.c     a child process that tries libtracecmd on a file first;
 *   tracecmd-compat.c  what we add to libtracecmd (a zlib codec).
 * The ring-buffer data is read by cpustream, one stream per CPU, straight
 * from the file (libtracecmd's compressed-data path is several times
 * slower than the data and allocates a record per event).
 *
 * libtracecmd opens and reads the file itself (tracecmd_open() and
 * tracecmd_read_data() per CPU) only for files cpustream does not handle:
 * options that shift or scale timestamps (trace-cmd record --date,
 * --ts-offset, --tsc2nsec, guest time sync), ring-buffer pages of kernels
 * before 2.6.31 and unusual layouts; and only after a child process came
 * through reading them (trial.h).
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

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/decode.h"
#include "schedplot/trace/merge.h"
#include "schedplot/trace/metadata.h"
#include "schedplot/trace/reader.h"
#include "schedplot/trace/tracecmd-compat.h"
#include "schedplot/trace/trial.h"
#include "reader-internal.h"

/* Bytes of uncompressed data all streams of a file read at a time, together. */
#define SP_WINDOW_TOTAL		(32u << 20)
#define SP_WINDOW_MAX		(1u << 20)

/* ---- per-CPU sources ---- */

static int span_libtracecmd(struct sp_reader *r, int cpu)
{
	struct sp_reader_stream *s = &r->streams[cpu];
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
	/* nothing read ahead at opening for the merge in batches (merge.c) */
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
		struct sp_reader_stream *s;

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

/*
 * The statistics; lost-events markers are looked for when first asked
 * (sp_reader_cpu_marker()), as that reads all the CPU's data, or learnt
 * from a pass that read it (learn_markers()).
 */
static void read_cpu_stats(struct sp_reader *r)
{
	int cpu;

	sp_cpustats_parse(r->layout.cpustats, r->layout.cpustats_len, r->stats, r->nr_cpus);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		r->marker[cpu] = SP_MARKER_NOT_LOOKED;
}

/* ---- the metadata and the data through libtracecmd ---- */

static int no_op(const struct sp_event *ev, void *data)
{
	return 0;
}

/* In the trial child, the reader is open: read it all, then end the child. */
static void trial_finish(struct sp_reader *r)
{
	struct sp_error err = { 0 };

	sp_trial_end(r->trial_fd, sp_reader_read(r, no_op, NULL, &err), &err);
}

static int open_libtracecmd(struct sp_reader *r, const char *path, struct sp_error *err)
{
	enum sp_trial t = sp_trial_run(&r->trial_fd, err);

	if (t == SP_TRIAL_FAILS)
		return sp_error_set(err, -EBADMSG, -1,
				    "damaged trace: libtracecmd, which reads this kind of file, "
				    "fails on it");
	if (t == SP_TRIAL_ERROR)
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
	sp_tracecmd_register_zlib();

	r = calloc(1, sizeof(*r));
	if (!r) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	r->fd = -1;
	r->trial_fd = -1;
	r->batch_min_leaves = SP_BATCH_MIN_LEAVES;
	if (sp_container_layout(path, &r->layout, err) < 0)
		goto fail;
	/* latency-tracer text: libtracecmd would read a size from it and crash */
	if (!r->layout.flyrecord) {
		sp_error_set(err, -EBADMSG, -1, "no per-CPU record data (latency tracer output?); "
			     "record with trace-cmd record -e sched");
		goto fail;
	}
	r->page_size = r->layout.info.page_size;
	ret = cpustream_can_read(&r->layout) ?
	      sp_metadata_load(&r->layout, path, &r->tep, err) : -ENOTSUP;
	r->own_tep = r->tep != NULL;
	/* libtracecmd 1.3 crashes cleaning up after a header page it cannot parse */
	if (ret == -EBADMSG)
		goto fail;
	if (!ret && tep_get_header_timestamp_size(r->tep) != 8) {
		sp_metadata_damaged(err, "page header");
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
	r->dec = sp_decoder_alloc(r->tep, r->swap);
	if (!r->dec) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	r->lost = sp_alloc_array(r->nr_cpus, sizeof(*r->lost));
	r->lost_unknown = sp_alloc_array(r->nr_cpus, sizeof(*r->lost_unknown));
	r->keep_lost_notes = SP_READER_LOST_NOTES;
	r->stats = sp_alloc_array(r->nr_cpus, sizeof(*r->stats));
	r->marker = sp_alloc_array(r->nr_cpus, sizeof(*r->marker));
	r->streams = sp_alloc_array(r->nr_cpus, sizeof(*r->streams));
	r->key = sp_alloc_array(r->nr_cpus, sizeof(*r->key));
	r->node = sp_alloc_array(r->nr_cpus, sizeof(*r->node));
	r->leaf_cpu = sp_alloc_array(r->nr_cpus, sizeof(*r->leaf_cpu));
	if (!r->lost || !r->lost_unknown || !r->stats || !r->marker || !r->streams || !r->key || !r->node ||
	    !r->leaf_cpu) {
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
	read_cpu_stats(r);
	r->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct sp_reader_stream *s = &r->streams[cpu];

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
		sp_trial_end(r->trial_fd, -EBADMSG, err);
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
	sp_decoder_free(r->dec);
	free(r->lost);
	free(r->lost_unknown);
	free(r->lost_notes);
	free(r->stats);
	free(r->marker);
	free(r->streams);
	free(r->key);
	free(r->node);
	free(r->leaf_cpu);
	sp_merge_batch_free(r->batch);
	free(r);
}

int sp_reader_nr_cpus(const struct sp_reader *r)
{
	return r->nr_cpus;
}

bool sp_reader_has_event(const struct sp_reader *r, enum sp_event_type type)
{
	return sp_decoder_has_event(r->dec, type);
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

uint64_t sp_reader_gaps_seen(const struct sp_reader *r)
{
	return r->nr_gaps;
}

const struct sp_container_info *sp_reader_file_info(const struct sp_reader *r)
{
	return &r->layout.info;
}

const char *sp_reader_uname(const struct sp_reader *r)
{
	return r->layout.uname;
}

const char *sp_reader_clock(const struct sp_reader *r, char *buf, size_t size)
{
	const char *open = strchr(r->layout.trace_clock, '['), *close;
	size_t n;

	if (!size)
		return buf;
	buf[0] = '\0';
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return buf;
	n = (size_t)(close - open - 1);
	if (n >= size)
		n = size - 1;
	memcpy(buf, open + 1, n);
	buf[n] = '\0';
	return buf;
}

bool sp_reader_lost_exact(const struct sp_reader *r, int cpu)
{
	return cpu < 0 || cpu >= r->nr_cpus || !r->lost_unknown[cpu];
}

void sp_reader_keep_lost_notes(struct sp_reader *r, size_t max)
{
	r->keep_lost_notes = max;
}

const struct sp_lost_note *sp_reader_lost_notes(const struct sp_reader *r, size_t *nr,
						uint64_t *nr_gaps)
{
	*nr = r->nr_lost_notes;
	*nr_gaps = r->nr_gaps;
	return r->lost_notes;
}

int sp_reader_cpu_stats(const struct sp_reader *r, int cpu, struct sp_cpu_stats *st)
{
	if (cpu < 0 || cpu >= r->nr_cpus || !r->stats[cpu].known) {
		memset(st, 0, sizeof(*st));
		return -ENODATA;
	}
	*st = r->stats[cpu];
	return 0;
}

int sp_reader_cpu_marker(struct sp_reader *r, int cpu)
{
	struct sp_error ignored = { 0 };
	int ret;

	if (cpu < 0 || cpu >= r->nr_cpus)
		return -ENODATA;
	if (r->marker[cpu] == SP_MARKER_NOT_LOOKED) {
		/* a CPU whose data cannot be read here stays unknown: the pass says why */
		if (r->use_libtracecmd)
			ret = -ENODATA;
		else if (!r->streams[cpu].cs)
			ret = 0;	/* no data */
		else
			ret = sp_cpustream_scan_missed(r->streams[cpu].cs, &ignored);
		r->marker[cpu] = ret < 0 ? SP_MARKER_UNKNOWN : ret;
	}
	return r->marker[cpu] < 0 ? -ENODATA : r->marker[cpu];
}

bool sp_reader_cpu_marker_costly(const struct sp_reader *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus && r->marker[cpu] == SP_MARKER_NOT_LOOKED &&
	       !r->use_libtracecmd && r->streams[cpu].cs && r->layout.compressed;
}

bool sp_reader_cpu_lossless(struct sp_reader *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus && sp_cpu_stats_lossless(&r->stats[cpu]) &&
	       sp_reader_cpu_marker(r, cpu) == 0;
}

void sp_reader_no_read_ahead(struct sp_reader *r)
{
	r->no_read_ahead = true;
	if (r->scratch)
		sp_cpustream_scratch_read_ahead(r->scratch, SP_AHEAD_NONE);
}

void sp_reader_set_skipped(struct sp_reader *r, unsigned int types)
{
	sp_decoder_set_skipped(r->dec, types);
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

/* The format of "system:event", loaded when needed.  Return: 0 or a negative code (@err). */
static int find_event(struct sp_reader *r, const char *name, struct tep_event **evp,
		      struct sp_error *err)
{
	const char *colon = name ? strchr(name, ':') : NULL;
	struct tep_event *ev;
	char system[128];
	int ret;

	if (!colon || colon == name || !colon[1] || (size_t)(colon - name) >= sizeof(system))
		return sp_error_set(err, -EINVAL, -1, "'%s' is not an event name (system:event)",
				    name ? name : "(null)");
	memcpy(system, name, colon - name);
	system[colon - name] = '\0';
	ev = tep_find_event_by_name(r->tep, system, colon + 1);
	/* our own metadata loading parsed only the formats the reader needs */
	if (!ev && !r->use_libtracecmd) {
		ret = sp_metadata_load_event(&r->layout, r->fd, r->tep, system, colon + 1, err);
		if (ret && ret != -ENOENT)
			return ret;
		ev = tep_find_event_by_name(r->tep, system, colon + 1);
	}
	if (!ev)
		return sp_error_set(err, -ENOENT, -1,
				    "the trace has no %s events (record them with -e %s)", name, name);
	*evp = ev;
	return 0;
}

int sp_reader_load_functions(struct sp_reader *r, struct sp_error *err)
{
	if (!r->functions) {
		/* libtracecmd parsed them when it opened the file */
		if (r->use_libtracecmd)
			r->functions = 1;
		else
			r->functions = sp_metadata_load_functions(&r->layout, r->fd, r->tep, err);
		if (!r->functions)
			r->functions = 1;
	}
	return r->functions == 1 ? 0 : r->functions;
}

const char *sp_reader_function(const struct sp_reader *r, uint64_t addr)
{
	return r->functions == 1 ? tep_find_function(r->tep, addr) : NULL;
}

int sp_reader_request_event(struct sp_reader *r, const char *name, const char *const *fields,
			    int nr_fields, struct sp_error *err)
{
	struct tep_event *ev;
	int ret = find_event(r, name, &ev, err);

	return ret ? ret : sp_decoder_add_extra(r->dec, ev, fields, nr_fields, err);
}

int sp_reader_request_present(struct sp_reader *r, const struct sp_event_request *want, int *req,
			      struct sp_error *err)
{
	int ret = sp_reader_request_event(r, want->name, want->fields, want->nr_fields, err);

	if (ret == -ENOENT) {
		sp_error_clear(err);
		return 0;
	}
	if (ret < 0)
		return ret;
	*req = ret;
	return 0;
}

int sp_reader_watch(struct sp_reader *r, const char *name, const char *filter,
		    const char *const *fields, int nr_fields, struct sp_error *err)
{
	struct tep_event *ev;
	int ret = find_event(r, name, &ev, err);

	return ret ? ret : sp_decoder_add_watch(r->dec, ev, filter, fields, nr_fields, err);
}

int sp_reader_watch_kind(const struct sp_reader *r, int watch, int field)
{
	return sp_decoder_watch_kind(r->dec, watch, field);
}

int sp_reader_value_kind(const struct sp_reader *r, int request, int field)
{
	return sp_decoder_extra_kind(r->dec, request, field);
}

/* The markers a pass answered by walking a CPU's pages from the first to the end. */
static void learn_markers(struct sp_reader *r)
{
	int cpu, walked;

	if (r->use_libtracecmd)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (r->marker[cpu] != SP_MARKER_NOT_LOOKED || !r->streams[cpu].cs)
			continue;
		walked = sp_cpustream_walked_missed(r->streams[cpu].cs);
		if (walked >= 0)
			r->marker[cpu] = walked;
	}
}

int sp_reader_read(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err)
{
	int ret = sp_merge_pass(r, fn, data, err);

	learn_markers(r);
	return ret;
}

void sp_reader_set_batch_min(struct sp_reader *r, int nr_cpus)
{
	r->batch_min_leaves = nr_cpus;
}

void sp_reader_set_pipe(struct sp_reader *r, enum sp_pipe_mode mode)
{
	r->pipe = mode;
}
