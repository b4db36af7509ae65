// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ink in proportion to time (draw/ink.h) and the color file that keeps a
 * task's color across figures (draw/colormap.h): levels, mixes, a round
 * trip through the file, and bad files refused with their offset.
 */
#include <errno.h>
#include <math.h>
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
#include "schedplot/draw/colormap.h"
#include "schedplot/draw/ink.h"

#define MAX 65535u

static void test_levels(void **state)
{
	(void)state;
	assert_int_equal(sp_ink_level(0, MAX), 0);
	/* anything at all is visible, and the whole cell only is full */
	assert_int_equal(sp_ink_level(1, MAX), SP_INK_MIN_LEVEL);
	assert_int_equal(sp_ink_level(MAX / 100, MAX), SP_INK_MIN_LEVEL);	/* 1% */
	assert_int_equal(sp_ink_level(MAX - 1, MAX), SP_INK_LEVELS - 1);
	assert_int_equal(sp_ink_level(MAX, MAX), SP_INK_LEVELS);
	/* in between, the nearest level */
	assert_int_equal(sp_ink_level(MAX / 2, MAX), SP_INK_LEVELS / 2);
	assert_int_equal(sp_ink_level(6554, MAX), 3);			/* 10% of 32 = 3.2 */
	assert_int_equal(sp_ink_level(MAX / 4, MAX), SP_INK_LEVELS / 4);
	/* marks over a color: no visible minimum */
	assert_int_equal(sp_ink_level_rounded(0, MAX), 0);
	assert_int_equal(sp_ink_level_rounded(MAX / 100, MAX), 0);
	assert_int_equal(sp_ink_level_rounded(MAX / 32, MAX), 1);
	assert_int_equal(sp_ink_level_rounded(MAX - 1, MAX), SP_INK_LEVELS - 1);
	assert_int_equal(sp_ink_level_rounded(MAX, MAX), SP_INK_LEVELS);
	/* never fewer levels for more time */
	for (unsigned int s = 1, last = 0; s <= MAX; s += 97) {
		unsigned int l = sp_ink_level(s, MAX);

		assert_true(l >= last);
		last = l;
	}
}

static void test_mix(void **state)
{
	const struct sp_rgb paper = { 1, 1, 1 }, c = { 0.2, 0.6, 1.0 };
	struct sp_rgb m;

	(void)state;
	sp_ink_mix(&c, &paper, 0, &m);
	assert_true(m.r == 1 && m.g == 1 && m.b == 1);
	sp_ink_mix(&c, &paper, SP_INK_LEVELS, &m);
	assert_true(m.r == c.r && m.g == c.g && m.b == c.b);
	/* the ink (paper minus pixel) is the full color's times the level's fraction */
	for (unsigned int l = 1; l < SP_INK_LEVELS; l++) {
		double f = (double)l / SP_INK_LEVELS;

		sp_ink_mix(&c, &paper, l, &m);
		assert_true(fabs((1 - m.r) - (1 - c.r) * f) < 1e-12);
		assert_true(fabs((1 - m.g) - (1 - c.g) * f) < 1e-12);
		assert_true(fabs((1 - m.b) - (1 - c.b) * f) < 1e-12);
	}
}

static char path[64];

static void write_file(const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void test_colormap_round_trip(void **state)
{
	struct sp_color_map map = { 0 }, back;
	struct sp_error err = { 0 };
	const struct sp_rgb a = { 0xe6 / 255.0, 0x9f / 255.0, 0 }, b = { 0, 0, 1 };
	const struct sp_rgb *got;
	char buf[512];
	FILE *fp;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test-ink-%d.json", (int)getpid());
	assert_int_equal(sp_color_map_add(&map, "sched-messaging-27563", &a), 0);
	assert_int_equal(sp_color_map_add(&map, "a \"quoted\"\\name\n", &b), 0);
	assert_int_equal(sp_color_map_add(&map, "sched-messaging-27563", &b), 0);	/* kept */
	assert_int_equal(sp_color_map_save(&map, "pid", path, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* sorted by name, escaped, the same bytes for the same map */
	assert_string_equal(buf, "{\n  \"schedplot_colors\": 1,\n  \"color_by\": \"pid\",\n"
			    "  \"colors\": {\n    \"a \\\"quoted\\\"\\\\name\\u000a\": \"#0000ff\",\n"
			    "    \"sched-messaging-27563\": \"#e69f00\"\n  }\n}\n");
	assert_int_equal(sp_color_map_load(&back, path, &err), 0);
	assert_string_equal(back.color_by, "pid");
	got = sp_color_map_find(&back, "sched-messaging-27563");
	assert_non_null(got);
	assert_true(got->r == a.r && got->g == a.g && got->b == a.b);
	got = sp_color_map_find(&back, "a \"quoted\"\\name\n");
	assert_non_null(got);
	assert_true(got->b == 1);
	assert_null(sp_color_map_find(&back, "sched-messaging"));
	sp_color_map_release(&back);
	sp_color_map_release(&map);

	/* other members, any order, \u escapes, nested values */
	write_file(" {\"note\": [1, {\"x\": null}, true], \"colors\": {\"caf\\u00e9-1\": \"#010203\"},"
		   " \"schedplot_colors\": 1} ");
	assert_int_equal(sp_color_map_load(&back, path, &err), 0);
	got = sp_color_map_find(&back, "caf\xc3\xa9-1");
	assert_non_null(got);
	assert_true(fabs(got->g - 2 / 255.0) < 1e-12);
	sp_color_map_release(&back);
	unlink(path);
}

static void expect_bad(const char *text, long long offset, const char *what)
{
	struct sp_color_map map;
	struct sp_error err = { 0 };

	write_file(text);
	assert_int_equal(sp_color_map_load(&map, path, &err), -EINVAL);
	assert_int_equal(err.offset, offset);
	assert_non_null(strstr(err.msg, what));
	sp_color_map_release(&map);
}

static void test_colormap_bad(void **state)
{
	struct sp_color_map map;
	struct sp_error err = { 0 };

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test-ink-%d.json", (int)getpid());
	expect_bad("", 0, "a JSON object expected");
	expect_bad("PNG\x89", 0, "a JSON object expected");
	expect_bad("{\"colors\": {}}", 14, "no \"schedplot_colors\": 1");
	expect_bad("{\"schedplot_colors\": 2, \"colors\": {}}", 37, "unknown");
	expect_bad("{\"schedplot_colors\": 1, \"colors\": {\"a\": \"red\"}}", 40, "#rrggbb");
	expect_bad("{\"schedplot_colors\": 1, \"colors\": {\"a\": \"#12345\"}}", 40, "#rrggbb");
	expect_bad("{\"schedplot_colors\": 1, \"colors\": {\"a\" \"#123456\"}}", 39, "':' expected");
	expect_bad("{\"schedplot_colors\": 1, \"colors\": {\"a\": \"#123456\"", 49, "'}' expected");
	expect_bad("{\"schedplot_colors\": 1, \"colors\": {\"a", 37, "does not end");
	expect_bad("{\"schedplot_colors\": 1} x", 24, "text after");
	expect_bad("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 0, "a JSON object expected");
	expect_bad("{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]", 21, "nested too deep");
	unlink(path);
	assert_int_equal(sp_color_map_load(&map, path, &err), -ENOENT);
	sp_color_map_release(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_colormap_round_trip),
		cmocka_unit_test(test_colormap_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
