// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle for cpustream: every CPU of every bundled trace (and of the
 * shared traces when ../shared/traces is there) is read both by cpustream
 * and by libtracecmd (tracecmd_read_data() per CPU), and the two must give
 * the same records: CPU, timestamp, size, data bytes and missed-event
 * counts.  The reader's per-CPU spans must match libtracecmd's first and
 * last records.  Run from the repository root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>

#include <cmocka.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/reader.h"
#include "schedplot/trace/writer.h"

#include "../gen/formats.h"

/* Exported by libtracecmd 1.3, not in its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

#define SHARED_DIR "../shared/traces"

static int missed_of(const struct tep_record *rec)
{
	return rec->missed_events > 0 ? (int)rec->missed_events :
	       rec->missed_events < 0 ? -1 : 0;
}

/* Stream parameters for the file of @layout, as libtracecmd reads its header. */
static struct sp_cpustream_params stream_params(const struct sp_container_layout *layout, int fd,
					       struct tracecmd_input *h, size_t window_bytes)
{
	return (struct sp_cpustream_params){
		.fd = fd,
		.codec = !layout->compressed ? SP_CODEC_NONE :
			 strcmp(layout->info.compression, "zstd") ? SP_CODEC_ZLIB : SP_CODEC_ZSTD,
		.page_size = tracecmd_page_size(h),
		.long_size = tracecmd_long_size(h),
		.big_endian = tep_is_file_bigendian(tracecmd_get_tep(h)),
		.window_bytes = window_bytes,
	};
}

/*
 * sp_cpustream_spans() gives each stream the span sp_cpustream_span() gave
 * (@first_of, @last_of), in two threads: eight streams per CPU sharing one
 * scratch, so that there are enough for the second thread.  Each stream
 * then starts at its first record.
 */
static void compare_spans(const struct sp_container_layout *layout, int fd,
			  struct tracecmd_input *h, size_t window_bytes, const uint64_t *first_of,
			  const uint64_t *last_of)
{
	struct sp_cpustream_params p = stream_params(layout, fd, h, window_bytes);
	int nr = 8 * layout->nr_cpus, k;
	struct sp_cpustream **s = calloc(nr, sizeof(*s));
	uint64_t *first = calloc(nr, sizeof(*first)), *last = calloc(nr, sizeof(*last));
	int *ret = calloc(nr, sizeof(*ret));
	struct sp_error *errs = calloc(nr, sizeof(*errs)), err;
	struct sp_raw_record rec;

	assert_true(s && first && last && ret && errs);
	p.scratch = sp_cpustream_scratch_alloc(p.codec);
	assert_non_null(p.scratch);
	for (k = 0; k < nr; k++) {
		const struct sp_container_cpu *c = &layout->cpus[k % layout->nr_cpus];

		if (c->size) {
			s[k] = sp_cpustream_alloc(&p, c, &err);
			assert_non_null(s[k]);
		}
	}
	sp_cpustream_spans(s, nr, first, last, ret, errs);
	for (k = 0; k < nr; k++) {
		int i = k % layout->nr_cpus;

		if (!s[k]) {
			assert_int_equal(ret[k], -ENODATA);
			continue;
		}
		if (first_of[i] == UINT64_MAX) {
			assert_int_equal(ret[k], -ENODATA);
		} else {
			if (ret[k])
				fail_msg("CPU %u: %s", layout->cpus[i].cpu, errs[k].msg);
			assert_int_equal(first[k], first_of[i]);
			assert_int_equal(last[k], last_of[i]);
			assert_int_equal(sp_cpustream_next(s[k], &rec, &err), 1);
			assert_int_equal(rec.ts_ns, first_of[i]);
		}
	}
	for (k = 0; k < nr; k++)
		sp_cpustream_free(s[k]);
	sp_cpustream_scratch_free(p.scratch);
	free(s);
	free(first);
	free(last);
	free(ret);
	free(errs);
}

/*
 * cpustream and libtracecmd agree on every record of every CPU of @path
 * (files with options that change timestamps are read by libtracecmd
 * itself: there only the reader's spans are compared).
 */
static void compare_file(const char *path, size_t window_bytes)
{
	struct sp_container_layout layout;
	struct tracecmd_input *h;
	struct sp_reader *reader;
	struct sp_error err;
	uint64_t total = 0;
	uint64_t *first_of, *last_of;	/* by layout entry, UINT64_MAX: not compared */
	unsigned int i;
	int fd;

	/* opening a reader first registers the zlib codec with libtracecmd */
	reader = sp_reader_open(path, &err);
	if (!reader)
		fail_msg("%s: %s", path, err.msg);
	assert_int_equal(sp_container_layout(path, &layout, &err), 0);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h)
		fail_msg("%s: libtracecmd cannot open it", path);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(layout.flyrecord);
	first_of = malloc(layout.nr_cpus * sizeof(*first_of));
	last_of = malloc(layout.nr_cpus * sizeof(*last_of));
	assert_true(first_of && last_of);

	for (i = 0; i < layout.nr_cpus; i++) {
		const struct sp_container_cpu *c = &layout.cpus[i];
		struct sp_cpustream_params p = stream_params(&layout, fd, h, window_bytes);
		struct sp_cpustream *s;
		struct tep_record *want;
		struct sp_raw_record got;
		uint64_t nr = 0, first = UINT64_MAX, last = UINT64_MAX, rf, rl;
		int ret;

		first_of[i] = last_of[i] = UINT64_MAX;
		if (!c->size) {
			assert_null(tracecmd_read_cpu_first(h, c->cpu));
			continue;
		}
		if (layout.ts_options) {
			/* libtracecmd shifts or scales these timestamps: the reader uses it */
			want = tracecmd_read_cpu_first(h, c->cpu);
			if (want) {
				assert_int_equal(sp_reader_cpu_span(reader, c->cpu, &rf, &rl), 0);
				assert_int_equal(rf, want->ts);
				total++;
			}
			tracecmd_free_record(want);
			continue;
		}
		s = sp_cpustream_alloc(&p, c, &err);
		assert_non_null(s);
		want = tracecmd_read_cpu_first(h, c->cpu);
		for (;;) {
			ret = sp_cpustream_next(s, &got, &err);
			if (ret < 0)
				fail_msg("%s: CPU %u record %llu: %s", path, c->cpu,
					 (unsigned long long)nr, err.msg);
			if (!want || !ret) {
				if (want || ret)
					fail_msg("%s: CPU %u: %s ends first after %llu records", path,
						 c->cpu, want ? "cpustream" : "libtracecmd",
						 (unsigned long long)nr);
				break;
			}
			if (got.ts_ns != want->ts || got.size != (unsigned int)want->size ||
			    memcmp(got.data, want->data, got.size) || got.missed != missed_of(want))
				fail_msg("%s: CPU %u record %llu differs: ts %llu/%llu size %u/%d missed %d/%d",
					 path, c->cpu, (unsigned long long)nr,
					 (unsigned long long)got.ts_ns, want->ts, got.size, want->size,
					 got.missed, missed_of(want));
			assert_int_equal(want->cpu, c->cpu);
			if (!nr)
				first = got.ts_ns;
			last = got.ts_ns;
			nr++;
			tracecmd_free_record(want);
			want = tracecmd_read_data(h, c->cpu);
		}
		total += nr;
		first_of[i] = first;
		last_of[i] = last;
		/* the span comes from the first and last pages only */
		assert_int_equal(sp_cpustream_span(s, &rf, &rl, &err), nr ? 0 : -ENODATA);
		assert_int_equal(rf, first);
		assert_int_equal(rl, last);
		if (nr) {
			assert_int_equal(sp_reader_cpu_span(reader, c->cpu, &rf, &rl), 0);
			assert_int_equal(rf, first);
			assert_int_equal(rl, last);
			want = tracecmd_read_cpu_last(h, c->cpu);
			assert_non_null(want);
			assert_int_equal(want->ts, last);
			tracecmd_free_record(want);
		}
		/* a rewound stream reads the same first record again */
		sp_cpustream_rewind(s);
		if (nr) {
			assert_int_equal(sp_cpustream_next(s, &got, &err), 1);
			assert_int_equal(got.ts_ns, first);
		}
		sp_cpustream_free(s);
	}
	assert_true(total > 0);
	assert_int_equal(sp_reader_nr_cpus(reader), tracecmd_cpus(h));
	if (!layout.ts_options)
		compare_spans(&layout, fd, h, window_bytes, first_of, last_of);
	free(first_of);
	free(last_of);
	close(fd);
	tracecmd_close(h);
	sp_container_layout_release(&layout);
	sp_reader_close(reader);
}

static void compare_glob(const char *pattern)
{
	glob_t g;
	size_t i;

	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		/* one page at a time, a few pages, and the reader's window */
		compare_file(g.gl_pathv[i], 4096);
		compare_file(g.gl_pathv[i], 3 * 4096);
		compare_file(g.gl_pathv[i], 1 << 20);
	}
	globfree(&g);
}

static void test_bundled_traces(void **state)
{
	compare_glob("traces/*.dat");
	compare_glob("traces/unusable/*.dat");
}

static void test_shared_traces(void **state)
{
	/* under ThreadSanitizer (make check SANITIZE=thread) these take minutes */
	if (getenv("SP_TEST_SKIP_SHARED")) {
		print_message("SP_TEST_SKIP_SHARED is set: shared traces not compared\n");
		skip();
	}
	if (access(SHARED_DIR, R_OK)) {
		print_message("%s is not here: shared traces not compared\n", SHARED_DIR);
		skip();
	}
	compare_glob(SHARED_DIR "/*.dat");
}

/* Records come out in time order, ties by lower CPU, each CPU's order kept. */
struct order {
	uint64_t ts;
	int cpu;
	uint64_t nr;
	uint64_t *per_cpu;
	int nr_cpus;
};

static int check_order(const struct sp_event *ev, void *data)
{
	struct order *o = data;

	assert_true(ev->cpu >= 0 && ev->cpu < o->nr_cpus);
	if (o->nr)
		assert_true(ev->ts_ns > o->ts || (ev->ts_ns == o->ts && ev->cpu >= o->cpu) ||
			    ev->cpu == o->cpu);
	o->ts = ev->ts_ns;
	o->cpu = ev->cpu;
	o->per_cpu[ev->cpu]++;
	o->nr++;
	return 0;
}

/* One CPU of a file read with sp_cpustream, and what it takes to read it. */
struct opened {
	struct sp_container_layout layout;
	struct tracecmd_input *h;
	int fd;
	struct sp_cpustream *s;
};

/* Open CPU entry @i of @path as a stream of @window_bytes windows. */
static void open_cpu(const char *path, unsigned int i, size_t window_bytes, struct opened *o)
{
	struct sp_cpustream_params p;
	struct sp_error err = { 0 };

	assert_int_equal(sp_container_layout(path, &o->layout, &err), 0);
	o->h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	assert_non_null(o->h);
	o->fd = open(path, O_RDONLY);
	assert_true(o->fd >= 0);
	p = stream_params(&o->layout, o->fd, o->h, window_bytes);
	o->s = sp_cpustream_alloc(&p, &o->layout.cpus[i], &err);
	assert_non_null(o->s);
}

static void close_cpu(struct opened *o)
{
	sp_cpustream_free(o->s);
	tracecmd_close(o->h);
	close(o->fd);
	sp_container_layout_release(&o->layout);
}

/*
 * Records of CPU 0 of @path read with @window_bytes until the end or an
 * error: their count, the error's code and offset.
 */
static uint64_t read_until_error(const char *path, size_t window_bytes, int *code,
				 long long *offset)
{
	struct opened o;
	struct sp_raw_record rec;
	struct sp_error err = { 0 };
	uint64_t nr = 0;
	int ret;

	open_cpu(path, 0, window_bytes, &o);
	while ((ret = sp_cpustream_next(o.s, &rec, &err)) > 0)
		nr++;
	*code = ret;
	*offset = ret < 0 ? err.offset : -1;
	close_cpu(&o);
	return nr;
}

/* The file offset of chunk @k's header in the compressed CPU data at @data_off; its size. */
static uint64_t chunk_header(int fd, uint64_t data_off, uint64_t k, uint32_t *zsize)
{
	unsigned char hdr[8];
	uint64_t off = data_off + 4, i;

	for (i = 0;; i++) {
		assert_int_equal(pread(fd, hdr, 8, off), 8);
		memcpy(zsize, hdr, 4);
		if (i == k)
			return off;
		off += 8 + *zsize;
	}
}

/* Zero the compressed bytes of chunk @k of CPU entry 0 of @path; its header's offset. */
static uint64_t damage_chunk(const char *path, uint64_t k)
{
	struct sp_container_layout layout;
	struct sp_error err;
	unsigned char *zeros;
	uint32_t zsize;
	uint64_t off;
	int fd;

	assert_int_equal(sp_container_layout(path, &layout, &err), 0);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	off = chunk_header(fd, layout.cpus[0].offset, k, &zsize);
	zeros = calloc(1, zsize);
	assert_non_null(zeros);
	assert_int_equal(pwrite(fd, zeros, zsize, off + 8), (ssize_t)zsize);
	free(zeros);
	close(fd);
	sp_container_layout_release(&layout);
	return off;
}

/*
 * A compressed block holds as many chunks as fit a window; a damaged
 * chunk still gives its error after exactly the records of the chunks
 * before it, at its own header, whatever the window.
 */
static void test_damaged_chunk(void **state)
{
	const char *path = "traces/overload.dat", *copy = "build/tests/damaged-chunk.dat";
	struct sp_container_layout layout;
	struct sp_error err;
	uint64_t off, prev_nr = 0, whole;
	long long at;
	int k, code;

	(void)state;
	assert_int_equal(sp_container_layout(path, &layout, &err), 0);
	assert_true(layout.compressed && layout.cpus[0].nr_chunks >= 6);
	whole = read_until_error(path, 1u << 20, &code, &at);
	assert_int_equal(code, 0);
	for (k = 1; k < 5; k++) {
		uint64_t nr_small, nr_large;
		long long at_small, at_large;
		int code_small, code_large;
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "cp %s %s", path, copy);
		assert_int_equal(system(cmd), 0);
		off = damage_chunk(copy, k);
		nr_small = read_until_error(copy, 1, &code_small, &at_small);
		nr_large = read_until_error(copy, 1u << 20, &code_large, &at_large);
		assert_int_equal(code_small, -EBADMSG);
		assert_int_equal(code_large, -EBADMSG);
		assert_int_equal(at_small, (long long)off);
		assert_int_equal(at_large, (long long)off);
		assert_int_equal(nr_small, nr_large);
		assert_true(nr_large > prev_nr && nr_large < whole);
		prev_nr = nr_large;
	}
	sp_container_layout_release(&layout);
	unlink(copy);
}

/* Whether any page of CPU @i of @path has the missed-events flag, read with sp_cpustream. */
static int scan_cpu(const char *path, unsigned int i, size_t window_bytes)
{
	struct opened o;
	struct sp_error err = { 0 };
	int ret;

	open_cpu(path, i, window_bytes, &o);
	ret = sp_cpustream_scan_missed(o.s, &err);
	close_cpu(&o);
	return ret;
}

static void write_many_cpus(const char *path, int nr_cpus, size_t n);

/* Set the missed-events flag of page @page of CPU entry @i of a copy of @path; scan it. */
static int scan_flagged(const char *path, const struct sp_container_layout *layout, unsigned int i,
			uint64_t page)
{
	const char *copy = "build/tests/missed-flag.dat";
	uint64_t flags, off = layout->cpus[i].offset + page * layout->info.page_size + 8;
	char cmd[256];
	int fd, ret;

	snprintf(cmd, sizeof(cmd), "cp %s %s", path, copy);
	assert_int_equal(system(cmd), 0);
	fd = open(copy, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &flags, 8, off), 8);
	flags |= 1ull << 31;
	assert_int_equal(pwrite(fd, &flags, 8, off), 8);
	close(fd);
	ret = scan_cpu(copy, i, 1u << 20);
	unlink(copy);
	return ret;
}

/*
 * The lost-events scan of uncompressed data reads the pages' flags through
 * a mapping, a window at a time: it finds a flag set on any page of a CPU
 * (the first, the last, pages around every 8 MiB of a large file), and
 * none in the file without.
 */
static void test_scan_missed(void **state)
{
	const char *paths[] = { "traces/overload-v6.dat", "build/tests/scan-large.dat" };
	unsigned int i, k, n;

	(void)state;
	write_many_cpus(paths[1], 2, 600000);
	for (n = 0; n < 2; n++) {
		struct sp_container_layout layout;
		struct sp_error err;

		assert_int_equal(sp_container_layout(paths[n], &layout, &err), 0);
		assert_false(layout.compressed);
		for (i = 0; i < layout.nr_cpus; i++) {
			uint64_t pages = layout.cpus[i].size / layout.info.page_size;
			uint64_t per_8m = (8u << 20) / layout.info.page_size;

			if (!pages)
				continue;
			if (n)
				assert_true(pages > per_8m + 1);
			assert_int_equal(scan_cpu(paths[n], i, 1u << 20), 0);
			assert_int_equal(scan_flagged(paths[n], &layout, i, 0), 1);
			assert_int_equal(scan_flagged(paths[n], &layout, i, pages / 2), 1);
			assert_int_equal(scan_flagged(paths[n], &layout, i, pages - 1), 1);
			for (k = 1; n && k * per_8m < pages; k++) {
				assert_int_equal(scan_flagged(paths[n], &layout, i, k * per_8m - 1), 1);
				assert_int_equal(scan_flagged(paths[n], &layout, i, k * per_8m), 1);
			}
		}
		sp_container_layout_release(&layout);
	}
	unlink(paths[1]);
}

/*
 * A 2-CPU zstd trace of @n records, CPUs in turn, with records lost
 * before record @lost_at of CPU 0 (none when @lost_at is SIZE_MAX).
 */
static void write_zstd(const char *path, size_t n, size_t lost_at)
{
	struct sp_writer_options o = { .file_version = 7, .compression = "zstd", .nr_cpus = 2 };
	struct sp_error err = { 0 };
	struct sp_writer *w = sp_writer_open(path, &o, &err);
	size_t i;

	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (i = 0; i < n; i++) {
		struct sp_event ev = {
			.ts_ns = 1000000000ull + i * 1000, .cpu = (int)(i % 2), .type = SP_EV_SWITCH,
			.common_pid = (int)(i % 5000), .pid = (int)(i % 5000),
			.other_pid = (int)((i + 1) % 5000), .target_cpu = -1, .orig_cpu = -1,
			.comm = "prev-name", .other_comm = "next-name",
		};

		if (i == lost_at)
			assert_int_equal(sp_writer_lost(w, 0, 3), 0);
		if (sp_writer_write_event(w, &ev, &err))
			fail_msg("write %zu: %s", i, err.msg);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
}

/*
 * The lost-events scan of compressed data reads the two halves of a CPU's
 * chunks at once: a flag in either half is found, none in a file without,
 * and a damaged chunk in the second half still gives its error.
 */
static void test_scan_missed_halves(void **state)
{
	const char *path = "build/tests/scan-halves.dat";
	const size_t n = 400000, at[] = { SIZE_MAX, 2000, n / 2 + n / 8, n - 100 };
	struct sp_container_layout layout;
	struct sp_error err;
	uint32_t zsize;
	size_t k;
	int fd;

	(void)state;
	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		write_zstd(path, n, at[k]);
		assert_int_equal(sp_container_layout(path, &layout, &err), 0);
		assert_true(layout.compressed && layout.cpus[0].nr_chunks >= 64);
		assert_int_equal(scan_cpu(path, 0, 1u << 20), at[k] != SIZE_MAX);
		assert_int_equal(scan_cpu(path, 0, 1), at[k] != SIZE_MAX);
		sp_container_layout_release(&layout);
	}
	/*
	 * the layout's middle chunk is the one the header walk finds; no
	 * flag, and a chunk three quarters in that does not decompress
	 */
	write_zstd(path, n, SIZE_MAX);
	assert_int_equal(sp_container_layout(path, &layout, &err), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(layout.cpus[0].mid_chunk,
			 chunk_header(fd, layout.cpus[0].offset, layout.cpus[0].nr_chunks / 2, &zsize));
	close(fd);
	damage_chunk(path, layout.cpus[0].nr_chunks * 3 / 4);
	assert_int_equal(scan_cpu(path, 0, 1u << 20), -EBADMSG);
	sp_container_layout_release(&layout);
	unlink(path);
}

static int read_nothing(const struct sp_event *ev, void *data)
{
	(void)ev;
	(void)data;
	return 0;
}

static int stop_at_first(const struct sp_event *ev, void *data)
{
	(void)ev;
	(void)data;
	return 1;
}

/*
 * A pass over compressed data answers sp_reader_cpu_marker() as the scan
 * would, without it: a flag early, past the middle, near the end or
 * nowhere on CPU 0, none on CPU 1.  A pass stopped at its first record
 * walked neither CPU to the end and answers nothing.
 */
static void test_markers_from_pass(void **state)
{
	const char *path = "build/tests/markers-pass.dat";
	const size_t n = 200000, at[] = { SIZE_MAX, 2000, n / 2 + n / 8, n - 100 };
	struct sp_error err;
	struct sp_reader *r;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		write_zstd(path, n, at[k]);
		r = sp_reader_open(path, &err);
		assert_non_null(r);
		assert_true(sp_reader_cpu_marker_costly(r, 0));
		assert_int_equal(sp_reader_read(r, stop_at_first, NULL, &err), 1);
		assert_true(sp_reader_cpu_marker_costly(r, 0));
		assert_true(sp_reader_cpu_marker_costly(r, 1));
		assert_int_equal(sp_reader_read(r, read_nothing, NULL, &err), 0);
		assert_false(sp_reader_cpu_marker_costly(r, 0));
		assert_false(sp_reader_cpu_marker_costly(r, 1));
		assert_int_equal(sp_reader_cpu_marker(r, 0), at[k] != SIZE_MAX);
		assert_int_equal(sp_reader_cpu_marker(r, 1), 0);
		sp_reader_close(r);
		assert_int_equal(scan_cpu(path, 0, 1u << 20), at[k] != SIZE_MAX);
		assert_int_equal(scan_cpu(path, 1, 1u << 20), 0);
	}
	/* uncompressed data is scanned through a mapping: never costly */
	r = sp_reader_open("traces/overload-v6.dat", &err);
	assert_non_null(r);
	assert_false(sp_reader_cpu_marker_costly(r, 1));
	sp_reader_close(r);
	unlink(path);
}

static void test_merge_order(void **state)
{
	struct sp_error err;
	struct sp_reader *r = sp_reader_open("traces/messaging.dat", &err);
	struct order o = { 0 };

	assert_non_null(r);
	o.nr_cpus = sp_reader_nr_cpus(r);
	o.per_cpu = calloc(o.nr_cpus, sizeof(*o.per_cpu));
	assert_non_null(o.per_cpu);
	assert_int_equal(sp_reader_read(r, check_order, &o, &err), 0);
	assert_true(o.nr > 0);
	/* a second pass starts over */
	memset(o.per_cpu, 0, o.nr_cpus * sizeof(*o.per_cpu));
	uint64_t first_pass = o.nr;

	o.nr = 0;
	assert_int_equal(sp_reader_read(r, check_order, &o, &err), 0);
	assert_int_equal(o.nr, first_pass);
	free(o.per_cpu);
	sp_reader_close(r);
}

/*
 * The merge in batches delivers what the tree delivers: the same records
 * in the same order (ties, timestamps going back, a damaged page in the
 * middle of a CPU), the same lost counts, the same error after the same
 * records, and the same stop when the callback stops.
 */
struct delivered {
	struct sp_event ev;
	char comm[64];
	char other_comm[64];
	char raw[2][16];	/* with comm16: the names' first 16 bytes, as they are */
	char prev_state[16];
	uint64_t long_names;	/* the hash of names past 63 bytes, whole */
};

struct pass {
	struct delivered *v;
	size_t n, alloc;
	size_t stop_after;		/* the callback returns 7 after this many; 0: never */
	unsigned int skipped;		/* sp_reader_set_skipped() */
	enum sp_pipe_mode pipe;		/* sp_reader_set_pipe() */
	uint64_t progress[2];		/* calls of the progress callback, the last count */
	int ret;
	struct sp_error err;
	uint64_t lost[1024];
};

static uint64_t hash_str(uint64_t h, const char *str)
{
	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 0x100000001b3ull;
	return h;
}

static int collect(const struct sp_event *ev, void *data)
{
	struct pass *p = data;
	struct delivered *d;

	if (p->n == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 4096;
		p->v = realloc(p->v, p->alloc * sizeof(*p->v));
		assert_non_null(p->v);
	}
	d = &p->v[p->n++];
	d->ev = *ev;
	snprintf(d->comm, sizeof(d->comm), "%s", ev->comm ? ev->comm : "(none)");
	snprintf(d->other_comm, sizeof(d->other_comm), "%s",
		 ev->other_comm ? ev->other_comm : "(none)");
	memset(d->raw, 0, sizeof(d->raw));
	if (ev->comm16 && ev->comm)
		memcpy(d->raw[0], ev->comm, 16);
	if (ev->comm16 && ev->other_comm)
		memcpy(d->raw[1], ev->other_comm, 16);
	snprintf(d->prev_state, sizeof(d->prev_state), "%s",
		 ev->prev_state ? ev->prev_state : "(none)");
	d->long_names = 0;
	if (ev->comm && strlen(ev->comm) >= sizeof(d->comm))
		d->long_names = hash_str(1, ev->comm);
	if (ev->other_comm && strlen(ev->other_comm) >= sizeof(d->other_comm))
		d->long_names = hash_str(d->long_names + 2, ev->other_comm);
	d->ev.comm = d->ev.other_comm = NULL;
	d->ev.prev_state = NULL;
	return p->stop_after && p->n == p->stop_after ? 7 : 0;
}

/* collect(), with a print's text (ftrace:print's buf) hashed too. */
static int collect_tail(const struct sp_event *ev, void *data)
{
	struct pass *p = data;
	int ret = collect(ev, data);

	if (ev->type == SP_EV_EXTRA)
		p->v[p->n - 1].long_names = hash_str(3, ev->values[0].str ? ev->values[0].str : "");
	return ret;
}

static bool same_record(const struct delivered *a, const struct delivered *b)
{
	return a->ev.ts_ns == b->ev.ts_ns && a->ev.cpu == b->ev.cpu &&
	       a->ev.common_pid == b->ev.common_pid && a->ev.pid == b->ev.pid &&
	       a->ev.other_pid == b->ev.other_pid && a->ev.target_cpu == b->ev.target_cpu &&
	       a->ev.orig_cpu == b->ev.orig_cpu && a->ev.type == b->ev.type &&
	       a->ev.prev_runnable == b->ev.prev_runnable && !strcmp(a->comm, b->comm) &&
	       !strcmp(a->other_comm, b->other_comm) && a->ev.comm16 == b->ev.comm16 &&
	       !strcmp(a->prev_state, b->prev_state) && a->long_names == b->long_names;
}

static void count_progress(double fraction, uint64_t nr, void *data)
{
	struct pass *p = data;

	assert_true(fraction >= 0 && fraction <= 1);
	assert_true(nr > p->progress[1]);
	p->progress[0]++;
	p->progress[1] = nr;
}

static void read_pass(const char *path, int batch_min, struct pass *p)
{
	struct sp_reader *r;
	int cpu;

	p->n = 0;
	memset(&p->err, 0, sizeof(p->err));
	r = sp_reader_open(path, &p->err);
	if (!r)
		fail_msg("%s: %s", path, p->err.msg);
	sp_reader_set_batch_min(r, batch_min);
	sp_reader_set_pipe(r, p->pipe);
	sp_reader_set_skipped(r, p->skipped);
	memset(p->progress, 0, sizeof(p->progress));
	sp_reader_set_progress(r, count_progress, p);
	p->ret = sp_reader_read(r, collect, p, &p->err);
	memset(p->lost, 0, sizeof(p->lost));
	for (cpu = 0; cpu < sp_reader_nr_cpus(r) && cpu < 1024; cpu++)
		p->lost[cpu] = sp_reader_lost_events(r, cpu);
	sp_reader_close(r);
}

/*
 * @b delivered what @a did; @what names @b's merge.  With @raw the names'
 * first 16 bytes too, NUL and what follows it, as comm16 lets the model
 * compare them (the batches copy the names up to the NUL only).
 */
static void same_pass(const char *path, const struct pass *a, const struct pass *b,
		      const char *what, bool raw)
{
	size_t i;

	if (a->ret != b->ret || a->n != b->n)
		fail_msg("%s: the tree gives %zu records and %d, %s %zu and %d (%s)", path, a->n,
			 a->ret, what, b->n, b->ret, b->err.msg);
	for (i = 0; i < a->n; i++) {
		const struct delivered *x = &a->v[i], *y = &b->v[i];

		if (!same_record(x, y) || (raw && memcmp(x->raw, y->raw, sizeof(x->raw))))
			fail_msg("%s: record %zu: tree %llu CPU %d %s/%s, %s %llu CPU %d %s/%s", path,
				 i, (unsigned long long)x->ev.ts_ns, x->ev.cpu, x->comm,
				 x->other_comm, what, (unsigned long long)y->ev.ts_ns, y->ev.cpu,
				 y->comm, y->other_comm);
	}
	if (a->ret < 0)
		assert_string_equal(a->err.msg, b->err.msg);
	assert_memory_equal(a->lost, b->lost, sizeof(a->lost));
	/* progress told every 65536 records, as far as they were handed over */
	assert_memory_equal(a->progress, b->progress, sizeof(a->progress));
}

/*
 * The merges of @path agree: the tree in the caller's thread, in batches,
 * and the tree in a second thread (merge-pipe.c).  Return: the number of
 * records delivered.
 */
static size_t compare_merges(const char *path, size_t stop_after)
{
	struct pass tree = { .stop_after = stop_after, .pipe = SP_PIPE_NEVER };
	struct pass batch = { .stop_after = stop_after };
	struct pass piped = { .stop_after = stop_after, .pipe = SP_PIPE_ALWAYS };
	size_t n;

	read_pass(path, 0, &tree);
	read_pass(path, 1, &batch);
	read_pass(path, 0, &piped);
	same_pass(path, &tree, &batch, "batches", false);
	same_pass(path, &tree, &piped, "the pipe", true);
	if (!stop_after && !tree.ret)
		assert_int_equal(tree.progress[0], tree.n >> 16);
	n = tree.n;
	free(tree.v);
	free(batch.v);
	free(piped.v);
	return n;
}

/*
 * Skipped types come with their type, time, CPU and common_pid only; the
 * other records are as without the skipping.
 */
static void test_skipped_fields(void **state)
{
	static const char *const paths[] = { "traces/overload.dat", "traces/messaging.dat" };
	size_t k, i, nr_waking = 0;

	for (k = 0; k < 2; k++) {
		struct pass all = { 0 }, skip = { .skipped = 1u << SP_EV_WAKING };

		read_pass(paths[k], 0, &all);
		read_pass(paths[k], 0, &skip);
		assert_int_equal(all.ret, 0);
		assert_int_equal(skip.ret, 0);
		assert_int_equal(all.n, skip.n);
		for (i = 0; i < all.n; i++) {
			const struct delivered *a = &all.v[i], *b = &skip.v[i];

			assert_int_equal(a->ev.type, b->ev.type);
			assert_int_equal(a->ev.ts_ns, b->ev.ts_ns);
			assert_int_equal(a->ev.cpu, b->ev.cpu);
			assert_int_equal(a->ev.common_pid, b->ev.common_pid);
			if (a->ev.type != SP_EV_WAKING) {
				assert_true(same_record(a, b));
				continue;
			}
			nr_waking++;
			assert_true(a->ev.pid > 0);
			assert_int_equal(b->ev.pid, -1);
			assert_int_equal(b->ev.other_pid, -1);
			assert_int_equal(b->ev.target_cpu, -1);
			assert_int_equal(b->ev.orig_cpu, -1);
			assert_false(b->ev.prev_runnable);
			assert_string_equal(b->comm, "(none)");
			assert_string_equal(b->other_comm, "(none)");
		}
		free(all.v);
		free(skip.v);
	}
	/* both traces hold thousands (trace-cmd report: 4986 and 3057) */
	assert_int_equal(nr_waking, 4986 + 3057);
}

static void compare_merges_glob(const char *pattern)
{
	glob_t g;
	size_t i, n;

	if (glob(pattern, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		n = compare_merges(g.gl_pathv[i], 0);
		if (n > 2)
			compare_merges(g.gl_pathv[i], n / 2);
	}
	globfree(&g);
}

static void test_batches_traces(void **state)
{
	compare_merges_glob("traces/*.dat");
	compare_merges_glob("traces/unusable/*.dat");
	/* as test_shared_traces: minutes under ThreadSanitizer */
	if (!getenv("SP_TEST_SKIP_SHARED"))
		compare_merges_glob(SHARED_DIR "/*.dat");
}

/*
 * @nr_cpus CPUs, timestamps on a coarse clock (many ties across CPUs and
 * within one), names short and long; version 6 so pages can be edited.
 */
static void write_many_cpus(const char *path, int nr_cpus, size_t n)
{
	struct sp_writer_options o = { .file_version = 6, .nr_cpus = nr_cpus };
	static const char *const comm[] = { "a", "fifteen-chars-x", "sixteen-chars-xy",
					   "a-name-of-forty-bytes-for-the-exec-event" };
	struct sp_error err = { 0 };
	struct sp_writer *w = sp_writer_open(path, &o, &err);
	uint64_t x = 7;
	size_t i;

	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (i = 0; i < n; i++) {
		struct sp_event ev = { 0 };

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ev.ts_ns = 1000000000ull + (i / 16) * 1000;	/* 16 records share a time */
		/* CPUs in turn, or now and then one at random: queues fill unevenly */
		ev.cpu = (int)((x >> 8) % 4 ? i % nr_cpus : (x >> 12) % nr_cpus);
		ev.type = 1 + x % (SP_EV_NR_TYPES - 1);
		ev.common_pid = (int)(x >> 20) % 5000;
		ev.pid = (int)(x >> 32) % 5000;
		ev.other_pid = ev.type == SP_EV_SWITCH || ev.type == SP_EV_FORK ?
			       (int)(x >> 40) % 5000 : -1;
		ev.target_cpu = ev.orig_cpu = -1;
		ev.comm = comm[(x >> 50) % 4];
		ev.other_comm = ev.other_pid >= 0 ? comm[(x >> 54) % 4] : NULL;
		if (ev.cpu == 3 && (x >> 16) % 50 == 0)
			assert_int_equal(sp_writer_lost(w, ev.cpu, 5), 0);
		if (sp_writer_write_event(w, &ev, &err))
			fail_msg("write %zu: %s", i, err.msg);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
}

/*
 * Densities that change by a thousand times: CPUs in turn every 10 us,
 * then one CPU alone every 3 ns (a round fills up), a gap of 5 s, then
 * bursts of one CPU among the others.
 */
static void write_bursts(const char *path, int nr_cpus)
{
	struct sp_writer_options o = { .file_version = 6, .nr_cpus = nr_cpus };
	struct sp_error err = { 0 };
	struct sp_writer *w = sp_writer_open(path, &o, &err);
	uint64_t ts = 1000000000ull, x = 11;
	size_t i;

	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (i = 0; i < 120000; i++) {
		struct sp_event ev = { 0 };

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i < 20000) {
			ts += 10000;
			ev.cpu = (int)(i % nr_cpus);
		} else if (i < 50000) {
			ts += (i % 3 == 0) * 10;	/* ties within the CPU */
			ev.cpu = 7;
		} else {
			if (i == 50000)
				ts += 5000000000ull;
			ts += (x >> 8) % 8 ? 100000 : (x >> 20) % 2;
			ev.cpu = (x >> 8) % 8 ? (int)((x >> 12) % nr_cpus) : 3;
		}
		ev.ts_ns = ts;
		ev.type = SP_EV_WAKEUP;
		ev.common_pid = ev.pid = (int)(x >> 32) % 5000;
		ev.other_pid = ev.target_cpu = ev.orig_cpu = -1;
		ev.comm = "burst";
		if (sp_writer_write_event(w, &ev, &err))
			fail_msg("write %zu: %s", i, err.msg);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
}

/* Overwrite 8 bytes at @off of @path (little-endian). */
static void patch_u64(const char *path, uint64_t off, uint64_t val)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &val, 8, off), 8);
	close(fd);
}

static uint64_t page_at(const char *path, unsigned int cpu, unsigned int page)
{
	struct sp_container_layout l;
	struct sp_error err;
	uint64_t off;

	assert_int_equal(sp_container_layout(path, &l, &err), 0);
	assert_true(cpu < l.nr_cpus && (uint64_t)(page + 1) * l.info.page_size <= l.cpus[cpu].size);
	off = l.cpus[cpu].offset + (uint64_t)page * l.info.page_size;
	sp_container_layout_release(&l);
	return off;
}

static void test_batches_edges(void **state)
{
	char path[] = "/tmp/schedplot-merge.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	/* ties everywhere, 64 and 600 CPUs, names inline and kept aside */
	write_many_cpus(path, 64, 200000);
	compare_merges(path, 0);
	compare_merges(path, 123457);
	write_many_cpus(path, 600, 300000);
	compare_merges(path, 0);
	/* CPU 5 goes back 0.5 s at its third page, CPU 9 at its second */
	write_many_cpus(path, 64, 200000);
	patch_u64(path, page_at(path, 5, 2), 1000000000ull - 500000000ull);
	patch_u64(path, page_at(path, 9, 1), 1000000000ull);
	compare_merges(path, 0);
	/* a damaged page: CPU 7's fourth page commits more than a page */
	patch_u64(path, page_at(path, 7, 3) + 8, 1u << 20);
	assert_true(compare_merges(path, 0) < 200000);
	/* and another on CPU 2, earlier in time */
	patch_u64(path, page_at(path, 2, 2) + 8, 1u << 20);
	compare_merges(path, 0);
	/* rounds that fill up, gaps, and a CPU going back in time amid a burst */
	write_bursts(path, 64);
	compare_merges(path, 0);
	compare_merges(path, 61234);
	patch_u64(path, page_at(path, 7, 40), 1000000000ull + 50000);
	compare_merges(path, 0);
	/* and where rounds do not fill up: CPU 3 goes back 28 ms at its second page */
	patch_u64(path, page_at(path, 3, 1), 1030000000ull);
	compare_merges(path, 0);
	write_bursts(path, 600);
	compare_merges(path, 0);
	unlink(path);
}

/* ---- the merge in a second thread: what follows a record ---- */

/* sched_switch with names of any length, and ftrace's print */
static const char dynamic_switch_format[] =
	"name: sched_switch\n"
	"ID: 316\n"
	"format:\n"
	SP_TEST_COMMON_FIELDS
	"\tfield:__data_loc char[] prev_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] next_comm;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s ==> next_comm=%s next_pid=%d\", "
	"__get_str(prev_comm), REC->prev_pid, REC->prev_state ? \"S\" : \"R\", "
	"__get_str(next_comm), REC->next_pid\n";

static const char tail_print_format[] = SP_TEST_PRINT_FORMAT;

/* A name of @len bytes for @pid, different for each pid and length. */
static void tail_name(char *out, size_t len, int pid)
{
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = (char)('a' + (pid * 7 + i * 3) % 26);
	out[len] = '\0';
}

/* Append @pid's name of @len bytes to @rec at *@size, its __data_loc at @loc_at. */
static void put_dynamic_name(char *rec, size_t *size, size_t loc_at, size_t len, int pid)
{
	uint32_t loc = (uint32_t)((len + 1) << 16 | *size);

	tail_name(rec + *size, len, pid);
	memcpy(rec + loc_at, &loc, 4);
	*size += len + 1;
}

/*
 * Two CPUs on 64 KiB pages: switches whose names run from 1 to 30000
 * bytes (the decoder keeps 63), 3000 pids (more than the pipe's tables of
 * names), and prints of up to 40000 bytes (more than a chunk of the pipe
 * holds).
 */
static void write_tails(const char *path)
{
	static const size_t lens[] = { 1, 15, 16, 17, 63, 64, 100, 3000, 20000, 30000 };
	struct sp_writer_options o = { .file_version = 6, .nr_cpus = 2, .page_size = 65536 };
	struct sp_error err = { 0 };
	struct sp_writer *w = sp_writer_open(path, &o, &err);
	static char rec[65536 - 64];
	uint64_t ts = 1000000000ull;
	int i;

	assert_non_null(w);
	assert_int_equal(sp_writer_add_format(w, "sched", dynamic_switch_format,
					      sizeof(dynamic_switch_format) - 1, &err), 0);
	assert_int_equal(sp_writer_add_format(w, "ftrace", tail_print_format,
					      sizeof(tail_print_format) - 1, &err), 0);
	for (i = 0; i < 20000; i++, ts += 1000) {
		int cpu = i % 2, prev = 1 + (i * 7) % 3000, next = 1 + (i * 13) % 3000;
		size_t len0 = lens[(i / 5) % 10], len1 = lens[(i / 3) % 10];
		uint16_t type = 316;
		int64_t state = i % 3 == 0;
		size_t size = 32;

		if (len0 + len1 + 2 + size > sizeof(rec))
			len1 = 5;
		memset(rec, 0, 32);
		memcpy(rec, &type, 2);
		memcpy(rec + 4, &prev, 4);
		put_dynamic_name(rec, &size, 8, len0, prev);
		memcpy(rec + 12, &prev, 4);
		memcpy(rec + 16, &state, 8);
		put_dynamic_name(rec, &size, 24, len1, next);
		memcpy(rec + 28, &next, 4);
		if (sp_writer_write_raw(w, cpu, ts, rec, size, &err))
			fail_msg("switch %d: %s", i, err.msg);
		if (i % 50 == 0) {
			size_t len = i % 100 ? 40000 : (size_t)i % 700;

			type = 5;
			memset(rec, 0, 16);
			memcpy(rec, &type, 2);
			memcpy(rec + 4, &next, 4);
			tail_name(rec + 16, len, i);
			assert_int_equal(sp_writer_write_raw(w, cpu, ts + 500, rec, 16 + len + 1,
							     &err), 0);
		}
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
}

/* A pass of @path with ftrace:print's text asked for; the texts' hash in @hash. */
static void read_tails(const char *path, enum sp_pipe_mode mode, struct pass *p, uint64_t *hash)
{
	static const char *const buf[] = { "buf" };
	struct sp_reader *r;
	size_t i;

	p->n = 0;
	p->pipe = mode;
	r = sp_reader_open(path, &p->err);
	if (!r)
		fail_msg("%s: %s", path, p->err.msg);
	sp_reader_set_pipe(r, mode);
	assert_int_equal(sp_reader_request_event(r, "ftrace:print", buf, 1, &p->err), 0);
	p->ret = sp_reader_read(r, collect_tail, p, &p->err);
	sp_reader_close(r);
	*hash = 0;
	for (i = 0; i < p->n; i++)
		*hash = *hash * 31 + p->v[i].long_names;
}

static void test_pipe_tails(void **state)
{
	char path[] = "/tmp/schedplot-tails.XXXXXX";
	struct pass tree = { 0 }, piped = { 0 };
	uint64_t h_tree, h_piped;
	size_t i, nr_long = 0, nr_prints = 0, nr_cut = 0;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_tails(path);
	read_tails(path, SP_PIPE_NEVER, &tree, &h_tree);
	read_tails(path, SP_PIPE_ALWAYS, &piped, &h_piped);
	assert_int_equal(tree.ret, 0);
	same_pass(path, &tree, &piped, "the pipe", true);
	assert_int_equal(h_tree, h_piped);
	for (i = 0; i < tree.n; i++) {
		nr_long += tree.v[i].long_names != 0;
		nr_cut += strlen(tree.v[i].comm) == 63;
		nr_prints += tree.v[i].ev.type == SP_EV_EXTRA;
	}
	/* every switch, every print; the long names and texts were seen whole */
	assert_int_equal(tree.n, 20000 + 400);
	assert_int_equal(nr_prints, 400);
	/* the decoder cuts names at 63 bytes, the same in both */
	assert_int_equal(nr_long, 400);
	assert_true(nr_cut > 5000);
	free(tree.v);
	free(piped.v);
	/* stopped early, the pipe's records put and not handed over are let go */
	tree = (struct pass){ .stop_after = 5000 };
	piped = (struct pass){ .stop_after = 5000 };
	read_tails(path, SP_PIPE_NEVER, &tree, &h_tree);
	read_tails(path, SP_PIPE_ALWAYS, &piped, &h_piped);
	assert_int_equal(tree.ret, 7);
	same_pass(path, &tree, &piped, "the pipe", true);
	free(tree.v);
	free(piped.v);
	unlink(path);
}

/*
 * Pinned to one CPU, a pass takes no second thread: the merge in batches
 * does its rounds in turn with delivering, the pipe is not used, blocks
 * are read as reached.  The records are the same.
 */
static void test_one_cpu(void **state)
{
	char path[] = "/tmp/schedplot-one-cpu.XXXXXX";
	cpu_set_t all, one;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	write_many_cpus(path, 64, 100000);
	compare_merges(path, 0);
	compare_merges(path, 54321);
	compare_merges("traces/overload-v6.dat", 0);
	compare_merges("traces/messaging.dat", 0);
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	unlink(path);
}

/* ---- events asked for by name ---- */

#define AARCH64_TRACE SHARED_DIR "/aarch64-6cpu-v6.dat"

/* A record of an event asked for, its values copied. */
struct extra_rec {
	uint64_t ts_ns;
	int cpu;
	int common_pid;
	int request;
	union sp_value v[3];
	char str[160];		/* the string value, if any */
};

struct extra_pass {
	struct extra_rec *v;
	size_t n, alloc;
	size_t nr_by_request[4];
	size_t nr_records;
	int str_field[4];	/* per request: the field that is a string, or -1 */
	int nr_fields[4];
};

static int collect_extra(const struct sp_event *ev, void *data)
{
	struct extra_pass *p = data;
	struct extra_rec *e;
	int i;

	p->nr_records++;
	if (ev->type != SP_EV_EXTRA)
		return 0;
	assert_false(sp_event_is_sched(ev));
	assert_true(ev->extra < 4);
	p->nr_by_request[ev->extra]++;
	if (p->n == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 1024;
		p->v = realloc(p->v, p->alloc * sizeof(*p->v));
		assert_non_null(p->v);
	}
	e = &p->v[p->n++];
	memset(e, 0, sizeof(*e));
	e->ts_ns = ev->ts_ns;
	e->cpu = ev->cpu;
	e->common_pid = ev->common_pid;
	e->request = ev->extra;
	assert_int_equal(ev->pid, -1);
	assert_null(ev->comm);
	for (i = 0; i < p->nr_fields[ev->extra]; i++) {
		e->v[i] = ev->values[i];
		if (i == p->str_field[ev->extra]) {
			assert_non_null(ev->values[i].str);
			snprintf(e->str, sizeof(e->str), "%s", ev->values[i].str);
			e->v[i].str = NULL;
		}
	}
	return 0;
}

/*
 * One line of trace-cmd report: "COMM-PID [CPU] SECS.USECS: EVENT: TEXT".
 * Return: whether it is a record of @event; its CPU, time (us) and text.
 */
static bool report_line(const char *line, const char *event, int *cpu, uint64_t *us,
			const char **text)
{
	const char *p = strstr(line, "] ");
	unsigned long long sec, usec;
	size_t n = strlen(event);
	int used;

	if (!p || !strchr(line, '['))
		return false;
	if (sscanf(strchr(line, '[') + 1, "%d", cpu) != 1 ||
	    sscanf(p + 2, " %llu.%llu:%n", &sec, &usec, &used) != 2)
		return false;
	p += 2 + used;
	while (*p == ' ')
		p++;
	if (strncmp(p, event, n) || p[n] != ':')
		return false;
	p += n + 1;
	while (*p == ' ')
		p++;
	*us = sec * 1000000 + usec;
	*text = p;
	return true;
}

/*
 * The records of @event as trace-cmd report prints them, against ours
 * (those of @request in @p), in order; @fmt reads two numbers from the
 * text, compared with fields 0 and 1.  Return: records compared, or -1
 * when trace-cmd is not installed.
 */
static long compare_report(const char *path, const char *event, int request, const char *fmt,
			   const struct extra_pass *p)
{
	char cmd[512], line[1024];
	size_t k = 0;
	long n = 0;
	FILE *f;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		return -1;
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const struct extra_rec *e;
		unsigned long long a = 0, b = 0;
		const char *text;
		uint64_t us;
		int cpu;

		if (!report_line(line, event, &cpu, &us, &text))
			continue;
		while (k < p->n && p->v[k].request != request)
			k++;
		if (k == p->n)
			fail_msg("%s: trace-cmd reports more %s records than we read", path, event);
		e = &p->v[k++];
		assert_int_equal(e->cpu, cpu);
		/* trace-cmd rounds to the nearest microsecond */
		assert_int_equal((e->ts_ns + 500) / 1000, us);
		if (fmt) {
			assert_int_equal(sscanf(text, fmt, &a, &b), 2);
			assert_int_equal(e->v[0].u64, a);
			assert_int_equal(e->v[1].u64, b);
		} else {
			/* ftrace:print: "SYMBOL: TEXT" with the buffer's newline dropped */
			const char *t = strstr(text, ": ");
			size_t len = strlen(e->str);

			assert_non_null(t);
			t += 2;
			line[strcspn(line, "\n")] = '\0';
			while (len && e->str[len - 1] == '\n')
				len--;
			assert_int_equal(strlen(t), len);
			assert_memory_equal(t, e->str, len);
		}
		n++;
	}
	pclose(f);
	return n;
}

/*
 * power:cpu_frequency, power:cpu_idle, a __data_loc string of a sched
 * event not decoded otherwise, and ftrace:print: the values are what
 * trace-cmd report prints, and every other record is as without them.
 */
static void test_extra_events(void **state)
{
	static const char *const freq[] = { "state", "cpu_id" };
	static const char *const idle[] = { "state", "cpu_id", "common_pid" };
	static const char *const load[] = { "cpu", "load", "path" };
	static const char *const print[] = { "buf" };
	/* the first cpu_frequency records, as trace-cmd report prints them */
	static const struct {
		int cpu;
		uint64_t us;
		int pid;
		uint64_t state, cpu_id;
	} first[] = {
		{ 3, 2084143680, 1842, 850000, 0 }, { 3, 2084143684, 1842, 850000, 3 },
		{ 3, 2084143686, 1842, 850000, 4 }, { 3, 2084143687, 1842, 850000, 5 },
		{ 2, 2084218981, 1843, 800000, 1 }, { 2, 2084218983, 1843, 800000, 2 },
		{ 3, 2084227212, 1842, 450000, 0 }, { 3, 2084227217, 1842, 450000, 3 },
	};
	struct extra_pass p = { .str_field = { -1, -1, 2, 0 }, .nr_fields = { 2, 3, 3, 1 } };
	struct pass plain = { 0 }, asked = { 0 };
	struct sp_error err = { 0 };
	struct sp_reader *r;
	size_t i, k;
	long n;

	if (access(AARCH64_TRACE, R_OK)) {
		print_message("%s is not here: extra events not tested\n", AARCH64_TRACE);
		skip();
	}
	r = sp_reader_open(AARCH64_TRACE, &err);
	assert_non_null(r);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_frequency", freq, 2, &err), 0);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", idle, 3, &err), 1);
	assert_int_equal(sp_reader_request_event(r, "sched:sched_load_cfs_rq", load, 3, &err), 2);
	assert_int_equal(sp_reader_request_event(r, "ftrace:print", print, 1, &err), 3);
	assert_int_equal(sp_reader_value_kind(r, 0, 0), SP_VALUE_U64);
	assert_int_equal(sp_reader_value_kind(r, 1, 2), SP_VALUE_S64);
	assert_int_equal(sp_reader_value_kind(r, 2, 0), SP_VALUE_S64);
	assert_int_equal(sp_reader_value_kind(r, 2, 1), SP_VALUE_U64);
	assert_int_equal(sp_reader_value_kind(r, 2, 2), SP_VALUE_STR);
	assert_int_equal(sp_reader_value_kind(r, 3, 0), SP_VALUE_STR);
	assert_int_equal(sp_reader_value_kind(r, 4, 0), -EINVAL);
	assert_int_equal(sp_reader_value_kind(r, 0, 2), -EINVAL);
	/* the same event twice: one request when a list of fields begins the other */
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", idle, 1, &err), 1);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", NULL, 0, &err), 1);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", idle + 1, 1, &err), -EEXIST);
	assert_int_equal(sp_reader_value_kind(r, 1, 2), SP_VALUE_S64);
	assert_int_equal(sp_reader_value_kind(r, 4, 0), -EINVAL);
	/* batches are not used with events asked for: the pass is the tree's */
	sp_reader_set_batch_min(r, 1);
	assert_int_equal(sp_reader_read(r, collect_extra, &p, &err), 0);
	sp_reader_close(r);

	/* trace-cmd report -i aarch64-6cpu-v6.dat: 16, 474, 2437 and 6 of them */
	assert_int_equal(p.nr_by_request[0], 16);
	assert_int_equal(p.nr_by_request[1], 474);
	assert_int_equal(p.nr_by_request[2], 2437);
	assert_int_equal(p.nr_by_request[3], 6);
	for (i = 0, k = 0; i < sizeof(first) / sizeof(first[0]); i++, k++) {
		while (p.v[k].request != 0)
			k++;
		assert_int_equal(p.v[k].cpu, first[i].cpu);
		assert_int_equal((p.v[k].ts_ns + 500) / 1000, first[i].us);
		assert_int_equal(p.v[k].common_pid, first[i].pid);
		assert_int_equal(p.v[k].v[0].u64, first[i].state);
		assert_int_equal(p.v[k].v[1].u64, first[i].cpu_id);
	}
	/* cpu_idle's state is a u32: 4294967295 (PWR_EVENT_EXIT), not -1 */
	for (k = 0; p.v[k].request != 1; k++)
		;
	assert_int_equal(p.v[k].v[0].u64, 4294967295ull);
	assert_int_equal(p.v[k].v[1].u64, 2);
	assert_int_equal(p.v[k].v[2].s64, p.v[k].common_pid);

	n = compare_report(AARCH64_TRACE, "cpu_frequency", 0, "state=%llu cpu_id=%llu", &p);
	if (n >= 0) {
		assert_int_equal(n, 16);
		assert_int_equal(compare_report(AARCH64_TRACE, "cpu_idle", 1,
						"state=%llu cpu_id=%llu", &p), 474);
		assert_int_equal(compare_report(AARCH64_TRACE, "print", 3, NULL, &p), 6);
	} else {
		print_message("trace-cmd is not installed: values compared with the first ones only\n");
	}
	/* the __data_loc path: "cpu=2 path=/ load=0 util=0" is the first */
	for (k = 0; p.v[k].request != 2; k++)
		;
	assert_int_equal(p.v[k].v[0].s64, 2);
	assert_string_equal(p.v[k].str, "/");
	for (k++; p.v[k].request != 2; k++)
		;
	assert_string_equal(p.v[k].str, "/autogroup-1");

	/* the other records are the same as without the events asked for */
	read_pass(AARCH64_TRACE, 0, &plain);
	assert_int_equal(plain.ret, 0);
	assert_int_equal(plain.n, p.nr_records);
	r = sp_reader_open(AARCH64_TRACE, &err);
	assert_non_null(r);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_frequency", freq, 2, &err), 0);
	assert_int_equal(sp_reader_read(r, collect, &asked, &err), 0);
	sp_reader_close(r);
	assert_int_equal(plain.n, asked.n);
	for (i = 0, k = 0; i < plain.n; i++) {
		if (asked.v[i].ev.type == SP_EV_EXTRA) {
			assert_int_equal(plain.v[i].ev.type, SP_EV_OTHER);
			assert_int_equal(plain.v[i].ev.ts_ns, asked.v[i].ev.ts_ns);
			k++;
			continue;
		}
		assert_true(same_record(&plain.v[i], &asked.v[i]));
	}
	assert_int_equal(k, 16);
	free(plain.v);
	free(asked.v);
	free(p.v);
}

/* Events and fields the trace lacks are reported; the reader goes on. */
/* An event asked for with no fields, then with some: one request, the fields read */
static void test_extra_shared(void **state)
{
	static const char *const idle[] = { "state", "cpu_id" };
	struct extra_pass p = { .str_field = { -1, -1, -1, -1 }, .nr_fields = { 2 } };
	struct sp_error err = { 0 };
	struct sp_reader *r;
	size_t k;

	if (access(AARCH64_TRACE, R_OK)) {
		print_message("%s is not here: shared requests not tested\n", AARCH64_TRACE);
		skip();
	}
	r = sp_reader_open(AARCH64_TRACE, &err);
	assert_non_null(r);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", NULL, 0, &err), 0);
	assert_int_equal(sp_reader_value_kind(r, 0, 0), -EINVAL);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_idle", idle, 2, &err), 0);
	assert_int_equal(sp_reader_value_kind(r, 0, 1), SP_VALUE_U64);
	assert_int_equal(sp_reader_value_kind(r, 1, 0), -EINVAL);
	assert_int_equal(sp_reader_read(r, collect_extra, &p, &err), 0);
	sp_reader_close(r);
	/* as in test_extra_events: 474 records, the first leaves idle on CPU 2 */
	assert_int_equal(p.nr_by_request[0], 474);
	for (k = 0; p.v[k].request != 0; k++)
		;
	assert_int_equal(p.v[k].v[0].u64, 4294967295ull);
	assert_int_equal(p.v[k].v[1].u64, 2);
	free(p.v);
}

static void test_extra_missing(void **state)
{
	static const char *const freq[] = { "state", "cpu_id" };
	static const char *const print[] = { "buf", "no_such_field" };
	static const char *const sw[] = { "prev_pid" };
	struct extra_pass p = { .str_field = { -1, -1, -1, -1 } };
	struct pass plain = { 0 };
	struct sp_error err = { 0 };
	struct sp_reader *r = sp_reader_open("traces/messaging.dat", &err);

	assert_non_null(r);
	assert_int_equal(sp_reader_request_event(r, "power:cpu_frequency", freq, 2, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "power:cpu_frequency"));
	sp_error_clear(&err);
	assert_int_equal(sp_reader_request_event(r, "sched:no_such_event", NULL, 0, &err), -ENOENT);
	assert_int_equal(sp_reader_request_event(r, "ftrace:print", print, 2, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no_such_field"));
	assert_int_equal(sp_reader_request_event(r, "cpu_frequency", freq, 2, &err), -EINVAL);
	assert_int_equal(sp_reader_request_event(r, ":cpu_frequency", freq, 2, &err), -EINVAL);
	assert_int_equal(sp_reader_request_event(r, "power:", freq, 2, &err), -EINVAL);
	/* a sched record decoded already */
	assert_int_equal(sp_reader_request_event(r, "sched:sched_switch", sw, 1, &err), -EINVAL);
	assert_int_equal(sp_reader_value_kind(r, 0, 0), -EINVAL);
	/* nothing asked for came through: the pass is as ever */
	assert_int_equal(sp_reader_read(r, collect_extra, &p, &err), 0);
	sp_reader_close(r);
	assert_int_equal(p.n, 0);
	read_pass("traces/messaging.dat", 0, &plain);
	assert_int_equal(plain.n, p.nr_records);
	free(plain.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundled_traces),
		cmocka_unit_test(test_shared_traces),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_skipped_fields),
		cmocka_unit_test(test_batches_traces),
		cmocka_unit_test(test_pipe_tails),
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_damaged_chunk),
		cmocka_unit_test(test_scan_missed),
		cmocka_unit_test(test_scan_missed_halves),
		cmocka_unit_test(test_markers_from_pass),
		cmocka_unit_test(test_batches_edges),
		cmocka_unit_test(test_extra_events),
		cmocka_unit_test(test_extra_shared),
		cmocka_unit_test(test_extra_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
