// SPDX-License-Identifier: GPL-2.0-only
/*
 * ink: a share of a cell's time as a strength of its color.  See
 * include/schedplot/draw/ink.h.
 */
#include "schedplot/draw/ink.h"

unsigned int sp_ink_level_rounded(unsigned int share, unsigned int share_max)
{
	unsigned long long l;

	if (share >= share_max)
		return SP_INK_LEVELS;
	l = ((unsigned long long)share * SP_INK_LEVELS + share_max / 2) / share_max;
	/* a cell not held throughout is never drawn in the full color */
	return l >= SP_INK_LEVELS ? SP_INK_LEVELS - 1 : (unsigned int)l;
}

unsigned int sp_ink_level(unsigned int share, unsigned int share_max)
{
	unsigned int l = sp_ink_level_rounded(share, share_max);

	return share && l < SP_INK_MIN_LEVEL ? SP_INK_MIN_LEVEL : l;
}

void sp_ink_mix(const struct sp_rgb *color, const struct sp_rgb *paper, unsigned int level,
		struct sp_rgb *out)
{
	double f = (double)level / SP_INK_LEVELS;

	if (level >= SP_INK_LEVELS) {
		*out = *color;
		return;
	}
	out->r = paper->r + (color->r - paper->r) * f;
	out->g = paper->g + (color->g - paper->g) * f;
	out->b = paper->b + (color->b - paper->b) * f;
}
