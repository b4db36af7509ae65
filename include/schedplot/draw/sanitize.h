/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strings from a trace (task names, marker text) made safe for cairo and
 * for SVG text: used by text.c to draw them and by output.c to write them.
 */
#ifndef SP_SANITIZE_H
#define SP_SANITIZE_H

#include <stddef.h>

/**
 * sp_text_sanitize - make a string safe to hand to cairo
 * @dst: output buffer
 * @size: its size (at least 1)
 * @src: any bytes, NUL-terminated (NULL is taken as "")
 *
 * A byte that starts no well-formed UTF-8 sequence (stray continuation
 * bytes, truncated sequences) becomes '?'; so does each whole sequence
 * that is well-formed but not a character to draw (overlong forms,
 * surrogates, beyond U+10FFFF, U+FFFE/U+FFFF) and each control character
 * (C0, DEL, C1).  The result is cut at a character boundary when it does
 * not fit.
 *
 * Return: the length of @dst.
 */
size_t sp_text_sanitize(char *dst, size_t size, const char *src);

#endif /* SP_SANITIZE_H */
