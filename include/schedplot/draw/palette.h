/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_PALETTE_H
#define SP_PALETTE_H

/*
 * Colors: the color type every drawing module uses, the palettes that
 * give items their colors, and the color maths behind them (sRGB, OKLab,
 * OKLCH).  Pure computation: no cairo, deterministic on every machine.
 */

#include <stddef.h>

struct sp_rgb {
	double r, g, b;		/* 0..1 */
};

/*
 * "default": Okabe-Ito's color-blind safe colors (without black), then an
 * endless deterministic sequence stepped by the golden angle in OKLCH hue
 * over three lightness levels.  "colorblind": Okabe-Ito, then colors on
 * the blue-yellow axis and in lightness, which most color vision
 * deficiencies keep apart.  "grey": nine greys for print, in an order that
 * keeps neighbours apart.  No palette yields near-white (idle) or
 * near-black ("other").
 */
struct sp_palette;

/**
 * sp_palette_by_name - look up a palette
 * @name: "default", "colorblind" or "grey" (also "gray"); NULL for default
 *
 * Return: the palette, or NULL for an unknown name.
 */
const struct sp_palette *sp_palette_by_name(const char *name);

/**
 * sp_palette_names - the palette names, for help texts
 *
 * Return: "default, colorblind, grey".
 */
const char *sp_palette_names(void);

/**
 * sp_palette_color - the color of an item
 * @palette: the palette (NULL for default)
 * @index: any index; every index has a color
 * @r: red 0..1
 * @g: green 0..1
 * @b: blue 0..1
 */
void sp_palette_color(const struct sp_palette *palette, size_t index, double *r, double *g,
		      double *b);

/**
 * sp_palette_cpu_color - the color of a CPU, sockets as hue families
 * @palette: the palette (NULL for default)
 * @family: the CPU's socket, counted from 0 among the sockets drawn
 * @nr_families: sockets drawn (1 when the topology is not known)
 * @index: the CPU's place among the CPUs of its socket
 * @c: the color
 *
 * Every socket gets a band of hues of its own and its CPUs step through
 * the band and three lightness levels, so a task moving between sockets
 * changes hue and one moving inside a socket changes shade.  No color is
 * near red (waiting), white (sleeping) or black.  "grey" gives greys.
 */
void sp_palette_cpu_color(const struct sp_palette *palette, size_t family, size_t nr_families,
			  size_t index, struct sp_rgb *c);

/**
 * sp_color_to_oklab - convert an sRGB color to OKLab
 * @c: the color
 * @lab: L (0 black .. 1 white), a, b; Euclidean distance between two is a
 *	 perceptual difference (about 0.02 is just noticeable)
 */
void sp_color_to_oklab(const struct sp_rgb *c, double lab[3]);

/* Colors sp_string_color_index() picks from: the palette's first entries. */
#define SP_STRING_COLORS 64

/**
 * sp_string_color_index - a palette index that depends only on a string
 * @s: e.g. a command name
 *
 * A fixed hash (FNV-1a) of @s picks one of the first SP_STRING_COLORS
 * palette entries, so a command gets the same color in every trace and on
 * every machine.  Different strings may share an index: callers that draw
 * several resolve that (views/datagraph-keys.c).
 *
 * Return: an index below SP_STRING_COLORS for sp_palette_color().
 */
size_t sp_string_color_index(const char *s);

#endif /* SP_PALETTE_H */
