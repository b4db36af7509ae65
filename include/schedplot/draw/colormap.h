/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_COLORMAP_H
#define SP_COLORMAP_H

/*
 * A color assignment kept across figures: names (what a legend calls a
 * task, a command or a process) to colors, written by one figure
 * (--colors-out) and read by the next (--colors), so that the zooms, the
 * overview and the compare panels of one study give a task one color.
 *
 * The file is JSON, written by sp_color_map_save():
 *
 *	{
 *	  "schedplot_colors": 1,
 *	  "color_by": "pid",
 *	  "colors": {
 *	    "duty-24994": "#e69f00",
 *	    "kworker/0:1-43": "#56b4e9"
 *	  }
 *	}
 *
 * The reader takes any JSON of that shape (members in any order, other
 * members ignored, string escapes decoded); colors are "#rrggbb".
 */

#include <stdbool.h>
#include <stddef.h>

#include "schedplot/draw/palette.h"

struct sp_error;

struct sp_color_map_entry {
	char *name;
	struct sp_rgb color;
};

struct sp_color_map {
	struct sp_color_map_entry *v;	/* sorted by name once looked up */
	size_t nr, alloc;
	bool sorted;
	char color_by[16];		/* what the names are, as loaded ("" when not said) */
};

/**
 * sp_color_map_add - give @name a color (the first one given stays)
 * @map: the map (zeroed or loaded)
 * @name: the name, copied
 * @color: its color
 *
 * Return: 0, or -ENOMEM.
 */
int sp_color_map_add(struct sp_color_map *map, const char *name, const struct sp_rgb *color);

/**
 * sp_color_map_find - the color of a name
 * @map: the map
 * @name: the name
 *
 * Return: the color, or NULL when the map does not name it.
 */
const struct sp_rgb *sp_color_map_find(struct sp_color_map *map, const char *name);

/**
 * sp_color_map_load - read a color file
 * @map: zeroed; filled in
 * @path: the file
 * @err: filled in on failure, with the byte offset of a syntax error
 *
 * Return: 0, -errno when the file cannot be read, -EINVAL when it is not
 * a color file (the message says what is wrong), or -ENOMEM.  @map then
 * needs sp_color_map_release().
 */
int sp_color_map_load(struct sp_color_map *map, const char *path, struct sp_error *err);

/**
 * sp_color_map_save - write a color file, atomically (base/tempfile.h)
 * @map: the map
 * @color_by: what the names are: "pid", "command" or "process"
 * @path: the file
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_color_map_save(struct sp_color_map *map, const char *color_by, const char *path,
		      struct sp_error *err);

/**
 * sp_color_map_release - free what the map holds
 * @map: the map (zeroed or used)
 */
void sp_color_map_release(struct sp_color_map *map);

#endif /* SP_COLORMAP_H */
