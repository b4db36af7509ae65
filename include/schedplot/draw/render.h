/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RENDER_H
#define SP_RENDER_H

/*
 * Drawing shared by every view: the theme (fonts, line widths, colors),
 * text, the layout of title/plot/legend, axes and ticks, legends and
 * palettes.  Nothing here knows about a particular view, and everything is
 * deterministic: the same arguments draw the same thing.
 *
 * Functions that only compute (layout, ticks, palettes, sanitizing) take no
 * cairo context and can be unit-tested alone; the drawing ones take the
 * cairo_t of an sp_output.  User units are pixels for PNG and points for
 * PDF/SVG; the theme's sizes are in the same units.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;

struct sp_rgb {
	double r, g, b;		/* 0..1 */
};

/* The one theme table: every size in user units. */
struct sp_theme {
	const char *font_family;
	double font_size;		/* tick labels, legend, row labels */
	double title_font_size;		/* the image title */
	double axis_line_width;		/* plot frame and ticks */
	double grid_line_width;
	double data_line_width;		/* step lines and the like */
	double tick_len;
	double pad;			/* gap between text and lines */
	double margin;			/* around the whole image */
	double swatch;			/* legend color square */
	struct sp_rgb background;
	struct sp_rgb axis;
	struct sp_rgb grid;
	struct sp_rgb text;
	struct sp_rgb idle;		/* white: the core ran nothing */
	struct sp_rgb no_data;		/* grey: nothing is known */
	struct sp_rgb other;		/* black: tasks not singled out */
};

#define SP_THEME_FONT_FAMILY	"DejaVu Sans"
#define SP_THEME_FONT_SIZE	11.0
#define SP_THEME_MIN_FONT_SIZE	4.0
#define SP_THEME_MAX_FONT_SIZE	72.0

/**
 * sp_theme_init - fill in the default theme
 * @theme: the theme
 * @font_size: base font size in user units (e.g. from --font-size), or 0 for
 *	       SP_THEME_FONT_SIZE; sizes outside SP_THEME_MIN/MAX_FONT_SIZE are
 *	       clamped.  Paddings, tick lengths and line widths scale with it.
 */
void sp_theme_init(struct sp_theme *theme, double font_size);

/**
 * sp_render_set_color - make @c the cairo source color
 * @cr: cairo context
 * @c: the color
 */
void sp_render_set_color(struct _cairo *cr, const struct sp_rgb *c);

/* ---- text ---------------------------------------------------------------- */

/* Horizontal and vertical anchor of a text, or-ed together. */
enum sp_align {
	SP_ALIGN_LEFT = 0,
	SP_ALIGN_CENTER = 1,
	SP_ALIGN_RIGHT = 2,
	SP_ALIGN_BASELINE = 0,		/* y is the baseline */
	SP_ALIGN_TOP = 4,		/* y is the top of the font's ascent */
	SP_ALIGN_MIDDLE = 8,		/* y is the middle of ascent + descent */
	SP_ALIGN_BOTTOM = 12,		/* y is the bottom of the font's descent */
};
#define SP_ALIGN_H_MASK 3
#define SP_ALIGN_V_MASK 12

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

/**
 * sp_render_font - select the theme's font at a size
 * @cr: cairo context
 * @theme: the theme
 * @size: font size in user units (e.g. @theme->font_size)
 * @bold: bold weight
 */
void sp_render_font(struct _cairo *cr, const struct sp_theme *theme, double size, bool bold);

/**
 * sp_text_width - advance width of a text in the current font
 * @cr: cairo context
 * @text: any string; sanitized as for drawing
 *
 * Return: the width in user units.
 */
double sp_text_width(struct _cairo *cr, const char *text);

/**
 * sp_text_height - line height (ascent + descent) of the current font
 * @cr: cairo context
 *
 * Return: the height in user units.
 */
double sp_text_height(struct _cairo *cr);

/**
 * sp_text_draw - draw a line of text in the current font and source color
 * @cr: cairo context
 * @x: anchor x
 * @y: anchor y
 * @align: SP_ALIGN_* horizontal | vertical
 * @text: any string; sanitized before it reaches cairo
 */
void sp_text_draw(struct _cairo *cr, double x, double y, unsigned int align, const char *text);

/**
 * sp_text_draw_vertical - draw text rotated to read bottom to top
 * @cr: cairo context
 * @x: anchor x
 * @y: anchor y
 * @align: as for sp_text_draw(), in the text's own (rotated) frame
 * @text: any string
 */
void sp_text_draw_vertical(struct _cairo *cr, double x, double y, unsigned int align,
			   const char *text);

/**
 * sp_text_fit - shorten a text to a width, ending it with an ellipsis
 * @cr: cairo context with the font selected
 * @dst: output buffer
 * @size: its size
 * @text: any string (sanitized into @dst)
 * @max_w: the width available
 *
 * Return: true when the text fits whole, false when it was shortened (an
 * empty @dst when not even the ellipsis fits).
 */
bool sp_text_fit(struct _cairo *cr, char *dst, size_t size, const char *text, double max_w);

/* ---- layout -------------------------------------------------------------- */

struct sp_rect {
	double x, y, w, h;
};

enum sp_legend_place {
	SP_LEGEND_NONE,
	SP_LEGEND_RIGHT,
	SP_LEGEND_BELOW,
};

/* What the layout has to make room for, all in user units. */
struct sp_layout_spec {
	double width, height;		/* the surface */
	double margin;			/* around everything */
	double title_h;			/* 0: no title */
	double left_w;			/* y tick labels + y-axis title */
	double bottom_h;		/* x ticks, labels and x-axis title */
	double right_w;			/* room for the last x label's overhang */
	double top_h;			/* room above the plot (top y label) */
	enum sp_legend_place legend;
	double legend_w;		/* wanted legend size: width for RIGHT, */
	double legend_h;		/* height for BELOW */
	double gap;			/* between plot area and legend/title */
};

struct sp_layout {
	struct sp_rect title;		/* w == 0 when there is none */
	struct sp_rect plot;		/* the data area, inside the axes */
	struct sp_rect legend;		/* w == 0 when there is none */
};

/* Smallest plot side sp_layout_compute() accepts. */
#define SP_LAYOUT_MIN_PLOT 16.0

/**
 * sp_layout_spec_init - a spec with the theme's margins and axis sizes
 * @spec: filled in
 * @theme: the theme
 * @width: surface width
 * @height: surface height
 *
 * Sets margin, gap, bottom_h (ticks, one label line and an axis title),
 * right_w and top_h from the font size; left_w, title_h and the legend are
 * left 0/none for the caller.
 */
void sp_layout_spec_init(struct sp_layout_spec *spec, const struct sp_theme *theme,
			 double width, double height);

/**
 * sp_layout_compute - place the title, plot and legend
 * @lay: result
 * @spec: what to make room for
 *
 * The title spans the top; a RIGHT legend takes a column right of the plot
 * (at most 40% of the width), a BELOW legend a band under the x axis (at
 * most 40% of the height), so a legend never covers data.
 *
 * Return: 0, or -ERANGE when the plot would be smaller than
 * SP_LAYOUT_MIN_PLOT on a side (the image is too small for its labels).
 */
int sp_layout_compute(struct sp_layout *lay, const struct sp_layout_spec *spec);

/* ---- axes ---------------------------------------------------------------- */

#define SP_MAX_TICKS 32

struct sp_tick {
	uint64_t ts_ns;			/* time ticks: absolute timestamp */
	long long value;		/* integer ticks: the value */
	char label[32];
};

struct sp_time_ticks {
	unsigned int nr_ticks;
	struct sp_tick ticks[SP_MAX_TICKS];
	uint64_t step_ns;		/* 1, 2 or 5 x 10^k */
	const char *unit;		/* "s", "ms", "µs" or "ns" */
	uint64_t base_ns;		/* labels count from here (relative to origin) */
	char title[64];			/* "time (ms)" or "time (ms) after 12.5 s" */
};

/**
 * sp_time_ticks_compute - round time ticks for a window
 * @t: result
 * @t0_ns: window start (absolute timestamp)
 * @t1_ns: window end, > @t0_ns
 * @origin_ns: labels show time since this (the trace start), or 0 for
 *	       absolute timestamps; must be <= @t0_ns
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 *
 * The step is the smallest 1-2-5 x 10^k ns giving at most @max_ticks ticks
 * on multiples of the step (counted from @origin_ns) inside [t0, t1].  The
 * unit is the largest of s, ms, µs, ns not longer than the window; labels
 * carry just the digits the step needs ("0", "0.5", "1.0").  When labels
 * would grow long (a narrow window far from the origin) they count from
 * a round @base_ns instead, and the title says from where.
 *
 * Return: 0, or -EINVAL for an empty window or bad arguments.
 */
int sp_time_ticks_compute(struct sp_time_ticks *t, uint64_t t0_ns, uint64_t t1_ns,
			  uint64_t origin_ns, unsigned int max_ticks);

/**
 * sp_time_ticks_fit - time ticks whose labels fit a plot width
 * @t: result
 * @cr: cairo context (font as the labels will be drawn)
 * @plot_w: plot width
 * @t0_ns: as for sp_time_ticks_compute()
 * @t1_ns: ditto
 * @origin_ns: ditto
 *
 * Return: as sp_time_ticks_compute().
 */
int sp_time_ticks_fit(struct sp_time_ticks *t, struct _cairo *cr, double plot_w,
		      uint64_t t0_ns, uint64_t t1_ns, uint64_t origin_ns);

/**
 * sp_axis_time_draw - draw time ticks, labels and title under a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 * @t: ticks from sp_time_ticks_compute()
 * @t0_ns: the window drawn across @plot
 * @t1_ns: ditto
 * @grid: also draw vertical grid lines through the plot
 */
void sp_axis_time_draw(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, const struct sp_time_ticks *t,
		       uint64_t t0_ns, uint64_t t1_ns, bool grid);

struct sp_int_ticks {
	unsigned int nr_ticks;
	struct sp_tick ticks[SP_MAX_TICKS];
	long long step;			/* 1, 2 or 5 x 10^k */
	long long top;			/* axis maximum: a multiple of step >= max */
};

/**
 * sp_int_ticks_compute - integer ticks from 0 to a maximum
 * @t: result
 * @max: the largest value to show (< 0 is taken as 0; 0 gives an axis to 1)
 * @max_ticks: at most this many ticks (2..SP_MAX_TICKS)
 *
 * Return: 0, or -EINVAL for bad arguments.
 */
int sp_int_ticks_compute(struct sp_int_ticks *t, long long max, unsigned int max_ticks);

/**
 * sp_axis_int_draw - draw an integer y axis left of a plot (0 at the bottom)
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle; @t->top is at its top edge
 * @t: ticks from sp_int_ticks_compute()
 * @title: y-axis title drawn vertically, or NULL
 * @grid: also draw horizontal grid lines through the plot
 */
void sp_axis_int_draw(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_rect *plot, const struct sp_int_ticks *t,
		      const char *title, bool grid);

/**
 * sp_category_label_step - label every k-th row so labels do not overlap
 * @nr_rows: rows in the axis
 * @row_h: height of one row
 * @label_h: height a label needs (text height plus a little air)
 *
 * Return: the smallest k in 1, 2, 4, 8, ... with k * @row_h >= @label_h
 * (at least 1; @nr_rows when even one label per axis does not fit in k
 * rows, so only row 0 is labelled).
 */
unsigned int sp_category_label_step(size_t nr_rows, double row_h, double label_h);

/**
 * sp_axis_rows_draw - label the rows of a plot (row 0 at the top)
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle, split into @nr_rows equal rows
 * @labels: one label per row
 * @nr_rows: number of rows
 * @title: y-axis title drawn vertically, or NULL
 *
 * Every k-th row is labelled (sp_category_label_step()), with a short
 * tick, starting at row 0.
 */
void sp_axis_rows_draw(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, const char *const *labels, size_t nr_rows,
		       const char *title);

/**
 * sp_axis_left_tick - a tick on the left edge of the plot and its label
 * @cr: the context
 * @theme: sizes and colors
 * @plot: the plot area
 * @y: where the tick goes
 * @label: right-aligned before the tick, centred on @y
 */
void sp_axis_left_tick(struct _cairo *cr, const struct sp_theme *theme,
		       const struct sp_rect *plot, double y, const char *label);

/**
 * sp_axis_frame_draw - draw the frame around a plot
 * @cr: cairo context
 * @theme: the theme
 * @plot: the plot rectangle
 */
void sp_axis_frame_draw(struct _cairo *cr, const struct sp_theme *theme,
			const struct sp_rect *plot);

/**
 * sp_axis_label_width - widest of a set of labels in the theme font
 * @cr: cairo context
 * @theme: the theme
 * @labels: the labels (NULL entries are skipped)
 * @nr: how many
 *
 * Return: the width, to size sp_layout_spec.left_w.
 */
double sp_axis_label_width(struct _cairo *cr, const struct sp_theme *theme,
			   const char *const *labels, size_t nr);

/**
 * sp_axis_left_width - room a y axis needs left of the plot
 * @cr: cairo context
 * @theme: the theme
 * @label_w: the widest tick label (sp_axis_label_width())
 * @has_title: a vertical axis title is drawn too
 *
 * Return: the width, for sp_layout_spec.left_w.
 */
double sp_axis_left_width(struct _cairo *cr, const struct sp_theme *theme, double label_w,
			  bool has_title);

/* ---- legend -------------------------------------------------------------- */

struct sp_legend_entry {
	struct sp_rgb color;
	const char *label;
};

struct sp_legend {
	const struct sp_legend_entry *entries;
	size_t nr_entries;
	size_t nr_more;			/* items not in @entries: "+N more" */
	const char *title;		/* NULL: none */
};

/* How a legend's entries are arranged in its rectangle. */
struct sp_legend_grid {
	size_t nr_cols;
	size_t nr_rows;
	size_t nr_shown;		/* entries drawn; the rest join "+N more" */
	bool more_line;			/* the last line says "+N more" */
	double col_w;
	double row_h;
};

/* Longest label width a legend column is given before labels are cut. */
#define SP_LEGEND_MAX_LABEL_EM 14.0

/**
 * sp_legend_grid_compute - arrange legend entries in columns
 * @g: result
 * @theme: the theme
 * @nr_entries: entries to place
 * @nr_more: entries beyond them, only counted
 * @label_w: the widest label (capped at SP_LEGEND_MAX_LABEL_EM font sizes)
 * @area: the legend rectangle (after its title, if any)
 *
 * Columns are filled top to bottom.  When not all entries fit, the last
 * line becomes "+N more" for what was left out.
 */
void sp_legend_grid_compute(struct sp_legend_grid *g, const struct sp_theme *theme,
			    size_t nr_entries, size_t nr_more, double label_w,
			    const struct sp_rect *area);

/**
 * sp_legend_size - the size a legend would like
 * @cr: cairo context
 * @theme: the theme
 * @legend: the legend
 * @place: SP_LEGEND_RIGHT: @avail is the height and the width is returned;
 *	   SP_LEGEND_BELOW: @avail is the width and the height is returned
 * @avail: the other dimension
 *
 * Return: the wanted width (RIGHT) or height (BELOW); 0 for no entries.
 */
double sp_legend_size(struct _cairo *cr, const struct sp_theme *theme,
		      const struct sp_legend *legend, enum sp_legend_place place, double avail);

/**
 * sp_legend_draw - draw a legend in a rectangle
 * @cr: cairo context
 * @theme: the theme
 * @legend: the legend
 * @area: where (usually sp_layout.legend)
 *
 * Labels that do not fit their column end in an ellipsis.
 */
void sp_legend_draw(struct _cairo *cr, const struct sp_theme *theme,
		    const struct sp_legend *legend, const struct sp_rect *area);

/* ---- palettes ------------------------------------------------------------ */

/*
 * "default": Okabe-Ito's color-blind safe colors (without black), then an
 * endless deterministic sequence stepped by the golden angle in OKLCH hue
 * over three lightness levels.  "colorblind": Okabe-Ito, then colors on
 * the blue-yellow axis and in lightness, which most color vision
 * deficiencies keep apart.  "grey": nine greys for print, in an order that
 * keeps neighbours apart.  No palette yields near-white (idle) or
 * near-black ("other").
 */
struct sp_palette;

/**
 * sp_palette_by_name - look up a palette
 * @name: "default", "colorblind" or "grey" (also "gray"); NULL for default
 *
 * Return: the palette, or NULL for an unknown name.
 */
const struct sp_palette *sp_palette_by_name(const char *name);

/**
 * sp_palette_names - the palette names, for help texts
 *
 * Return: "default, colorblind, grey".
 */
const char *sp_palette_names(void);

/**
 * sp_palette_color - the color of an item
 * @palette: the palette (NULL for default)
 * @index: any index; every index has a color
 * @r: red 0..1
 * @g: green 0..1
 * @b: blue 0..1
 */
void sp_palette_color(const struct sp_palette *palette, size_t index, double *r, double *g,
		      double *b);

/**
 * sp_color_to_oklab - convert an sRGB color to OKLab
 * @c: the color
 * @lab: L (0 black .. 1 white), a, b; Euclidean distance between two is a
 *	 perceptual difference (about 0.02 is just noticeable)
 */
void sp_color_to_oklab(const struct sp_rgb *c, double lab[3]);

/* Colors sp_string_color_index() picks from: the palette's first entries. */
#define SP_STRING_COLORS 64

/**
 * sp_string_color_index - a palette index that depends only on a string
 * @s: e.g. a command name
 *
 * A fixed hash (FNV-1a) of @s picks one of the first SP_STRING_COLORS
 * palette entries, so a command gets the same color in every trace and on
 * every machine.  Different strings may share an index: callers that draw
 * several resolve that (datagraph.c).
 *
 * Return: an index below SP_STRING_COLORS for sp_palette_color().
 */
size_t sp_string_color_index(const char *s);

#endif /* SP_RENDER_H */
