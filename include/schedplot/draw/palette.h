/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_PALETTE_H
#define SP_PALETTE_H

/*
 * Colors: the color type every drawing module uses, the palettes that
 * give items their colors, and the color maths behind them (sRGB, OKLab,
 * OKLCH).  Pure computation: no cairo, deterministic on every machine.
 */

#include <stdbool.h>
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
 * sp_palette_ramp_color - a color of the sequential scale of a quantity
 * @f: the quantity's place in its range, 0 (least) .. 1 (most)
 * @grey: greys of the same lightness (--palette grey)
 * @c: the color: one blue-grey hue whose OKLab lightness grows evenly
 *     with @f from SP_RAMP_L_LO to SP_RAMP_L_HI, so it keeps its order
 *     printed in grey scale.  Its chroma (SP_RAMP_CHROMA) is a third of
 *     the task colors', so a layer of it does not read as tasks: it stays
 *     SP_COLOR_RAMP_APART from every task color of the default and
 *     colorblind palettes, dark and light ends clear of black ("other
 *     tasks") and of the light grey and white of no data and idle.
 */
void sp_palette_ramp_color(double f, bool grey, struct sp_rgb *c);

#define SP_RAMP_L_LO 0.20
#define SP_RAMP_L_HI 0.78
#define SP_RAMP_CHROMA 0.03
/* tests/unit/test-colors.c checks it for every task color candidate */
#define SP_COLOR_RAMP_APART 0.065

/**
 * sp_color_to_oklab - convert an sRGB color to OKLab
 * @c: the color
 * @lab: L (0 black .. 1 white), a, b; Euclidean distance between two is a
 *	 perceptual difference (about 0.02 is just noticeable)
 */
void sp_color_to_oklab(const struct sp_rgb *c, double lab[3]);

/**
 * sp_color_distance - the perceptual difference between two colors
 * @a: a color
 * @b: another
 *
 * Return: the Euclidean distance in OKLab (0.02 is about just noticeable;
 * SP_COLOR_DISTINCT tells categories apart at a glance).
 */
double sp_color_distance(const struct sp_rgb *a, const struct sp_rgb *b);

/*
 * The least OKLab distance between two colors that stand for different
 * things in one picture.  0.10 is about five just-noticeable differences,
 * as far apart as CIEDE2000 10, what categorical palettes (Okabe-Ito,
 * ColorBrewer's qualitative sets, Colorgorical) keep between their
 * entries.  How many colors of a palette can be that far apart is
 * sp_palette_nr_distinct().
 */
#define SP_COLOR_DISTINCT 0.10

/*
 * The busiest few items cover most of a picture and are the ones a reader
 * names ("the orange thread"): the first SP_COLOR_FEW (3 in the
 * colorblind palette, none in the grey one) keep SP_COLOR_DISTINCT_FEW
 * from the colors before them, so that two of them never read as one hue
 * in two shades (Okabe-Ito's closest pair, orange and vermillion, is 0.16
 * apart; its reddish purple and a lilac 0.16 apart both read "purple").
 */
#define SP_COLOR_FEW 4
#define SP_COLOR_DISTINCT_FEW 0.18

/**
 * sp_palette_distinct - the least distance an item keeps from the colors before it
 * @palette: the palette (NULL for default)
 * @rank: the item's place, busiest first (0 for the first)
 *
 * Return: SP_COLOR_DISTINCT_FEW for the first few items (see above), else
 * SP_COLOR_DISTINCT.
 */
double sp_palette_distinct(const struct sp_palette *palette, size_t rank);

/**
 * sp_palette_nr_distinct - how many items sp_palette_pick_distinct() keeps apart for sure
 * @palette: the palette (NULL for default)
 *
 * The first this many items get colors at least sp_palette_distinct()
 * from the colors before them and SP_COLOR_DISTINCT from white, black and
 * the no-data grey, whatever colors they wished for: 12 in the default palette, 8 in the
 * colorblind one (blue-yellow and lightness only), 3 in the grey one (nine
 * greys).
 * Found by trying (tests/unit/test-colors.c), with a margin.
 *
 * Return: the count.
 */
size_t sp_palette_nr_distinct(const struct sp_palette *palette);

/* Items sp_palette_pick_distinct() keeps apart; later ones keep their wish. */
#define SP_PALETTE_DISTINCT_ITEMS 64

/* Palette entries sp_palette_pick_distinct() looks at for an item. */
#define SP_PALETTE_CANDIDATES 256

/**
 * sp_palette_pick_distinct - colors that can be told apart, first come first served
 * @palette: the palette (NULL for default)
 * @fixed: colors already in the picture (white for idle, ...)
 * @nr_fixed: how many
 * @index: per item, in order of priority (most visible first): on entry
 *	   the palette index it would like (its stable color), on return the
 *	   one it gets
 * @nr: items
 *
 * Each of the first SP_PALETTE_DISTINCT_ITEMS items keeps its wish when
 * that color is at least SP_COLOR_DISTINCT from the fixed colors (which
 * a picture labels or hatches) and sp_palette_distinct() from the colors
 * of the items before it; otherwise it takes the first of the palette's
 * first SP_PALETTE_CANDIDATES entries that is, and when none is (past
 * sp_palette_nr_distinct() items), the one that comes closest.  Later
 * items keep their wish.
 * Deterministic; costs O(min(nr, 64)^2 * 256) distances at most.
 *
 * Return: 0, or -ENOMEM.
 */
int sp_palette_pick_distinct(const struct sp_palette *palette, const struct sp_rgb *fixed,
			     size_t nr_fixed, size_t *index, size_t nr);

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
