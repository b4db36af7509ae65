// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text sanitizing and fitting a width with an ellipsis.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/draw/sanitize.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

static void expect_sanitized(const char *in, const char *out)
{
	char buf[64];

	assert_int_equal(sp_text_sanitize(buf, sizeof(buf), in), strlen(out));
	assert_string_equal(buf, out);
}

static void test_sanitize(void **state)
{
	char buf[8];

	expect_sanitized("bash", "bash");
	expect_sanitized("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");
	expect_sanitized("a\tb\nc\x7f", "a?b?c?");
	expect_sanitized("\xff", "?");
	expect_sanitized("x\x80y", "x?y");			/* stray continuation */
	expect_sanitized("\xc0\xaf", "?");			/* overlong '/' */
	expect_sanitized("\xe0\x80\xaf", "?");			/* overlong */
	expect_sanitized("\xed\xa0\x80", "?");			/* surrogate */
	expect_sanitized("\xf4\x90\x80\x80", "?");		/* beyond U+10FFFF */
	expect_sanitized("\xc2\x85", "?");			/* C1 NEL */
	expect_sanitized("\xef\xbf\xbf", "?");			/* U+FFFF */
	expect_sanitized("ab\xe2\x82", "ab??");			/* truncated */
	expect_sanitized("\xe2\x82x", "??x");
	expect_sanitized("", "");
	expect_sanitized(NULL, "");

	/* Cut at a character boundary. */
	assert_int_equal(sp_text_sanitize(buf, 5, "a\xc3\xa9\xe2\x82\xac"), 3);
	assert_string_equal(buf, "a\xc3\xa9");
	assert_int_equal(sp_text_sanitize(buf, 1, "abc"), 0);
	assert_string_equal(buf, "");
}

static cairo_t *scratch(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

static void test_text_fit(void **state)
{
	struct sp_theme th;
	cairo_t *cr = scratch();
	char buf[128];
	const char *longest = "a-very-long-command-name-that-will-not-fit";

	sp_theme_init(&th, 0);
	sp_render_font(cr, &th, th.font_size, false);
	assert_true(sp_text_fit(cr, buf, sizeof(buf), "bash", 100));
	assert_string_equal(buf, "bash");
	assert_false(sp_text_fit(cr, buf, sizeof(buf), longest, 80));
	assert_true(sp_text_width(cr, buf) <= 80);
	assert_true(strlen(buf) > 4);
	assert_memory_equal(buf + strlen(buf) - 3, "\xe2\x80\xa6", 3);
	assert_memory_equal(buf, longest, strlen(buf) - 3);
	/* Multi-byte characters are never split. */
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 30));
	assert_int_equal((strlen(buf) - 3) % 2, 0);
	/* Invalid input is sanitized. */
	assert_true(sp_text_fit(cr, buf, sizeof(buf), "a\x01", 100));
	assert_string_equal(buf, "a?");
	assert_false(sp_text_fit(cr, buf, sizeof(buf), longest, 0.5));
	assert_string_equal(buf, "");
	/* What tells a label from its neighbours stays: the pid, the count. */
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "sched-messaging-2741", 80));
	assert_true(sp_text_width(cr, buf) <= 80);
	assert_non_null(strstr(buf, "\xe2\x80\xa6-2741"));
	assert_memory_equal(buf, "sched-", 6);
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "timer:hrtimer_expire_entry: 312", 100));
	assert_true(sp_text_width(cr, buf) <= 100);
	assert_non_null(strstr(buf, "\xe2\x80\xa6: 312"));
	assert_false(sp_text_fit(cr, buf, sizeof(buf),
				 "before-1.dat \xe2\x80\xa6 after-3.dat (6 traces)", 120));
	assert_non_null(strstr(buf, "\xe2\x80\xa6 (6 traces)"));
	/* Too narrow for the pid too: the end is cut. */
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "sched-messaging-2741", 30));
	assert_null(strstr(buf, "2741"));
	/* Digits without a separator are no pid. */
	assert_false(sp_text_fit(cr, buf, sizeof(buf), "kworker/u8:12345678901", 60));
	assert_memory_equal(buf + strlen(buf) - 3, "\xe2\x80\xa6", 3);
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
}

/*
 * Let leak checkers see only our own allocations: cairo keeps font caches
 * until reset, and fontconfig leaks a little while parsing its
 * configuration (not ours to fix).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static int teardown(void **state)
{
	cairo_debug_reset_static_data();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_text_fit),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
