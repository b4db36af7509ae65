// SPDX-License-Identifier: GPL-2.0-only
/*
 * Library versions for `schedplot --version`, so that the CLI need not
 * include <cairo.h>.
 */
#include <cairo.h>

#include "schedplot/draw/version.h"

const char *sp_draw_cairo_version(void)
{
	return cairo_version_string();
}
