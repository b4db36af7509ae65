// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text: sanitizing, measuring, drawing and fitting.  See
 * include/schedplot/draw/text.h for the contracts.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/output.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

#define TEXT_BUF 512

static const char ellipsis[] = "\xe2\x80\xa6";	/* U+2026 */

/*
 * Length of the valid, allowed UTF-8 character at @s; 0 when the byte at @s
 * starts no well-formed sequence; minus the length of a well-formed
 * sequence that is not allowed (overlong, surrogate, control, ...).
 */
static int utf8_char(const unsigned char *s)
{
	uint32_t cp;
	int len, i;

	if (s[0] < 0x80)
		return (s[0] < 0x20 || s[0] == 0x7f) ? -1 : 1;
	if (s[0] >= 0xc0 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf7) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff)
		return -len;	/* overlong or beyond Unicode */
	if (cp >= 0xd800 && cp <= 0xdfff)
		return -len;	/* surrogate */
	if (cp >= 0x80 && cp <= 0x9f)
		return -len;	/* C1 control */
	if (cp == 0xfffe || cp == 0xffff)
		return -len;
	return len;
}

size_t sp_text_sanitize(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t n = 0;

	if (!size)
		return 0;
	while (*s) {
		int len = utf8_char(s);

		if (len <= 0) {
			if (n + 1 >= size)
				break;
			dst[n++] = '?';
			s += len < 0 ? -len : 1;
			continue;
		}
		if (n + (size_t)len >= size)
			break;
		memcpy(dst + n, s, (size_t)len);
		n += (size_t)len;
		s += len;
	}
	dst[n] = '\0';
	return n;
}

void sp_render_font(cairo_t *cr, const struct sp_theme *theme, double size, bool bold)
{
	cairo_select_font_face(cr, theme->font_family, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double sp_text_width(cairo_t *cr, const char *text)
{
	char buf[TEXT_BUF];
	cairo_text_extents_t te;

	sp_text_sanitize(buf, sizeof(buf), text);
	cairo_text_extents(cr, buf, &te);
	return te.x_advance;
}

double sp_text_height(cairo_t *cr)
{
	cairo_font_extents_t fe;

	cairo_font_extents(cr, &fe);
	return fe.ascent + fe.descent;
}

void sp_text_draw(cairo_t *cr, double x, double y, unsigned int align, const char *text)
{
	char buf[TEXT_BUF];
	cairo_text_extents_t te;
	cairo_font_extents_t fe;

	sp_text_sanitize(buf, sizeof(buf), text);
	if (!buf[0])
		return;
	cairo_text_extents(cr, buf, &te);
	cairo_font_extents(cr, &fe);

	switch (align & SP_ALIGN_H_MASK) {
	case SP_ALIGN_CENTER:
		x -= te.x_advance / 2;
		break;
	case SP_ALIGN_RIGHT:
		x -= te.x_advance;
		break;
	}
	switch (align & SP_ALIGN_V_MASK) {
	case SP_ALIGN_TOP:
		y += fe.ascent;
		break;
	case SP_ALIGN_MIDDLE: {
		/* Centre digits and capitals, not the font's line box. */
		cairo_text_extents_t digit;

		cairo_text_extents(cr, "0", &digit);
		y -= digit.y_bearing / 2;
		break;
	}
	case SP_ALIGN_BOTTOM:
		y -= fe.descent;
		break;
	}
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
	cairo_new_path(cr);
	sp_output_svg_text(cr, x, y, te.x_advance, buf);
}

void sp_text_draw_vertical(cairo_t *cr, double x, double y, unsigned int align, const char *text)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -M_PI / 2);
	sp_text_draw(cr, 0, 0, align, text);
	cairo_restore(cr);
}

bool sp_text_fit(cairo_t *cr, char *dst, size_t size, const char *text, double max_w)
{
	cairo_text_extents_t te;
	char buf[TEXT_BUF];
	size_t n, cut;

	if (!size)
		return false;
	n = sp_text_sanitize(buf, sizeof(buf), text);
	cairo_text_extents(cr, buf, &te);
	if (te.x_advance <= max_w && n < size) {
		memcpy(dst, buf, n + 1);
		return true;
	}
	/* Drop whole characters from the end until text + ellipsis fits. */
	cut = n;
	while (cut > 0) {
		do
			cut--;
		while (cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80);
		if (cut + sizeof(ellipsis) > size)
			continue;
		memcpy(dst, buf, cut);
		memcpy(dst + cut, ellipsis, sizeof(ellipsis));
		cairo_text_extents(cr, dst, &te);
		if (te.x_advance <= max_w)
			return false;
	}
	dst[0] = '\0';
	if (sizeof(ellipsis) <= size) {
		cairo_text_extents(cr, ellipsis, &te);
		if (te.x_advance <= max_w)
			memcpy(dst, ellipsis, sizeof(ellipsis));
	}
	return false;
}
