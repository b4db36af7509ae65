// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_cpustats_parse(): the text trace-cmd saves (one option per CPU, a NUL
 * after each), other instances' statistics, old kernels without "dropped
 * events", and damaged text, which must leave CPUs unknown and never read
 * past the bytes given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/trace/cpustats.h"

#define CPU_TEXT(n, overrun, dropped)						\
	"CPU: " #n "\nentries: 0\noverrun: " #overrun "\ncommit overrun: 0\n"	\
	"bytes: 0\noldest event ts:   439.905653\nnow ts:   439.979034\n"	\
	"dropped events: " #dropped "\nread events: 7177\n"

/* @text of @len bytes, copied to the heap so that a read past it is caught. */
static int parse(const char *text, size_t len, struct sp_cpu_stats *st, int nr)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, text, len);
	ret = sp_cpustats_parse(copy, len, st, nr);
	free(copy);
	return ret;
}

static void test_trace_cmd(void **state)
{
	static const char text[] = CPU_TEXT(0, 0, 0) "\0" CPU_TEXT(1, 7422, 0) "\0"
				   CPU_TEXT(2, 0, 3);
	struct sp_cpu_stats st[4];

	assert_int_equal(parse(text, sizeof(text), st, 4), 3);
	assert_true(st[0].known);
	assert_true(sp_cpu_stats_lossless(&st[0]));
	assert_true(st[1].known);
	assert_int_equal(st[1].overrun, 7422);
	assert_false(sp_cpu_stats_lossless(&st[1]));
	assert_true(st[2].has_dropped);
	assert_int_equal(st[2].dropped, 3);
	assert_false(sp_cpu_stats_lossless(&st[2]));
	assert_false(st[3].known);
	assert_false(sp_cpu_stats_lossless(&st[3]));
}

static void test_instances(void **state)
{
	/* the top instance's CPU 0, then an instance's CPU 0 and 1 */
	static const char text[] = CPU_TEXT(0, 0, 0) "\0\nBuffer: foo\n\n\0" CPU_TEXT(0, 5, 0)
				   "\0" CPU_TEXT(1, 0, 0);
	struct sp_cpu_stats st[2];

	assert_int_equal(parse(text, sizeof(text), st, 2), 1);
	assert_true(sp_cpu_stats_lossless(&st[0]));
	assert_false(st[1].known);
}

static void test_old_kernel(void **state)
{
	static const char text[] = "CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\n";
	struct sp_cpu_stats st[1];

	assert_int_equal(parse(text, sizeof(text) - 1, st, 1), 1);
	assert_false(st[0].has_dropped);
	assert_true(sp_cpu_stats_lossless(&st[0]));
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"CPU: 0\noverrun: 0x10\n",			/* junk after the number */
		"CPU: 0\noverrun: -1\n",
		"CPU: 0\noverrun: 99999999999999999999999\n",	/* out of range */
		"CPU: 0\noverrun:\n",
		"CPU: 0\nentries: 0\n",				/* no overrun line */
		"CPU: 0\noverrun: 0\ndropped events: many\n",
		"CPU: 0\noverrun: 0\nCPU: 0\noverrun: 0\n",	/* twice */
		"CPU: 7\noverrun: 0\n",				/* no such CPU */
		"CPU: -0\noverrun: 0\n",
		"CPU: 99999999999999999999\noverrun: 0\n",
		"overrun: 0\n",					/* no CPU line */
		"",
		"\n\n\n",
		"CPU:",
		"CPU: 0\noverrun: 1",
	};
	struct sp_cpu_stats st[2];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse(bad[i], strlen(bad[i]), st, 2);
		assert_false(sp_cpu_stats_lossless(&st[0]));
		assert_false(sp_cpu_stats_lossless(&st[1]));
	}
	/* NULL text, no CPUs */
	assert_int_equal(sp_cpustats_parse(NULL, 10, st, 2), 0);
	assert_false(st[0].known);
	assert_int_equal(sp_cpustats_parse("CPU: 0\noverrun: 0\n", 18, st, 0), 0);
}

/* Every prefix of a good text, and every byte changed: no crash, no read past the end. */
static void test_cut_and_flipped(void **state)
{
	static const char text[] = CPU_TEXT(0, 0, 0) "\0" CPU_TEXT(1, 0, 0);
	struct sp_cpu_stats st[300];
	char buf[sizeof(text)];
	size_t i;
	int b;

	for (i = 0; i <= sizeof(text); i++)
		parse(text, i, st, 2);
	for (i = 0; i < sizeof(text); i++) {
		for (b = 0; b < 8; b++) {
			memcpy(buf, text, sizeof(text));
			buf[i] ^= (char)(1u << b);
			parse(buf, sizeof(buf), st, 2);
			parse(buf, sizeof(buf), st, 300);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_cmd),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cut_and_flipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
