// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text: measuring, drawing and fitting (sanitizing: sanitize.c).  See
 * include/schedplot/draw/text.h for the contracts.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/output.h"
#include "schedplot/draw/sanitize.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

#define TEXT_BUF 512

static const char ellipsis[] = "\xe2\x80\xa6";	/* U+2026 */

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

/*
 * The end of a label that tells it from its neighbours: a pid
 * ("sched-messaging-2741"), a count ("timer:hrtimer_expire_entry: 312")
 * or a parenthesis ("... (6 traces)"); its length, 0 for none.  Only a
 * short end that leaves a head to cut counts.
 */
static size_t name_tail(const char *s, size_t n)
{
	size_t i = n;

	if (n > 2 && s[n - 1] == ')') {
		while (i > 1 && !(s[i - 2] == ' ' && s[i - 1] == '('))
			i--;
		i = i > 1 ? i - 2 : 0;
	} else {
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i == n || i == 0)
			i = 0;
		else if (s[i - 1] == '-')
			i--;
		else if (i > 1 && s[i - 1] == ' ' && s[i - 2] == ':')
			i -= 2;
		else
			i = 0;
	}
	return i > 0 && n - i <= 16 ? n - i : 0;
}

bool sp_text_fit(cairo_t *cr, char *dst, size_t size, const char *text, double max_w)
{
	cairo_text_extents_t te;
	char buf[TEXT_BUF];
	size_t n, cut, tail;

	if (!size)
		return false;
	n = sp_text_sanitize(buf, sizeof(buf), text);
	cairo_text_extents(cr, buf, &te);
	if (te.x_advance <= max_w && n < size) {
		memcpy(dst, buf, n + 1);
		return true;
	}
	/* A pid or count that names the thing stays: the part before it is cut. */
	tail = name_tail(buf, n);
	for (cut = n - tail; tail && cut > 0;) {
		do
			cut--;
		while (cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80);
		if (cut + sizeof(ellipsis) - 1 + tail >= size)
			continue;
		memcpy(dst, buf, cut);
		memcpy(dst + cut, ellipsis, sizeof(ellipsis) - 1);
		memcpy(dst + cut + sizeof(ellipsis) - 1, buf + n - tail, tail + 1);
		cairo_text_extents(cr, dst, &te);
		if (te.x_advance <= max_w)
			return false;
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

char *sp_text_duration(char *buf, size_t len, uint64_t ns)
{
	static const char *const units[] = { "ns", "\u00b5s", "ms", "s" };
	double v = (double)ns;
	int u = 0;

	/* 999.5 and more round to 1000: the next unit's 1.00 */
	while (v >= 999.5 && u < 3) {
		v /= 1000;
		u++;
	}
	if (u == 0 || v >= 99.95)
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f %s", v, units[u]);
	else
		snprintf(buf, len, "%.2f %s", v, units[u]);
	return buf;
}
