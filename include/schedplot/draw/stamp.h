/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_STAMP_H
#define SP_STAMP_H

/*
 * Stamps: a small mark drawn many times.  On an image surface it is
 * rendered once per quarter-pixel position into a small image and then
 * painted, a fraction of the cost of stroking the same path again; on a
 * vector surface (PDF, SVG) it is drawn as paths every time.  Painting the
 * image over the target equals drawing the mark on it (compositing OVER
 * is associative), but for a shift of at most an eighth of a pixel.
 */

#include <stdbool.h>

struct _cairo;
struct _cairo_surface;

#define SP_STAMP_PHASES 4

/* Draws the mark centred at (x, y) on @cr, strokes and fills included. */
typedef void sp_stamp_draw_fn(struct _cairo *cr, double x, double y, const void *arg);

struct sp_stamp {
	sp_stamp_draw_fn *draw;
	const void *arg;
	int radius_px;		/* the images are 2 * radius_px pixels wide and high */
	bool image;		/* the target is an image surface, not scaled: stamp */
	struct _cairo_surface *img[SP_STAMP_PHASES][SP_STAMP_PHASES];	/* by x, y phase */
};

/**
 * sp_stamp_init - a mark to put down on @cr
 * @st: the stamp
 * @cr: the context it is put down on (its target and matrix decide)
 * @radius: how far from its centre the mark reaches, halo and line included
 * @draw: draws the mark
 * @arg: passed to @draw (kept by reference)
 */
void sp_stamp_init(struct sp_stamp *st, struct _cairo *cr, double radius, sp_stamp_draw_fn *draw,
		   const void *arg);

/**
 * sp_stamp_put - the mark at (x, y)
 * @st: the stamp
 * @cr: the context of sp_stamp_init()
 * @x: centre, user units
 * @y: centre
 *
 * Leaves the current path empty.  When its image cannot be made, the mark
 * is drawn as paths.
 */
void sp_stamp_put(struct sp_stamp *st, struct _cairo *cr, double x, double y);

/**
 * sp_stamp_release - free the images
 * @st: the stamp (initialised)
 */
void sp_stamp_release(struct sp_stamp *st);

#endif /* SP_STAMP_H */
