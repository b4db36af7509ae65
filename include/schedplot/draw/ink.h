/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_INK_H
#define SP_INK_H

/*
 * How much ink a cell of a per-pixel chart gets.  A cell (a row x a pixel
 * column) in which something held a share of the time is drawn in that
 * thing's color mixed with the paper (the idle color) in proportion to the
 * share, so the average ink of a row follows the share of its time, and a
 * pattern finer than a column turns into an even tint instead of false
 * blocks.  Shares are drawn in SP_INK_LEVELS steps, which keeps vector
 * files small (equal neighbours merge); any share above zero gets at least
 * SP_INK_MIN_LEVEL, so that a cell in which anything ran never reads as
 * one in which nothing did, even in the palest palette color.
 *
 * The mix is made in sRGB values, so the ink of a channel, paper minus
 * pixel, is exactly the full color's ink times the level's fraction.
 * Pure computation: no cairo.
 */

#include "schedplot/draw/palette.h"

#define SP_INK_LEVELS 32
#define SP_INK_MIN_LEVEL 2

/**
 * sp_ink_level - the ink level of a share
 * @share: 0..@share_max
 * @share_max: the share of the whole cell (> 0)
 *
 * Return: 0 for no share, else SP_INK_MIN_LEVEL..SP_INK_LEVELS, rounded to
 * nearest; SP_INK_LEVELS only for the whole cell.
 */
unsigned int sp_ink_level(unsigned int share, unsigned int share_max);

/**
 * sp_ink_level_rounded - the ink level of a share, without the visible minimum
 * @share: 0..@share_max
 * @share_max: the share of the whole cell (> 0)
 *
 * For marks drawn over a cell's color (waiting, no data), whose least
 * shares need not show: rounded to nearest, SP_INK_LEVELS only for the
 * whole cell.
 *
 * Return: 0..SP_INK_LEVELS.
 */
unsigned int sp_ink_level_rounded(unsigned int share, unsigned int share_max);

/**
 * sp_ink_mix - a color at an ink level, over the paper
 * @color: the full color
 * @paper: the color of an empty cell
 * @level: 0 (paper) .. SP_INK_LEVELS (@color)
 * @out: the mix
 */
void sp_ink_mix(const struct sp_rgb *color, const struct sp_rgb *paper, unsigned int level,
		struct sp_rgb *out);

#endif /* SP_INK_H */
