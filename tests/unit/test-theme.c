// SPDX-License-Identifier: GPL-2.0-only
/*
 * The default theme and its font-size scaling.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "schedplot/draw/theme.h"

static void test_theme(void **state)
{
	struct sp_theme th, big;

	sp_theme_init(&th, 0);
	assert_string_equal(th.font_family, "DejaVu Sans");
	assert_true(th.font_size == SP_THEME_FONT_SIZE);
	assert_true(th.idle.r == 1 && th.idle.g == 1 && th.idle.b == 1);
	assert_true(th.other.r == 0 && th.other.g == 0 && th.other.b == 0);
	sp_theme_init(&big, 22);
	assert_true(big.font_size == 22);
	assert_true(big.tick_len > th.tick_len && big.margin > th.margin);
	sp_theme_init(&big, 1000);
	assert_true(big.font_size == SP_THEME_MAX_FONT_SIZE);
	sp_theme_init(&big, 0.1);
	assert_true(big.font_size == SP_THEME_MIN_FONT_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_theme),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
