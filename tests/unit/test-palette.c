// SPDX-License-Identifier: GPL-2.0-only
/*
 * Palettes: distinct, never near-white or near-black, and string colors
 * pinned across releases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/draw/palette.h"

static double dist(const double a[3], const double b[3])
{
	return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
		    (a[2] - b[2]) * (a[2] - b[2]));
}

static void check_palette(const char *name, double min_step)
{
	const struct sp_palette *pal = sp_palette_by_name(name);
	const double white[3] = { 1, 0, 0 }, black[3] = { 0, 0, 0 };
	double prev[3] = { 0 };

	assert_non_null(pal);
	for (size_t i = 0; i < 1000; i++) {
		struct sp_rgb c, again;
		double lab[3];

		sp_palette_color(pal, i, &c.r, &c.g, &c.b);
		sp_palette_color(pal, i, &again.r, &again.g, &again.b);
		assert_memory_equal(&c, &again, sizeof(c));
		assert_true(c.r >= 0 && c.r <= 1 && c.g >= 0 && c.g <= 1 && c.b >= 0 && c.b <= 1);
		sp_color_to_oklab(&c, lab);
		/* Never near white (idle) nor near black ("other"). */
		assert_true(dist(lab, white) >= 0.12);
		assert_true(lab[0] <= 0.92);
		assert_true(lab[0] >= 0.3);
		assert_true(dist(lab, black) >= 0.3);
		/* Neighbours, e.g. tasks on one row, are clearly different. */
		if (i)
			assert_true(dist(lab, prev) >= min_step);
		memcpy(prev, lab, sizeof(prev));
	}
}

static void test_palettes(void **state)
{
	double r, g, b;

	check_palette("default", 0.12);
	check_palette("colorblind", 0.12);
	check_palette("grey", 0.2);
	assert_ptr_equal(sp_palette_by_name(NULL), sp_palette_by_name("default"));
	assert_null(sp_palette_by_name("rainbow"));
	assert_non_null(sp_palette_by_name("gray"));
	/* The first default colors are Okabe-Ito's orange and sky blue. */
	sp_palette_color(NULL, 0, &r, &g, &b);
	assert_true(fabs(r - 0xe6 / 255.0) < 1e-9 && fabs(g - 0x9f / 255.0) < 1e-9 && b == 0);
	sp_palette_color(sp_palette_by_name("colorblind"), 1, &r, &g, &b);
	assert_true(fabs(r - 0x56 / 255.0) < 1e-9 && fabs(b - 0xe9 / 255.0) < 1e-9);
	/* Any index has a color. */
	sp_palette_color(NULL, SIZE_MAX, &r, &g, &b);
	assert_true(r >= 0 && r <= 1);
}

static void test_string_colors(void **state)
{
	static const char *const names[] = {
		"bash", "kworker/0:1", "systemd", "gcc", "cc1", "ld", "make", "sshd",
		"rcu_sched", "ksoftirqd/3", "migration/7", "Xorg", "firefox", "python3",
		"perf", "trace-cmd", "barrier", "hackbench", "", "\xff\xfe",
	};
	bool seen[SP_STRING_COLORS] = { false };
	size_t distinct = 0;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < 20; i++) {
		size_t index = sp_string_color_index(names[i]);

		assert_true(index < SP_STRING_COLORS);
		assert_int_equal(sp_string_color_index(names[i]), index);
		distinct += !seen[index];
		seen[index] = true;
	}
	assert_true(distinct >= 12);

	/* Pinned to FNV-1a, so colors stay the same across releases. */
	for (const char *p = "bash"; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 16777619u;
	}
	assert_int_equal(h, 0x3adc901fu);
	assert_int_equal(sp_string_color_index("bash"), h % SP_STRING_COLORS);
}

static double hue_deg(const struct sp_rgb *c)
{
	double lab[3];

	sp_color_to_oklab(c, lab);
	return fmod(atan2(lab[2], lab[1]) * 180 / M_PI + 360, 360);
}

static double hue_dist(double a, double b)
{
	double d = fabs(a - b);

	return d > 180 ? 360 - d : d;
}

/* CPU colors: sockets in hue bands of their own, none near red (waiting). */
static void test_cpu_colors(void **state)
{
	const double red = hue_deg(&(struct sp_rgb){ 0.90, 0.30, 0.25 });
	struct sp_rgb c, d;

	(void)state;
	for (size_t i = 0; i < 32; i++) {
		sp_palette_cpu_color(NULL, 0, 2, i, &c);
		assert_true(hue_dist(hue_deg(&c), red) > 25);
		for (size_t j = 0; j < 32; j++) {
			sp_palette_cpu_color(NULL, 1, 2, j, &d);
			assert_true(hue_dist(hue_deg(&c), hue_deg(&d)) > 20);
			assert_true(hue_dist(hue_deg(&d), red) > 25);
		}
		/* without a topology: one family, neighbours apart */
		sp_palette_cpu_color(NULL, 0, 1, i, &c);
		sp_palette_cpu_color(NULL, 0, 1, i + 1, &d);
		assert_true(hue_dist(hue_deg(&c), red) > 25);
		assert_memory_not_equal(&c, &d, sizeof(c));
	}
	/* grey stays grey */
	sp_palette_cpu_color(sp_palette_by_name("grey"), 1, 2, 3, &c);
	assert_true(c.r == c.g && c.g == c.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_palettes),
		cmocka_unit_test(test_string_colors),
		cmocka_unit_test(test_cpu_colors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
