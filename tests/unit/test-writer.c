// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writer round trips: what the reader decodes from a written file equals
 * what was written, record for record, in every file version and
 * compression; lost-event marks, saved command lines and the CPU count come
 * back; bad input is refused and no partial file is ever left.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>
#include <trace-cmd.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/reader.h"
#include "schedplot/trace/writer.h"

static char tmpdir[64];

static const char *tmp(const char *name)
{
	static char buf[4][256];
	static int n;
	char *b = buf[n++ % 4];

	snprintf(b, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return b;
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/schedplot-writer.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

/* Files in the temporary directory (to catch leftovers). */
static int nr_files(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

struct rec {
	struct sp_event ev;
	char comm[64];
	char other_comm[64];
};

static uint64_t rng = 42;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const names[] = {
	"swapper", "bash", "kworker/3:1", "a-fifteen-char", "exactly15chars!",
	"/usr/lib/a/very/long/path/to/a/program/whose/name/is/longer/than/one/hundred/"
	"and/twelve/bytes/so/it/needs/a/length/word",
};

/*
 * @n records on @nr_cpus CPUs (the last CPU gets none), in the reader's
 * order: time, then CPU.  Gaps include ones above 2^27 ns (time extends)
 * and exec names above 112 bytes (type_len 0 records).
 */
static struct rec *make_records(size_t n, int nr_cpus)
{
	struct rec *v = calloc(n, sizeof(*v));
	uint64_t ts = 5000000000ull;
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++) {
		struct sp_event *ev = &v[i].ev;
		uint64_t r = rnd();

		switch (r % 5) {
		case 0: break;					/* same time, next CPU */
		case 1: ts += 1 + r % 1000; break;
		case 2: ts += r % 100000; break;
		case 3: ts += (r >> 8) % 2000000; break;
		default: ts += (r % 97 == 0) ? (1ull << 27) + r % (1ull << 30) : r % 5000;
		}
		ev->ts_ns = ts;
		ev->cpu = (int)((r >> 20) % (nr_cpus - 1));
		if (i && v[i - 1].ev.ts_ns == ts && v[i - 1].ev.cpu > ev->cpu)
			ev->cpu = v[i - 1].ev.cpu;
		ev->type = 1 + (r >> 30) % (SP_EV_NR_TYPES - 1);
		ev->common_pid = (int)((r >> 34) % 70000);
		ev->pid = (int)((r >> 36) % 4000000);
		ev->other_pid = -1;
		ev->target_cpu = -1;
		ev->orig_cpu = -1;
		snprintf(v[i].comm, sizeof(v[i].comm), "%s", names[(r >> 40) % 5]);
		ev->comm = v[i].comm;
		switch (ev->type) {
		case SP_EV_SWITCH:
			ev->other_pid = (int)((r >> 44) % 100000);
			ev->prev_runnable = (r >> 50) & 1;
			snprintf(v[i].other_comm, sizeof(v[i].other_comm), "%s",
				 names[(r >> 52) % 5]);
			ev->other_comm = v[i].other_comm;
			break;
		case SP_EV_FORK:
			ev->other_pid = (int)((r >> 44) % 100000);
			snprintf(v[i].other_comm, sizeof(v[i].other_comm), "child-%d",
				 ev->other_pid);
			ev->other_comm = v[i].other_comm;
			break;
		case SP_EV_WAKEUP:
		case SP_EV_WAKEUP_NEW:
		case SP_EV_WAKING:
			ev->target_cpu = (int)((r >> 44) % nr_cpus);
			break;
		case SP_EV_MIGRATE:
			ev->target_cpu = (int)((r >> 44) % nr_cpus);
			ev->orig_cpu = (int)((r >> 48) % nr_cpus);
			break;
		case SP_EV_EXEC:
			snprintf(v[i].comm, sizeof(v[i].comm), "%s", names[(r >> 40) % 6]);
			break;
		}
	}
	return v;
}

struct check {
	const struct rec *want;
	size_t n;
	size_t i;
};

static void expect_str(const char *what, size_t i, const char *want, const char *got)
{
	char cut[16];

	if (!want) {
		if (got)
			fail_msg("record %zu: %s is \"%s\", expected none", i, what, got);
		return;
	}
	snprintf(cut, sizeof(cut), "%s", want);	/* the kernel keeps 15 bytes */
	if (!got || strcmp(cut, got))
		fail_msg("record %zu: %s is \"%s\", expected \"%s\"", i, what, got ? got : "(null)",
			 cut);
}

static int check_one(const struct sp_event *ev, void *data)
{
	struct check *c = data;
	const struct sp_event *w;
	size_t i = c->i++;

	if (i >= c->n)
		fail_msg("more records read than written (%zu)", c->n);
	w = &c->want[i].ev;
	if (ev->type != w->type || ev->cpu != w->cpu || ev->ts_ns != w->ts_ns ||
	    ev->common_pid != w->common_pid || ev->pid != w->pid)
		fail_msg("record %zu: type %d cpu %d ts %llu common_pid %d pid %d, wrote type %d "
			 "cpu %d ts %llu common_pid %d pid %d", i, ev->type, ev->cpu,
			 (unsigned long long)ev->ts_ns, ev->common_pid, ev->pid, w->type, w->cpu,
			 (unsigned long long)w->ts_ns, w->common_pid, w->pid);
	switch (w->type) {
	case SP_EV_SWITCH:
		assert_int_equal(ev->other_pid, w->other_pid);
		assert_int_equal(ev->prev_runnable, w->prev_runnable);
		expect_str("prev_comm", i, w->comm, ev->comm);
		expect_str("next_comm", i, w->other_comm, ev->other_comm);
		break;
	case SP_EV_FORK:
		assert_int_equal(ev->other_pid, w->other_pid);
		expect_str("parent_comm", i, w->comm, ev->comm);
		expect_str("child_comm", i, w->other_comm, ev->other_comm);
		break;
	case SP_EV_WAKEUP:
	case SP_EV_WAKEUP_NEW:
	case SP_EV_WAKING:
		assert_int_equal(ev->target_cpu, w->target_cpu);
		expect_str("comm", i, w->comm, ev->comm);
		break;
	case SP_EV_MIGRATE:
		assert_int_equal(ev->target_cpu, w->target_cpu);
		assert_int_equal(ev->orig_cpu, w->orig_cpu);
		expect_str("comm", i, w->comm, ev->comm);
		break;
	case SP_EV_EXEC:
		expect_str("comm", i, NULL, ev->comm);	/* the reader takes no exec name */
		break;
	case SP_EV_EXIT:
		expect_str("comm", i, w->comm, ev->comm);
		break;
	}
	return 0;
}

/*
 * libtracecmd, the independent reader, finds on each CPU the records of @v
 * written there: same timestamps, event ids and common_pid.
 */
static void check_libtracecmd(const char *path, const struct rec *v, size_t n, int nr_cpus)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
						       TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	struct tep_handle *tep;
	int cpu;

	if (!h)
		fail_msg("%s: libtracecmd cannot open it", path);
	tep = tracecmd_get_tep(h);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct tep_record *rec = tracecmd_read_cpu_first(h, cpu);
		size_t i;

		for (i = 0; i < n; i++) {
			const struct sp_event *ev = &v[i].ev;

			if (ev->cpu != cpu)
				continue;
			if (!rec)
				fail_msg("CPU %d: libtracecmd ends before record %zu", cpu, i);
			if (rec->ts != ev->ts_ns ||
			    tep_data_type(tep, rec) != SP_WRITER_ID_SWITCH + ev->type - SP_EV_SWITCH ||
			    tep_data_pid(tep, rec) != ev->common_pid)
				fail_msg("CPU %d record %zu: libtracecmd reads ts %llu id %d pid %d, written %llu %d %d",
					 cpu, i, rec->ts, tep_data_type(tep, rec), tep_data_pid(tep, rec),
					 (unsigned long long)ev->ts_ns,
					 SP_WRITER_ID_SWITCH + ev->type - SP_EV_SWITCH, ev->common_pid);
			tracecmd_free_record(rec);
			rec = tracecmd_read_data(h, cpu);
		}
		if (rec)
			fail_msg("CPU %d: libtracecmd reads more records than were written", cpu);
	}
	tracecmd_close(h);
}

static void round_trip(int version, const char *compression, const char *expect_comp,
		       bool big_endian)
{
	const size_t n = 30000;
	const int nr_cpus = 6;
	struct sp_writer_options o = {
		.file_version = version, .compression = compression, .nr_cpus = nr_cpus,
		.big_endian = big_endian,
	};
	struct sp_container_info info;
	struct sp_error err = { 0 };
	struct rec *v = make_records(n, nr_cpus);
	struct check c = { .want = v, .n = n };
	const char *path = tmp("rt.dat");
	struct sp_writer *w;
	struct sp_reader *r;
	uint64_t first, last;
	size_t i;

	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	assert_int_equal(sp_writer_add_cmdline(w, 4242, "saved-comm", &err), 0);
	for (i = 0; i < n; i++)
		if (sp_writer_write_event(w, &v[i].ev, &err))
			fail_msg("write %zu: %s", i, err.msg);
	assert_int_equal(sp_writer_nr_records(w, -1), n);
	if (sp_writer_close(w, &err))
		fail_msg("close: %s", err.msg);
	assert_int_equal(nr_files(), 1);

	if (sp_container_check(path, &info, &err))
		fail_msg("container: %s", err.msg);
	assert_int_equal(info.version, version ? version : 7);
	assert_string_equal(info.compression, expect_comp);
	assert_int_equal(info.nr_cpus, nr_cpus);
	assert_int_equal(info.big_endian, big_endian);
	check_libtracecmd(path, v, n, nr_cpus);

	r = sp_reader_open(path, &err);
	if (!r)
		fail_msg("open: %s", err.msg);
	assert_int_equal(sp_reader_nr_cpus(r), nr_cpus);
	assert_string_equal(sp_reader_comm(r, 4242), "saved-comm");
	assert_true(sp_reader_has_event(r, SP_EV_SWITCH));
	assert_true(sp_reader_has_event(r, SP_EV_EXEC));
	assert_int_equal(sp_reader_cpu_span(r, nr_cpus - 1, &first, &last), -ENODATA);
	assert_int_equal(sp_reader_read(r, check_one, &c, &err), 0);
	assert_int_equal(c.i, n);
	for (i = 0; i < (size_t)nr_cpus; i++)
		assert_int_equal(sp_reader_lost_events(r, i), 0);
	sp_reader_close(r);
	free(v);
	unlink(path);
}

static void test_v7_zstd(void **state)
{
	round_trip(0, NULL, "zstd", false);
}

static void test_v7_none(void **state)
{
	round_trip(7, "none", "none", false);
}

static void test_v6(void **state)
{
	round_trip(6, NULL, "none", false);
}

/* As written on a big-endian machine (s390x, ppc64): the same records come back. */
static void test_big_endian(void **state)
{
	round_trip(0, NULL, "zstd", true);
	round_trip(7, "none", "none", true);
	round_trip(6, NULL, "none", true);
}

static int count_one(const struct sp_event *ev, void *data)
{
	(*(size_t *)data)++;
	return 0;
}

/* A CPU with lost records: the page after the gap says how many. */
static void lost(bool big_endian)
{
	struct sp_writer_options o = { .nr_cpus = 2, .big_endian = big_endian };
	struct sp_event ev = { .type = SP_EV_WAKEUP, .pid = 7, .comm = "x", .target_cpu = 1 };
	struct sp_error err = { 0 };
	const char *path = tmp("lost.dat");
	struct sp_writer *w;
	struct sp_reader *r;
	size_t i, n = 0;

	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (i = 0; i < 300; i++) {
		ev.ts_ns = 1000 + i * 10;
		ev.cpu = i % 2;
		if (i == 150)
			assert_int_equal(sp_writer_lost(w, 0, 1234), 0);
		if (i == 200)
			assert_int_equal(sp_writer_lost(w, 1, 0), 0);
		assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
	r = sp_reader_open(path, &err);
	assert_non_null(r);
	assert_int_equal(sp_reader_read(r, count_one, &n, &err), 0);
	assert_int_equal(n, 300);
	assert_int_equal(sp_reader_lost_events(r, 0), 1234);
	assert_int_equal(sp_reader_lost_events(r, 1), 1);	/* a gap of unknown size */
	sp_reader_close(r);
	unlink(path);
}

static void test_lost(void **state)
{
	lost(false);
	lost(true);
}

/*
 * The cpustats option and lost-events markers, known at open: CPU 0 lost
 * nothing, CPU 1's statistics say so but a page deep in its data (past
 * the first chunk or window) is flagged, CPU 2 has no statistics, CPU 3's
 * show an overrun.
 */
static void cpustats(const char *name, int version, const char *compression)
{
	struct sp_writer_options o = { .nr_cpus = 4, .file_version = version,
				       .compression = compression };
	struct sp_event ev = { .type = SP_EV_WAKEUP, .pid = 7, .comm = "x", .target_cpu = 1 };
	static const char *const text[] = {
		"CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 0\n",
		"CPU: 1\nentries: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 0\n",
		"CPU: 3\nentries: 0\noverrun: 5\ncommit overrun: 0\ndropped events: 0\n",
	};
	struct sp_error err = { 0 };
	const char *path = tmp(name);
	struct sp_cpu_stats st;
	struct sp_writer *w;
	struct sp_reader *r;
	size_t n = 0;
	unsigned int t;
	int cpu, i;

	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (t = 0; t < 3; t++)
		assert_int_equal(sp_writer_add_option(w, SP_WRITER_OPT_CPUSTAT, text[t],
						      strlen(text[t]) + 1, &err), 0);
	for (cpu = 0; cpu < 4; cpu++) {
		ev.cpu = cpu;
		for (i = 0; i < 3000; i++) {
			if (cpu == 1 && i == 2500)
				assert_int_equal(sp_writer_lost(w, cpu, 9), 0);
			ev.ts_ns = 1000000 + cpu * 10 + i * 1000;
			assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
		}
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
	r = sp_reader_open(path, &err);
	if (!r)
		fail_msg("open: %s", err.msg);
	assert_int_equal(sp_reader_cpu_stats(r, 0, &st), 0);
	assert_true(sp_cpu_stats_lossless(&st));
	assert_int_equal(sp_reader_cpu_marker(r, 0), 0);
	assert_true(sp_reader_cpu_lossless(r, 0));
	assert_int_equal(sp_reader_cpu_stats(r, 1, &st), 0);
	assert_true(sp_cpu_stats_lossless(&st));
	assert_int_equal(sp_reader_cpu_marker(r, 1), 1);
	assert_false(sp_reader_cpu_lossless(r, 1));
	assert_int_equal(sp_reader_cpu_stats(r, 2, &st), -ENODATA);
	assert_false(sp_reader_cpu_lossless(r, 2));
	assert_int_equal(sp_reader_cpu_stats(r, 3, &st), 0);
	assert_int_equal(st.overrun, 5);
	assert_false(sp_reader_cpu_lossless(r, 3));
	assert_int_equal(sp_reader_cpu_stats(r, 4, &st), -ENODATA);
	/* the scan leaves the streams rewound: every record still comes */
	assert_int_equal(sp_reader_read(r, count_one, &n, &err), 0);
	assert_int_equal(n, 4 * 3000);
	assert_int_equal(sp_reader_lost_events(r, 1), 9);
	assert_int_equal(sp_reader_lost_events(r, 0), 0);
	sp_reader_close(r);
	unlink(path);
}

static void test_cpustats(void **state)
{
	cpustats("cpustats-zstd.dat", 7, "zstd");
	cpustats("cpustats-none.dat", 7, "none");
	cpustats("cpustats-v6.dat", 6, "none");
}

/*
 * CPUs whose last chunk holds only an empty page: opening reads each whole
 * stream for its last record, for 16 CPUs in two threads.
 */
static void test_empty_last_chunks(void **state)
{
	const int nr_cpus = 16, per_cpu = 50;
	struct sp_writer_options o = { .nr_cpus = nr_cpus };
	struct sp_event ev = { .type = SP_EV_WAKEUP, .pid = 7, .comm = "x", .target_cpu = 1 };
	struct sp_error err = { 0 };
	const char *path = tmp("empty-last.dat");
	unsigned char page[16];
	uint64_t first, last;
	struct sp_writer *w;
	struct sp_reader *r;
	size_t n = 0;
	int cpu, i;

	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ev.cpu = cpu;
		for (i = 0; i < per_cpu; i++) {
			ev.ts_ns = 1000000 + cpu * 10 + i * 1000;
			assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
		}
		/*
		 * The records fill one page; nine empty pages (a timestamp and a
		 * zero commit, not a zeroed page) fill its chunk, the tenth is
		 * the last chunk.
		 */
		memset(page, 0, sizeof(page));
		memcpy(page, &ev.ts_ns, 8);
		for (i = 0; i < 10; i++)
			assert_int_equal(sp_writer_write_page(w, cpu, page, sizeof(page), &err), 0);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
	r = sp_reader_open(path, &err);
	if (!r)
		fail_msg("open: %s", err.msg);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		assert_int_equal(sp_reader_cpu_span(r, cpu, &first, &last), 0);
		assert_int_equal(first, 1000000 + cpu * 10);
		assert_int_equal(last, 1000000 + cpu * 10 + (per_cpu - 1) * 1000);
	}
	assert_int_equal(sp_reader_read(r, count_one, &n, &err), 0);
	assert_int_equal(n, (size_t)nr_cpus * per_cpu);
	sp_reader_close(r);
	unlink(path);
}

/* Bad input is refused; nothing is left behind; an old file survives a failure. */
static void test_errors(void **state)
{
	struct sp_writer_options o = { .nr_cpus = 4 };
	struct sp_event ev = { .type = SP_EV_EXIT, .pid = 1, .comm = "x", .ts_ns = 100 };
	struct sp_error err = { 0 };
	const char *path = tmp("err.dat");
	char big[8192] = { 0 };
	struct sp_writer *w;
	FILE *f;

	o.file_version = 5;
	assert_null(sp_writer_open(path, &o, &err));
	assert_int_equal(err.code, -EINVAL);
	o.file_version = 6;
	o.compression = "zstd";
	assert_null(sp_writer_open(path, &o, &err));
	o.compression = "lz4";
	o.file_version = 7;
	assert_null(sp_writer_open(path, &o, &err));
	o.compression = NULL;
	o.nr_cpus = 0;
	assert_null(sp_writer_open(path, &o, &err));
	o.nr_cpus = 4;
	o.page_size = 5000;
	assert_null(sp_writer_open(path, &o, &err));
	o.page_size = 0;
	assert_null(sp_writer_open("/nonexistent-dir/x.dat", &o, &err));
	assert_int_equal(err.code, -ENOENT);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old", f);
	fclose(f);
	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_write_event(w, &ev, &err), -EINVAL);	/* no formats */
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
	ev.ts_ns = 99;
	assert_int_equal(sp_writer_write_event(w, &ev, &err), -EINVAL);	/* backwards */
	assert_non_null(strstr(err.msg, "comes after"));
	ev.cpu = 4;
	assert_int_equal(sp_writer_write_event(w, &ev, &err), -EINVAL);
	assert_int_equal(sp_writer_write_raw(w, 0, 200, big, sizeof(big), &err), -EINVAL);
	ev.type = SP_EV_OTHER;
	ev.cpu = 0;
	ev.ts_ns = 300;
	assert_int_equal(sp_writer_write_event(w, &ev, &err), -EINVAL);
	assert_int_equal(sp_writer_add_option(w, 3, "x", 2, &err), -EINVAL);
	sp_writer_abort(w);
	sp_writer_abort(NULL);
	assert_int_equal(nr_files(), 1);	/* the old file, untouched */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(big, sizeof(big), f));
	fclose(f);
	assert_string_equal(big, "old");
	unlink(path);
}

/* 512 CPUs, one record each, most of them empty otherwise. */
static void test_many_cpus(void **state)
{
	struct sp_writer_options o = { .nr_cpus = 512 };
	struct sp_event ev = { .type = SP_EV_SWITCH, .comm = "a", .other_comm = "b" };
	struct sp_error err = { 0 };
	const char *path = tmp("many.dat");
	struct sp_writer *w;
	struct sp_reader *r;
	size_t n = 0;
	int c;

	w = sp_writer_open(path, &o, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	for (c = 0; c < 512; c += 3) {
		ev.cpu = c;
		ev.ts_ns = 1000000 + c;
		ev.pid = c;
		ev.other_pid = c + 1;
		assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
	}
	assert_int_equal(sp_writer_close(w, &err), 0);
	r = sp_reader_open(path, &err);
	assert_non_null(r);
	assert_int_equal(sp_reader_nr_cpus(r), 512);
	assert_int_equal(sp_reader_read(r, count_one, &n, &err), 0);
	assert_int_equal(n, (512 + 2) / 3);
	sp_reader_close(r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v7_zstd),
		cmocka_unit_test(test_v7_none),
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_cpustats),
		cmocka_unit_test(test_empty_last_chunks),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_many_cpus),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
