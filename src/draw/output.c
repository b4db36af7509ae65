// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one place that picks a cairo surface and puts the finished image on
 * disk.  A file target goes through struct sp_tempfile: a temporary file in
 * the target's own directory (or in that of the file its symlinks lead to)
 * renamed into place only after cairo, the writes, fflush(), fsync() and
 * fclose() all succeeded, or, for a device, FIFO or socket, the target
 * itself.  Standard output and devices cannot be taken back, so their
 * image is collected in memory and written only once it is complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <png.h>
#include <zlib.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/sanitize.h"

/* PDF creation date when SOURCE_DATE_EPOCH is not set: fixed, not "now". */
#define SP_OUTPUT_FIXED_EPOCH 0

enum sp_format sp_format_from_name(const char *name)
{
	if (!name)
		return SP_FORMAT_NONE;
	if (!strcasecmp(name, "png"))
		return SP_FORMAT_PNG;
	if (!strcasecmp(name, "pdf"))
		return SP_FORMAT_PDF;
	if (!strcasecmp(name, "svg"))
		return SP_FORMAT_SVG;
	return SP_FORMAT_NONE;
}

enum sp_format sp_format_from_path(const char *path)
{
	const char *base, *dot;

	if (!path)
		return SP_FORMAT_NONE;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return SP_FORMAT_NONE;
	return sp_format_from_name(dot + 1);
}

const char *sp_format_name(enum sp_format fmt)
{
	switch (fmt) {
	case SP_FORMAT_PNG:
		return "png";
	case SP_FORMAT_PDF:
		return "pdf";
	case SP_FORMAT_SVG:
		return "svg";
	default:
		return "none";
	}
}

void sp_output_init(struct sp_output *out)
{
	memset(out, 0, sizeof(*out));
}

void sp_output_release(struct sp_output *out)
{
	sp_output_close(out, false, NULL);
	free(out->protect);
	out->protect = NULL;
	out->nr_protect = 0;
	out->alloc_protect = 0;
}

int sp_output_protect(struct sp_output *out, const char *path)
{
	struct stat st;

	if (!path || stat(path, &st) < 0)
		return 0;
	if (sp_grow_array(&out->protect, &out->alloc_protect, out->nr_protect + 1,
			  sizeof(*out->protect)))
		return -ENOMEM;
	out->protect[out->nr_protect].dev = st.st_dev;
	out->protect[out->nr_protect].ino = st.st_ino;
	out->nr_protect++;
	return 0;
}

static bool is_protected(const struct sp_output *out, const struct stat *st)
{
	for (size_t i = 0; i < out->nr_protect; i++)
		if (out->protect[i].dev == st->st_dev && out->protect[i].ino == st->st_ino)
			return true;
	return false;
}

/* The target must not be a directory or one of the protected inputs. */
static int check_target(const struct sp_output *out, const char *path, struct sp_error *err)
{
	struct stat st;

	if (!strcmp(path, "-")) {
		if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && is_protected(out, &st))
			return sp_error_set(err, -EEXIST, -1,
					    "refusing to write the image over the input trace (standard output is the input file)");
		return 0;
	}
	if (stat(path, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return sp_error_set(err, -EISDIR, -1,
				    "cannot write '%s': it is a directory (give a file name)", path);
	if (is_protected(out, &st))
		return sp_error_set(err, -EEXIST, -1,
				    "refusing to write the image over the input file '%s' (choose another output name)",
				    path);
	return 0;
}

static cairo_status_t stream_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sp_output *out = closure;

	if (out->write_errno)
		return CAIRO_STATUS_WRITE_ERROR;
	if (out->discard)
		return CAIRO_STATUS_SUCCESS;
	if (out->fp && out->format != SP_FORMAT_SVG) {
		if (fwrite(data, 1, len, out->fp) != len) {
			out->write_errno = errno ? errno : EIO;
			return CAIRO_STATUS_WRITE_ERROR;
		}
		return CAIRO_STATUS_SUCCESS;
	}
	if (sp_grow_array(&out->buf, &out->alloc_buf, out->nr_buf + len, 1) < 0) {
		out->write_errno = ENOMEM;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	memcpy(out->buf + out->nr_buf, data, len);
	out->nr_buf += len;
	return CAIRO_STATUS_SUCCESS;
}

static void png_write_data(png_structp png, png_bytep data, size_t len)
{
	struct sp_output *out = png_get_io_ptr(png);

	while (len) {
		unsigned int n = len > UINT_MAX ? UINT_MAX : (unsigned int)len;

		if (stream_write(out, data, n) != CAIRO_STATUS_SUCCESS)
			png_error(png, "write error");
		data += n;
		len -= n;
	}
}

static void png_flush_data(png_structp png)
{
}

/* libpng would print its own messages: the caller reports the error once. */
static void png_quiet_error(png_structp png, png_const_charp msg)
{
	png_longjmp(png, 1);
}

static void png_quiet_warning(png_structp png, png_const_charp msg)
{
}

/*
 * The image as an 8-bit RGB PNG.  cairo's own writer tries every row
 * filter, which costs about as much as the rest of a small run; charts are
 * large flat areas, which zlib packs as small without a filter (the files
 * come out no larger).  No time or software chunks: the same image gives
 * the same bytes.
 */
static cairo_status_t write_png(struct sp_output *out)
{
	cairo_surface_t *s = out->surface;
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	int stride = cairo_image_surface_get_stride(s), x, y;
	const unsigned char *pixels;
	png_structp png;
	png_infop info;
	png_bytep row = NULL;

	cairo_surface_flush(s);
	pixels = cairo_image_surface_get_data(s);
	if (!pixels || w <= 0 || h <= 0)
		return CAIRO_STATUS_INVALID_SIZE;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_quiet_error,
				      png_quiet_warning);
	info = png ? png_create_info_struct(png) : NULL;
	row = malloc((size_t)w * 3);
	if (!png || !info || !row) {
		png_destroy_write_struct(&png, info ? &info : NULL);
		free(row);
		return CAIRO_STATUS_NO_MEMORY;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return out->write_errno ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_NO_MEMORY;
	}
	png_set_write_fn(png, out, png_write_data, png_flush_data);
	png_set_compression_level(png, Z_DEFAULT_COMPRESSION);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
	png_write_info(png, info);
	for (y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)(pixels + (size_t)y * stride);

		/* RGB24: 0x00RRGGBB in a host-order word */
		for (x = 0; x < w; x++) {
			row[3 * x] = (unsigned char)(src[x] >> 16);
			row[3 * x + 1] = (unsigned char)(src[x] >> 8);
			row[3 * x + 2] = (unsigned char)src[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	return CAIRO_STATUS_SUCCESS;
}

/*
 * Open the file output: a temporary file beside @path (or beside the file
 * its symlinks lead to), or, for a device, FIFO or socket, a check that it
 * can be written: it is opened at commit, and its image is held in memory
 * until then like that of standard output.
 */
static int open_file(struct sp_output *out, const char *path, struct sp_error *err)
{
	int ret;

	/* a device is opened at commit: the CLI probes the output before drawing */
	ret = sp_tempfile_open(&out->tf, path, O_WRONLY | SP_TEMPFILE_DEFER, err);
	if (ret)
		return ret;
	if (out->tf.direct)
		return 0;
	out->fp = sp_tempfile_fdopen(&out->tf, "wb");
	if (!out->fp) {
		ret = -errno;
		sp_tempfile_discard(&out->tf);
		return sp_error_set(err, ret, -1, "cannot write '%s': %s", path, strerror(-ret));
	}
	return 0;
}

/* SOURCE_DATE_EPOCH when it is a valid number of seconds, else the fixed date. */
static void pdf_date(char *buf, size_t size)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	long long epoch = SP_OUTPUT_FIXED_EPOCH;
	struct tm tm;
	time_t t;

	if (env && *env) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(env, &end, 10);
		if (!errno && !*end && v >= 0 && v <= 253402300799LL)	/* up to year 9999 */
			epoch = v;
	}
	t = (time_t)epoch;
	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, size, "1970-01-01T00:00:00Z");
		return;
	}
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* What SVG output lays over the image (output.h "SVG for the browser"). */
struct sp_svg_overlay {
	char *text;			/* <text> elements */
	size_t nr_text, alloc_text;
	char *titles;			/* <rect> elements with a <title> */
	size_t nr_titles_buf, alloc_titles;
	size_t nr_titles;
	bool failed;			/* out of memory: no overlay at all */
};

static const cairo_user_data_key_t overlay_key;

static void overlay_free(struct sp_svg_overlay *ov)
{
	if (!ov)
		return;
	free(ov->text);
	free(ov->titles);
	free(ov);
}

static struct sp_svg_overlay *overlay_of(cairo_t *cr)
{
	return cairo_surface_get_user_data(cairo_get_target(cr), &overlay_key);
}

/* Append printf output to @buf. */
static void __attribute__((format(printf, 5, 6)))
overlay_printf(struct sp_svg_overlay *ov, char **buf, size_t *nr, size_t *alloc,
	       const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (ov->failed || len < 0 || sp_grow_array(buf, alloc, *nr + (size_t)len + 1, 1)) {
		ov->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(*buf + *nr, (size_t)len + 1, fmt, ap);
	va_end(ap);
	*nr += (size_t)len;
}

/*
 * Append @text escaped for XML character data, made valid UTF-8 without
 * control characters first (sp_text_sanitize()).
 */
static void overlay_escape(struct sp_svg_overlay *ov, char **buf, size_t *nr, size_t *alloc,
			   const char *text)
{
	char clean[512];
	const char *s = clean;

	sp_text_sanitize(clean, sizeof(clean), text);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '<')
			overlay_printf(ov, buf, nr, alloc, "&lt;");
		else if (c == '>')
			overlay_printf(ov, buf, nr, alloc, "&gt;");
		else if (c == '&')
			overlay_printf(ov, buf, nr, alloc, "&amp;");
		else if (c == '"')
			overlay_printf(ov, buf, nr, alloc, "&quot;");
		else if (c >= 0x20 && c != 0x7f)
			overlay_printf(ov, buf, nr, alloc, "%c", c);
	}
}

void sp_output_svg_title(cairo_t *cr, double x, double y, double w, double h, const char *title)
{
	struct sp_svg_overlay *ov = overlay_of(cr);
	double x1 = x + w, y1 = y + h;

	if (!ov || ov->nr_titles++ >= SP_OUTPUT_SVG_MAX_TITLES)
		return;
	cairo_user_to_device(cr, &x, &y);
	cairo_user_to_device(cr, &x1, &y1);
	overlay_printf(ov, &ov->titles, &ov->nr_titles_buf, &ov->alloc_titles,
		       "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\"><title>",
		       fmin(x, x1), fmin(y, y1), fabs(x1 - x), fabs(y1 - y));
	overlay_escape(ov, &ov->titles, &ov->nr_titles_buf, &ov->alloc_titles, title);
	overlay_printf(ov, &ov->titles, &ov->nr_titles_buf, &ov->alloc_titles, "</title></rect>\n");
}

void sp_output_svg_text(cairo_t *cr, double x, double y, double advance, const char *text)
{
	struct sp_svg_overlay *ov = overlay_of(cr);
	cairo_matrix_t m, fm;

	if (!ov || !*text)
		return;
	cairo_get_matrix(cr, &m);
	cairo_get_font_matrix(cr, &fm);
	overlay_printf(ov, &ov->text, &ov->nr_text, &ov->alloc_text,
		       "<text transform=\"matrix(%.4f %.4f %.4f %.4f %.3f %.3f)\" x=\"%.3f\" y=\"%.3f\" font-size=\"%.3f\" textLength=\"%.3f\" lengthAdjust=\"spacingAndGlyphs\">",
		       m.xx, m.yx, m.xy, m.yy, m.x0, m.y0, x, y, fm.yy, advance);
	overlay_escape(ov, &ov->text, &ov->nr_text, &ov->alloc_text, text);
	overlay_printf(ov, &ov->text, &ov->nr_text, &ov->alloc_text, "</text>\n");
}

/*
 * Put the overlay before the image's closing tag: the text, invisible, then
 * the titles on top, transparent (painted, so they take the pointer).
 */
static int overlay_insert(struct sp_output *out)
{
	static const char end_tag[] = "</svg>";
	struct sp_svg_overlay *ov = out->overlay;
	unsigned char *dst = NULL;
	size_t at, n = 0, alloc = 0;
	char *head = NULL;
	size_t nr_head = 0, alloc_head = 0;
	bool titles;

	if (!ov || (!ov->nr_text && !ov->nr_titles))
		return 0;
	if (ov->failed)
		return -ENOMEM;
	for (at = out->nr_buf; at >= sizeof(end_tag) - 1; at--)
		if (!memcmp(out->buf + at - (sizeof(end_tag) - 1), end_tag, sizeof(end_tag) - 1))
			break;
	if (at < sizeof(end_tag) - 1)
		return -EINVAL;
	at -= sizeof(end_tag) - 1;
	titles = ov->nr_titles && ov->nr_titles <= SP_OUTPUT_SVG_MAX_TITLES;
	overlay_printf(ov, &head, &nr_head, &alloc_head,
		       "<g id=\"schedplot-text\" fill=\"#000\" fill-opacity=\"0\" font-family=\"DejaVu Sans, sans-serif\">\n%s</g>\n",
		       ov->text ? ov->text : "");
	if (titles)
		overlay_printf(ov, &head, &nr_head, &alloc_head,
			       "<g id=\"schedplot-titles\" fill=\"#000\" fill-opacity=\"0\">\n%s</g>\n",
			       ov->titles);
	if (ov->failed || sp_grow_array(&dst, &alloc, out->nr_buf + nr_head, 1)) {
		free(head);
		return -ENOMEM;
	}
	memcpy(dst, out->buf, at);
	n = at;
	memcpy(dst + n, head, nr_head);
	n += nr_head;
	memcpy(dst + n, out->buf + at, out->nr_buf - at);
	n += out->nr_buf - at;
	free(head);
	free(out->buf);
	out->buf = dst;
	out->nr_buf = n;
	out->alloc_buf = alloc;
	return 0;
}

static void release(struct sp_output *out)
{
	if (out->cr)
		cairo_destroy(out->cr);
	if (out->surface)
		cairo_surface_destroy(out->surface);
	sp_tempfile_discard(&out->tf);
	SP_FREE_AND_NULL(out->path);
	SP_FREE_AND_NULL(out->buf);
	overlay_free(out->overlay);
	out->overlay = NULL;
	out->cr = NULL;
	out->surface = NULL;
	out->fp = NULL;
	out->nr_buf = 0;
	out->alloc_buf = 0;
	out->write_errno = 0;
	out->discard = false;
	out->format = SP_FORMAT_NONE;
}

void sp_output_text_options(cairo_t *cr)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	/*
	 * The same text metrics for every format and machine: no hinted
	 * metrics, no subpixel antialiasing taken from the desktop settings.
	 */
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_DEFAULT);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
}

int sp_output_open(struct sp_output *out, const char *path, enum sp_format fmt,
		   double width, double height, struct sp_error *err)
{
	bool to_stdout;
	int ret;

	if (out->cr || out->surface)
		return sp_error_set(err, -EBUSY, -1, "output is already open");
	if (!path || !*path)
		return sp_error_set(err, -EINVAL, -1, "no output file given");
	to_stdout = !strcmp(path, "-");
	if (fmt == SP_FORMAT_NONE) {
		if (to_stdout)
			return sp_error_set(err, -EINVAL, -1,
					    "the image format must be given when writing to standard output (png, pdf or svg)");
		fmt = sp_format_from_path(path);
		if (fmt == SP_FORMAT_NONE)
			return sp_error_set(err, -EINVAL, -1,
					    "cannot tell the image format of '%s' (name it .png, .pdf or .svg, or give the format)",
					    path);
	}
	if (fmt != SP_FORMAT_PNG && fmt != SP_FORMAT_PDF && fmt != SP_FORMAT_SVG)
		return sp_error_set(err, -EINVAL, -1, "unknown image format");
	if (!isfinite(width) || !isfinite(height) || width < 1 || height < 1 ||
	    ceil(width) > SP_OUTPUT_MAX_PX || ceil(height) > SP_OUTPUT_MAX_PX)
		return sp_error_set(err, -EINVAL, -1,
				    "image size %gx%g is out of range (1 to %d a side)", width, height,
				    SP_OUTPUT_MAX_PX);

	ret = check_target(out, path, err);
	if (ret)
		return ret;
	out->path = strdup(path);
	if (!out->path)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	if (!to_stdout) {
		ret = open_file(out, path, err);
		if (ret)
			goto fail;
	}
	out->format = fmt;

	switch (fmt) {
	case SP_FORMAT_PNG:
		width = ceil(width);
		height = ceil(height);
		out->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height);
		break;
	case SP_FORMAT_PDF:
		out->surface = cairo_pdf_surface_create_for_stream(stream_write, out, width, height);
		break;
	default:
		out->surface = cairo_svg_surface_create_for_stream(stream_write, out, width, height);
		break;
	}
	if (cairo_surface_status(out->surface)) {
		ret = sp_error_set(err, -ENOMEM, -1, "cannot create a %gx%g %s surface: %s", width,
				   height, sp_format_name(fmt),
				   cairo_status_to_string(cairo_surface_status(out->surface)));
		goto fail;
	}
	if (fmt == SP_FORMAT_PDF) {
		char date[64];

		pdf_date(date, sizeof(date));
		cairo_pdf_surface_set_metadata(out->surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
		cairo_pdf_surface_set_metadata(out->surface, CAIRO_PDF_METADATA_MOD_DATE, date);
	}
	if (fmt == SP_FORMAT_SVG) {
		out->overlay = calloc(1, sizeof(*out->overlay));
		if (!out->overlay || cairo_surface_set_user_data(out->surface, &overlay_key,
								   out->overlay, NULL)) {
			ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
			goto fail;
		}
	}
	out->cr = cairo_create(out->surface);
	if (cairo_status(out->cr)) {
		ret = sp_error_set(err, -ENOMEM, -1, "cannot draw on the %s surface: %s",
				   sp_format_name(fmt), cairo_status_to_string(cairo_status(out->cr)));
		goto fail;
	}

	sp_output_text_options(out->cr);

	if (fmt == SP_FORMAT_PNG) {
		cairo_save(out->cr);
		cairo_set_source_rgb(out->cr, 1, 1, 1);
		cairo_paint(out->cr);
		cairo_restore(out->cr);
	}
	out->width = width;
	out->height = height;
	return 0;

fail:
	release(out);
	return ret;
}

/*
 * cairo names SVG groups "surfaceN" after a counter shared by all surfaces
 * of the process, so a second image drawn by the same process would differ
 * from the first.  Number them in order of appearance instead: the ids
 * stay unique, and the same drawing gives the same bytes.  Text is drawn
 * as glyph outlines, so "surface" followed by digits only occurs in ids
 * and references to them.
 */
static int svg_renumber(struct sp_output *out)
{
	static const char key[] = "surface";
	const size_t klen = sizeof(key) - 1;
	unsigned long *ids = NULL;
	size_t nr_ids = 0, alloc_ids = 0, alloc = 0, n = 0;
	unsigned char *dst = NULL;
	size_t i = 0;
	int ret;

	/* Renumbering rarely lengthens the text; grow from there when it does. */
	ret = sp_grow_array(&dst, &alloc, out->nr_buf + 64, 1);
	if (ret)
		return ret;
	while (i < out->nr_buf) {
		const unsigned char *p = out->buf + i;
		size_t left = out->nr_buf - i, j, len;
		char num[32];

		len = 1;
		if (left > klen && !memcmp(p, key, klen) && p[klen] >= '0' && p[klen] <= '9' &&
		    (i == 0 || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')))) {
			unsigned long id = 0;

			for (len = klen; len < left && p[len] >= '0' && p[len] <= '9'; len++)
				id = id * 10 + (p[len] - '0');
			for (j = 0; j < nr_ids && ids[j] != id; j++)
				;
			if (j == nr_ids) {
				ret = sp_grow_array(&ids, &alloc_ids, nr_ids + 1, sizeof(*ids));
				if (ret)
					goto out;
				ids[nr_ids++] = id;
			}
			snprintf(num, sizeof(num), "%s%zu", key, j + 1);
			ret = sp_grow_array(&dst, &alloc, n + strlen(num), 1);
			if (ret)
				goto out;
			memcpy(dst + n, num, strlen(num));
			n += strlen(num);
			i += len;
			continue;
		}
		ret = sp_grow_array(&dst, &alloc, n + 1, 1);
		if (ret)
			goto out;
		dst[n++] = *p;
		i++;
	}
	free(out->buf);
	out->buf = dst;
	out->nr_buf = n;
	out->alloc_buf = alloc;
	dst = NULL;
out:
	free(dst);
	free(ids);
	return ret;
}

/* Write what is held in memory to @fd. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Put the file in place: renamed over the target, or written to a device. */
static int commit_file(struct sp_output *out, struct sp_error *err)
{
	int ret;

	out->fp = NULL;		/* closed by the commit */
	if (out->tf.direct) {
		ret = sp_tempfile_ready(&out->tf, err);
		if (ret) {
			sp_tempfile_discard(&out->tf);
			return ret;
		}
		ret = write_all(out->tf.fd, out->buf, out->nr_buf);
		if (ret) {
			sp_tempfile_discard(&out->tf);
			return sp_error_set(err, ret, -1, "cannot write '%s': %s", out->path,
					    strerror(-ret));
		}
	} else {
		/* The target may have been replaced while we drew. */
		ret = check_target(out, out->path, err);
		if (ret)
			return ret;
	}
	return sp_tempfile_commit(&out->tf, err);
}

int sp_output_close(struct sp_output *out, bool commit, struct sp_error *err)
{
	cairo_status_t status;
	int ret = 0;

	if (!out->cr && !out->surface) {
		release(out);
		return 0;
	}
	if (!commit)
		out->discard = true;

	status = cairo_status(out->cr);
	cairo_destroy(out->cr);
	out->cr = NULL;
	if (commit && !status && out->format == SP_FORMAT_PNG)
		status = write_png(out);
	cairo_surface_finish(out->surface);
	if (!status)
		status = cairo_surface_status(out->surface);
	cairo_surface_destroy(out->surface);
	out->surface = NULL;

	if (!commit)
		goto out;
	if (out->write_errno) {
		ret = sp_error_set(err, -out->write_errno, -1, "cannot write '%s': %s",
				   !strcmp(out->path, "-") ? "standard output" : out->path,
				   strerror(out->write_errno));
		goto out;
	}
	if (status) {
		ret = sp_error_set(err, status == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO, -1,
				   "cannot draw the %s image: %s", sp_format_name(out->format),
				   cairo_status_to_string(status));
		goto out;
	}
	if (out->format == SP_FORMAT_SVG) {
		ret = svg_renumber(out);
		if (!ret)
			ret = overlay_insert(out);
		if (ret) {
			sp_error_set(err, ret, -1, "out of memory");
			goto out;
		}
		if (out->fp && out->nr_buf && fwrite(out->buf, 1, out->nr_buf, out->fp) != out->nr_buf) {
			ret = sp_error_set(err, -errno, -1, "cannot write '%s': %s", out->path,
					   strerror(errno));
			goto out;
		}
	}
	if (out->tf.path) {
		ret = commit_file(out, err);
	} else {
		ret = write_all(STDOUT_FILENO, out->buf, out->nr_buf);
		if (ret)
			sp_error_set(err, ret, -1, "cannot write to standard output: %s",
				     strerror(-ret));
	}
out:
	release(out);
	return ret;
}
