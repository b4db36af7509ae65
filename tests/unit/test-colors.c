// SPDX-License-Identifier: GPL-2.0-only
/*
 * Colors on screen at the same time are told apart: over the bundled
 * traces' whole windows and zoomed ones (the README's among them), the
 * busiest keys of a datagraph are at least sp_palette_distinct() apart in
 * OKLab (0.18 for the first few, 0.10 for the rest) from the keys before
 * them, and 0.10 from idle white (and the no-data grey and the "other
 * tasks" black when they are drawn), by pid, by command and by process; and
 * sp_palette_pick_distinct() keeps that promise whatever colors were
 * wished for.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/base/error.h"
#include "schedplot/draw/palette.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"

/* At most this many keys are checked: the ones a legend names first. */
#define CHECKED_KEYS 12

static double worst;		/* the least distance seen, for the log */

/*
 * The least distance, over the first task keys, from each to the specials
 * drawn and the keys before it, relative to what it must keep
 * (sp_palette_distinct()): 1 or more when all is well.
 */
static double min_distance(const struct sp_datagraph *dg, const struct sp_palette *pal,
			   size_t *nr_checked)
{
	struct sp_rgb c[SP_DG_NR_SPECIAL_KEYS + CHECKED_KEYS];
	size_t nr_fixed = 0, n, i, j, nr_keys = sp_palette_nr_distinct(pal);
	double worst_ratio = INFINITY;

	c[nr_fixed++] = dg->keys[SP_DG_KEY_IDLE].color;
	if (dg->keys[SP_DG_KEY_NO_DATA].ns)
		c[nr_fixed++] = dg->keys[SP_DG_KEY_NO_DATA].color;
	if (dg->targets)
		c[nr_fixed++] = dg->keys[SP_DG_KEY_OTHER].color;
	n = nr_fixed;
	for (i = SP_DG_NR_SPECIAL_KEYS; i < dg->nr_keys && i < SP_DG_NR_SPECIAL_KEYS + nr_keys;
	     i++)
		c[n++] = dg->keys[i].color;
	for (i = nr_fixed; i < n; i++) {
		for (j = 0; j < i; j++) {
			/* the specials (labelled, no data hatched) need less */
			double want = j < nr_fixed ? SP_COLOR_DISTINCT :
				      sp_palette_distinct(pal, i - nr_fixed);

			if (sp_color_distance(&c[i], &c[j]) / want < worst_ratio)
				worst_ratio = sp_color_distance(&c[i], &c[j]) / want;
		}
	}
	*nr_checked = n;
	return worst_ratio;
}

static bool is_barrier(void *data, int pid, const char *comm)
{
	return !strcmp(comm, "barrier");
}

/* One pass over @path for [from_s, to_s) from its start (to_s 0: the end). */
static void check_window(const char *path, double from_s, double to_s)
{
	static const enum sp_color_by modes[] = {
		SP_COLOR_BY_PID, SP_COLOR_BY_COMMAND, SP_COLOR_BY_PROCESS,
	};
	static const char *const palettes[] = { "default", "colorblind", "grey" };
	struct sp_trace t = { 0 };
	struct sp_timeline tl;
	struct sp_model_observer obs;
	struct sp_pass pass;
	struct sp_error err;
	int rows[256], r;
	uint64_t t0, t1;

	assert_int_equal(sp_trace_open(&t, path, &err), 0);
	assert_true(t.nr_cpus <= 256);
	for (r = 0; r < t.nr_cpus; r++)
		rows[r] = r;
	t0 = t.first_ns + (uint64_t)llround(from_s * 1e9);
	t1 = to_s > 0 ? t.first_ns + (uint64_t)llround(to_s * 1e9) : t.end_ns;
	assert_int_equal(sp_timeline_init(&tl, t0, t1, 1500, t.nr_cpus, rows,
					  (unsigned int)t.nr_cpus), 0);
	memset(&obs, 0, sizeof(obs));
	sp_timeline_observer(&tl, &obs);
	sp_pass_init_one(&pass, &obs);
	assert_int_equal(sp_trace_run(&t, &pass, NULL, &err), 0);
	assert_int_equal(sp_timeline_finish(&tl), 0);
	for (size_t p = 0; p < sizeof(palettes) / sizeof(palettes[0]); p++) {
		for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]) * 2; k++) {
			struct sp_datagraph_opts o = {
				.color_by = modes[k / 2],
				.palette = sp_palette_by_name(palettes[p]),
				.is_target = k % 2 ? is_barrier : NULL,
			};
			struct sp_datagraph dg;
			size_t n;
			double d;

			assert_int_equal(sp_datagraph_init(&dg, &tl, &t.model, &o), 0);
			d = min_distance(&dg, o.palette, &n);
			if (d < worst)
				worst = d;
			if (d < 1)
				fail_msg("%s [%g, %g] s, %s palette, color-by %d%s: two of %zu colors "
					 "only %.0f%% as far apart as they must be", path, from_s,
					 to_s, palettes[p], (int)modes[k / 2],
					 k % 2 ? ", --target" : "", n, 100 * d);
			sp_datagraph_release(&dg);
		}
	}
	sp_timeline_release(&tl);
	sp_trace_close(&t);
}

static void test_bundled_windows(void **state)
{
	static const char *const paths[] = {
		"traces/overload.dat", "traces/messaging.dat", "traces/overflow.dat",
	};

	worst = INFINITY;
	/* the README's zooms */
	check_window("traces/overload.dat", 0.1, 0.12);
	check_window("traces/overload.dat", 0.0995, 0.1005);
	check_window("traces/overload.dat", 0.1075, 0.1077);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		check_window(paths[i], 0, 0);
		check_window(paths[i], 0, 0.02);
		check_window(paths[i], 0.15, 0.16);
		check_window(paths[i], 0.3, 0.3002);
	}
	print_message("least distance among the keys checked: %.0f%% of what they must keep\n",
		      100 * worst);
}

/* Whatever was wished for, the first items end up apart. */
static void test_pick_distinct(void **state)
{
	static const char *const names[] = { "default", "colorblind", "grey" };
	const struct sp_rgb fixed[] = { { 1, 1, 1 }, { 0.8, 0.8, 0.8 }, { 0, 0, 0 } };
	unsigned int seed = 1;

	for (size_t p = 0; p < 3; p++) {
		const struct sp_palette *pal = sp_palette_by_name(names[p]);

		for (int trial = 0; trial < 1000; trial++) {
			size_t index[40], wish[40], n = 1 + (size_t)(rand_r(&seed) % 40);
			struct sp_rgb c[40];

			for (size_t i = 0; i < n; i++)
				/* all the same, neighbours, or anything */
				wish[i] = index[i] = trial % 3 == 0 ? 5 : trial % 3 == 1 ? i :
						     (size_t)(rand_r(&seed) % 1000);
			assert_int_equal(sp_palette_pick_distinct(pal, fixed, 3, index, n), 0);
			for (size_t i = 0; i < n && i < sp_palette_nr_distinct(pal); i++) {
				sp_palette_color(pal, index[i], &c[i].r, &c[i].g, &c[i].b);
				double want = sp_palette_distinct(pal, i);

				for (size_t f = 0; f < 3; f++)
					assert_true(sp_color_distance(&c[i], &fixed[f]) >=
						    SP_COLOR_DISTINCT);
				for (size_t j = 0; j < i; j++)
					assert_true(sp_color_distance(&c[i], &c[j]) >= want);
			}
			/* the busiest always keeps its wish when it is far from the fixed */
			sp_palette_color(pal, wish[0], &c[0].r, &c[0].g, &c[0].b);
			if (sp_color_distance(&c[0], &fixed[0]) >= SP_COLOR_DISTINCT &&
			    sp_color_distance(&c[0], &fixed[1]) >= SP_COLOR_DISTINCT &&
			    sp_color_distance(&c[0], &fixed[2]) >= SP_COLOR_DISTINCT)
				assert_int_equal(index[0], wish[0]);
			/* past the first SP_PALETTE_DISTINCT_ITEMS, nothing moves */
		}
	}
	{
		size_t index[SP_PALETTE_DISTINCT_ITEMS + 2];

		for (size_t i = 0; i < SP_PALETTE_DISTINCT_ITEMS + 2; i++)
			index[i] = 7;
		assert_int_equal(sp_palette_pick_distinct(NULL, fixed, 3, index,
							  SP_PALETTE_DISTINCT_ITEMS + 2), 0);
		assert_int_equal(index[0], 7);
		assert_int_not_equal(index[1], 7);
		assert_int_equal(index[SP_PALETTE_DISTINCT_ITEMS], 7);
		assert_int_equal(index[SP_PALETTE_DISTINCT_ITEMS + 1], 7);
	}
}

/*
 * The frequency scale does not read as tasks: each of its colors has a
 * third of their chroma and is SP_COLOR_RAMP_APART from every candidate
 * task color of the default and colorblind palettes (and from CPU
 * colors); it gets lighter all along, in steps a reader can see, and its
 * grey twin has the same lightness.
 */
static void test_ramp_apart(void **state)
{
	const char *const names[] = { "default", "colorblind" };
	double least = 1, last_L = -1;
	struct sp_rgb ramp, task;
	size_t i, k, fam;
	int step;

	(void)state;
	for (step = 0; step <= 64; step++) {
		double lab[3];

		struct sp_rgb grey;
		double glab[3];

		sp_palette_ramp_color(step / 64.0, false, &ramp);
		sp_palette_ramp_color(step / 64.0, true, &grey);
		sp_color_to_oklab(&ramp, lab);
		sp_color_to_oklab(&grey, glab);
		assert_true(lab[0] > last_L + 0.008);
		assert_true(hypot(lab[1], lab[2]) < 0.05);
		assert_true(grey.r == grey.g && grey.g == grey.b);
		assert_true(fabs(glab[0] - lab[0]) < 0.002);
		last_L = lab[0];
		for (k = 0; k < 2; k++) {
			const struct sp_palette *p = sp_palette_by_name(names[k]);

			for (i = 0; i < SP_PALETTE_CANDIDATES; i++) {
				sp_palette_color(p, i, &task.r, &task.g, &task.b);
				least = fmin(least, sp_color_distance(&ramp, &task));
			}
			for (fam = 0; fam < 4; fam++)
				for (i = 0; i < 64; i++) {
					sp_palette_cpu_color(p, fam, 4, i, &task);
					least = fmin(least, sp_color_distance(&ramp, &task));
				}
		}
	}
	print_message("frequency scale: %.3f from the nearest task color\n", least);
	assert_true(least >= SP_COLOR_RAMP_APART);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_distinct),
		cmocka_unit_test(test_bundled_windows),
		cmocka_unit_test(test_ramp_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
