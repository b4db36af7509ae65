// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strings from a trace made safe to draw or to write into an SVG: valid
 * UTF-8, no control characters.  See include/schedplot/draw/sanitize.h.
 */
#include <stdint.h>
#include <string.h>

#include "schedplot/draw/sanitize.h"

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
