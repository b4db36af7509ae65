/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_OUTPUT_H
#define SP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "schedplot/base/tempfile.h"

struct sp_error;
struct sp_svg_overlay;
struct _cairo;
struct _cairo_surface;

enum sp_format {
	SP_FORMAT_NONE,
	SP_FORMAT_PNG,
	SP_FORMAT_PDF,
	SP_FORMAT_SVG,
};

/* Largest side of a PNG, in pixels (cairo's image surface limit). */
#define SP_OUTPUT_MAX_PX 32767

/*
 * One image being drawn.  Between sp_output_open() and sp_output_close() the
 * caller draws on @cr in user units: pixels for PNG, points for PDF and SVG.
 * Nothing appears at the target path until sp_output_close() commits; a
 * failed or abandoned output leaves nothing behind.
 *
 *	struct sp_output out;
 *
 *	sp_output_init(&out);
 *	sp_output_protect(&out, trace_path);
 *	if (sp_output_open(&out, "cores.png", SP_FORMAT_NONE, 1600, 900, &err))
 *		return err.code;
 *	draw(out.cr);
 *	ret = sp_output_close(&out, true, &err);
 *	sp_output_release(&out);
 *	return ret;
 */
struct sp_output {
	struct _cairo *cr;		/* draw here; NULL when not open */
	struct _cairo_surface *surface;
	enum sp_format format;
	double width;			/* px for PNG, pt for PDF/SVG */
	double height;

	/* private */
	char *path;			/* target, "-" for stdout */
	struct sp_tempfile tf;		/* the file output (tf.path NULL for stdout) */
	FILE *fp;			/* the temporary file, NULL for stdout and devices */
	bool discard;			/* closing without commit: drop stream data */
	unsigned char *buf;		/* stream data held for stdout and devices */
	size_t nr_buf;
	size_t alloc_buf;
	int write_errno;		/* first failed write of the stream callback */
	struct sp_svg_overlay *overlay;	/* SVG: titles and text laid over the image */
	size_t nr_protect;		/* inputs not to write over, any number */
	size_t alloc_protect;
	struct sp_output_protected {
		dev_t dev;
		ino_t ino;
	} *protect;
};

/**
 * sp_format_from_name - parse a format name
 * @name: "png", "pdf" or "svg" (any case)
 *
 * Return: the format, or SP_FORMAT_NONE for anything else (and for NULL).
 */
enum sp_format sp_format_from_name(const char *name);

/**
 * sp_format_from_path - pick the format from a file name's extension
 * @path: file name such as "cores.PNG"; the extension is matched in any case
 *
 * Return: the format, or SP_FORMAT_NONE when the extension is not known.
 */
enum sp_format sp_format_from_path(const char *path);

/**
 * sp_format_name - the lowercase name of a format
 * @fmt: the format
 *
 * Return: "png", "pdf", "svg", or "none".
 */
const char *sp_format_name(enum sp_format fmt);

/**
 * sp_output_init - prepare an output record before its first open
 * @out: the record
 *
 * Must be called before sp_output_protect() and sp_output_open().
 */
void sp_output_init(struct sp_output *out);

/**
 * sp_output_protect - refuse to write over a file
 * @out: an initialised, not yet opened output
 * @path: an input file (compared by device and inode, so other names of the
 *	  same file, hard links and symlinks, are caught too)
 *
 * A path that cannot be stat()ed is not recorded: it cannot be overwritten
 * by accident either.
 *
 * Any number of files can be protected; the protection lasts until
 * sp_output_release(), over any number of opens and closes.
 *
 * Return: 0, or -ENOMEM.
 */
int sp_output_protect(struct sp_output *out, const char *path);

/**
 * sp_output_open - create the surface and drawing context of an image
 * @out: initialised with sp_output_init()
 * @path: target file, or "-" for standard output
 * @fmt: the format, or SP_FORMAT_NONE to take it from @path's extension
 *	 (required for "-")
 * @width: image width, pixels for PNG, points for PDF and SVG
 * @height: image height, same units
 * @err: filled in on failure
 *
 * PNG surfaces start white.  For files, the temporary file beside the target
 * (beside the file a symlink leads to) is created here, so a missing or
 * read-only directory fails before any drawing is done; a device, FIFO or
 * socket is only checked here, then opened and written in place by
 * sp_output_close() (a FIFO waits there for its reader).  PDF files carry a fixed creation date, taken from
 * SOURCE_DATE_EPOCH when it is set.
 *
 * Return: 0 with @out->cr ready, or a negative code with @err set and
 * nothing left on disk (-EINVAL: unknown format or bad size, -EEXIST: the
 * target is a protected input, -errno of a failed system call).
 */
int sp_output_open(struct sp_output *out, const char *path, enum sp_format fmt,
		   double width, double height, struct sp_error *err);

/**
 * sp_output_text_options - the font options every output draws text with
 * @cr: a context (an output's, or one that measures text for it)
 *
 * No hinted metrics and no desktop settings: text measures the same on
 * every surface and machine, so what a layout measured on a scratch
 * context holds on the output.
 */
void sp_output_text_options(struct _cairo *cr);

/**
 * sp_output_close - finish the image and put it in place
 * @out: an opened output (closing one that is not open does nothing)
 * @commit: false to throw the image away
 * @err: filled in on failure
 *
 * With @commit, checks cairo's status, writes and syncs the data and renames
 * the temporary file over the target; standard output gets the whole image
 * at once, only when everything succeeded.  Without @commit, or on any
 * error, the temporary file is removed and the target is left as it was.
 * @out can be opened again afterwards; its protected files are kept.
 *
 * Return: 0, or a negative code with @err set (-EIO for drawing errors).
 */
int sp_output_close(struct sp_output *out, bool commit, struct sp_error *err);

/**
 * sp_output_release - throw away an output and forget its protected files
 * @out: initialised with sp_output_init(), open or not
 *
 * Closes without commit what is still open; @out must be initialised
 * again before its next use.
 */
void sp_output_release(struct sp_output *out);

/*
 * SVG for the browser.  cairo draws text as glyph outlines and has no
 * tooltips, so an SVG output also collects, as it is drawn, an overlay it
 * appends at the end of the image: every line of text as an invisible
 * <text> element over the drawn one (searchable, selectable), and hover
 * titles of regions (a transparent <rect> with a <title>), the latter only
 * while there are at most SP_OUTPUT_SVG_MAX_TITLES of them (beyond, none:
 * a browser would crawl).  On other surfaces these calls do nothing.
 */
#define SP_OUTPUT_SVG_MAX_TITLES 20000

/**
 * sp_output_svg_title - give a region of an SVG image a hover title
 * @cr: a context on an sp_output's surface
 * @x: the region, in @cr's user units
 * @y: ditto
 * @w: ditto
 * @h: ditto
 * @title: the text (UTF-8; escaped here)
 */
void sp_output_svg_title(struct _cairo *cr, double x, double y, double w, double h,
			 const char *title);

/**
 * sp_output_svg_text - lay a line of text drawn on an SVG image over it as text
 * @cr: a context on an sp_output's surface, with the font and the current
 *	transformation the text was drawn with
 * @x: where it was drawn (the baseline's start), in user units
 * @y: ditto
 * @advance: its advance width, in user units
 * @text: the text (UTF-8; escaped here)
 */
void sp_output_svg_text(struct _cairo *cr, double x, double y, double advance, const char *text);

#endif /* SP_OUTPUT_H */
