/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEW_EXPLAIN_H
#define SP_VIEW_EXPLAIN_H

/*
 * The figure of one scheduler decision (analysis/explain.h): only the
 * CPUs involved, one row each, labelled with their part in it ("ran
 * before", "waker", "placed", "ran next", "idle"); the window of its
 * story on a time axis counted from the wakeup; the rows drawn by the
 * datagraph (views/datagraph.h) with the task in its color and every
 * other task muted; over them the wakeup's arrow from the waker's row, the
 * other tasks' runs that made the previous CPU look busy (marked and
 * named), and the wait that followed in red, named by what it waited
 * behind; under the axis the same facts in words.  The words are made by
 * sp_explain_words(), so that the text output says exactly what the
 * figure says.
 *
 * Several decisions: a grid of figures on one image, or one per page of
 * a PDF.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/draw/output.h"

struct _cairo;
struct sp_explain_case;
struct sp_model;
struct sp_palette;
struct sp_theme;

#define SP_EXPLAIN_NR_LINES 6

/* A decision in words. */
struct sp_explain_words {
	char title[320];		/* "hpc-3 (1003) at 1.234567 s: ..." */
	char lines[SP_EXPLAIN_NR_LINES][320];	/* the facts, one sentence each */
	int nr_lines;
	char wait_label[320];		/* on the wait: "waited 2.10 ms behind hpc-5" */
	char wait_short[64];		/* where that does not fit: "waited 2.10 ms" */
	char other_label[96];		/* on the previous CPU's last other run: "kworker/3:1 12 µs" */
	char other_short[64];		/* where that does not fit: "kworker/3:1" */
};

/**
 * sp_explain_words - a decision in words
 * @c: a finished case
 * @m: the model it came from (names)
 * @unicode: a true minus sign (U+2212) before times before the wakeup,
 *	     else '-'
 * @out: filled in
 *
 * Times are said from the wakeup ("at -0.40 ms", "+2.10 ms"), the
 * wakeup's own in the trace's seconds.
 */
void sp_explain_words(const struct sp_explain_case *c, const struct sp_model *m, bool unicode,
		      struct sp_explain_words *out);

struct sp_explain_figure {
	const struct sp_theme *theme;
	const struct sp_palette *palette;	/* NULL: default */
	const struct sp_model *model;
	enum sp_format format;
	double width;			/* of the image: px for PNG, pt for PDF/SVG */
	unsigned int columns;		/* of the grid (0: chosen from the width) */
	bool pages;			/* one figure per page (PDF), not a grid */
	bool words;			/* the facts in words under each figure */
};

/**
 * sp_explain_figure_height - the height of the image (a page, with pages)
 * @fig: the figure settings
 * @cases: the decisions, worst first
 * @nr: how many (>= 1)
 *
 * Return: the height, or a negative value when the width leaves no room.
 */
double sp_explain_figure_height(const struct sp_explain_figure *fig,
				const struct sp_explain_case *cases, size_t nr);

/**
 * sp_explain_figure_draw - draw the decisions
 * @cr: a context on a surface of @fig->width x sp_explain_figure_height()
 * @fig: the figure settings
 * @cases: the decisions, worst first
 * @nr: how many
 *
 * With @fig->pages, each decision on a page of its own (cairo_show_page()
 * between them).  Return: 0, or -ENOMEM.
 */
int sp_explain_figure_draw(struct _cairo *cr, const struct sp_explain_figure *fig,
			   const struct sp_explain_case *cases, size_t nr);

#endif /* SP_VIEW_EXPLAIN_H */
