// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arranging legend entries in columns, with a "+N more" line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "schedplot/draw/layout.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/theme.h"

static void test_legend_grid(void **state)
{
	struct sp_theme th;
	struct sp_legend_grid g;
	struct sp_rect tall = { 0, 0, 150, 500 }, wide = { 0, 0, 700, 60 };

	sp_theme_init(&th, 10);
	sp_legend_grid_compute(&g, &th, 10, 0, 60, &tall);
	assert_int_equal(g.nr_cols, 1);
	assert_int_equal(g.nr_rows, 10);
	assert_int_equal(g.nr_shown, 10);
	assert_false(g.more_line);

	/* Too many: the last place says "+N more". */
	sp_legend_grid_compute(&g, &th, 300, 0, 60, &tall);
	assert_true(g.more_line);
	assert_int_equal(g.nr_shown + 1, g.nr_cols * g.nr_rows);
	assert_true(g.nr_cols * g.col_w <= tall.w + 1e-9);
	assert_true(g.nr_rows * g.row_h <= tall.h + 1e-9);

	/* Below the plot: entries spread over columns. */
	sp_legend_grid_compute(&g, &th, 12, 5, 60, &wide);
	assert_true(g.nr_cols > 1);
	assert_true(g.nr_rows * g.row_h <= wide.h + 1e-9);
	assert_true(g.nr_cols * g.nr_rows >= 13);
	assert_int_equal(g.nr_shown, 12);
	assert_true(g.more_line);

	/* No room at all. */
	sp_legend_grid_compute(&g, &th, 5, 0, 60, &(struct sp_rect){ 0, 0, 100, 3 });
	assert_int_equal(g.nr_shown, 0);
	assert_false(g.more_line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_legend_grid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
