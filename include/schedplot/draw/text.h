/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TEXT_H
#define SP_TEXT_H

/*
 * Text: fonts from the theme, measuring, anchored and rotated drawing,
 * fitting a width with an ellipsis.  Every string is sanitized into valid,
 * printable UTF-8 before it reaches cairo.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;
struct sp_theme;

/* Horizontal and vertical anchor of a text, or-ed together. */
enum sp_align {
	SP_ALIGN_LEFT = 0,
	SP_ALIGN_CENTER = 1,
	SP_ALIGN_RIGHT = 2,
	SP_ALIGN_BASELINE = 0,		/* y is the baseline */
	SP_ALIGN_TOP = 4,		/* y is the top of the font's ascent */
	SP_ALIGN_MIDDLE = 8,		/* y is the middle of ascent + descent */
	SP_ALIGN_BOTTOM = 12,		/* y is the bottom of the font's descent */
};
#define SP_ALIGN_H_MASK 3
#define SP_ALIGN_V_MASK 12

/**
 * sp_render_font - select the theme's font at a size
 * @cr: cairo context
 * @theme: the theme
 * @size: font size in user units (e.g. @theme->font_size)
 * @bold: bold weight
 */
void sp_render_font(struct _cairo *cr, const struct sp_theme *theme, double size, bool bold);

/**
 * sp_text_width - advance width of a text in the current font
 * @cr: cairo context
 * @text: any string; sanitized as for drawing
 *
 * Return: the width in user units.
 */
double sp_text_width(struct _cairo *cr, const char *text);

/**
 * sp_text_height - line height (ascent + descent) of the current font
 * @cr: cairo context
 *
 * Return: the height in user units.
 */
double sp_text_height(struct _cairo *cr);

/**
 * sp_text_draw - draw a line of text in the current font and source color
 * @cr: cairo context
 * @x: anchor x
 * @y: anchor y
 * @align: SP_ALIGN_* horizontal | vertical
 * @text: any string; sanitized before it reaches cairo
 */
void sp_text_draw(struct _cairo *cr, double x, double y, unsigned int align, const char *text);

/**
 * sp_text_draw_vertical - draw text rotated to read bottom to top
 * @cr: cairo context
 * @x: anchor x
 * @y: anchor y
 * @align: as for sp_text_draw(), in the text's own (rotated) frame
 * @text: any string
 */
void sp_text_draw_vertical(struct _cairo *cr, double x, double y, unsigned int align,
			   const char *text);

/**
 * sp_text_fit - shorten a text to a width, ending it with an ellipsis
 * @cr: cairo context with the font selected
 * @dst: output buffer
 * @size: its size
 * @text: any string (sanitized into @dst)
 * @max_w: the width available
 *
 * A label's pid ("comm-2741"), count ("name: 312") or closing
 * parenthesis ("name (6 traces)") is kept when the part before it can be
 * cut to fit ("sched-mess…-2741"); else the end is cut.
 *
 * Return: true when the text fits whole, false when it was shortened (an
 * empty @dst when not even the ellipsis fits).
 */
bool sp_text_fit(struct _cairo *cr, char *dst, size_t size, const char *text, double max_w);

/**
 * sp_text_duration - a duration to three significant digits: "542 µs", "1.25 ms"
 * @buf: output buffer
 * @len: its size (16 is enough)
 * @ns: the duration
 *
 * The unit leaves 1 to 999 before rounding, "1.00 ms" rather than
 * "1000 µs"; nanoseconds are whole.  Return: @buf.
 */
char *sp_text_duration(char *buf, size_t len, uint64_t ns);

#endif /* SP_TEXT_H */
