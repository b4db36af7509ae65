// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stamps.  See include/schedplot/draw/stamp.h for the contracts.
 */
#include <math.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/draw/stamp.h"

/* Beyond this, a mark is no small mark: it is drawn as paths */
#define MAX_RADIUS_PX 64

/* An image surface in pixels: user units are pixels, shifted by whole pixels only */
static bool pixel_target(cairo_t *cr)
{
	cairo_surface_t *s = cairo_get_target(cr);
	double sx = 1, sy = 1;
	cairo_matrix_t m;

	if (cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE)
		return false;
	cairo_surface_get_device_scale(s, &sx, &sy);
	cairo_get_matrix(cr, &m);
	return sx == 1 && sy == 1 && m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 &&
	       m.x0 == floor(m.x0) && m.y0 == floor(m.y0);
}

void sp_stamp_init(struct sp_stamp *st, cairo_t *cr, double radius, sp_stamp_draw_fn *draw,
		   const void *arg)
{
	memset(st, 0, sizeof(*st));
	st->draw = draw;
	st->arg = arg;
	st->radius_px = (int)ceil(radius) + 1;
	st->image = st->radius_px <= MAX_RADIUS_PX && pixel_target(cr);
}

/* The image of the mark centred at (radius + fx, radius + fy), or NULL */
static cairo_surface_t *stamp_image(struct sp_stamp *st, int px, int py)
{
	int side = 2 * st->radius_px;
	cairo_surface_t *img;
	cairo_t *cr;

	if (st->img[px][py])
		return st->img[px][py];
	img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, side, side);
	cr = cairo_create(img);
	st->draw(cr, st->radius_px + (double)px / SP_STAMP_PHASES,
		 st->radius_px + (double)py / SP_STAMP_PHASES, st->arg);
	cairo_destroy(cr);
	cairo_surface_flush(img);
	if (cairo_surface_status(img)) {
		cairo_surface_destroy(img);
		return NULL;
	}
	st->img[px][py] = img;
	return img;
}

void sp_stamp_put(struct sp_stamp *st, cairo_t *cr, double x, double y)
{
	/* the nearest quarter pixel: whole pixels and a phase */
	double qx = round(x * SP_STAMP_PHASES), qy = round(y * SP_STAMP_PHASES);
	double ix = floor(qx / SP_STAMP_PHASES), iy = floor(qy / SP_STAMP_PHASES);
	int px = (int)(qx - ix * SP_STAMP_PHASES), py = (int)(qy - iy * SP_STAMP_PHASES);
	cairo_surface_t *img = NULL;

	if (st->image && fabs(x) < 1e6 && fabs(y) < 1e6)
		img = stamp_image(st, px, py);
	if (!img) {
		cairo_new_path(cr);
		st->draw(cr, x, y, st->arg);
		cairo_new_path(cr);
		return;
	}
	ix -= st->radius_px;
	iy -= st->radius_px;
	cairo_set_source_surface(cr, img, ix, iy);
	cairo_rectangle(cr, ix, iy, 2 * st->radius_px, 2 * st->radius_px);
	cairo_fill(cr);
}

void sp_stamp_release(struct sp_stamp *st)
{
	for (int i = 0; i < SP_STAMP_PHASES; i++)
		for (int j = 0; j < SP_STAMP_PHASES; j++)
			if (st->img[i][j])
				cairo_surface_destroy(st->img[i][j]);
	memset(st->img, 0, sizeof(st->img));
}
