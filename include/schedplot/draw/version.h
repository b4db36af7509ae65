/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VERSION_H
#define SP_VERSION_H

/*
 * The versions of the drawing libraries the program runs with, for
 * `schedplot --version`; the callers need not include their headers.
 */

/**
 * sp_draw_cairo_version - the version of the cairo library loaded
 *
 * Return: a static string such as "1.18.0".
 */
const char *sp_draw_cairo_version(void);

#endif /* SP_VERSION_H */
