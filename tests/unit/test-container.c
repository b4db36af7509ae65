// SPDX-License-Identifier: GPL-2.0-only
/*
 * Container checks: every good trace passes with the values trace-cmd
 * reports for it, and damaged copies of them (built here in a temporary
 * directory) fail with the right code, message and offset.  Run from the
 * repository root.
 */
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"

#define SHARED "../shared/traces/"

/* What `trace-cmd dump --summary` says about the shared traces. */
static const struct expect {
	const char *name;
	int version;
	int nr_cpus;
	int long_size;
	const char *compression;
} shared[] = {
	{ "aarch64-6cpu-v6.dat", 6, 6, 8, "none" },
	{ "i686-4cpu-v6.dat", 6, 4, 4, "none" },
	{ "x86_64-1cpu-v7-zlib.dat", 7, 1, 8, "zlib" },
	{ "x86_64-8cpu-v7-zstd.dat", 7, 8, 8, "zstd" },
};

static char tmpdir[64];

struct item {
	char what[24];
	uint64_t off;
	uint64_t size;
};

struct items {
	struct item *v;
	size_t nr;
	size_t alloc;
};

static void collect(void *data, const char *what, uint64_t off, uint64_t size)
{
	struct items *it = data;

	if (sp_grow_array(&it->v, &it->alloc, it->nr + 1, sizeof(*it->v)))
		return;
	snprintf(it->v[it->nr].what, sizeof(it->v[it->nr].what), "%s", what);
	it->v[it->nr].off = off;
	it->v[it->nr].size = size;
	it->nr++;
}

static const struct item *find(const struct items *it, const char *what, bool last)
{
	const struct item *found = NULL;
	size_t i;

	for (i = 0; i < it->nr; i++) {
		if (strcmp(it->v[i].what, what))
			continue;
		found = &it->v[i];
		if (!last)
			break;
	}
	return found;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* Write @n bytes of @val little-endian at @off (the traces used are little-endian). */
static void patch(const char *path, uint64_t off, int n, uint64_t val)
{
	unsigned char b[8];
	int fd, i;

	for (i = 0; i < n; i++)
		b[i] = val >> (8 * i);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, b, n, off), n);
	close(fd);
}

/* Check @path fails with @code and a message holding each of the words. */
static void expect_fail(const char *path, int code, bool has_offset, ...)
{
	struct sp_container_info info;
	struct sp_error err;
	const char *word;
	va_list ap;
	int ret;

	ret = sp_container_check(path, &info, &err);
	if (ret != code || !err.msg[0])
		fail_msg("%s: got %d (%s), expected %d", path, ret, err.msg, code);
	assert_int_equal(err.code, code);
	if (has_offset && err.offset < 0)
		fail_msg("%s: no offset with \"%s\"", path, err.msg);
	va_start(ap, has_offset);
	while ((word = va_arg(ap, const char *)))
		if (!strstr(err.msg, word))
			fail_msg("%s: \"%s\" lacks \"%s\"", path, err.msg, word);
	va_end(ap);
}

/* A good trace of @version: a shared one, else one recorded in traces/. */
static bool base_file(int version, char *path, size_t size)
{
	const char *name = version == 6 ? SHARED "aarch64-6cpu-v6.dat" :
					  SHARED "x86_64-8cpu-v7-zstd.dat";
	struct sp_container_info info;
	glob_t g;
	size_t i;
	bool found = false;

	if (exists(name)) {
		snprintf(path, size, "%s", name);
		return true;
	}
	if (glob("traces/*.dat", 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !found; i++) {
		if (!sp_container_check(g.gl_pathv[i], &info, NULL) && info.version == version) {
			snprintf(path, size, "%s", g.gl_pathv[i]);
			found = true;
		}
	}
	globfree(&g);
	if (!found)
		printf("# no good version %d trace found, skipping\n", version);
	return found;
}

static void truncations(const char *base, const struct items *it, int page_size);

/* Good traces pass, and fail when truncated at any boundary the check walks. */
static void check_good(const char *path, struct sp_container_info *info)
{
	struct items it = { 0 };
	struct sp_error err;

	if (sp_container_check_visit(path, info, &err, collect, &it))
		fail_msg("%s: 0x%llx: %s", path, err.offset, err.msg);
	truncations(path, &it, info->page_size);
	printf("# %s: %zu items walked\n", path, it.nr);
	free(it.v);
}

static void test_shared_traces(void **state)
{
	struct sp_container_info info;
	char path[256];
	size_t i;

	if (!exists(SHARED)) {
		printf("# %s is absent, skipping the shared traces\n", SHARED);
		skip();
	}
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		snprintf(path, sizeof(path), SHARED "%s", shared[i].name);
		check_good(path, &info);
		assert_int_equal(info.version, shared[i].version);
		assert_int_equal(info.nr_cpus, shared[i].nr_cpus);
		assert_int_equal(info.long_size, shared[i].long_size);
		assert_string_equal(info.compression, shared[i].compression);
		assert_int_equal(info.page_size, 4096);
		assert_false(info.big_endian);
		assert_true(info.file_size > 0);
	}
}

static void test_local_traces(void **state)
{
	struct sp_container_info info;
	glob_t g;
	size_t i;

	if (glob("traces/*.dat", 0, NULL, &g)) {
		printf("# no traces/*.dat yet, skipping\n");
		skip();
	}
	for (i = 0; i < g.gl_pathc; i++) {
		check_good(g.gl_pathv[i], &info);
		assert_true(info.version == 6 || info.version == 7);
		assert_true(info.nr_cpus >= 1);
	}
	globfree(&g);
}

static void test_not_traces(void **state)
{
	static const char text[] = "# tracer: nop\n#\n          <idle>-0     [000] d..2. sched_switch\n";
	static const unsigned char v8[32] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '8' };
	static const unsigned char v5[32] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '5' };
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c' };
	static unsigned char buf[65536];
	struct sp_error err;
	char path[128];
	size_t i;

	expect_fail("no/such/file.dat", -ENOENT, false, "cannot open", NULL);
	expect_fail(tmpdir, -EISDIR, false, "directory", NULL);

	tmp_path(path, sizeof(path), "empty.dat");
	write_file(path, "", 0);
	expect_fail(path, -ENODATA, false, "empty file", NULL);

	tmp_path(path, sizeof(path), "zeros.dat");
	write_file(path, buf, sizeof(buf));
	expect_fail(path, -EINVAL, false, "not a trace-cmd data file", "trace-cmd record", NULL);
	sp_container_check(path, NULL, &err);
	assert_int_equal(err.offset, -1);

	srand(1);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rand();
	buf[0] = 0x42;
	tmp_path(path, sizeof(path), "random.dat");
	write_file(path, buf, sizeof(buf));
	expect_fail(path, -EINVAL, false, "no tracing magic", NULL);

	tmp_path(path, sizeof(path), "text.dat");
	write_file(path, text, strlen(text));
	expect_fail(path, -EINVAL, false, "not a trace-cmd data file", NULL);

	tmp_path(path, sizeof(path), "magic.dat");
	memcpy(buf, "\x17\x08\x44tracinG6", 11);
	write_file(path, buf, 4096);
	expect_fail(path, -EINVAL, false, "no tracing magic", NULL);

	tmp_path(path, sizeof(path), "short-magic.dat");
	write_file(path, magic, sizeof(magic));
	expect_fail(path, -EBADMSG, true, "truncated", NULL);

	tmp_path(path, sizeof(path), "v8.dat");
	write_file(path, v8, sizeof(v8));
	expect_fail(path, -EPROTONOSUPPORT, true, "file version 8 is newer", "6 and 7", NULL);

	tmp_path(path, sizeof(path), "v5.dat");
	write_file(path, v5, sizeof(v5));
	expect_fail(path, -EPROTONOSUPPORT, true, "file version 5 is older", NULL);
}

/* Damaged header fields, in a copy of @base. */
static void bad_fields(const char *base, const struct items *it)
{
	static const uint64_t page_sizes[] = { 0, 3, 1ull << 31, 2048, 1 << 21 };
	static const uint64_t cpu_counts[] = { 0, 1ull << 31, 8193 };
	const struct item *page = find(it, "page size", false);
	const struct item *cpus = find(it, "cpu count", false);
	char path[128];
	size_t i;

	assert_non_null(page);
	assert_non_null(cpus);
	tmp_path(path, sizeof(path), "field.dat");
	for (i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]); i++) {
		copy_file(base, path);
		patch(path, page->off, 4, page_sizes[i]);
		expect_fail(path, -EBADMSG, true, "page size", NULL);
	}
	for (i = 0; i < sizeof(cpu_counts) / sizeof(cpu_counts[0]); i++) {
		copy_file(base, path);
		patch(path, cpus->off, 4, cpu_counts[i]);
		expect_fail(path, -EBADMSG, true, "CPU count", NULL);
	}
	copy_file(base, path);
	patch(path, 10, 1, '9');
	expect_fail(path, -EPROTONOSUPPORT, true, "newer", NULL);
	copy_file(base, path);
	patch(path, page->off - 1, 1, 16);
	expect_fail(path, -EBADMSG, true, "long size", NULL);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Truncate a copy of @base at every boundary the check walks, at a spread
 * of fixed offsets and in the middle of each CPU's first page, largest cut
 * first so one copy serves them all.
 */
static void truncations(const char *base, const struct items *it, int page_size)
{
	static const uint64_t fixed[] = { 1, 10, 100, 1000, 10000 };
	static const int percent[] = { 25, 50, 75, 99 };
	struct sp_container_info info;
	struct sp_error err;
	uint64_t *cuts, size;
	size_t nr = 0, i;
	char path[128];
	bool cpu_cut;
	int ret;

	assert_int_equal(sp_container_check(base, &info, NULL), 0);
	size = info.file_size;
	cuts = sp_alloc_array(2 * it->nr + 16, sizeof(*cuts));
	assert_non_null(cuts);
	for (i = 0; i < it->nr; i++) {
		cuts[nr++] = it->v[i].off;
		cuts[nr++] = it->v[i].off + it->v[i].size;
		if (!strcmp(it->v[i].what, "cpu data") && it->v[i].size > (uint64_t)page_size / 2)
			cuts[nr - 1] = it->v[i].off + page_size / 2;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		cuts[nr++] = fixed[i];
	for (i = 0; i < sizeof(percent) / sizeof(percent[0]); i++)
		cuts[nr++] = size * percent[i] / 100;
	qsort(cuts, nr, sizeof(*cuts), cmp_desc);

	tmp_path(path, sizeof(path), "cut.dat");
	copy_file(base, path);
	for (i = 0; i < nr; i++) {
		if (!cuts[i] || cuts[i] >= size || (i && cuts[i] == cuts[i - 1]))
			continue;
		assert_int_equal(truncate(path, cuts[i]), 0);
		ret = sp_container_check(path, NULL, &err);
		if (ret != -EBADMSG || err.offset < 0 || !strstr(err.msg, "truncated"))
			fail_msg("%s cut at 0x%llx: got %d, offset %lld, \"%s\"", base,
				 (unsigned long long)cuts[i], ret, err.offset, err.msg);
		/* a v6 file cut inside CPU data says which CPU */
		cpu_cut = info.version == 6 && find(it, "flyrecord", false) &&
			  cuts[i] > find(it, "flyrecord", false)->off;
		if (cpu_cut && !strstr(err.msg, "CPU"))
			fail_msg("%s cut at 0x%llx: \"%s\" names no CPU", base,
				 (unsigned long long)cuts[i], err.msg);
	}
	free(cuts);
}

static void test_v6_damage(void **state)
{
	struct items it = { 0 };
	struct sp_container_info info;
	char base[256], path[128];
	const struct item *fly;

	if (!base_file(6, base, sizeof(base)))
		skip();
	assert_int_equal(sp_container_check_visit(base, &info, NULL, collect, &it), 0);
	bad_fields(base, &it);
	truncations(base, &it, info.page_size);

	/* CPU 0 data beyond the end, and pointing back into the header */
	fly = find(&it, "flyrecord", false);
	assert_non_null(fly);
	tmp_path(path, sizeof(path), "cpu.dat");
	copy_file(base, path);
	patch(path, fly->off, 8, info.file_size + 4096);
	expect_fail(path, -EBADMSG, true, "truncated CPU 0 data", "interrupted", NULL);
	copy_file(base, path);
	patch(path, fly->off, 8, 64);
	expect_fail(path, -EBADMSG, true, "CPU 0 data", "header", NULL);
	free(it.v);
}

static void test_v7_damage(void **state)
{
	struct items it = { 0 };
	struct sp_container_info info;
	const struct item *opts, *first, *last, *chunk, *comp;
	char base[256], path[128];

	if (!base_file(7, base, sizeof(base)))
		skip();
	assert_int_equal(sp_container_check_visit(base, &info, NULL, collect, &it), 0);
	bad_fields(base, &it);
	truncations(base, &it, info.page_size);
	tmp_path(path, sizeof(path), "v7.dat");

	/* the first options section beyond the end */
	opts = find(&it, "options offset", false);
	assert_non_null(opts);
	copy_file(base, path);
	patch(path, opts->off, 8, info.file_size + 4096);
	expect_fail(path, -EBADMSG, true, "options", "past the end", NULL);

	/* the last DONE option links back to the first options section: a loop */
	first = find(&it, "options", false);
	last = find(&it, "next options offset", true);
	assert_non_null(first);
	assert_non_null(last);
	copy_file(base, path);
	patch(path, last->off, 8, first->off);
	expect_fail(path, -EBADMSG, true, "backwards", "loop", NULL);
	copy_file(base, path);
	patch(path, last->off, 8, info.file_size + 1);
	expect_fail(path, -EBADMSG, true, "options", "past the end", NULL);

	comp = find(&it, "compression", false);
	assert_non_null(comp);
	if (strcmp(info.compression, "none")) {
		copy_file(base, path);
		patch(path, comp->off, 4, 0x616d7a6c);	/* "lzma" */
		expect_fail(path, -ENOTSUP, true, "\"lzma\"", NULL);
	}

	/* compressed chunks claiming too much */
	chunk = find(&it, "chunk", false);
	if (chunk) {
		copy_file(base, path);
		patch(path, chunk->off + 4, 4, 0x7fffffff);
		expect_fail(path, -EBADMSG, true, "uncompressed", "MiB", NULL);
		copy_file(base, path);
		patch(path, chunk->off + 4, 4, (chunk->size - 8) * 1024 + 4096);
		expect_fail(path, -EBADMSG, true, "ratio", NULL);
		copy_file(base, path);
		patch(path, chunk->off, 4, 0xffffff00);
		expect_fail(path, -EBADMSG, true, "CPU", NULL);
	}
	free(it.v);
}

static int setup(void **state)
{
	const char *dir = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/sp-container-XXXXXX", dir && *dir ? dir : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = {
		"empty.dat", "zeros.dat", "random.dat", "text.dat", "magic.dat", "short-magic.dat",
		"v8.dat", "v5.dat", "field.dat", "cut.dat", "cpu.dat", "v7.dat",
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		tmp_path(path, sizeof(path), names[i]);
		unlink(path);
	}
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_traces),
		cmocka_unit_test(test_local_traces),
		cmocka_unit_test(test_not_traces),
		cmocka_unit_test(test_v6_damage),
		cmocka_unit_test(test_v7_damage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
