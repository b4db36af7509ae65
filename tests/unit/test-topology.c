// SPDX-License-Identifier: GPL-2.0-only
/*
 * The topology markers schedplot record writes (schedplot-record(1)):
 * parsing, merging several markers, damaged and unknown markers, and the
 * round trip through a written trace, read back by sp_trace_open() both by
 * cpustream and by libtracecmd.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedplot/base/error.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/writer.h"

#include "../gen/formats.h"

static int parse(struct sp_topology *topo, const char *text, struct sp_error *err)
{
	return sp_topology_parse_marker(topo, text, strlen(text), err);
}

static void test_one_marker(void **state)
{
	struct sp_topology topo = { 0 };
	struct sp_error err;

	sp_error_clear(&err);
	assert_int_equal(parse(&topo, "schedplot-topology v1 0:0:0:-1:0:0 1:4:0:-1:1:2 "
			       "3:-1:-1:-1:-1:-1\n", &err), 0);
	assert_int_equal(topo.nr_cpus, 4);
	assert_int_equal(topo.core[0], 0);
	assert_int_equal(topo.socket[0], 0);
	assert_int_equal(topo.node[0], 0);
	assert_int_equal(topo.core[1], 4);
	assert_int_equal(topo.socket[1], 1);
	assert_int_equal(topo.node[1], 2);
	/* CPU 2 is not listed, CPU 3 is all unknown */
	assert_int_equal(sp_topology_socket(&topo, 2), -1);
	assert_int_equal(sp_topology_socket(&topo, 3), -1);
	assert_int_equal(topo.core[3], -1);
	sp_topology_release(&topo);
}

static void test_merge(void **state)
{
	struct sp_topology topo = { 0 };
	struct sp_error err;
	int rows[4], row_socket[4];
	bool cpus[4] = { true, true, true, true };

	sp_error_clear(&err);
	assert_int_equal(parse(&topo, "schedplot-topology v1 0:0:0:-1:0:0 1:1:0:-1:1:1", &err), 0);
	assert_int_equal(parse(&topo, "schedplot-topology v1 2:2:0:-1:0:0 3:3:0:-1:1:1", &err), 0);
	/* the same CPU again with the same values is fine */
	assert_int_equal(parse(&topo, "schedplot-topology v1 3:3:0:-1:1:1", &err), 0);
	assert_int_equal(topo.nr_cpus, 4);
	assert_int_equal(sp_topology_order(&topo, cpus, 4, rows, row_socket), 4);
	assert_int_equal(rows[0], 0);
	assert_int_equal(rows[1], 2);
	assert_int_equal(rows[2], 1);
	assert_int_equal(rows[3], 3);
	assert_int_equal(row_socket[0], 0);
	assert_int_equal(row_socket[3], 1);
	/* a CPU given twice differently is an error */
	assert_int_equal(parse(&topo, "schedplot-topology v1 3:3:0:-1:0:0", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "CPU 3 twice"));
	sp_topology_release(&topo);
}

static void test_bad_markers(void **state)
{
	static const char *const bad[] = {
		"schedplot-topology v1",			/* no CPUs */
		"schedplot-topology v1 ",
		"schedplot-topology v1 0:0:0:-1:0",		/* five fields */
		"schedplot-topology v1 0:0:0:-1:0:0:0",		/* seven */
		"schedplot-topology v1 0:0:0:-1:0:x",
		"schedplot-topology v1 -1:0:0:-1:0:0",		/* no CPU number */
		"schedplot-topology v1 0:0:0:-2:0:0",
		"schedplot-topology v1 0:0:0:-12:0:0",
		"schedplot-topology v1 99999999:0:0:-1:0:0",	/* CPU out of range */
		"schedplot-topology v1 0:99999999999:0:-1:0:0",	/* core beyond int */
		"schedplot-topology v1 0::0:-1:0:0",
		"schedplot-topology v1 0:0:0:-1:0:0,1:1:0:-1:0:0",
		"schedplot-topology v10 0:0:0:-1:0:0",
		"schedplot-topology  0:0:0:-1:0:0",
		"schedplot-topolog v1 0:0:0:-1:0:0",
		"",
	};
	struct sp_topology topo;
	struct sp_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&topo, 0, sizeof(topo));
		sp_error_clear(&err);
		assert_true(parse(&topo, bad[i], &err) < 0);
		assert_true(err.code < 0);
		assert_true(err.msg[0] != '\0');
		sp_topology_release(&topo);
	}
	memset(&topo, 0, sizeof(topo));
	assert_int_equal(parse(&topo, "schedplot-topology v2 0:0:0:0:0:0:0", &err),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(err.msg, "'v2'"));
	sp_topology_release(&topo);
}

static void test_nul_bounded(void **state)
{
	static const char text[] = "schedplot-topology v1 0:0:0:-1:1:0\n\0garbage";
	struct sp_topology topo = { 0 };
	struct sp_error err;

	sp_error_clear(&err);
	assert_int_equal(sp_topology_parse_marker(&topo, text, sizeof(text) - 1, &err), 0);
	assert_int_equal(topo.nr_cpus, 1);
	assert_int_equal(topo.socket[0], 1);
	sp_topology_release(&topo);
}

/* The kernel's ftrace:print format. */
static const char print_format[] = SP_TEST_PRINT_FORMAT;

static void write_print(struct sp_writer *w, int cpu, uint64_t ts, const char *text)
{
	char rec[512];
	size_t n = strlen(text);
	struct sp_error err;

	assert_true(16 + n + 1 <= sizeof(rec));
	memset(rec, 0, 16);
	rec[0] = 5;
	memcpy(rec + 16, text, n + 1);
	assert_int_equal(sp_writer_write_raw(w, cpu, ts, rec, 16 + n + 1, &err), 0);
}

static void write_switch(struct sp_writer *w, int cpu, uint64_t ts)
{
	struct sp_event ev = {
		.ts_ns = ts, .cpu = cpu, .type = SP_EV_SWITCH, .pid = 0, .other_pid = 100 + cpu,
		.comm = "swapper", .other_comm = "task", .prev_runnable = true,
		.target_cpu = -1, .orig_cpu = -1,
	};
	struct sp_error err;

	assert_int_equal(sp_writer_write_event(w, &ev, &err), 0);
}

/*
 * A four-CPU trace: two markers on CPU 1 among sched records, an unrelated
 * print, and with @late a third marker after more records than the reader
 * looks at (which must not be seen).  @date adds the DATE option, which
 * makes the reader read the data through libtracecmd.
 */
static void write_trace(const char *path, bool with_format, bool date, bool late,
			const char *second)
{
	struct sp_writer_options wo = { .nr_cpus = 4, .uname = "Linux test 6.0.0 x86_64" };
	struct sp_writer *w;
	struct sp_error err;
	uint64_t ts = 1000000;
	int cpu, i;

	sp_error_clear(&err);
	w = sp_writer_open(path, &wo, &err);
	assert_non_null(w);
	assert_int_equal(sp_writer_add_sched_formats(w, &err), 0);
	if (with_format)
		assert_int_equal(sp_writer_add_format(w, "ftrace", print_format,
						      sizeof(print_format) - 1, &err), 0);
	if (date)
		assert_int_equal(sp_writer_add_option(w, SP_WRITER_OPT_DATE, "0x0", 4, &err), 0);
	for (cpu = 0; cpu < 4; cpu++)
		write_switch(w, cpu, ts);
	write_print(w, 1, ts + 10, "hello from user space\n");
	write_print(w, 1, ts + 20, "schedplot-topology v1 0:0:0:-1:1:1 1:1:0:-1:0:0\n");
	write_print(w, 1, ts + 30, second);
	for (i = 0; i < 1000; i++)
		write_switch(w, 1, ts + 100 + i);
	if (late)
		write_print(w, 1, ts + 5000, "schedplot-topology v1 7:7:0:-1:9:9\n");
	assert_int_equal(sp_writer_close(w, &err), 0);
}

static void check_roundtrip(bool date)
{
	char path[] = "/tmp/test-topology.XXXXXX";
	struct sp_trace t;
	struct sp_error err;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_trace(path, true, date, true, "schedplot-topology v1 2:2:0:-1:1:1 3:3:0:-1:0:0\n");
	sp_error_clear(&err);
	assert_int_equal(sp_trace_open(&t, path, &err), 0);
	assert_true(t.has_topology);
	assert_int_equal(t.nr_topology_markers, 2);
	assert_int_equal(t.topology.nr_cpus, 4);
	assert_int_equal(sp_topology_socket(&t.topology, 0), 1);
	assert_int_equal(sp_topology_socket(&t.topology, 1), 0);
	assert_int_equal(sp_topology_socket(&t.topology, 2), 1);
	assert_int_equal(sp_topology_socket(&t.topology, 3), 0);
	/* the look for markers leaves the pass whole */
	assert_int_equal(sp_trace_run(&t, NULL, NULL, &err), 0);
	assert_int_equal(t.model.nr_records, 4 + 3 + 1000 + 1);
	sp_trace_close(&t);
	unlink(path);
}

static void test_trace_roundtrip(void **state)
{
	check_roundtrip(false);
}

static void test_trace_roundtrip_libtracecmd(void **state)
{
	check_roundtrip(true);
}

static void test_trace_damaged_or_none(void **state)
{
	char path[] = "/tmp/test-topology.XXXXXX";
	struct sp_trace t;
	struct sp_error err;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	/* a damaged marker: the topology is left out, and the trace still opens */
	write_trace(path, true, false, false, "schedplot-topology v1 2:2:0\n");
	sp_error_clear(&err);
	assert_int_equal(sp_trace_open(&t, path, &err), 0);
	assert_false(t.has_topology);
	assert_int_equal(t.nr_topology_markers, 2);
	assert_int_equal(t.topology_err.code, -EINVAL);
	assert_null(t.topology.socket);
	sp_trace_close(&t);
	/* without the print format, the records are not known as markers */
	write_trace(path, false, false, false, "schedplot-topology v1 2:2:0:-1:1:1\n");
	assert_int_equal(sp_trace_open(&t, path, &err), 0);
	assert_false(t.has_topology);
	assert_int_equal(t.nr_topology_markers, 0);
	sp_trace_close(&t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_marker),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_bad_markers),
		cmocka_unit_test(test_nul_bounded),
		cmocka_unit_test(test_trace_roundtrip),
		cmocka_unit_test(test_trace_roundtrip_libtracecmd),
		cmocka_unit_test(test_trace_damaged_or_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
