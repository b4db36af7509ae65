// SPDX-License-Identifier: GPL-2.0-only
/*
 * colormap: names to colors, read from and written to a small JSON file.
 * See include/schedplot/draw/colormap.h for the format.
 *
 * The reader is a recursive descent over JSON's grammar that keeps only
 * the members of "colors"; every loop advances over the input, nesting is
 * bounded, and the input is a string read whole, so bad files end in an
 * error with their offset, never a hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/draw/colormap.h"

#define MAX_DEPTH 16
#define MAX_FILE (64u << 20)

int sp_color_map_add(struct sp_color_map *map, const char *name, const struct sp_rgb *color)
{
	char *copy;

	if (sp_color_map_find(map, name))
		return 0;
	copy = strdup(name);
	if (!copy || sp_grow_array(&map->v, &map->alloc, map->nr + 1, sizeof(*map->v))) {
		free(copy);
		return -ENOMEM;
	}
	map->v[map->nr].name = copy;
	map->v[map->nr].color = *color;
	map->nr++;
	map->sorted = false;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct sp_color_map_entry *)a)->name,
		      ((const struct sp_color_map_entry *)b)->name);
}

const struct sp_rgb *sp_color_map_find(struct sp_color_map *map, const char *name)
{
	struct sp_color_map_entry key = { (char *)name, { 0, 0, 0 } }, *hit;

	if (!map->nr)
		return NULL;
	if (!map->sorted) {
		/* stable for equal names: the first added sorts first and is kept */
		size_t i, j;

		qsort(map->v, map->nr, sizeof(*map->v), cmp_entry);
		for (i = j = 1; i < map->nr; i++) {
			if (!strcmp(map->v[i].name, map->v[j - 1].name))
				free(map->v[i].name);
			else
				map->v[j++] = map->v[i];
		}
		map->nr = j;
		map->sorted = true;
	}
	hit = bsearch(&key, map->v, map->nr, sizeof(*map->v), cmp_entry);
	return hit ? &hit->color : NULL;
}

void sp_color_map_release(struct sp_color_map *map)
{
	for (size_t i = 0; i < map->nr; i++)
		free(map->v[i].name);
	free(map->v);
	memset(map, 0, sizeof(*map));
}

/* ---- reading ---- */

struct reader {
	const char *s, *end, *start;
	struct sp_color_map *map;
	struct sp_error *err;
	int version;			/* schedplot_colors, 0 when absent */
};

static int fail(struct reader *r, const char *what)
{
	return sp_error_set(r->err, -EINVAL, (long long)(r->s - r->start),
			    "not a color file: %s (write one with --colors-out)", what);
}

static void skip_space(struct reader *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string at r->s into a new buffer (UTF-8; \u escapes of the BMP decoded). */
static int read_string(struct reader *r, char **out)
{
	size_t len = 0, alloc = 0;
	char *buf = NULL;

	if (r->s >= r->end || *r->s != '"')
		return fail(r, "a string expected");
	r->s++;
	for (;;) {
		unsigned int c;
		char tmp[4];
		int n = 1;

		if (r->s >= r->end) {
			free(buf);
			return fail(r, "a string does not end");
		}
		c = (unsigned char)*r->s++;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(buf);
			return fail(r, "a control character in a string");
		}
		tmp[0] = (char)c;
		if (c == '\\') {
			if (r->s >= r->end) {
				free(buf);
				return fail(r, "a string does not end");
			}
			c = (unsigned char)*r->s++;
			switch (c) {
			case 'n': tmp[0] = '\n'; break;
			case 't': tmp[0] = '\t'; break;
			case 'r': tmp[0] = '\r'; break;
			case 'b': tmp[0] = '\b'; break;
			case 'f': tmp[0] = '\f'; break;
			case '"': case '\\': case '/': tmp[0] = (char)c; break;
			case 'u': {
				unsigned int u = 0;

				for (int i = 0; i < 4; i++) {
					int d = r->s < r->end ? hex_digit(*r->s) : -1;

					if (d < 0) {
						free(buf);
						return fail(r, "a bad \\u escape");
					}
					u = u * 16 + (unsigned int)d;
					r->s++;
				}
				if (u < 0x80) {
					tmp[0] = (char)u;
				} else if (u < 0x800) {
					tmp[0] = (char)(0xc0 | u >> 6);
					tmp[1] = (char)(0x80 | (u & 0x3f));
					n = 2;
				} else {
					tmp[0] = (char)(0xe0 | u >> 12);
					tmp[1] = (char)(0x80 | ((u >> 6) & 0x3f));
					tmp[2] = (char)(0x80 | (u & 0x3f));
					n = 3;
				}
				break;
			}
			default:
				free(buf);
				return fail(r, "a bad escape in a string");
			}
		}
		if (sp_grow_array(&buf, &alloc, len + (size_t)n + 1, 1)) {
			free(buf);
			return -ENOMEM;
		}
		memcpy(buf + len, tmp, (size_t)n);
		len += (size_t)n;
	}
	if (sp_grow_array(&buf, &alloc, len + 1, 1)) {
		free(buf);
		return -ENOMEM;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int parse_color(const char *s, struct sp_rgb *c)
{
	int d[6];

	if (strlen(s) != 7 || s[0] != '#')
		return -1;
	for (int i = 0; i < 6; i++)
		if ((d[i] = hex_digit(s[i + 1])) < 0)
			return -1;
	c->r = (d[0] * 16 + d[1]) / 255.0;
	c->g = (d[2] * 16 + d[3]) / 255.0;
	c->b = (d[4] * 16 + d[5]) / 255.0;
	return 0;
}

/* After an item of an object or array: 0 after a ',', 1 when @close ends it, or the error. */
static int next_item(struct reader *r, char close)
{
	skip_space(r);
	if (r->s < r->end && *r->s == ',') {
		r->s++;
		return 0;
	}
	if (r->s < r->end && *r->s == close) {
		r->s++;
		return 1;
	}
	return fail(r, close == '}' ? "',' or '}' expected" : "',' or ']' expected");
}

static int read_value(struct reader *r, int depth, const char *member);

/* Steps into the object or array at r->s; true when @close ends it at once (stepped past). */
static bool enter_empty(struct reader *r, char close)
{
	r->s++;
	skip_space(r);
	if (r->s < r->end && *r->s == close) {
		r->s++;
		return true;
	}
	return false;
}

/* An object's members; at the top level "colors" and "schedplot_colors" are kept. */
static int read_object(struct reader *r, int depth, bool top, bool colors)
{
	if (enter_empty(r, '}'))
		return 0;
	for (;;) {
		char *name;
		int ret;

		skip_space(r);
		ret = read_string(r, &name);
		if (ret)
			return ret;
		skip_space(r);
		if (r->s >= r->end || *r->s != ':') {
			free(name);
			return fail(r, "':' expected after a member's name");
		}
		r->s++;
		skip_space(r);
		if (colors) {
			char *value;
			struct sp_rgb c;
			const char *at = r->s;

			ret = read_string(r, &value);
			if (ret) {
				free(name);
				return ret;
			}
			if (parse_color(value, &c)) {
				r->s = at;
				free(value);
				free(name);
				return fail(r, "a color must be \"#rrggbb\"");
			}
			free(value);
			ret = sp_color_map_add(r->map, name, &c);
		} else {
			ret = read_value(r, depth + 1, top ? name : NULL);
		}
		free(name);
		if (!ret)
			ret = next_item(r, '}');
		if (ret)
			return ret < 0 ? ret : 0;
	}
}

static int read_array(struct reader *r, int depth)
{
	if (enter_empty(r, ']'))
		return 0;
	for (;;) {
		int ret = read_value(r, depth + 1, NULL);

		if (!ret)
			ret = next_item(r, ']');
		if (ret)
			return ret < 0 ? ret : 0;
	}
}

/* A value; @member names it when it is a member of the top-level object (depth 0). */
static int read_value(struct reader *r, int depth, const char *member)
{
	static const char *const words[] = { "true", "false", "null" };

	if (depth > MAX_DEPTH)
		return fail(r, "nested too deep");
	skip_space(r);
	if (r->s >= r->end)
		return fail(r, "the file ends early");
	if (*r->s == '{') {
		if (member && !strcmp(member, "colors"))
			return read_object(r, depth, false, true);
		return read_object(r, depth, depth == 0, false);
	}
	if (*r->s == '[')
		return read_array(r, depth);
	if (*r->s == '"') {
		char *s;
		int ret = read_string(r, &s);

		if (!ret && member && !strcmp(member, "color_by"))
			snprintf(r->map->color_by, sizeof(r->map->color_by), "%s", s);
		if (!ret)
			free(s);
		return ret;
	}
	if (*r->s == '-' || (*r->s >= '0' && *r->s <= '9')) {
		char *endp;
		double v = strtod(r->s, &endp);

		if (endp == r->s || endp > r->end)
			return fail(r, "a bad number");
		if (member && !strcmp(member, "schedplot_colors"))
			r->version = v >= 1 && v <= 1000 ? (int)v : -1;
		r->s = endp;
		return 0;
	}
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(r->end - r->s) >= n && !memcmp(r->s, words[i], n)) {
			r->s += n;
			return 0;
		}
	}
	return fail(r, "a JSON value expected");
}

int sp_color_map_load(struct sp_color_map *map, const char *path, struct sp_error *err)
{
	struct reader r = { .map = map, .err = err };
	size_t len = 0, alloc = 0, n;
	char *buf = NULL;
	FILE *fp;
	int ret;

	memset(map, 0, sizeof(*map));
	fp = fopen(path, "r");
	if (!fp)
		return sp_error_set(err, -errno, -1, "cannot read the colors: %s", strerror(errno));
	do {
		if (sp_grow_array(&buf, &alloc, len + 65536 + 1, 1)) {
			fclose(fp);
			free(buf);
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
		}
		n = fread(buf + len, 1, 65536, fp);
		len += n;
	} while (n && len <= MAX_FILE);
	ret = ferror(fp) ? -EIO : 0;
	fclose(fp);
	if (ret || len > MAX_FILE) {
		free(buf);
		return sp_error_set(err, ret ? ret : -EFBIG, -1, "cannot read the colors: %s",
				    ret ? strerror(EIO) : "larger than 64 MiB");
	}
	buf[len] = '\0';
	r.s = r.start = buf;
	r.end = buf + len;
	skip_space(&r);
	if (r.s >= r.end || *r.s != '{')
		ret = fail(&r, "a JSON object expected");
	else
		ret = read_value(&r, 0, NULL);
	if (!ret) {
		skip_space(&r);
		if (r.s != r.end)
			ret = fail(&r, "text after the object");
		else if (r.version != 1)
			ret = fail(&r, r.version ? "an unknown \"schedplot_colors\" version"
					      : "no \"schedplot_colors\": 1 member");
	}
	if (ret == -ENOMEM)
		sp_error_set(err, ret, -1, "out of memory");
	free(buf);
	return ret;
}

/* ---- writing ---- */

static void put_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static unsigned int byte_of(double v)
{
	return (unsigned int)lround(fmin(1, fmax(0, v)) * 255);
}

int sp_color_map_save(struct sp_color_map *map, const char *color_by, const char *path,
		      struct sp_error *err)
{
	struct sp_tempfile tf;
	FILE *fp;
	int ret;

	ret = sp_tempfile_open(&tf, path, O_WRONLY, err);
	if (ret)
		return ret;
	fp = sp_tempfile_fdopen(&tf, "w");
	if (!fp) {
		ret = -errno;
		sp_tempfile_discard(&tf);
		return sp_error_set(err, ret, -1, "cannot write '%s': %s", path, strerror(-ret));
	}
	/* sorted by name, so the same assignment gives the same bytes */
	sp_color_map_find(map, "");
	fprintf(fp, "{\n  \"schedplot_colors\": 1,\n  \"color_by\": ");
	put_string(fp, color_by);
	fprintf(fp, ",\n  \"colors\": {");
	for (size_t i = 0; i < map->nr; i++) {
		const struct sp_rgb *c = &map->v[i].color;

		fprintf(fp, "%s\n    ", i ? "," : "");
		put_string(fp, map->v[i].name);
		fprintf(fp, ": \"#%02x%02x%02x\"", byte_of(c->r), byte_of(c->g), byte_of(c->b));
	}
	fprintf(fp, "%s}\n}\n", map->nr ? "\n  " : "");
	return sp_tempfile_commit(&tf, err);
}
