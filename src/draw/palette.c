// SPDX-License-Identifier: GPL-2.0-only
/*
 * Palettes and color maths.  See include/schedplot/draw/palette.h for the
 * contracts.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/draw/palette.h"

enum palette_kind { PALETTE_DEFAULT, PALETTE_COLORBLIND, PALETTE_GREY };

struct sp_palette {
	const char *name;
	enum palette_kind kind;
};

static const struct sp_palette palettes[] = {
	{ "default", PALETTE_DEFAULT },
	{ "colorblind", PALETTE_COLORBLIND },
	{ "grey", PALETTE_GREY },
	{ "gray", PALETTE_GREY },
};

/* Okabe and Ito's color-blind safe set, without its black. */
static const struct sp_rgb okabe_ito[] = {
	{ 0xe6 / 255.0, 0x9f / 255.0, 0x00 / 255.0 },	/* orange */
	{ 0x56 / 255.0, 0xb4 / 255.0, 0xe9 / 255.0 },	/* sky blue */
	{ 0x00 / 255.0, 0x9e / 255.0, 0x73 / 255.0 },	/* bluish green */
	{ 0xf0 / 255.0, 0xe4 / 255.0, 0x42 / 255.0 },	/* yellow */
	{ 0x00 / 255.0, 0x72 / 255.0, 0xb2 / 255.0 },	/* blue */
	{ 0xd5 / 255.0, 0x5e / 255.0, 0x00 / 255.0 },	/* vermillion */
	{ 0xcc / 255.0, 0x79 / 255.0, 0xa7 / 255.0 },	/* reddish purple */
};
#define NR_OKABE_ITO (sizeof(okabe_ito) / sizeof(okabe_ito[0]))

#define GOLDEN_ANGLE 137.50776405003785
#define GOLDEN_FRACTION 0.6180339887498949

const struct sp_palette *sp_palette_by_name(const char *name)
{
	if (!name)
		return &palettes[0];
	for (size_t i = 0; i < sizeof(palettes) / sizeof(palettes[0]); i++)
		if (!strcmp(name, palettes[i].name))
			return &palettes[i];
	return NULL;
}

const char *sp_palette_names(void)
{
	return "default, colorblind, grey";
}

static double srgb_to_linear(double x)
{
	return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double x)
{
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055;
}

void sp_color_to_oklab(const struct sp_rgb *c, double lab[3])
{
	double r = srgb_to_linear(c->r), g = srgb_to_linear(c->g), b = srgb_to_linear(c->b);
	double l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
	double m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
	double s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);

	lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
	lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
	lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

/* OKLab to linear sRGB; true when the color is inside the sRGB gamut. */
static bool oklab_to_linear(double L, double a, double b, double rgb[3])
{
	double l = L + 0.3963377774 * a + 0.2158037573 * b;
	double m = L - 0.1055613458 * a - 0.0638541728 * b;
	double s = L - 0.0894841775 * a - 1.2914855480 * b;

	l = l * l * l;
	m = m * m * m;
	s = s * s * s;
	rgb[0] = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
	rgb[1] = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
	rgb[2] = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
	for (int i = 0; i < 3; i++)
		if (rgb[i] < -1e-9 || rgb[i] > 1 + 1e-9)
			return false;
	return true;
}

/*
 * OKLCH to sRGB, lowering the chroma (keeping lightness and hue) until the
 * color is displayable.
 */
static void oklch_to_srgb(double L, double C, double h_deg, struct sp_rgb *out)
{
	double h = h_deg * M_PI / 180, rgb[3];
	double lo = 0, hi = C;

	if (!oklab_to_linear(L, C * cos(h), C * sin(h), rgb)) {
		for (int i = 0; i < 30; i++) {
			double mid = (lo + hi) / 2;

			if (oklab_to_linear(L, mid * cos(h), mid * sin(h), rgb))
				lo = mid;
			else
				hi = mid;
		}
		oklab_to_linear(L, lo * cos(h), lo * sin(h), rgb);
	}
	out->r = linear_to_srgb(rgb[0]);
	out->g = linear_to_srgb(rgb[1]);
	out->b = linear_to_srgb(rgb[2]);
}

static void default_color(size_t j, struct sp_rgb *c)
{
	static const double light[3] = { 0.70, 0.55, 0.83 };
	double h = fmod(145.0 + (double)(j % 100000) * GOLDEN_ANGLE, 360.0);

	oklch_to_srgb(light[j % 3], 0.14, h, c);
}

/* Alternate blue and yellow-orange families, stepping lightness and hue. */
static void colorblind_color(size_t j, struct sp_rgb *c)
{
	static const double light[4] = { 0.52, 0.78, 0.64, 0.86 };
	size_t k = j / 2;
	double off = (fmod((double)(k % 100000) * GOLDEN_FRACTION, 1.0) - 0.5) * 60.0;
	double h = (j % 2 ? 250.0 : 70.0) + off;

	oklch_to_srgb(light[k % 4], 0.13, h, c);
}

static void grey_color(size_t index, struct sp_rgb *c)
{
	/* Nine levels from light to dark; a step of four keeps neighbours apart. */
	size_t level = (index * 4) % 9;
	double L = 0.87 - 0.065 * (double)level;
	double v = linear_to_srgb(L * L * L);

	c->r = c->g = c->b = v;
}

/* The scale of a quantity (CPU frequency): one blue-grey hue, see palette.h. */
#define RAMP_HUE 255.0

void sp_palette_ramp_color(double f, bool grey, struct sp_rgb *c)
{
	f = fmin(1, fmax(0, f));
	oklch_to_srgb(SP_RAMP_L_LO + f * (SP_RAMP_L_HI - SP_RAMP_L_LO), grey ? 0 : SP_RAMP_CHROMA,
		      RAMP_HUE, c);
	if (grey)
		c->g = c->b = c->r;
}

/* OKLCH hues CPU colors use: yellow-orange over green and blue to magenta, not red. */
#define CPU_HUE_FIRST 65.0
#define CPU_HUE_SPAN 265.0
#define CPU_HUE_BLUE 150.0		/* from CPU_HUE_FIRST: 215, a blue */

void sp_palette_cpu_color(const struct sp_palette *palette, size_t family, size_t nr_families,
			  size_t index, struct sp_rgb *c)
{
	static const double light[3] = { 0.62, 0.78, 0.48 };
	double band, off;

	if (!palette)
		palette = &palettes[0];
	if (palette->kind == PALETTE_GREY) {
		grey_color(index, c);
		return;
	}
	if (nr_families < 1)
		nr_families = 1;
	if (palette->kind == PALETTE_COLORBLIND) {
		/* two families on the blue-yellow axis; sockets beyond alternate */
		off = (fmod((double)(index % 100000) * GOLDEN_FRACTION, 1.0) - 0.5) * 50.0;
		oklch_to_srgb(light[index % 3], 0.13,
			      (nr_families > 1 ? family : index) % 2 ? 80.0 + off : 250.0 + off, c);
		return;
	}
	band = CPU_HUE_SPAN / (double)nr_families;
	off = fmod((double)(index % 100000) * GOLDEN_FRACTION, 1.0);
	/* inside a socket's band, leaving a gap to the next; the first is blue */
	oklch_to_srgb(light[index % 3], 0.14,
		      CPU_HUE_FIRST + fmod(CPU_HUE_BLUE + band * ((double)family +
				      (nr_families > 1 ? 0.15 + 0.7 * off : off)), CPU_HUE_SPAN),
		      c);
}

void sp_palette_color(const struct sp_palette *palette, size_t index, double *r, double *g,
		      double *b)
{
	struct sp_rgb c;

	if (!palette)
		palette = &palettes[0];
	if (palette->kind == PALETTE_GREY)
		grey_color(index, &c);
	else if (index < NR_OKABE_ITO)
		c = okabe_ito[index];
	else if (palette->kind == PALETTE_COLORBLIND)
		colorblind_color(index - NR_OKABE_ITO, &c);
	else
		default_color(index - NR_OKABE_ITO, &c);
	*r = c.r;
	*g = c.g;
	*b = c.b;
}

/* What sp_palette_pick_distinct() guarantees, found by trying (tests/unit/test-colors.c). */
static void distinct_counts(const struct sp_palette *palette, size_t *few, size_t *all)
{
	switch (palette ? palette->kind : PALETTE_DEFAULT) {
	case PALETTE_COLORBLIND:
		*few = 3;
		*all = 8;
		break;
	case PALETTE_GREY:
		*few = 0;
		*all = 3;
		break;
	default:
		*few = SP_COLOR_FEW;
		*all = 12;
		break;
	}
}

double sp_palette_distinct(const struct sp_palette *palette, size_t rank)
{
	size_t few, all;

	distinct_counts(palette, &few, &all);
	return rank < few ? SP_COLOR_DISTINCT_FEW : SP_COLOR_DISTINCT;
}

size_t sp_palette_nr_distinct(const struct sp_palette *palette)
{
	size_t few, all;

	distinct_counts(palette, &few, &all);
	return all;
}

double sp_color_distance(const struct sp_rgb *a, const struct sp_rgb *b)
{
	double x[3], y[3];

	sp_color_to_oklab(a, x);
	sp_color_to_oklab(b, y);
	return sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
		    (x[2] - y[2]) * (x[2] - y[2]));
}

static double lab_distance(const double x[3], const double y[3])
{
	return sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
		    (x[2] - y[2]) * (x[2] - y[2]));
}

static void palette_lab(const struct sp_palette *palette, size_t index, double lab[3])
{
	struct sp_rgb c;

	sp_palette_color(palette, index, &c.r, &c.g, &c.b);
	sp_color_to_oklab(&c, lab);
}

/* The distance from @lab to the nearest of @taken. */
static double nearest(const double (*taken)[3], size_t nr_taken, const double lab[3])
{
	double best = INFINITY;

	for (size_t i = 0; i < nr_taken; i++) {
		double d = lab_distance(taken[i], lab);

		if (d < best)
			best = d;
	}
	return best;
}

/*
 * How well @lab keeps its distances, as a share of what it must keep: to
 * the fixed colors SP_COLOR_DISTINCT (they are labelled and, for no data,
 * hatched), to the items before it @want.  1 or more: far enough.
 */
static double margin(const double (*taken)[3], size_t nr_fixed, size_t nr_taken,
		     const double lab[3], double want)
{
	double f = nearest(taken, nr_fixed, lab) / SP_COLOR_DISTINCT;
	double t = nearest(taken + nr_fixed, nr_taken - nr_fixed, lab) / want;

	return f < t ? f : t;
}

int sp_palette_pick_distinct(const struct sp_palette *palette, const struct sp_rgb *fixed,
			     size_t nr_fixed, size_t *index, size_t nr)
{
	size_t nr_items = nr < SP_PALETTE_DISTINCT_ITEMS ? nr : SP_PALETTE_DISTINCT_ITEMS;
	double (*taken)[3], (*cand)[3];
	size_t nr_taken = 0, i, j;

	taken = calloc(nr_fixed + nr_items + 1, sizeof(*taken));
	cand = calloc(SP_PALETTE_CANDIDATES, sizeof(*cand));
	if (!taken || !cand) {
		free(taken);
		free(cand);
		return -ENOMEM;
	}
	for (i = 0; i < nr_fixed; i++)
		sp_color_to_oklab(&fixed[i], taken[nr_taken++]);
	for (j = 0; j < SP_PALETTE_CANDIDATES; j++)
		palette_lab(palette, j, cand[j]);
	for (i = 0; i < nr_items; i++) {
		double want = sp_palette_distinct(palette, i), lab[3], best_m;
		size_t best = index[i];

		palette_lab(palette, index[i], lab);
		best_m = margin(taken, nr_fixed, nr_taken, lab, want);
		if (best_m < 1) {
			for (j = 0; j < SP_PALETTE_CANDIDATES; j++) {
				double m = margin(taken, nr_fixed, nr_taken, cand[j], want);

				if (m >= 1) {
					best = j;
					break;
				}
				if (m > best_m) {
					best_m = m;
					best = j;
				}
			}
			index[i] = best;
			palette_lab(palette, best, lab);
		}
		memcpy(taken[nr_taken++], lab, sizeof(lab));
	}
	free(taken);
	free(cand);
	return 0;
}

size_t sp_string_color_index(const char *s)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h % SP_STRING_COLORS;
}
